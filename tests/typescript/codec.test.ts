// The generated parsers and emitters: acceptance as the schema, paths in errors, wire rules.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  fromJsonContentPart,
  fromJsonRunResult,
  fromJsonToolResult,
  JsonNumber,
  parseAnswer,
  parseContentPart,
  parseRequest,
  parseRunResult,
  parseToolCall,
  parseToolResult,
  parseToolSpec,
  toJsonAnswer,
  toJsonContentPart,
  toJsonRequest,
  toJsonRunResult,
  toJsonToolCallResult,
  toJsonToolResult,
  toWireToolResult,
  extraKeys,
  WireError,
  writeJson,
  type ContentPart,
  type RunResult,
  type ToolResult,
} from "toolnexus-contract";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/VscvDQAAAABJRU5ErkJggg==";

function rejected(fn: () => unknown, path: string, message?: RegExp): void {
  assert.throws(
    fn,
    (err: unknown) => {
      assert.ok(err instanceof WireError, `not a WireError: ${String(err)}`);
      assert.equal(err.path, path, err.message);
      assert.ok(err.message.startsWith(`${path}: expected `), err.message);
      if (message !== undefined) {
        assert.match(err.message, message);
      }
      return true;
    },
  );
}

describe("parsers", () => {
  it("fill in defaults: isError false, parts and calls []", () => {
    const r = parseToolResult({ output: "hi" });
    assert.deepEqual(r, { output: "hi", isError: false, parts: [] });
    const run = parseRunResult({ status: "done", results: [] });
    assert.deepEqual(run, { status: "done", results: [], calls: [], requests: [], order: [] });
  });

  it("take values from JSON.parse as well as from readJson", () => {
    const text = '{"output":"x","isError":true,"parts":[{"type":"image","mimeType":"image/png","data":"' + PNG + '"}],"structuredContent":[1],"metadata":{"n":1}}';
    assert.deepEqual(parseToolResult(JSON.parse(text)), fromJsonToolResult(text));
  });

  it("give typed values", () => {
    const part = parseContentPart({ type: "audio", mimeType: "audio/wav", data: "UklGRg==" });
    const kind: "text" | "image" | "audio" | "file" = part.type;
    assert.equal(kind, "audio");
    const mimeType: string | undefined = part.mimeType;
    assert.equal(mimeType, "audio/wav");
    const answer = parseAnswer({ id: "pnd-1", ok: false, reason: "expired" });
    const reason: "declined" | "cancelled" | "expired" | undefined = answer.reason;
    assert.equal(reason, "expired");
  });

  it("reject what the schema rejects, naming the path", () => {
    rejected(() => parseToolResult([]), "$", /a ToolResult object, got an array/);
    rejected(() => parseToolResult(null), "$");
    rejected(() => parseToolResult({}), "$", /the required key "output"/);
    rejected(() => parseToolResult({ output: 1 }), "$.output", /a string, got the number 1/);
    rejected(() => parseToolResult({ output: "", isError: "false" }), "$.isError", /a boolean/);
    rejected(() => parseToolResult({ output: "", isError: null }), "$.isError", /got null/);
    rejected(() => parseToolResult({ output: "", parts: {} }), "$.parts", /an array/);
    rejected(() => parseToolResult({ output: "", metadata: [] }), "$.metadata", /an object, got an array/);
    rejected(() => parseToolResult({ output: "", metadata: null }), "$.metadata");
    rejected(
      () => parseToolResult({ output: "", parts: [{ type: "image", mimeType: "image/png", data: PNG }, { type: "image", mimeType: 1 }] }),
      "$.parts[1].mimeType",
      /a string, got the number 1/,
    );
    rejected(() => parseToolResult({ output: "", parts: [{ type: "video", mimeType: "video/mp4" }] }), "$.parts[0].type", /one of "text", "image", "audio", "file"/);
    rejected(() => parseToolResult({ output: "", parts: [{ kind: "file", mimeType: "a/b" }] }), "$.parts[0]", /the required key "type"/);
    for (const key of ["text", "mimeType", "data", "url", "name"]) {
      rejected(() => parseContentPart({ type: "file", [key]: null }), `$.${key}`, /a string.*, got null$/);
    }
    for (const data of ["aGk", "aGk=\n", "aG=k", "-_8A", "aGk==", " aGk="]) {
      rejected(() => parseContentPart({ type: "file", mimeType: "a/b", data }), "$.data", /matching/);
    }
    rejected(() => parseToolResult({ output: "", structuredContent: null }), "$.structuredContent", /other than null, got null/);
    rejected(() => parseToolResult({ output: "", structuredContent: [Number.NaN] }), "$.structuredContent[0]", /a JSON value/);
    rejected(() => parseToolSpec({ name: "a", description: "", inputSchema: {}, outputSchema: [] }), "$.outputSchema", /an object/);
    rejected(() => parseRequest({ id: "", kind: "", prompt: "" }), "$.kind");
    // `expiresAt` is any string, as the upstream ports send it; the loop reads the time.
    assert.equal(parseRequest({ id: "", kind: "x", prompt: "", expiresAt: "2025-06-30" }).expiresAt, "2025-06-30");
    assert.equal(parseRequest({ id: "", kind: "x", prompt: "", expiresAt: "tomorrow\n" }).expiresAt, "tomorrow\n");
    rejected(() => parseToolSpec({ name: "a b", description: "", inputSchema: {} }), "$.name");
    rejected(() => parseToolSpec({ name: "ab\n", description: "", inputSchema: {} }), "$.name");
    rejected(() => parseToolCall({ id: "c", name: "n", arguments: "{}" }), "$.arguments");
    rejected(() => parseRunResult({ status: "stopped", results: [] }), "$.status");
    rejected(() => parseRunResult({ status: "done", results: [{ id: "c", name: "n" }] }), "$.results[0]", /"result"/);
    rejected(() => parseRunResult({ status: "done", results: [{ id: "c", name: "n", result: { output: 2 } }] }), "$.results[0].result.output");
    rejected(() => parseRunResult({ status: "pending", results: [], pending: { id: "p", kind: "input" } }), "$.pending", /"prompt"/);
    rejected(() => parseRunResult({ status: "pending", results: [], calls: [{ id: "c", name: "n", arguments: null }] }), "$.calls[0].arguments");
  });

  it("accept what the schema accepts", () => {
    parseContentPart({ type: "file", mimeType: "x", data: "", url: "https://e.com/f" });
    for (const data of ["aGk=", "aGVs", "aA==", "+/+/"]) {
      parseContentPart({ type: "file", mimeType: "x", data });
    }
    assert.deepEqual(parseContentPart({ type: "file", url: "https://e.com/f" }), { type: "file", url: "https://e.com/f" });
    for (const value of [0, false, "", [], { a: null }]) {
      assert.deepEqual(parseToolResult({ output: "", structuredContent: value }).structuredContent, value);
    }
    parseRequest({ id: "", kind: "k", prompt: "", expiresAt: "2025-06-30t12:00:00.123+02:00" });
    parseToolSpec({ name: "A-z_09", description: "", inputSchema: {} });
    parseToolResult({ output: "", metadata: { a: [1, { b: null }], c: new JsonNumber("1.0") } });
  });

  it("read a part that carries nothing, as upstream writes it, and write it back as it came", () => {
    for (const [doc, emitted] of [
      ['{"type":"text"}', '{"type":"text"}'],
      ['{"type":"text","text":""}', '{"type":"text"}'],
      ['{"type":"image","mimeType":"image/png","name":"a.png"}', '{"type":"image","mimeType":"image/png","name":"a.png"}'],
      ['{"type":"file","mimeType":"application/octet-stream"}', '{"type":"file","mimeType":"application/octet-stream"}'],
    ]) {
      assert.equal(toJsonContentPart(fromJsonContentPart(doc as string)), emitted, doc);
    }
    const result = '{"output":"","isError":false,"parts":[{"type":"text","text":"a"},{"type":"file"}]}';
    assert.equal(toJsonToolResult(fromJsonToolResult(result)), result);
    // Both: the content, and where it came from.
    const both = '{"type":"image","mimeType":"image/png","data":"aGk=","url":"https://e.x/a.png"}';
    assert.equal(toJsonContentPart(fromJsonContentPart(both)), both);
  });

  it("check free-form objects and unknown keys all the way down", () => {
    rejected(() => parseToolResult({ output: "", metadata: { a: { b: [Number.NaN] } } }), "$.metadata.a.b[0]", /a JSON value/);
    rejected(() => parseToolResult({ output: "", metadata: new Date(0) }), "$.metadata");
    rejected(() => parseToolResult({ output: "", "x-extra": { when: new Date(0) } }), '$["x-extra"].when');
  });

  it("treat an undefined property as absent", () => {
    assert.deepEqual(parseToolResult({ output: "", metadata: undefined }), { output: "", isError: false, parts: [] });
    rejected(() => parseToolResult({ output: undefined }), "$", /"output"/);
  });

  it("read an empty string of a part as absent", () => {
    const part = parseContentPart({ name: "", type: "text", text: "a", mimeType: "", data: "", url: "" });
    assert.deepEqual(part, { type: "text", text: "a" });
    assert.deepEqual(Object.keys(parseContentPart({ type: "text", text: "hi", name: "" })), ["type", "text"]);
  });

  it("keep unknown keys, nested ones too, in their order", () => {
    const text = '{"zeta":1,"output":"x","parts":[{"future":true,"type":"file","mimeType":"a/b","data":"","url":"u"}],"alpha":{"k":[1]},"9":"nine"}';
    const r = fromJsonToolResult(text);
    assert.deepEqual(extraKeys(r, "ToolResult"), { zeta: 1, alpha: { k: [1] }, 9: "nine" });
    assert.deepEqual(Object.keys(r).sort(), ["9", "alpha", "isError", "output", "parts", "zeta"]);
    const part = r.parts?.[0];
    assert.ok(part !== undefined);
    assert.deepEqual(extraKeys(part, "ContentPart"), { future: true });
    assert.equal(
      toJsonToolResult(r),
      '{"output":"x","isError":false,"parts":[{"type":"file","mimeType":"a/b","url":"u","future":true}],"zeta":1,"alpha":{"k":[1]},"9":"nine"}',
    );
  });

  it("give the unknown keys of a value by extraKeys, in wire order, as a new object", () => {
    const r = fromJsonToolResult('{"output":"x","b":1,"10":2,"a":null}');
    const extra = extraKeys(r, "ToolResult");
    assert.equal(writeJson(extra), '{"b":1,"10":2,"a":null}');
    extra["c"] = 3;
    assert.equal(toJsonToolResult(r), '{"output":"x","isError":false,"b":1,"10":2,"a":null}');
    assert.deepEqual(extraKeys({ output: "x" }, "ToolResult"), {});
    // A key a newer schema adds can be sent from a value that is not an object literal.
    const later = { output: "x", later: true };
    assert.equal(toJsonToolResult(later), '{"output":"x","isError":false,"later":true}');
    rejected(() => extraKeys(null as unknown as ToolResult, "ToolResult"), "$", /a ToolResult object/);
  });
});

