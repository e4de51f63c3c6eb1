// Result limits (src/limit.ts, src/cut.ts): a bad limit refused with the vectors' texts, the
// units counted in code points (never UTF-16 units) and UTF-8 bytes, and the cut checked against a
// literal reading of the rule in idl/loop/README.md ("The rule, to the code point") over texts of
// emoji, CJK, line breaks and lone surrogates.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ToolResult } from "toolnexus-contract";
import { CUT_FLOOR, Limit, Toolkit, defineTool, estimateTokens } from "toolnexus-contract/runtime";

const refused = (init: object, message: string): void => {
  assert.throws(() => new Limit(init), (err: unknown) => err instanceof RangeError && err.message === message);
};

describe("Limit", () => {
  it("refuses a limit with no unit, zero, a negative one, or one that is not whole", () => {
    refused({}, "a result limit counts at least one of chars, tokens and bytes");
    refused({ chars: 0 }, "a result limit of 0 chars is refused: a limit is a whole number above zero");
    refused({ tokens: -5 }, "a result limit of -5 tokens is refused: a limit is a whole number above zero");
    refused({ chars: 250.5 }, "a result limit of 250.5 chars is refused: a limit is a whole number above zero");
    refused({ bytes: Number.NaN }, "a result limit of NaN bytes is refused: a limit is a whole number above zero");
  });

  it("refuses a limit below the widest marker, unit by unit, chars first", () => {
    assert.deepEqual({ ...CUT_FLOOR }, { chars: 98, tokens: 26, bytes: 102 });
    refused({ bytes: 101 }, "a result limit of 101 bytes is refused: the cut marker alone may take 102 bytes, so a limit is at least 102");
    refused({ chars: 97, tokens: 25 }, "a result limit of 97 chars is refused: the cut marker alone may take 98 chars, so a limit is at least 98");
    refused({ chars: 98, tokens: 25 }, "a result limit of 25 tokens is refused: the cut marker alone may take 26 tokens, so a limit is at least 26");
    assert.deepEqual(new Limit({ chars: 98, tokens: 26, bytes: 102 }).toWire(), { chars: 98, tokens: 26, bytes: 102 });
  });

  it("refuses a unit that is not a number, or one it does not know, with a TypeError", () => {
    assert.throws(() => new Limit({ chars: "200" } as never), TypeError);
    assert.throws(() => new Limit({ lines: 200 } as never), /a result limit counts chars, tokens and bytes, not \["lines"\]/);
  });

  it("is refused where it is set: on a tool and on a toolkit", () => {
    assert.throws(() => defineTool("t", "t", null, () => "x", { limit: { chars: 0 } }), RangeError);
    assert.throws(() => new Toolkit([], { limit: { bytes: 10 } }), RangeError);
  });

  it("takes the tighter of two limits unit by unit, written chars, tokens, bytes", () => {
    const both = new Limit({ chars: 200 }).tighter(new Limit({ bytes: 300, chars: 400 }));
    assert.deepEqual(Object.entries(both.toWire()), [["chars", 200], ["bytes", 300]]);
  });

  it("estimates tokens as the UTF-8 bytes over four, rounded up", () => {
    assert.equal(estimateTokens("abcde"), 2);
    assert.equal(estimateTokens("😀"), 1); // 4 bytes
    assert.equal(estimateTokens("日本"), 2); // 6 bytes
    assert.equal(estimateTokens("\uD800"), 1); // a lone surrogate: 3 bytes
  });
});

// -- the cut, against a literal reading of the rule -----------------------------------------------

const utf8Of = (point: string): number => {
  const c = point.codePointAt(0) as number;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; // a lone surrogate: 3
};
const bytesOf = (points: readonly string[]): number => points.reduce((n, p) => n + utf8Of(p), 0);
const markerOf = (cut: number): string => `\n[… ${cut} characters cut …]\n`;

/** The rule of idl/loop/README.md over an array of code points, step by step (no spill). */
function literal(text: string, limit: { chars?: number; tokens?: number; bytes?: number }): { output: string; kept: number[][] } | undefined {
  const points = Array.from(text);
  const n = points.length;
  const caps = [limit.bytes, limit.tokens === undefined ? undefined : 4 * limit.tokens].filter((c): c is number => c !== undefined);
  const cap = caps.length > 0 ? Math.min(...caps) : Infinity;
  if (n <= (limit.chars ?? Infinity) && bytesOf(points) <= cap) {
    return undefined;
  }
  const widest = Array.from(markerOf(n));
  const roomC = Math.max((limit.chars ?? Infinity) - widest.length, 0);
  const roomB = Math.max(cap - bytesOf(widest), 0);
  let h = 0;
  while (h < n && h + 1 <= Math.floor(roomC / 2) && bytesOf(points.slice(0, h + 1)) <= Math.floor(roomB / 2)) h++;
  const line = points.slice(0, h).lastIndexOf("\n") + 1;
  if (2 * line >= h) h = line;
  const headBytes = bytesOf(points.slice(0, h));
  let t = 0;
  while (n - t - 1 >= h && t + 1 <= roomC - h && bytesOf(points.slice(n - t - 1)) <= roomB - headBytes) t++;
  const start = n - t;
  if (start > 0 && points[start - 1] !== "\n") {
    const found = points.indexOf("\n", start);
    if (found !== -1 && 2 * (n - found - 1) >= t) t = n - found - 1;
  }
  const output = points.slice(0, h).join("") + markerOf(n - h - t) + points.slice(n - t).join("");
  return { output, kept: [[0, h], [n - t, n]] };
}

