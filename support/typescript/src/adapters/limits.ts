// codegen: package; requires ToolResult, ContentPart

// What each target takes at most (a port of Python's `toolnexus/adapters/_limits.py`): the size,
// sides and number of parts in one tool result, and which of `output` and `structuredContent` goes
// to it. The numbers are `idl/adapters/limits.json`'s (docs/guides/provider-limits.md names the
// page each comes from), which tests/typescript/adapter_limits.test.ts checks this table against.
// A part over a limit is not sent, to be refused with the whole request: a note naming the part,
// its size and the limit goes in its place.

import { writeJson, type JsonValue } from "../json.js";
import type { ContentPart, ToolResult } from "../types.js";
import { decodeBase64, decodedSize, pyRepr } from "./common.js";

/** Which of a result's texts a target gets when the result has `structuredContent`: `"text"`, its
 * `output`; `"structured"`, the structured content (a JSON value where the target takes one, else
 * its JSON text); `"both"` (MCP only: a text block and `structuredContent`). */
export type Structured = "text" | "structured" | "both";

/** The most a target takes of one kind of part in a tool result; absent: not limited (the provider
 * publishes no number). `bytes` counts the base64 characters of the part's `data` (what the request
 * carries), `pixels` an image's longer side (read from a PNG, JPEG, GIF or WebP header), `count` the
 * parts of the kind in one result. A part by URL is not measured: the provider fetches it. */
export interface PartLimit {
  readonly bytes?: number;
  readonly pixels?: number;
  readonly count?: number;
}

/** The part limits by kind of part. */
export type PartLimits = { readonly image?: PartLimit; readonly audio?: PartLimit; readonly file?: PartLimit };

/** A target's defaults: which text it gets (`structured`), its limits per kind of part, and what it
 * documents for the text of a result (`text`: `chars`, `tokens` or `bytes`; the cut is the loop's). */
export interface ProviderLimits {
  readonly structured: Structured;
  readonly parts: PartLimits;
  readonly text: { readonly chars?: number; readonly tokens?: number; readonly bytes?: number };
}

/** The options every result adapter takes; each defaults to the target's row of `providerLimits`. */
export interface ResultOptions {
  /** Which of `output` and `structuredContent` the target gets. */
  readonly structured?: Structured;
  /** The most the target takes of each kind of part (a kind left out is not limited). */
  readonly partLimits?: PartLimits;
}

/** The targets, by the names the adapter vectors use. */
export type Target = "openai_chat" | "openai_responses" | "anthropic" | "gemini" | "mcp";

/** Each target's defaults (`idl/adapters/limits.json`). */
export const providerLimits: { readonly [target in Target]: ProviderLimits } = {
  openai_chat: { structured: "text", parts: { image: { bytes: 20_000_000, count: 500 }, audio: {}, file: {} }, text: {} },
  openai_responses: { structured: "text", parts: { image: { bytes: 20_000_000, count: 500 }, audio: {}, file: {} }, text: {} },
  anthropic: {
    structured: "text",
    parts: { image: { bytes: 5_242_880, pixels: 8000, count: 100 }, audio: {}, file: { bytes: 33_554_432 } },
    text: {},
  },
  gemini: {
    structured: "structured",
    parts: { image: { bytes: 100_000_000 }, audio: { bytes: 100_000_000 }, file: { bytes: 50_000_000 } },
    text: {},
  },
  mcp: { structured: "both", parts: { image: {}, audio: {}, file: {} }, text: { tokens: 25_000 } },
};

/** The choice an adapter makes: the host's, else the target's default. @throws TypeError for
 * another value, and for `"both"` anywhere but MCP (a model provider gets one text). */
export function structuredOf(target: Target, structured: Structured | undefined): Structured {
  if (structured === undefined) {
    return providerLimits[target].structured;
  }
  if (!["text", "structured", "both"].includes(structured) || (structured === "both" && target !== "mcp")) {
    const allowed = target === "mcp" ? "'text', 'structured' or 'both'" : "'text' or 'structured'";
    throw new TypeError(`structured must be ${allowed} for ${target}, got ${JSON.stringify(structured)}`);
  }
  return structured;
}

/** The text a model reads for `result` under `choice`: its `output`, or for `"structured"` (when it
 * has structured content) that content as compact JSON text. */
export function modelText(result: ToolResult, choice: Structured): string {
  return choice === "structured" && result.structuredContent !== undefined ? writeJson(result.structuredContent satisfies JsonValue) : result.output;
}

function uint(bytes: Uint8Array, at: number, size: number, little: boolean): number {
  let value = 0;
  for (let i = 0; i < size; i++) {
    value += (bytes[at + (little ? i : size - 1 - i)] ?? 0) * 2 ** (8 * i);
  }
  return value;
}

function ascii(bytes: Uint8Array, at: number, size: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + size));
}

