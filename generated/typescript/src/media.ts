// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/typescript/src/media.ts (hand-written, copied verbatim).
// codegen: copy; requires ContentPart

// Content parts from text, bytes, a file or a URL: `text`, `fromBytes`, `fromPath`, `fromUrl`.
// The same rules as the Python runtime's `ContentPart.from_text`, `from_bytes`, `from_path` and
// `from_url`, and the Rust crate's `ContentPart::text`, `from_bytes`, `from_path`, `from_url`,
// with the same content-sniffing table. Only `fromPath` does I/O, through Node.js's `node:fs`
// (found with `process.getBuiltinModule`, so the package loads without Node.js too).

import { checkMimeType, checkUrl, displayable, hiddenCharacter, refused } from "./links.js";
import type { ContentPart } from "./types.js";

/** The default size limit of {@link fromPath}: 20 MiB. */
export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/** Bytes read from the head of a file to sniff its type. */
const SNIFF_BYTES = 64;

/** The value of a part's `type` (its `kind` in the Python and Rust APIs). */
export type PartKind = ContentPart["type"];

/**
 * The kind of a part holding `mimeType`: `image` or `audio` by its family, `file` for
 * everything else, video included (the upstream ports have no video kind).
 */
export function kindFor(mimeType: string): PartKind {
  const family = (mimeType.split("/", 1)[0] ?? "").trim().toLowerCase();
  return family === "image" || family === "audio" ? family : "file";
}

/** A part with the fields that are not empty (an empty string is omitted from the wire anyway). */
function build(kind: PartKind, fields: { text?: string; mimeType?: string; data?: string; url?: string; name?: string | undefined }): ContentPart {
  const part: ContentPart = { type: kind };
  for (const key of ["text", "mimeType", "data", "url", "name"] as const) {
    const value = fields[key];
    if (value !== undefined && value !== "") {
      part[key] = value;
    }
  }
  return part;
}

/** A `text` part holding `s`. */
export function text(s: string): ContentPart {
  if (typeof s !== "string") {
    throw new TypeError(`text takes a string, got ${typeof s}`);
  }
  if (s === "") {
    throw new Error("text needs a non-empty string: a text part that carries nothing is refused");
  }
  return build("text", { text: s });
}

/** The optional arguments of `fromBytes` and `fromUrl`, given by name as in Python and Rust. */
export interface PartOptions {
  /** A file name for the content (never a path); left out of the wire when empty. */
  name?: string | undefined;
}

/** The options object, checked: a bare string (the old positional `name`) is refused. */
function partOptions(options: PartOptions | undefined, fn: string): PartOptions {
  if (options === undefined) {
    return {};
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new TypeError(`${fn} takes its name in an options object, ${fn}(..., { name: "a.png" }); got ${typeof options}`);
  }
  if (options.name !== undefined && typeof options.name !== "string") {
    throw new TypeError(`${fn}: name must be a string, got ${typeof options.name}`);
  }
  return options;
}

/**
 * A part holding `bytes` as base64 `data`; its kind follows the MIME family (`image`, `audio`,
 * else `file`). `options.name` names it (Python: `name=`; Rust: `.with_name(...)`); control and
 * bidi formatting characters in it become U+FFFD.
 *
 * @throws Error with a `code`: `missing-mime-type` when `mimeType` is empty, `bad-mime-type`
 *   when it is blank or holds a control character (such as a line break), `empty-content` when
 *   there are no bytes (an empty `data` is omitted from the wire, and a part that carries
 *   nothing is refused); TypeError when `options` is not an options object.
 */
export function fromBytes(bytes: Uint8Array, mimeType: string, options?: PartOptions): ContentPart {
  const { name } = partOptions(options, "fromBytes");
  const mime = checkMimeType(mimeType);
  if (bytes.length === 0) {
    throw refused("empty-content", "fromBytes needs at least one byte: a part that carries nothing is refused");
  }
  return build(kindFor(mime), { mimeType: mime, data: base64(bytes), name: name === undefined ? undefined : displayable(name) });
}

/**
 * A part for the content at `url`.
 *
 * A `data:` URL (RFC 2397: `data:<mime>;base64,<base64>`, or percent-encoded text without
 * `;base64`) is decoded: the part holds its bytes in `data`, with its media type (or `mimeType`,
 * when given; `text/plain;charset=US-ASCII` when it names none). Any other URL is kept as `url`,
 * by reference: it must be an `http` or `https` URL, and needs `mimeType`, since nothing is
 * fetched.
 *
 * @throws Error with a `code`: `empty-url`; `bad-url` for another scheme (`javascript:`,
 *   `file:`...) or a control or bidi formatting character in the URL; `bad-data-url` for a
 *   malformed `data:` URL (no comma, base64 that is not valid); `missing-mime-type` for a URL
 *   by reference without a MIME type; `bad-mime-type` for one that is blank or holds a
 *   control character.
 */
