// readJson / writeJson: the lossless JSON reader and writer of the generated package.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonNumber, readJson, WireError, writeJson, type JsonObject } from "toolnexus-contract";

function same(text: string): void {
  assert.equal(writeJson(readJson(text)), text);
}

function rejects(text: string, got: RegExp): void {
  assert.throws(
    () => readJson(text),
    (err: unknown) => err instanceof WireError && err.path === "$" && got.test(err.message),
    `readJson(${JSON.stringify(text)})`,
  );
}

describe("readJson", () => {
  it("reads every kind of value", () => {
    assert.deepEqual(readJson(' { "a" : [1, -2.5, true, false, null, "x"] , "b":{} } '), {
      a: [1, -2.5, true, false, null, "x"],
      b: {},
    });
  });

  it("keeps numbers a double would change as JsonNumber, and writes them back as written", () => {
    for (const text of ["9007199254740993", "-9007199254740993", "18446744073709551615", "123456789012345678901234567890", "1.0", "1e3", "1E+3", "-0", "0.10", "1e400"]) {
      const value = readJson(text);
      assert.ok(value instanceof JsonNumber, text);
      assert.equal(value.text, text);
      same(text);
      same(`{"n":${text}}`);
    }
    assert.equal(Number(readJson("1.0")), 1);
    assert.equal(readJson("9007199254740991"), 9007199254740991);
    assert.equal(readJson("0.5"), 0.5);
    assert.equal(readJson("-12.75"), -12.75);
    assert.equal(readJson("1e-7"), 1e-7);
  });

  it("keeps the key order of the text, integer-like keys too", () => {
    const text = '{"b":"bee","10":"ten","2":"two","a":{"1":1,"0":0}}';
    const value = readJson(text) as JsonObject;
    assert.deepEqual(Object.keys(value), ["2", "10", "b", "a"]); // what JavaScript does by itself
    same(text);
    value["z"] = 1;
    delete value["10"];
    assert.equal(writeJson(value), '{"b":"bee","2":"two","a":{"1":1,"0":0},"z":1}');
  });

  it("keeps a __proto__ key as data", () => {
    const value = readJson('{"__proto__":{"polluted":true},"a":1}') as JsonObject;
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ["__proto__", "a"]);
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
    same('{"__proto__":{"polluted":true},"a":1}');
  });

  it("keeps the last value of a repeated key, in the first one's place", () => {
    assert.equal(writeJson(readJson('{"a":1,"b":2,"a":3}')), '{"a":3,"b":2}');
  });

  it("decodes escapes", () => {
    assert.equal(readJson('"\\u00e9\\/\\n\\ud83d\\ude00"'), "é/\n😀");
    assert.equal(readJson('"\\ud800"'), "\ud800"); // a lone surrogate escape is JSON
  });

  it("rejects what is not JSON, at $", () => {
    rejects("", /got the end of the text/);
    rejects("   ", /got the end of the text/);
    rejects("{", /end of the text/);
    rejects('{"a":1,}', /"}" at offset 7/);
    rejects("[1,]", /"]" at offset 3/);
    rejects("01", /"1" at offset 1/);
    rejects("1.", /"\." at offset 1/);
    rejects(".5", /"\." at offset 0/);
    rejects("+1", /"\+" at offset 0/);
    rejects("NaN", /"N" at offset 0/);
    rejects("tru", /"t" at offset 0/);
    rejects("{'a':1}", /"'" at offset 1/);
    rejects('{"a" 1}', /"1" at offset 5/);
    rejects('"a\nb"', /"\\n" at offset 2/);
    rejects('"\\x"', /a string with an invalid escape at offset 0/);
    rejects('"\\u12"', /invalid escape at offset 0/);
    rejects('"abc', /end of the text/);
    rejects("\ufeff{}", /offset 0/);
    rejects("{} {}", /"\{" at offset 3/);
    rejects("\u00a0{}", /offset 0/);
  });

  it("turns a nesting too deep for the stack into a WireError", () => {
    assert.throws(() => readJson("[".repeat(200_000)), WireError);
  });
});

describe("writeJson", () => {
  it("writes compact JSON with raw non-ASCII and JSON.stringify's escapes", () => {
    const value = { s: 'q" b\\ / \n\t\r\b\f \u0000\u001f\u007f é 😀 \u2028', n: [0, -1.5, 1e21, 1e-7] };
    assert.equal(
      writeJson(value),
      '{"s":"q\\" b\\\\ / \\n\\t\\r\\b\\f \\u0000\\u001f\u007f é 😀 \u2028","n":[0,-1.5,1e+21,1e-7]}',
    );
    assert.equal(writeJson("\ud800"), '"\\ud800"');
  });

  it("leaves out undefined properties, as JSON.stringify does", () => {
    assert.equal(writeJson({ a: undefined, b: 1 }), '{"b":1}');
  });

  it("rejects what is not JSON, naming the path", () => {
    const cases: [unknown, string][] = [
      [{ a: [1, Number.NaN] }, "$.a[1]"],
      [{ a: Infinity }, "$.a"],
      [{ "x-y": new Date(0) }, '$["x-y"]'],
      [[undefined], "$[0]"],
      [{ f: () => 1 }, "$.f"],
      [{ b: 1n }, "$.b"],
      [new Map(), "$"],
    ];
    for (const [value, path] of cases) {
      assert.throws(() => writeJson(value), (err: unknown) => err instanceof WireError && err.path === path, path);
    }
  });

  it("turns a cycle into a WireError", () => {
    const a: Record<string, unknown> = {};
    a["self"] = a;
    assert.throws(() => writeJson(a), WireError);
  });
});

describe("JsonNumber", () => {
  it("holds only JSON number text", () => {
    assert.equal(new JsonNumber("12e-3").text, "12e-3");
    assert.equal(String(new JsonNumber("1.50")), "1.50");
    assert.equal(JSON.stringify({ n: new JsonNumber("1.50") }), '{"n":1.5}');
    for (const bad of ["", "01", "1.", "+1", "0x10", "NaN", " 1"]) {
      assert.throws(() => new JsonNumber(bad), WireError, bad);
    }
  });
});
