// Base64 in the package: the check of a part's `data` (the IDL's pattern), the decoding of a
// `data:` URL and the encoding of `fromBytes`/`fromPath`, at every size a part may have. The
// pattern, run by a backtracking regular expression, overflowed V8's stack from about 5 MB of
// base64 (issue #28): the vectors of idl/examples/built.json (5, 20 and 50 MB), which Python and
// Rust run too, pin that a big part parses and emits as a small one does.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  fromBytes,
  fromJsonContentPart,
  fromJsonToolResult,
  fromPath,
  fromUrl,
  parseContentPart,
  toJsonToolResult,
  WireError,
} from "toolnexus-contract";
import { ROOT } from "./paths.js";
import { listBuilt, runBuilt } from "./vectors.js";

const BUILT = join(ROOT, "idl", "examples", "built.json");
const IDL_PATTERN = new RegExp(
  (JSON.parse(readFileSync(join(ROOT, "idl", "ContentPart.json"), "utf8")) as { properties: { data: { pattern: string } } })
    .properties.data.pattern,
  "u",
);

/** What `fn` gave: "ok", "WireError at <path>", or the class and message of anything else. */
function outcome(fn: () => unknown): string {
  try {
    fn();
    return "ok";
  } catch (err) {
    return err instanceof WireError ? `WireError at ${err.path}` : `${(err as Error).constructor.name}: ${(err as Error).message}`;
  }
}

describe("idl/examples/built.json", () => {
  for (const v of listBuilt(BUILT)) {
    it(v.name, () => {
      const got = runBuilt(v);
      if (v.valid) {
        assert.ok(got.ok, got.ok ? "" : `${got.error} (${got.path})`);
        assert.ok(got.same, "the emitted text differs from the document");
      } else {
        assert.ok(!got.ok, "accepted");
        assert.equal(got.path, v.path);
      }
    });
  }
});

describe("the data check agrees with the IDL's pattern", () => {
  it("on every short string over the alphabet, padding and a stray character", () => {
    const letters = ["A", "z", "0", "+", "/", "=", "!", " ", "\n", "é"];
    let count = 0;
    const visit = (s: string, depth: number): void => {
      const want = IDL_PATTERN.test(s);
      // With a url, so that the empty string (no data) is still a part that carries something.
      const got = outcome(() => parseContentPart({ type: "file", data: s, url: "https://e.x/f" }));
      assert.equal(got === "ok", want, JSON.stringify(s));
      if (!want) {
        assert.equal(got, "WireError at $.data", JSON.stringify(s));
      }
      count++;
      if (depth > 0) {
        for (const c of letters) {
          visit(s + c, depth - 1);
        }
      }
    };
    visit("", 5);
    assert.ok(count > 100_000);
  });
});

describe("the data check agrees with the IDL's pattern on long strings", () => {
  // The check reads 65,536 characters at a time: a fault on either side of a boundary, in the
  // middle, at the very end, and padding that would end a slice but not the string.
  const base = "QUJD".repeat(50_000); // 200,000 characters, boundaries at 65,536 and 131,072
  const at = (s: string, i: number, c: string): string => s.slice(0, i) + c + s.slice(i + 1);
  const cases: [string, string][] = [
    ["whole", base],
    ["padded by one", base.slice(0, -1) + "="],
    ["padded by two", base.slice(0, -2) + "=="],
    ["three pads", base.slice(0, -3) + "==="],
    ["a pad before the end", at(base, base.length - 2, "=")],
    ["a slice's whole quanta ending in pads", at(at(base, 65_534, "="), 65_535, "=")],
    ["a pad opening the second slice", at(base, 65_536, "=")],
    ["one character too many", base + "Q"],
    ["url-safe letters", at(at(base, 100_000, "-"), 100_001, "_")],
  ];
  for (const i of [0, 65_535, 65_536, 65_537, 131_071, 131_072, base.length - 1]) {
    for (const c of ["!", " ", "\n", "é", "\u0100", "\ud83d"]) {
      cases.push([`${JSON.stringify(c)} at ${i}`, at(base, i, c)]);
    }
  }
  for (const [name, s] of cases) {
    it(name, () => {
      const want = IDL_PATTERN.test(s);
      const got = outcome(() => parseContentPart({ type: "file", data: s, url: "https://e.x/f" }));
      assert.equal(got, want ? "ok" : "WireError at $.data");
    });
  }
  it("is valid for the whole string alone and the two paddings", () => {
    assert.deepEqual(
      cases.filter(([, s]) => IDL_PATTERN.test(s)).map(([name]) => name),
      ["whole", "padded by one", "padded by two"],
    );
  });
});

describe("big parts through the helpers", () => {
  const dir = mkdtempSync(join(tmpdir(), "tn-base64-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const b64 = "QUFB".repeat(1_500_000); // 6,000,000 characters, 4,500,000 bytes of "A"

  it("fromUrl decodes a 6 MB data: URL", () => {
    const part = fromUrl("data:image/png;base64," + b64);
    assert.equal(part.data, b64);
    assert.equal(part.mimeType, "image/png");
  });

  it("fromUrl refuses a bad character at the end of a big data: URL, with its own error", () => {
    const got = outcome(() => fromUrl("data:image/png;base64," + b64.slice(0, -1) + "!"));
    assert.match(got, /^Error: the data: URL's base64 is not valid/);
  });

  it("fromPath reads a 4.5 MB file, whose part toJsonToolResult writes and fromJsonToolResult reads", () => {
    const file = join(dir, "photo.bin");
    writeFileSync(file, Buffer.alloc(4_500_000, 7));
    const part = fromPath(file);
    assert.equal(part.data, Buffer.alloc(4_500_000, 7).toString("base64"));
    const text = toJsonToolResult({ output: "", isError: false, parts: [part] });
    assert.equal(fromJsonToolResult(text).parts?.[0]?.data, part.data);
  });

  it("fromBytes of 20 MiB is what Node.js's Buffer writes", () => {
    const raw = new Uint8Array(20 * 1024 * 1024 + 2);
    for (let i = 0; i < raw.length; i++) {
      raw[i] = (i * 7919) & 0xff;
    }
    const part = fromBytes(raw, "application/octet-stream");
    assert.equal(part.data, Buffer.from(raw).toString("base64"));
    assert.equal(fromJsonContentPart(JSON.stringify(part)).data, part.data);
  });
});