describe("emitters", () => {
  it("write compact JSON: schema key order, isError always, empty parts omitted, absent optionals omitted", () => {
    const r: ToolResult = { metadata: { b: 1, a: 2 }, parts: [], output: "done" };
    assert.equal(toJsonToolResult(r), '{"output":"done","isError":false,"metadata":{"b":1,"a":2}}');
    assert.equal(toJsonToolResult({ output: "" }), '{"output":"","isError":false}');
    const part: ContentPart = { name: "p.png", data: PNG, url: "", mimeType: "image/png", type: "image" };
    assert.equal(
      toJsonToolResult({ structuredContent: { b: 1, a: [] }, isError: true, output: "x", parts: [part] }),
      `{"output":"x","isError":true,"parts":[{"type":"image","mimeType":"image/png","data":"${PNG}","name":"p.png"}],"structuredContent":{"b":1,"a":[]}}`,
    );
    assert.equal(toJsonContentPart({ type: "text", text: "t", name: "", mimeType: "", data: "", url: "" }), '{"type":"text","text":"t"}');
    assert.equal(toJsonToolResult({ output: "", structuredContent: false }), '{"output":"","isError":false,"structuredContent":false}');
  });

  it("omit empty calls and keep a required empty results", () => {
    const run: RunResult = { status: "done", results: [], calls: [] };
    assert.equal(toJsonRunResult(run), '{"status":"done","results":[]}');
    const pendingRun: RunResult = {
      calls: [{ arguments: { n: 1 }, name: "sqrt", id: "c1" }],
      pending: { prompt: "ok?", kind: "approval", id: "pnd-1" },
      results: [],
      status: "pending",
    };
    assert.equal(
      toJsonRunResult(pendingRun),
      '{"status":"pending","results":[],"pending":{"id":"pnd-1","kind":"approval","prompt":"ok?"},"calls":[{"id":"c1","name":"sqrt","arguments":{"n":1}}]}',
    );
    assert.deepEqual(fromJsonRunResult(toJsonRunResult(pendingRun)), { ...pendingRun, requests: [], order: [] });
  });

  it("write optional fields of every type in schema order", () => {
    assert.equal(toJsonAnswer({ reason: "declined", ok: false, id: "a", data: {} }), '{"id":"a","ok":false,"data":{},"reason":"declined"}');
    assert.equal(
      toJsonRequest({ expiresAt: "2025-06-30T12:00:00Z", data: { s: 1 }, url: "https://x", prompt: "p", kind: "k", id: "i" }),
      '{"id":"i","kind":"k","prompt":"p","url":"https://x","data":{"s":1},"expiresAt":"2025-06-30T12:00:00Z"}',
    );
    assert.equal(
      toJsonToolCallResult({ result: { output: "4", parts: [] }, name: "sqrt", id: "c" }),
      '{"id":"c","name":"sqrt","result":{"output":"4","isError":false}}',
    );
  });

  it("return a new object and leave the value alone", () => {
    const r: ToolResult = { output: "x", parts: [] };
    const wire = toWireToolResult(r);
    assert.deepEqual(Object.keys(wire), ["output", "isError"]);
    assert.deepEqual(r, { output: "x", parts: [] });
  });

  it("write big and exactly written numbers as they came, an exponent spelled e with a sign", () => {
    const text = '{"output":"","isError":false,"metadata":{"id":9007199254740993,"f":1.0,"e":1e+3,"z":-0,"s":0.5}}';
    assert.equal(toJsonToolResult(fromJsonToolResult(text)), text);
    assert.equal(toJsonToolResult(fromJsonToolResult(text.replace("1e+3", "1E3"))), text);
  });

  it("refuse a value the schema rejects, naming the path", () => {
    rejected(() => toJsonToolResult({ output: 1 } as unknown as ToolResult), "$.output");
    rejected(() => toJsonToolResult({ output: "", parts: [{ type: "image", mimeType: "image/png", data: "!" }] }), "$.parts[0].data");
    rejected(() => toJsonToolResult({ output: "", structuredContent: null }), "$.structuredContent");
    rejected(() => toJsonContentPart({ type: "text", text: 1 } as unknown as ContentPart), "$.text");
    rejected(() => toJsonToolResult({ output: "", metadata: { t: Number.POSITIVE_INFINITY } }), "$.metadata.t");
    const withFunction = { output: "", extra: () => 0 }; // an unknown key: not in an object literal
    rejected(() => toJsonToolResult(withFunction), "$.extra");
    rejected(() => toJsonContentPart({ type: "pdf" } as unknown as ContentPart), "$.type");
    rejected(() => toJsonContentPart({ kind: "image" } as unknown as ContentPart), "$", /the required key "type"/);
  });

  it("round-trip the parsers' output to the same text", () => {
    const texts = [
      '{"output":"é 😀 \\u0000","isError":true,"metadata":{"pending":{"id":"p","kind":"approval","prompt":"?"},"10":1,"2":2}}',
      '{"status":"done","results":[{"id":"c","name":"n","result":{"output":"","isError":false},"x":[]}],"seal":"s"}',
    ];
    assert.equal(toJsonToolResult(fromJsonToolResult(texts[0] as string)), texts[0]);
    assert.equal(toJsonRunResult(fromJsonRunResult(texts[1] as string)), texts[1]);
  });

  it("normalise what is not canonical", () => {
    const text = '{ "metadata" : {"b":1}, "parts": [], "output": "caf\\u00e9 \\/" }';
    assert.equal(toJsonToolResult(fromJsonToolResult(text)), '{"output":"café /","isError":false,"metadata":{"b":1}}');
  });
});

describe("fromJson", () => {
  it("reports a syntax error as a WireError at $", () => {
    rejected(() => fromJsonToolResult('{"output":"x",}'), "$", /JSON text/);
    rejected(() => fromJsonToolResult(""), "$", /the end of the text/);
  });
});
