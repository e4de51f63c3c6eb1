// codegen: package

// What the helpers let in: URLs by their scheme, MIME types, and names a person sees. The same
// rules as the Python package's `toolnexus_wire._links` and the Rust crate's `media.rs`, pinned
// for all three by the helper vectors in idl/helpers/. Internal: not exported by index.ts.
//
// - A URL by reference (a part's `url`, a Request's `url`) is `http://` or `https://` (any
//   case) and something after it, without a control character (U+0000 to U+001F, U+007F to
//   U+009F) or a bidi formatting character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
//   U+2069; RFC 3987 forbids them in IRIs). `javascript:`, `file:`, `data:` and the rest are
//   refused. (A `data:` URL given to `fromUrl` is decoded, never kept as a link.)
// - A MIME type is not empty, not only spaces, and holds no control character.
// - A name taken from outside (a file's name) has each control and bidi formatting character
//   replaced with U+FFFD: `invoice\u202egpj.exe` would show as `invoiceexe.jpg`.
//
// The wire itself carries any text in these fields; these rules apply where a URL, a MIME type
// or a name enters through a helper.

/** An `Error` with a `code` saying which rule refused the input (as idl/helpers names them). */
export function refused(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function isControl(c: number): boolean {
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f);
}

function isBidiControl(c: number): boolean {
  return c === 0x061c || c === 0x200e || c === 0x200f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

function hex(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, "0");
}

/** What is wrong with the first control or bidi formatting character of `text`, or `undefined`. */
export function hiddenCharacter(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isControl(c)) {
      return `a control character (U+${hex(c)}) at index ${i}`;
    }
    if (isBidiControl(c)) {
      return `a bidi formatting character (U+${hex(c)}) at index ${i}`;
    }
  }
  return undefined;
}

/** Whether `url` starts with `http://` or `https://`, the scheme in any case, and goes on after it. */
function isWebUrl(url: string): boolean {
  const lower = url.slice(0, 8).toLowerCase();
  const end = lower.startsWith("https://") ? 8 : lower.startsWith("http://") ? 7 : 0;
  return end > 0 && url.length > end;
}

/**
 * `url`, when it is an `http` or `https` URL without control or bidi formatting characters.
 *
 * @throws Error with the code `bad-url` otherwise, saying what is wrong.
 */
export function checkUrl(url: string): string {
  const hidden = hiddenCharacter(url);
  if (hidden !== undefined) {
    throw refused("bad-url", `the URL ${JSON.stringify(url)} holds ${hidden}`);
  }
  if (!isWebUrl(url)) {
    throw refused(
      "bad-url",
      `the URL ${JSON.stringify(url)} is not an http or https URL (javascript:, file:, data: and others are refused)`,
    );
  }
  return url;
}

/**
 * `mimeType`, when it is a string that is not empty, not only spaces, and holds no control
 * character.
 *
 * @throws Error with the code `missing-mime-type` (not a string, or empty) or `bad-mime-type`.
 */
export function checkMimeType(mimeType: unknown): string {
  if (typeof mimeType !== "string" || mimeType === "") {
    throw refused(
      "missing-mime-type",
      `a part needs a MIME type such as "image/png", got ${JSON.stringify(mimeType) ?? String(mimeType)}`,
    );
  }
  if (mimeType.replaceAll(" ", "") === "") {
    throw refused("bad-mime-type", `the MIME type ${JSON.stringify(mimeType)} is blank`);
  }
  for (let i = 0; i < mimeType.length; i++) {
    const c = mimeType.charCodeAt(i);
    if (isControl(c)) {
      throw refused("bad-mime-type", `the MIME type ${JSON.stringify(mimeType)} holds a control character (U+${hex(c)}) at index ${i}`);
    }
  }
  return mimeType;
}

/**
 * `text` with each control and bidi formatting character replaced with U+FFFD, so that what a
 * person sees is what is there. With `options.lines`, line breaks and tabs are kept (a `\r\n`
 * becomes `\n`; a lone `\r`, which moves a terminal's cursor back over the line, is replaced), as
 * Python's `displayable(text, lines=True)`.
 */
export function displayable(text: string, options?: { lines?: boolean }): string {
  const lines = options?.lines === true;
  if (lines) {
    text = text.replaceAll("\r\n", "\n");
  }
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((isControl(c) && !(lines && (c === 0x09 || c === 0x0a))) || isBidiControl(c)) {
      out += text.slice(from, i) + "\ufffd";
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}
