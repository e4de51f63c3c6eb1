// The seal of docs/seal.md (version 4), written again from the document alone, with nothing of
// the package: the independent side the runtime's seals are checked against (as
// tests/seal_spec.py is for Python). Runs are plain JSON here, read by JSON.parse, whose numbers
// are the doubles RFC 8785 writes.

import { createHash, createHmac } from "node:crypto";
import canonicalize from "canonicalize";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const enc = new TextEncoder();

function mac(key: Uint8Array, ...parts: Uint8Array[]): Buffer {
  const h = createHmac("sha256", key);
  for (const p of parts) h.update(p);
  return h.digest();
}

function sha(...parts: Uint8Array[]): Buffer {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
}

function jcs(value: Json): Buffer {
  return Buffer.from(canonicalize(value) as string, "utf8");
}

function be(n: bigint, bytes: number): Buffer {
  return Buffer.from(n.toString(16).padStart(bytes * 2, "0"), "hex");
}

/** The version-4 seal of the pending run `run` (its wire form, without `seal`). */
export function specSeal(secret: Uint8Array, keyId: string, run: { [key: string]: Json }, expires: number | null, principal: string | null): string {
  const resultsKey = mac(secret, enc.encode("toolnexus.RunResult.seal.v4.results"));
  const waitingKey = mac(secret, enc.encode("toolnexus.RunResult.seal.v4.waiting"));
  const principalKey = mac(secret, enc.encode("toolnexus.RunResult.seal.v4.principal"));
  const order = run["order"] as string[];
  const position = (id: Json): bigint => BigInt(order.indexOf(id as string));
  const digest = (element: Json): Buffer => sha(jcs(element));
  const mod = 1n << 256n;
  let results = 0n;
  for (const item of (run["results"] ?? []) as { [key: string]: Json }[]) {
    results = (results + BigInt(`0x${mac(resultsKey, be(position(item["id"] as Json), 8), digest(item)).toString("hex")}`)) % mod;
  }
  let waiting = 0n;
  const calls = run["calls"] as { [key: string]: Json }[];
  const requests = run["requests"] as Json[];
  calls.forEach((call, i) => {
    const term = mac(waitingKey, be(position(call["id"] as Json), 8), digest(call), digest(requests[i] as Json));
    waiting = (waiting + BigInt(`0x${term.toString("hex")}`)) % mod;
  });
  const tag = principal === null ? "" : mac(principalKey, enc.encode(principal)).subarray(0, 18).toString("base64url");
  const clear = `${keyId}.${expires === null ? "" : expires}.${tag}`;
  const turn = (run["turn"] ?? "") as string;
  const body = Buffer.concat([
    enc.encode("toolnexus.RunResult.seal.v4\n"),
    enc.encode(clear),
    enc.encode("\npending\n"),
    digest(run["pending"] as Json),
    sha(jcs(turn ? [turn, order] : order)),
    be(BigInt(((run["results"] ?? []) as Json[]).length), 8),
    be(results, 32),
    be(BigInt(calls.length), 8),
    be(waiting, 32),
  ]);
  return `v4.hmac-sha256.${clear}.${mac(secret, body).toString("base64url")}`;
}
