// Seal version 4 against its document (docs/seal.md), through the vectors every language runs
// (idl/seal/vectors.json): the runtime's canonical form is RFC 8785's (also for numbers the wire
// reader keeps as JsonNumbers), it accepts the seals the document gives, returns runs sealed as
// the document says (checked by seal_spec.ts, written from the document alone), and refuses what
// the document refuses, with the same reason.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { fromJsonRunResult, parseRunResult, readJson, toJsonRunResult, type JsonObject, type RunResult } from "toolnexus-contract";
import { ResumeError, Toolkit } from "toolnexus-contract/runtime";
import { PACKAGE, ROOT } from "./paths.js";
import { specSeal } from "./seal_spec.js";

interface Case {
  name: string;
  key: string;
  expires: number | null;
  principal: string | null;
  run: JsonObject;
}

interface Refused {
  name: string;
  /** The run, or (`text`) its JSON text, whose number literals matter. */
  run?: JsonObject;
  text?: string;
  reason: string;
  now?: number;
  principal?: string;
}

interface Doc {
  secrets: { [keyId: string]: string };
  jcs: { name: string; json: string; canonical: string }[];
  seals: Case[];
  refused: Refused[];
}

const TEXT = readFileSync(join(ROOT, "idl", "seal", "vectors.json"), "utf8");
// Read losslessly, as a stored run is: `1.0` and `-0.0` stay JsonNumbers until the seal reads them.
const DOC = readJson(TEXT) as unknown as Doc;
const SECRETS = Object.fromEntries(Object.entries(DOC.secrets).map(([id, h]) => [id, Uint8Array.from(Buffer.from(h, "hex"))]));
const NOW = 1_700_000_000_000;

// The canonical form is internal to the runtime: read from the built module itself.
const seal = (await import(pathToFileURL(join(PACKAGE, "dist", "seal.js")).href)) as { canonical(value: unknown): Uint8Array };
const canonicalText = (value: unknown): string => Buffer.from(seal.canonical(value)).toString("utf8");

function kit(active: string, now: number = NOW): Toolkit {
  return new Toolkit([], { secrets: SECRETS, activeKey: active, clock: () => now });
}

/** The wire form of `run` without its seal, as plain JSON (JSON.parse's doubles). */
function unsealed(run: RunResult): { [key: string]: never } {
  const wire = JSON.parse(toJsonRunResult(run)) as { [key: string]: never };
  delete wire["seal"];
  return wire;
}

describe("idl/seal: RFC 8785", () => {
  // Read with readJson, as a stored run is: a number JavaScript would write back otherwise (`1.0`,
  // `4.50`, `1E30`, `1e16`) is a JsonNumber, which the seal reads as the double its text spells.
  // (JSON.parse would lose what the text says: `1e16` becomes a number that is written back as
  // the integer 10000000000000000, which Python and Rust read as an integer beyond 2^53.)
  for (const c of DOC.jcs) {
    it(c.name, () => {
      assert.equal(canonicalText(readJson(c.json)), c.canonical);
    });
  }

  it("refuses what has no exact form: an integer beyond ±(2^53 − 1), NaN, a lone surrogate", () => {
    for (const value of [readJson("9007199254740993"), readJson("[-9007199254740992]"), 1e20, { a: NaN }, "\ud800", new Date(0)]) {
      assert.throws(() => seal.canonical(value), { name: "NotJSON" }, String(value));
    }
    assert.equal(canonicalText([9007199254740991, 1e21, readJson("1e400".replace("400", "300"))]), "[9007199254740991,1e+21,1e+300]");
  });
});

describe("idl/seal: seals", () => {
  for (const c of DOC.seals) {
    it(`${c.name}: accepted, and the run it returns is sealed as documented`, async () => {
      const run = parseRunResult(c.run);
      const requests = run.requests ?? [];
      const step = await kit(c.key).resume(run, { id: requests[0]?.id ?? "", ok: false }, c.principal === null ? {} : { principal: c.principal });
      assert.equal(step.status, "pending");
      assert.deepEqual(
        (step.calls ?? []).map((call) => call.id),
        ["c3"],
      );
      assert.equal(step.seal, specSeal(SECRETS[c.key] as Uint8Array, c.key, unsealed(step), c.expires, c.principal));
    });
  }

  it("a run sealed under a key that is no longer active resumes, and comes back sealed under the active one", async () => {
    const rotated = DOC.seals.find((c) => c.key === "k3") as Case;
    const run = parseRunResult(rotated.run);
    const step = await kit("k1").resume(run, { id: (run.requests ?? [])[0]?.id ?? "", ok: false });
    assert.match(step.seal ?? "", /^v4\.hmac-sha256\.k1\./);
    assert.equal(step.seal, specSeal(SECRETS["k1"] as Uint8Array, "k1", unsealed(step), null, null));
    const without = new Toolkit([], { secrets: { k1: SECRETS["k1"] as Uint8Array }, clock: () => NOW });
    await assert.rejects(without.resume(run, { id: (run.requests ?? [])[0]?.id ?? "", ok: false }), (err: unknown) => err instanceof ResumeError && err.reason === "seal");
  });
});

describe("idl/seal: refusals", () => {
  for (const c of DOC.refused) {
    it(`${c.name}: ResumeError(${c.reason})`, async () => {
      const run = c.text === undefined ? parseRunResult(c.run) : fromJsonRunResult(c.text);
      await assert.rejects(
        kit("k1", c.now ?? NOW).resume(run, { id: (run.requests ?? [])[0]?.id ?? "", ok: false }, c.principal === undefined ? {} : { principal: c.principal }),
        (err: unknown) => err instanceof ResumeError && err.reason === c.reason,
      );
    });
  }
});