/** A text of `length` code points drawn from `alphabet` by a seeded generator. */
function textOf(seed: number, length: number, alphabet: readonly string[]): string {
  let x = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[x % alphabet.length] as string;
  }
  return out;
}

async function cutBy(limit: { chars?: number; tokens?: number; bytes?: number }, output: string): Promise<ToolResult> {
  const kit = new Toolkit([defineTool("t", "t", null, () => output, { limit })]);
  const run = await kit.runCalls([{ id: "c1", name: "t", arguments: {} }]);
  return (run.results[0] as { result: ToolResult }).result;
}

describe("the cut", () => {
  const alphabets: readonly (readonly string[])[] = [
    ["a", "b", " ", "\n"],
    ["😀", "👍🏽", "x", "\n"],
    ["日", "本", "語", "。", "\n"],
    ["\uD800", "\uDFFF", "é", "a", "\n", "🎉"],
  ];

  it("agrees with a literal reading of the rule, in code points and bytes", async () => {
    const limits = [{ chars: 120 }, { bytes: 150 }, { tokens: 40 }, { chars: 130, bytes: 200 }];
    let cuts = 0;
    for (const [a, alphabet] of alphabets.entries()) {
      for (const [l, limit] of limits.entries()) {
        for (const length of [90, 200, 401]) {
          const text = textOf(a * 100 + l * 10 + length, length, alphabet);
          const want = literal(text, limit);
          const got = await cutBy(limit, text);
          const where = `${JSON.stringify(limit)} of ${JSON.stringify(text)}`;
          if (want === undefined) {
            assert.equal(got.output, text, where);
            assert.equal(got.metadata, undefined, where);
            continue;
          }
          cuts += 1;
          assert.equal(got.output, want.output, where);
          const truncated = (got.metadata ?? {})["truncated"] as { kept: number[][]; size: { chars: number } };
          assert.deepEqual(truncated.kept, want.kept, where);
          assert.equal(truncated.size.chars, Array.from(text).length, where);
          assert.ok(Array.from(got.output).length <= (limit.chars ?? Infinity), where);
        }
      }
    }
    assert.ok(cuts >= 30, `${cuts} cuts`);
  });

  it("counts an emoji as one character and never splits a surrogate pair", async () => {
    const text = "😀".repeat(300); // 300 code points, 600 UTF-16 units
    const got = await cutBy({ chars: 200 }, text);
    const points = Array.from(got.output);
    assert.ok(points.length <= 200 && points.length > 150, `${points.length} code points`);
    assert.ok(!/[\uD800-\uDFFF]/u.test(got.output), "a lone surrogate in the cut");
    const within = await cutBy({ chars: 300 }, text); // 600 units, but 300 code points: within
    assert.equal(within.output, text);
  });

  it("cuts CJK text by its UTF-8 bytes, on whole code points", async () => {
    const text = "日本語".repeat(100); // 300 code points, 900 bytes
    const got = await cutBy({ bytes: 300 }, text);
    assert.ok(new TextEncoder().encode(got.output).length <= 300);
    const truncated = (got.metadata ?? {})["truncated"] as { size: unknown };
    assert.deepEqual(truncated.size, { chars: 300, bytes: 900, tokens: 225 });
  });

  it("counts a lone surrogate as one code point of three bytes", async () => {
    const text = "\uD800".repeat(50); // 50 code points, 150 bytes
    assert.equal((await cutBy({ bytes: 150 }, text)).output, text);
    const got = await cutBy({ bytes: 200 }, text + "\uD800".repeat(60)); // 110 code points, 330 bytes
    const truncated = (got.metadata ?? {})["truncated"] as { size: unknown; kept: number[][] };
    assert.deepEqual(truncated.size, { chars: 110, bytes: 330, tokens: 83 });
    const [[, h], [s]] = truncated.kept as [[number, number], [number, number]];
    assert.equal(got.output, "\uD800".repeat(h) + `\n[… ${s - h} characters cut …]\n` + "\uD800".repeat(110 - s));
  });

  it("uses a host's tokenizer: the output counts within its token limit", async () => {
    const words = (s: string): number => s.split(/\s+/).filter((w) => w !== "").length;
    const text = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
    const kit = new Toolkit([defineTool("t", "t", null, () => text)], { limit: { tokens: 60 }, tokenizer: words });
    const run = await kit.runCalls([{ id: "c1", name: "t", arguments: {} }]);
    const result = (run.results[0] as { result: ToolResult }).result;
    assert.ok(words(result.output) <= 60, `${words(result.output)} tokens`);
    assert.ok(words(result.output) > 30, `${words(result.output)} tokens: the cut kept too little`);
    const truncated = (result.metadata ?? {})["truncated"] as { size: { tokens: number } };
    assert.equal(truncated.size.tokens, 400);
  });
});