export function fromUrl(url: string, mimeType?: string, options?: PartOptions): ContentPart {
  const { name } = partOptions(options, "fromUrl");
  if (typeof url !== "string" || url === "") {
    throw refused("empty-url", `fromUrl needs a non-empty URL, got ${JSON.stringify(url) ?? String(url)}`);
  }
  const hidden = hiddenCharacter(url);
  if (hidden !== undefined) {
    throw refused("bad-url", `the URL ${JSON.stringify(url)} holds ${hidden}`);
  }
  if (url.slice(0, 5).toLowerCase() === "data:") {
    const [own, bytes] = dataUrl(url);
    return fromBytes(bytes, mimeType !== undefined && mimeType !== "" ? mimeType : own, { name });
  }
  checkUrl(url);
  if (mimeType === undefined || mimeType === "") {
    throw refused(
      "missing-mime-type",
      `a part by URL needs its MIME type, as nothing is fetched: fromUrl(${JSON.stringify(url)}, "image/png")`,
    );
  }
  const mime = checkMimeType(mimeType);
  return build(kindFor(mime), { mimeType: mime, url, name: name === undefined ? undefined : displayable(name) });
}

/** The MIME type and the bytes of a `data:` URL. */
function dataUrl(url: string): [string, Uint8Array] {
  const rest = url.slice(5);
  const comma = rest.indexOf(",");
  if (comma < 0) {
    throw refused("bad-data-url", "a data: URL needs a comma between its media type and its data");
  }
  const params = rest.slice(0, comma).split(";").map((p) => p.trim());
  const isBase64 = params.length > 1 && (params[params.length - 1] as string).toLowerCase() === "base64";
  if (isBase64) {
    params.pop();
  }
  const mimeType = params[0] !== "" ? params.join(";") : "text/plain;charset=US-ASCII";
  const raw = percentDecode(rest.slice(comma + 1));
  if (!isBase64) {
    return [mimeType, raw];
  }
  const bytes = unbase64(raw);
  if (bytes === undefined) {
    throw refused("bad-data-url", "the data: URL's base64 is not valid (standard alphabet, with padding)");
  }
  return [mimeType, bytes];
}

/** The bytes of `s` with each `%XX` decoded (a `%` not followed by two hex digits stays). */
function percentDecode(s: string): Uint8Array {
  const utf8 = encodeUtf8(s);
  if (s.indexOf("%") < 0) {
    return utf8;
  }
  const out = new Uint8Array(utf8.length);
  let n = 0;
  for (let i = 0; i < utf8.length; i++) {
    const b = utf8[i] as number;
    const hi = b === 0x25 && i + 2 < utf8.length ? hexValue(utf8[i + 1] as number) : -1;
    const lo = hi >= 0 ? hexValue(utf8[i + 2] as number) : -1;
    if (lo >= 0) {
      out[n++] = (hi << 4) | lo;
      i += 2;
    } else {
      out[n++] = b;
    }
  }
  return out.subarray(0, n);
}

/** UTF-8 of `s`; a lone surrogate becomes U+FFFD. Two passes (the size, then the bytes). */
function encodeUtf8(s: string): Uint8Array {
  let size = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      size += 1;
    } else if (c < 0x800) {
      size += 2;
    } else if (c >= 0xd800 && c <= 0xdbff && isLow(s.charCodeAt(i + 1))) {
      size += 4;
      i++;
    } else {
      size += 3; // the rest of the BMP, and a lone surrogate as U+FFFD
    }
  }
  const out = new Uint8Array(size);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && isLow(s.charCodeAt(i + 1))) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 0x3f);
    } else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
      continue;
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        c = 0xfffd;
      }
      out[n++] = 0xe0 | (c >> 12);
    }
    out[n++] = 0x80 | ((c >> 6) & 0x3f);
    out[n++] = 0x80 | (c & 0x3f);
  }
  return out;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The value of an ASCII hex digit, or -1. */
function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

// ---------------------------------------------------------------------------------- base64
//
// One pass each way, over bytes, with lookup tables: no regular expression (V8 runs the IDL's
// base64 pattern by backtracking, which overflows the stack from about 5 MB), and no string
// built a character at a time.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** The ASCII code of each base64 digit's letter. */
const LETTERS = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** The value of each ASCII code as a base64 digit, or 255. */
const DIGITS = (() => {
  const table = new Uint8Array(256).fill(255);
  LETTERS.forEach((code, value) => {
    table[code] = value;
  });
  return table;
})();

