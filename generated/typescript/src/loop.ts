// Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

// The loop's data, from idl/loop.json (see codegen/loop_data.py).

/** How deep a document may nest (arrays and objects, the outermost one at level 1); a deeper one is refused at `$` when read, and refused when written. */
export const MAX_DEPTH = 100;

/** The most of a refusal's message the model reads, in code points; a longer one is cut, and `…` added. */
export const MESSAGE_LIMIT = 1000;

/** How many bytes of a file's head `ContentPart.from_path` reads to tell its MIME type. */
export const SNIFF_BYTES = 64;

/** How many code points of a kept result `read_result` returns when its call gives no `length`. */
export const READ_RESULT_LENGTH = 2000;

/** Why a resume is refused (`ResumeError.reason`): */
export const RESUME_REASONS = [
  /** The answer's id is not the id of a request the run waits on. */
  "mismatch",
  /** The request was already answered: the same answer again, or one to a call already settled. */
  "replayed",
  /** The run is not waiting: it is done, or holds no pending request. */
  "not_pending",
  /** The stored run's seal does not match: it was altered, forged, or sealed under another key. */
  "seal",
  /** The stored run expired before the answer came. */
  "expired",
  /** The answer comes from another principal than the one the run belongs to. */
  "principal",
] as const;

/** A reason of {@link RESUME_REASONS}. */
export type ResumeReason = (typeof RESUME_REASONS)[number];

/** The MIME type of a file by its extension, lower case with its dot. */
export const EXTENSIONS: { readonly [suffix: string]: string } = {
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

/** A call suspended again after it was answered; the prompt is the first request's, as every upstream port writes it. */
export function unresolved(prompt: string): string {
  return "unresolved: " + prompt;
}

/** A tool's own request that was refused, or expired, or got no answer in time. */
export function declinedOrExpired(prompt: string): string {
  return "declined/expired: " + prompt;
}

/** A refusal that came with the person's words (cut at MESSAGE_LIMIT). */
export function declinedWithMessage(message: string): string {
  return "declined: " + message;
}

/** A call the toolkit's approval gate did not let run; the tail names a reason other than `declined`, as ` (expired)`. */
export function notApproved(tool: string, tail: string): string {
  return "declined: the call to " + tool + " was not approved" + tail;
}

/** A call the host cancelled while it ran. */
export function cancelled(tool: string): string {
  return "declined: the call to " + tool + " was cancelled";
}

/** A call a kept refusal (a policy) settles without asking. */
export function notAllowedByPolicy(tool: string, policy: string): string {
  return "declined: the call to " + tool + " is not allowed (policy " + policy + ")";
}

/** A suspension whose request cannot be kept (it cannot be sealed, or is not valid). */
export function cannotWait(problem: string): string {
  return "the call cannot wait for an answer: " + problem;
}

/** A call whose approval request cannot be made (its arguments cannot be sealed). */
export function cannotWaitForApproval(problem: string): string {
  return "the call cannot wait for its approval: " + problem;
}

/** The prompt of the toolkit's own approval request for a call. */
export function approvalPrompt(tool: string): string {
  return "Allow " + tool + " to run with these arguments?";
}

/** Where a call's output over its limit was cut, on a line of its own between the head and the tail kept (a line break before it and one after), when the host keeps no copy of the whole output; the count is in code points. */
export function cut(cut: string): string {
  return "[… " + cut + " characters cut …]";
}

/** As `cut`, when the host keeps the whole output under `ref` (read_result reads it). */
export function cutKept(cut: string, reference: string): string {
  return "[… " + cut + " characters cut; the whole result is kept as \"" + reference + "\" …]";
}

/** A limit that sets no unit. */
export function limitEmpty(): string {
  return "a result limit counts at least one of chars, tokens and bytes";
}

/** A limit of zero, a negative one, or one that is not a whole number. */
export function limitNotPositive(value: string, unit: string): string {
  return "a result limit of " + value + " " + unit + " is refused: a limit is a whole number above zero";
}

/** A limit below the widest cut marker (a 20-digit count and a reference). */
export function limitBelowMarker(value: string, unit: string, floor: string): string {
  return "a result limit of " + value + " " + unit + " is refused: the cut marker alone may take " + floor + " " + unit + ", so a limit is at least " + floor;
}

/** The description of the built-in `read_result` tool. */
export function readResultDescription(): string {
  return "Read part of a tool result that was cut: `ref` is the name its cut marker gives (\"result-…\"), `offset` the first character to read (from 0), `length` how many characters (2000 unless given).";
}

/** The first line of what `read_result` returns, naming the code points read (`end` excluded) and the whole result's length; the code points follow it after a line break. */
export function readResultPage(reference: string, start: string, end: string, total: string): string {
  return "[" + reference + ": characters " + start + " to " + end + " of " + total + "]";
}

/** `read_result` of a reference this call may not read: none kept under it, or one kept for another session or principal (the two are not told apart). */
export function readResultUnknown(reference: string): string {
  return "no result kept as \"" + reference + "\" can be read here: a kept result is read in the session, and by the principal, it was kept for";
}

/** `read_result` from an offset beyond the kept result's end. */
export function readResultPastEnd(offset: string, reference: string, total: string): string {
  return "offset " + offset + " is past the end of \"" + reference + "\", which is " + total + " characters long";
}