/** The width and height in a PNG, GIF, WebP or JPEG header at the start of base64 `data`;
 * undefined for another format or a header that does not say. */
export function imageSize(data: string): [number, number] | undefined {
  let head: Uint8Array;
  try {
    head = decodeBase64(data.slice(0, 87_384)); // 64 KiB: a JPEG's frame header may follow EXIF
  } catch {
    return undefined;
  }
  if (ascii(head, 1, 3) === "PNG" && head[0] === 0x89 && ascii(head, 12, 4) === "IHDR" && head.length >= 24) {
    return [uint(head, 16, 4, false), uint(head, 20, 4, false)];
  }
  if ((ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") && head.length >= 10) {
    return [uint(head, 6, 2, true), uint(head, 8, 2, true)];
  }
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WEBP" && head.length >= 30) {
    return webpSize(head);
  }
  return head[0] === 0xff && head[1] === 0xd8 ? jpegSize(head) : undefined;
}

function webpSize(head: Uint8Array): [number, number] | undefined {
  const chunk = ascii(head, 12, 4);
  if (chunk === "VP8X") {
    return [1 + uint(head, 24, 3, true), 1 + uint(head, 27, 3, true)];
  }
  if (chunk === "VP8L" && head[20] === 0x2f) {
    const bits = uint(head, 21, 4, true);
    return [1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff)];
  }
  if (chunk === "VP8 " && head[23] === 0x9d && head[24] === 0x01 && head[25] === 0x2a) {
    return [uint(head, 26, 2, true) & 0x3fff, uint(head, 28, 2, true) & 0x3fff];
  }
  return undefined;
}

/** The size in a JPEG's first start-of-frame segment (SOF0 to SOF15 but DHT, JPG and DAC). */
function jpegSize(head: Uint8Array): [number, number] | undefined {
  let at = 2;
  while (at + 9 <= head.length && head[at] === 0xff) {
    const marker = head[at + 1] as number;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [uint(head, at + 7, 2, false), uint(head, at + 5, 2, false)];
    }
    at += 2 + uint(head, at + 2, 2, false);
  }
  return undefined;
}

/** The note that stands in for inline `part` when it is over `limit` (`seen`: the parts of its
 * kind this result already sent), else undefined. */
export function overLimit(part: ContentPart, limit: PartLimit, seen: number, target: string): string | undefined {
  const label = part.name ? ` ${pyRepr(part.name)}` : "";
  const what = `[${part.type}${label} (${part.mimeType || "no MIME type"}, ${decodedSize(part)} bytes) not included:`;
  const data = part.data ?? "";
  if (limit.count !== undefined && seen >= limit.count) {
    return `${what} over ${target}'s limit of ${limit.count} per tool result for ${part.type} parts]`;
  }
  if (limit.bytes !== undefined && data.length > limit.bytes) {
    return `${what} ${data.length} bytes as base64, over ${target}'s limit of ${limit.bytes} bytes for ${part.type} parts]`;
  }
  const size = limit.pixels !== undefined && part.type === "image" ? imageSize(data) : undefined;
  if (size !== undefined && limit.pixels !== undefined && Math.max(...size) > limit.pixels) {
    return `${what} ${size[0]}x${size[1]} pixels, over ${target}'s limit of ${limit.pixels} pixels a side]`;
  }
  return undefined;
}

/** Checks a result's inline parts, in order, against a target's limits, counting the parts of each
 * kind it lets through (a count limit is on the parts sent). */
export class PartGate {
  private readonly sent = new Map<string, number>();
  private readonly limits: PartLimits;

  constructor(
    private readonly target: string,
    key: Target,
    limits: PartLimits | undefined,
  ) {
    for (const [kind, limit] of Object.entries(limits ?? {})) {
      if (!["image", "audio", "file"].includes(kind)) {
        throw new TypeError(`partLimits maps 'image', 'audio' or 'file' to a limit, got ${JSON.stringify(kind)}`);
      }
      for (const [name, value] of Object.entries((limit ?? {}) as PartLimit)) {
        if (!["bytes", "pixels", "count"].includes(name) || !Number.isSafeInteger(value) || (value as number) < 1) {
          throw new TypeError(`partLimits.${kind}.${name} must be a positive integer, got ${JSON.stringify(value)}`);
        }
      }
    }
    this.limits = limits ?? providerLimits[key].parts;
  }

  /** The note to send in place of `part` when it is over a limit; undefined (and counted) to send it. */
  note(part: ContentPart): string | undefined {
    const limit = (this.limits as { [kind: string]: PartLimit | undefined })[part.type];
    if (limit === undefined) {
      return undefined;
    }
    const seen = this.sent.get(part.type) ?? 0;
    const note = overLimit(part, limit, seen, this.target);
    if (note === undefined) {
      this.sent.set(part.type, seen + 1);
    }
    return note;
  }
}