/** The text of ASCII codes, made a chunk at a time (an argument list is bounded). */
function asciiText(codes: Uint8Array): string {
  const chunks: string[] = [];
  for (let at = 0; at < codes.length; at += 8192) {
    chunks.push(String.fromCharCode.apply(null, codes.subarray(at, at + 8192) as unknown as number[]));
  }
  return chunks.join("");
}

/** Standard base64 (RFC 4648 section 4) with padding. */
function base64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const whole = bytes.length - (bytes.length % 3);
  let n = 0;
  for (let i = 0; i < whole; i += 3) {
    const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[n++] = LETTERS[v >> 18] as number;
    out[n++] = LETTERS[(v >> 12) & 63] as number;
    out[n++] = LETTERS[(v >> 6) & 63] as number;
    out[n++] = LETTERS[v & 63] as number;
  }
  if (whole < bytes.length) {
    const two = whole + 1 < bytes.length;
    const v = ((bytes[whole] as number) << 16) | (two ? (bytes[whole + 1] as number) << 8 : 0);
    out[n++] = LETTERS[v >> 18] as number;
    out[n++] = LETTERS[(v >> 12) & 63] as number;
    out[n++] = two ? (LETTERS[(v >> 6) & 63] as number) : 0x3d;
    out[n++] = 0x3d;
  }
  return asciiText(out);
}

/** The bytes of padded standard base64 (as ASCII bytes), or `undefined` when it is not that. */
function unbase64(text: Uint8Array): Uint8Array | undefined {
  const n = text.length;
  if (n % 4 !== 0) {
    return undefined;
  }
  const pad = n > 0 && text[n - 1] === 0x3d ? (text[n - 2] === 0x3d ? 2 : 1) : 0;
  const out = new Uint8Array((n / 4) * 3 - pad);
  let at = 0;
  for (let i = 0; i < n; i += 4) {
    const last = i + 4 === n;
    const a = DIGITS[text[i] as number] as number;
    const b = DIGITS[text[i + 1] as number] as number;
    const c = last && pad === 2 ? 0 : (DIGITS[text[i + 2] as number] as number);
    const d = last && pad >= 1 ? 0 : (DIGITS[text[i + 3] as number] as number);
    if ((a | b | c | d) > 63) {
      return undefined;
    }
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    out[at++] = v >> 16;
    if (at < out.length) out[at++] = (v >> 8) & 0xff;
    if (at < out.length) out[at++] = v & 0xff;
  }
  return out;
}

// ---------------------------------------------------------------------------------- files

interface Stats {
  readonly size: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** The part of `node:fs` that `fromPath` uses. */
interface NodeFs {
  readonly constants: { readonly O_RDONLY: number; readonly O_NONBLOCK?: number };
  statSync(path: string): Stats;
  openSync(path: string, flags: number): number;
  fstatSync(fd: number): Stats;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null): number;
  closeSync(fd: number): void;
}

interface NodePath {
  basename(path: string): string;
}

/** A built-in module of Node.js (`process.getBuiltinModule`, Node.js 20.16 and later). */
function builtin<T>(id: string): T {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const mod = typeof proc?.getBuiltinModule === "function" ? proc.getBuiltinModule(id) : undefined;
  if (mod === undefined || mod === null) {
    throw new Error(`fromPath reads files with Node.js's ${id}, which this runtime does not have`);
  }
  return mod as T;
}

/** An `Error` with a Node.js-style `code` and `path`, as `node:fs` throws them. */
function fileError(code: string, path: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}: ${JSON.stringify(path)}`), { code, path });
}

function checkRegular(path: string, st: Stats, maxBytes: number): void {
  if (st.isDirectory()) {
    throw fileError("EISDIR", path, "is a directory, not a file");
  }
  if (!st.isFile()) {
    throw fileError("ENOTREG", path, "not a regular file (a FIFO, socket or device); not read");
  }
  if (st.size > maxBytes) {
    throw fileError("EFBIG", path, `${st.size} bytes, over the limit of ${maxBytes} bytes`);
  }
}

/** The extension of a file name with its dot (`.png`), as Python's `Path.suffix` has it. */
function suffixOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 && dot < name.length - 1 ? name.slice(dot) : "";
}

/**
 * A part holding the file at `path`, named after it (its base name, with each control and bidi
 * formatting character replaced with U+FFFD, as the Python and Rust helpers name it).
 *
 * The MIME type comes from the file's first bytes for common formats (PNG, JPEG, GIF, WebP,
 * PDF, WAV, MP3, OGG, FLAC, MP4, WebM...), else from its extension, else
 * `application/octet-stream`; the kind follows the MIME family (`video/*` is a `file`). A FIFO,
 * socket or device is refused before it is opened, and again after (the file is opened without
 * blocking); a file larger than `maxBytes`, or growing past it while it is read, is refused.
 *
 * @throws Error with a `code`: `node:fs`'s own (`ENOENT`, `ENOTDIR`, `EACCES`, `ELOOP`...),
 *   `EISDIR` for a directory, `ENOTREG` for a FIFO, socket or device, `EFBIG` over the limit,
 *   `EINVAL` for a path holding a NUL character; each message names the path.
 */
