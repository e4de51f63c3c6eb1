// A misspelled known key in an object literal is a compile error (the interfaces have no index
// signature), though the parsers keep unknown keys a peer sends.

import { extraKeys, fromJsonToolResult, toJsonToolResult, type ContentPart, type ToolResult } from "toolnexus-contract";

export const misspelled: ToolResult = { output: "x", isErorr: true }; // expect-error TS2561

export const unknown: ToolResult = { output: "x", later: 1 }; // expect-error TS2353

export const nested: ToolResult = {
  output: "x",
  parts: [{ type: "file", mimeType: "a/b", data: "", nmae: "a.txt" }], // expect-error TS2353
};

export const part: ContentPart = { type: "pdf", mimeType: "a/b", data: "" }; // expect-error TS2322

// The interfaces are wire-shaped: a part's kind is its wire key `type`, not the API name `kind`.
export const apiName: ContentPart = { kind: "file" }; // expect-error TS2353

export const video: ContentPart = { type: "video", url: "v.mp4" }; // expect-error TS2322

export const sent = toJsonToolResult({ output: "x", isEror: false }); // expect-error TS2561

const parsed = fromJsonToolResult('{"output":"x","later":1}');
export const untyped = parsed["later"]; // expect-error TS7053
export const typed = extraKeys(parsed, "ToolResult")["later"];
export const wrongType = extraKeys(parsed, "ToolResults"); // expect-error TS2345
