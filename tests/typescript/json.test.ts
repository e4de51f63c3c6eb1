// readJson / writeJson: the lossless JSON reader and writer of the generated package.

import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { JsonNumber, MAX_DEPTH, readJson, WireError, writeJson, type JsonObject, type JsonValue } from "toolnexus-contract";
import { PACKAGE } from "./paths.js";

const nest50 = "[".repeat(50) + "]".repeat(50);

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
    for (const text of ["9007199254740993", "-9007199254740993", "18446744073709551615", "123456789012345678901234567890", "1.0", "1e+3", "-0", "0.10", "1e-400"]) {
      const value = readJson(text);
      assert.ok(value instanceof JsonNumber, text);
      assert.equal(value.text, text);
      same(text);
      same(`{"n":${text}}`);
    }
    // The number rule (R6): an exponent is written `e` with a sign.
    for (const [text, written] of [["1e3", "1e+3"], ["1E+3", "1e+3"], ["1E-3", "1e-3"], ["2.50E7", "2.50e+7"]] as const) {
      const value = readJson(text);
      assert.ok(value instanceof JsonNumber, text);
      assert.equal(writeJson(value), written);
    }
    assert.equal(writeJson(readJson("1e21")), "1e+21");
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

  it("refuses an object that repeats a key, at $, naming the key and where", () => {
    rejects('{"a":1,"b":2,"a":3}', /got the key "a" a second time in one object at offset 13$/);
    rejects('{"a":1,"a":1}', /the key "a" a second time/); // the same value too
    rejects('{"k":1,"\\u006b":2}', /the key "k" a second time/); // the same key, escaped
    rejects('{"__proto__":1,"__proto__":2}', /the key "__proto__" a second time/);
    rejects('{"10":1,"9":2,"10":3}', /the key "10" a second time/); // integer-like keys too
    rejects('[{"x":{"y":1,"y":2}}]', /the key "y" a second time in one object at offset 13$/);
    // The same key in two objects, or keys that differ only in case, are not repeats.
    assert.equal(writeJson(readJson('{"k":{"k":1},"K":2,"k ":3}')), '{"k":{"k":1},"K":2,"k ":3}');
  });

  it("decodes escapes", () => {
    assert.equal(readJson('"\\u00e9\\/\\n\\ud83d\\ude00"'), "é/\n😀");
    assert.deepEqual(readJson('{"\\ud83d\\ude00":"\\uD83D\\uDE00"}'), { "😀": "😀" });
    assert.equal(writeJson(readJson('"\\ud83d\\ude00"')), '"😀"'); // an escaped pair is written raw
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

// Issue #12, "one wire, one verdict": what every language refuses as not JSON, at $.
describe("readJson: the JSON-level rules", () => {
  it("R1: refuses NaN and the infinities", () => {
    rejects("NaN", /"N" at offset 0/);
    rejects("Infinity", /"I" at offset 0/);
    rejects("-Infinity", /"-" at offset 0/);
    rejects('{"m":{"x":NaN}}', /"N" at offset 10/);
    rejects('{"m":[1,-Infinity]}', /"-" at offset 8/);
  });

  it("R1: refuses lone surrogate escapes, in values and in keys", () => {
    const lone = /a string with a lone surrogate escape at offset/;
    for (const s of ["\\ud800", "\\udbff", "\\udc00", "\\udfff", "\\ud800x", "x\\ud800", "\\ud800\\u0041", "\\ud800\\ud800", "\\udc00\\ud800", "\\ud83d\\ude00\\ude00", "\\ud800\\n"]) {
      rejects(`"${s}"`, lone);
      rejects(`{"output":"${s}"}`, /lone surrogate escape at offset 10/);
      rejects(`{"${s}":1}`, /lone surrogate escape at offset 1/);
      rejects(`[{"a":{"${s}":[]}}]`, /lone surrogate escape at offset 7/);
    }
  });

  it("R1: refuses a lone surrogate code unit in the text itself", () => {
    rejects('"\ud800"', /a lone surrogate at offset 1/);
    rejects('{"a\udc00":1}', /a lone surrogate at offset 3/);
    rejects('["😀", "\ude00"]', /a lone surrogate at offset 8/);
    assert.equal(readJson('"😀\\u00e9"'), "😀é");
  });

  it("R2: refuses a number beyond the range of a double, keeps big integers within it", () => {
    const beyond = /a number beyond the range of a double at offset/;
    for (const text of ["1e400", "-1e400", "1E309", "1.7976931348623159e308", "-1.7976931348623159e308", "1" + "0".repeat(309), "-" + "9".repeat(309), "0.1e310"]) {
      rejects(text, beyond);
      rejects(`{"metadata":{"n":${text}}}`, /a number beyond the range of a double at offset 17/);
    }
    for (const text of ["1.7976931348623157e+308", "-1.7976931348623158e+308", "9".repeat(308), "1" + "0".repeat(308).slice(1), "1e-400", "4.9e-324"]) {
      same(text); // (written with the exponent's sign, as R6 spells it)
      same(`{"n":[${text}]}`);
    }
    const big = "12345678".repeat(38) + "1234"; // 308 digits
    assert.equal(big.length, 308);
    assert.equal(writeJson(readJson(`{"metadata":{"n":${big}}}`)), `{"metadata":{"n":${big}}}`);
  });

  it("R3: reads exactly MAX_DEPTH levels, refuses one more at $", () => {
    assert.equal(MAX_DEPTH, 100);
    const nest = (n: number, open = "[", close = "]"): string => open.repeat(n) + close.repeat(n);
    const objects = (n: number): string => '{"a":'.repeat(n - 1) + "{}" + "}".repeat(n - 1);
    for (const text of [nest(100), objects(100), '{"a":' + nest(99) + "}", "[" + objects(99) + "]"]) {
      same(text);
    }
    rejects(nest(101), /expected JSON text nested at most 100 levels deep, got level 101 at offset 100/);
    rejects(objects(101), /got level 101 at offset 500/);
    rejects('{"a":' + nest(100) + "}", /level 101/);
    rejects("[" + objects(100) + "]", /level 101/);
    // Levels count depth, not how many arrays and objects there are.
    same("[" + Array.from({ length: 50 }, () => nest(99)).join(",") + "]");
    same('{"a":' + nest(99) + ',"b":' + nest(99) + ',"c":{"d":' + nest(98) + "}}");
  });

  it("R3: refuses any depth past the limit at once, also with the JIT warm", () => {
    for (let i = 0; i < 3000; i++) {
      readJson('{"output":"x","metadata":{"a":' + nest50 + "}}");
    }
    for (const depth of [101, 4_000, 6_000, 8_000, 10_000, 12_000, 16_000, 20_000, 40_000, 1_000_000]) {
      rejects("[".repeat(depth) + "]".repeat(depth), /nested at most 100 levels deep, got level 101 at offset 100$/);
      rejects('{"output":"x","metadata":{"a":' + "[".repeat(depth) + "]".repeat(depth) + "}}", /got level 101 at offset 128$/);
    }
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

describe("writeJson: R4, nesting and cycles", () => {
  function refuses(value: unknown, path: string, got: RegExp): void {
    assert.throws(
      () => writeJson(value),
      (err: unknown) => err instanceof WireError && err.path === path && got.test(err.message),
      path,
    );
  }

  it("writes exactly MAX_DEPTH levels, refuses one more, naming the path", () => {
    let deep: unknown = [];
    for (let i = 1; i < 100; i++) {
      deep = [deep];
    }
    assert.equal(writeJson(deep), "[".repeat(100) + "]".repeat(100));
    refuses([deep], "$" + "[0]".repeat(100), /expected a value nested at most 100 levels deep, got an array at level 101$/);
    refuses({ a: { b: deep } }, "$.a.b" + "[0]".repeat(98), /got an array at level 101$/);
  });

  it("refuses a cycle where it closes, arrays and objects alike", () => {
    const o: Record<string, unknown> = { n: 1 };
    o["self"] = o;
    refuses(o, "$.self", /expected a JSON value without cycles, got the object at \$ again$/);
    refuses({ m: o }, "$.m.self", /got the object at \$\.m again$/);
    const a: unknown[] = [1];
    a.push({ back: [a] });
    refuses({ "x-y": a }, '$["x-y"][1].back[0]', /got the array at \$\["x-y"\] again$/);
  });

  it("writes a value shared by two keys (no cycle) twice", () => {
    const shared = { s: [1] };
    assert.equal(writeJson({ a: shared, b: [shared, shared] }), '{"a":{"s":[1]},"b":[{"s":[1]},{"s":[1]}]}');
  });

  it("refuses 100,000 levels with a WireError, never a RangeError", () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) {
      deep = { d: deep };
    }
    refuses(deep, "$" + ".d".repeat(100), /got an object at level 101$/);
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

// readJson and writeJson hand most values to JSON.parse and JSON.stringify, after a check that
// they give what the reader and the writer would (readJsonFully and writeJsonFully, internal):
// the same values, key order, numbers' text and errors, on texts made to hit every way out.
describe("readJson and writeJson: the native fast paths", async () => {
  const internal = (await import(pathToFileURL(join(PACKAGE, "dist", "json.js")).href)) as {
    readJsonFully(text: string): JsonValue;
    writeJsonFully(value: unknown): string;
  };

  /** A seeded generator (mulberry32), so a failure names a text that can be read again. */
  function random(seed: number): () => number {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  // Backslash runs before a quote (escaped or closing), what looks like a surrogate escape after
  // an escaped backslash, integers about the 15 digits the plain-integer scan takes.
  const KEYS = ['"a"', '"b"', '"c"', '"1"', '"10"', '"\\u0061"', '"__proto__"', '""', '"k\\"q"', '"é"', '"k\\\\"', '"\\\\ud800"'];
  const NUMBERS = ["0", "-0", "1", "-7", "1.0", "1.5", "2.50", "1e5", "1E5", "1e-7", "1e400", "-1e400", "123456789012345678901", "0.1", "9007199254740993", "999999999999999", "-999999999999999", "1000000000000000", "0e1", "-0.0"];
  const STRINGS = ['"x"', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"a\\"b"', '"\\\\"', '"é😀"', '"\\n\\t"', '"\\u0041"', '"back\\\\"', '"\\\\\\"q"', '"\\\\ud800"', '"a\\\\\\\\"', '"\\uD83D\\uDE00"'];

  function text(next: () => number, depth: number): string {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const space = (): string => (next() < 0.2 ? pick([" ", "\n", "\t ", "\r\n  "]) : "");
    const r = next();
    if (depth > 0 && r < 0.3) {
      const n = Math.floor(next() * 4);
      const keys = Array.from({ length: n }, () => pick(KEYS));
      return "{" + space() + keys.map((k) => k + space() + ":" + space() + text(next, depth - 1)).join("," + space()) + space() + "}";
    }
    if (depth > 0 && r < 0.45) {
      const n = Math.floor(next() * 4);
      return "[" + Array.from({ length: n }, () => space() + text(next, depth - 1)).join(",") + "]";
    }
    if (r < 0.6) {
      return pick(NUMBERS);
    }
    if (r < 0.85) {
      return pick(STRINGS);
    }
    return pick(["true", "false", "null", "nul", "01", "[", "}"]);
  }

  function outcome(read: () => JsonValue): string {
    try {
      const value = read();
      return "ok " + internal.writeJsonFully(value) + " " + writeJson(value);
    } catch (err) {
      assert.ok(err instanceof WireError, String(err));
      return "error " + err.message;
    }
  }

  it("readJson gives what the reader gives, and writeJson what the writer writes", () => {
    const next = random(29);
    for (let i = 0; i < 20_000; i++) {
      const t = text(next, 1 + Math.floor(next() * 4));
      assert.equal(outcome(() => readJson(t)), outcome(() => internal.readJsonFully(t)), t);
    }
  });

  it("is exact about depth", () => {
    for (const depth of [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1]) {
      for (const t of ["[".repeat(depth) + "]".repeat(depth), '{"a":'.repeat(depth) + "1" + "}".repeat(depth)]) {
        assert.equal(outcome(() => readJson(t)), outcome(() => internal.readJsonFully(t)));
      }
    }
  });
});