export function fromPath(path: string, options: { readonly maxBytes?: number } = {}): ContentPart {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (path.includes("\0")) {
    throw fileError("EINVAL", path, "holds a NUL character, which no file name can");
  }
  const fs = builtin<NodeFs>("node:fs");
  checkRegular(path, fs.statSync(path), maxBytes); // follows links; a FIFO is never opened
  // The path may be swapped between that check and the open (for a FIFO, whose open blocks
  // until a writer comes): open without blocking, then check what was opened.
  const fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    checkRegular(path, fs.fstatSync(fd), maxBytes);
    for (;;) {
      const chunk = new Uint8Array(Math.min(1 << 20, maxBytes + 1 - size) || 1);
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) {
        break;
      }
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      size += n;
      if (size > maxBytes) {
        throw fileError("EFBIG", path, `grew past the limit of ${maxBytes} bytes while being read`);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  const raw = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    raw.set(chunk, at);
    at += chunk.length;
  }
  if (size === 0) {
    throw refused("empty-content", `${path} is empty: a part carries content, and an empty one is refused`);
  }
  const name = displayable(builtin<NodePath>("node:path").basename(path));
  return fromBytes(raw, sniffMime(raw.subarray(0, SNIFF_BYTES), suffixOf(name)), { name });
}

// ---------------------------------------------------------------------------------- sniffing

const EXTENSIONS: { readonly [suffix: string]: string } = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".ico": "image/vnd.microsoft.icon",
  ".pdf": "application/pdf",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".opus": "audio/ogg",
  ".flac": "audio/flac",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".mp4": "video/mp4",
  ".m4v": "video/mp4",
  ".mov": "video/quicktime",
  ".webm": "video/webm",
  ".mkv": "video/x-matroska",
  ".avi": "video/x-msvideo",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".html": "text/html",
  ".htm": "text/html",
  ".json": "application/json",
  ".xml": "application/xml",
  ".zip": "application/zip",
  ".gz": "application/gzip",
};

function startsWith(head: Uint8Array, magic: string, at: number = 0): boolean {
  if (head.length < at + magic.length) {
    return false;
  }
  for (let i = 0; i < magic.length; i++) {
    if (head[at + i] !== magic.charCodeAt(i)) {
      return false;
    }
  }
  return true;
}

function contains(head: Uint8Array, needle: string): boolean {
  for (let i = 0; i + needle.length <= head.length; i++) {
    if (startsWith(head, needle, i)) {
      return true;
    }
  }
  return false;
}

/**
 * The MIME type of content starting with `head`, in a file whose extension (with its dot) is
 * `suffix`: the magic bytes first, then the extension, then `application/octet-stream`.
 */
export function sniffMime(head: Uint8Array, suffix: string): string {
  const has = (magic: string, at: number = 0): boolean => startsWith(head, magic, at);
  if (has("\x89PNG\r\n\x1a\n")) return "image/png";
  if (has("\xff\xd8\xff")) return "image/jpeg";
  if (has("GIF87a") || has("GIF89a")) return "image/gif";
  if (has("RIFF")) {
    if (has("WEBP", 8)) return "image/webp";
    if (has("WAVE", 8)) return "audio/wav";
    if (has("AVI ", 8)) return "video/x-msvideo";
  }
  if (has("%PDF-")) return "application/pdf";
  if (has("OggS")) return "audio/ogg";
  if (has("fLaC")) return "audio/flac";
  // An ID3 tag, or an MPEG audio frame header (sync bits set, layer III).
  if (has("ID3") || (head.length > 1 && head[0] === 0xff && ((head[1] as number) & 0xe6) === 0xe2)) {
    return "audio/mpeg";
  }
  if (has("ftyp", 4)) {
    if (has("M4A ", 8) || has("M4B ", 8)) return "audio/mp4";
    if (has("qt  ", 8)) return "video/quicktime";
    return "video/mp4";
  }
  if (has("\x1a\x45\xdf\xa3")) return contains(head, "webm") ? "video/webm" : "video/x-matroska";
  if (has("II*\x00") || has("MM\x00*")) return "image/tiff";
  if (has("BM") && suffix === ".bmp") return "image/bmp";
  return EXTENSIONS[suffix.toLowerCase()] ?? "application/octet-stream";
}
