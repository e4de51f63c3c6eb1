// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/typescript/src/suspend.ts (hand-written, copied verbatim).
// codegen: copy; requires Request, ToolResult

// Suspensions: a ToolResult whose metadata.pending is a Request. Pure helpers, no I/O.

import { parseRequest, toWireRequest } from "./codec.js";
import { WireError } from "./errors.js";
import { checkUrl, refused } from "./links.js";
import type { Request, ToolResult } from "./types.js";

/** The prompt `authRequired` uses when it is given none. */
export const AUTHORIZATION_PROMPT = "Authorization required to continue";

interface RandomSource {
  getRandomValues(array: Uint8Array): Uint8Array;
}

/** `pnd-` and 32 random lowercase hex digits (128 bits from Web Crypto). */
function pendingId(): string {
  const { crypto } = globalThis as unknown as { crypto: RandomSource };
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "pnd-";
  for (const b of bytes) {
    hex += b.toString(16).padStart(2, "0");
  }
  return hex;
}

/**
 * A suspension: the tool cannot finish until the host answers `request`.
 *
 * The result has `isError: true`, `output` = the prompt (then a newline and the url, when
 * there is a url), and `metadata.pending` = the request's wire form, with an id `pnd-…`
 * generated when the request's id is empty. `request` itself is not changed.
 *
 * A `url`, which a host shows a person as the link to follow, must be an `http` or `https` URL
 * without control or bidi formatting characters (`javascript:`, `file:`, `data:`... are refused).
 * An empty `url` is no url.
 *
 * @throws {@link WireError} when `request` does not satisfy the schema (such as an empty `kind`);
 *   Error with the code `bad-url` when its `url` is refused.
 */
export function pending(request: Request): ToolResult {
  if (typeof request.url === "string" && request.url !== "") {
    try {
      checkUrl(request.url);
    } catch (err) {
      throw refused("bad-url", `cannot ask ${JSON.stringify(request.kind)}: the request's url is refused: ${(err as Error).message}`);
    }
  }
  const wire = toWireRequest(request);
  if (wire["id"] === "") {
    wire["id"] = pendingId();
  }
  const output = request.url ? `${request.prompt}\n${request.url}` : request.prompt;
  return { output, isError: true, parts: [], metadata: { pending: wire } };
}

/**
 * A suspension asking the person to authorize at `url` (a request of kind `authorization`),
 * with `prompt`, or {@link AUTHORIZATION_PROMPT} when `prompt` is empty.
 *
 * @throws Error with the code `bad-url` when `url` is not an `http` or `https` URL (an empty one
 *   included).
 */
export function authRequired(url: string, prompt: string = ""): ToolResult {
  if (url === "") {
    throw refused("bad-url", "authRequired needs the http or https URL to authorize at, got \"\"");
  }
  return pending({ id: "", kind: "authorization", prompt: prompt === "" ? AUTHORIZATION_PROMPT : prompt, url });
}

/**
 * The request a suspension waits on: `metadata.pending` parsed as a `Request`, or `undefined`
 * when the result is no suspension (no `metadata.pending`, or one that is not a valid Request).
 */
export function pendingOf(result: ToolResult): Request | undefined {
  const metadata: unknown = result.metadata;
  if (typeof metadata !== "object" || metadata === null || !Object.hasOwn(metadata, "pending")) {
    return undefined;
  }
  try {
    return parseRequest((metadata as { pending: unknown }).pending, "$.metadata.pending");
  } catch (err) {
    if (err instanceof WireError) {
      return undefined;
    }
    throw err;
  }
}
