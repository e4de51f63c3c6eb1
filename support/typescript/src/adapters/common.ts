// codegen: package; requires ToolResult, ToolCall, ToolCallResult, ToolSpec, ContentPart

// What the provider adapters share (a port of Python's `toolnexus/adapters/_common.py`): reading
// declarations, and describing the parts a target cannot take, in the same words.

import type { ContentPart, ToolSpec } from "../types.js";

/** What a declaration adapter takes: runtime tools (anything with `spec()`), or their wire declarations. */
export type ToolLike = ToolSpec | { spec(): ToolSpec };

const EXTENSIONS: { readonly [mime: string]: string } = {
  "application/pdf": ".pdf",
  "text/plain": ".txt",
  "text/csv": ".csv",
  "text/markdown": ".md",
  "application/json": ".json",
};

/** The declarations of `tools`, in order. */
export function specsOf(tools: Iterable<ToolLike>): ToolSpec[] {
  const out: ToolSpec[] = [];
  for (const t of tools) {
    if (typeof t === "object" && t !== null && "spec" in t && typeof t.spec === "function") {
      out.push(t.spec());
    } else if (typeof t === "object" && t !== null && typeof (t as ToolSpec).name === "string") {
      out.push(t as ToolSpec);
    } else {
      throw new TypeError(`expected a Tool or a ToolSpec, got ${t === null ? "null" : typeof t}`);
    }
  }
  return out;
}

/** Whether an adapter sends `part` to the model: not when its annotations name the user as its
 * only audience (MCP's `audience: ["user"]`). No audience, or one naming the assistant, sends it. */
export function forModel(part: ContentPart): boolean {
  const audience = part.annotations?.audience;
  return audience === undefined || audience.length === 0 || audience.includes("assistant");
}

/** How `part` carries its content: `text`, `inline` (base64 `data`), `url`, or `empty`. */
export function shape(part: ContentPart): "text" | "inline" | "url" | "empty" {
  if (part.type === "text") {
    return part.text ? "text" : "empty";
  }
  if (part.data) {
    return "inline";
  }
  return part.url ? "url" : "empty";
}

/** The part as a `data:` URL. */
export function dataUrl(part: ContentPart): string {
  return `data:${part.mimeType ?? ""};base64,${part.data ?? ""}`;
}

/** The size of the part's bytes, from the length of its (padded) base64 text. */
export function decodedSize(part: ContentPart): number {
  const data = part.data ?? "";
  return Math.floor(data.length / 4) * 3 - [...data.slice(-2)].filter((c) => c === "=").length;
}

/** The part's name, or `attachment-<index>` with an extension for common types. */
export function fileName(part: ContentPart, index: number): string {
  return part.name || `attachment-${index}${EXTENSIONS[part.mimeType ?? ""] ?? ""}`;
}

/** `text` as Python's `repr` writes a string (the adapters' texts quote names so). */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === "\\" || ch === quote) {
      out += "\\" + ch;
    } else if (ch === "\n" || ch === "\r" || ch === "\t") {
      out += ch === "\n" ? "\\n" : ch === "\r" ? "\\r" : "\\t";
    } else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad || (code >= 0xd800 && code <= 0xdfff)) {
      out += code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
    } else {
      out += ch;
    }
  }
  return out + quote;
}

/** The note that stands in for a part `target` cannot take in a tool result: what the part is,
 * and its URL when it has one, so the model can still name or fetch it. */
export function omitted(part: ContentPart, target: string): string {
  const label = part.name ? ` ${pyRepr(part.name)}` : "";
  const mime = part.mimeType || "no MIME type";
  const form = shape(part);
  const what = form === "url" ? `(${mime}) at ${part.url ?? ""}` : form === "inline" ? `(${mime}, ${decodedSize(part)} bytes)` : `(${mime}, no content)`;
  return `[${part.type}${label} ${what} not included: ${target} does not accept it in a tool result]`;
}

/** `output` followed by `notes`, one per line. */
export function textWith(output: string, notes: string[]): string {
  return output ? [output, ...notes].join("\n") : notes.join("\n");
}

interface Utf8 {
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label: "utf-8", options: { fatal: boolean; ignoreBOM: boolean }) => { decode(bytes: Uint8Array): string };
}

/** The standard `TextEncoder` and `TextDecoder` (Node.js, Deno, browsers), reached through
 * `globalThis` so that the package compiles without the DOM library or `@types/node`. */
export const utf8 = globalThis as unknown as Utf8;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** The bytes of standard, padded base64. @throws RangeError for text that is not that. */
export function decodeBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) {
    throw new RangeError("base64 text whose length is not a multiple of 4");
  }
  const body = text.replace(/={1,2}$/, "");
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let bits = 0;
  let count = 0;
  let at = 0;
  for (const ch of body) {
    const value = ALPHABET.indexOf(ch);
    if (value < 0) {
      throw new RangeError(`not base64: ${JSON.stringify(ch)}`);
    }
    bits = ((bits << 6) | value) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[at++] = (bits >> count) & 0xff;
    }
  }
  return out;
}
