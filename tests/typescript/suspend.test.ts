// pending, authRequired, pendingOf: the suspension rules of DESIGN.md.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  authRequired,
  AUTHORIZATION_PROMPT,
  fromJsonToolResult,
  pending,
  pendingOf,
  toJsonToolResult,
  WireError,
  type Request,
  type ToolResult,
} from "toolnexus-contract";

describe("pending", () => {
  it("is an error result with the prompt as output and the request in metadata.pending", () => {
    const request: Request = { id: "", kind: "approval", prompt: "Delete 3 files?" };
    const r = pending(request);
    assert.equal(r.isError, true);
    assert.equal(r.output, "Delete 3 files?");
    assert.deepEqual(r.parts, []);
    const wire = r.metadata?.["pending"] as { [key: string]: unknown };
    assert.match(String(wire["id"]), /^pnd-[0-9a-f]{32}$/);
    assert.deepEqual(Object.keys(wire), ["id", "kind", "prompt"]);
    assert.equal(request.id, "", "the request is not changed");
  });

  it("generates a different id each time, and keeps one that is set", () => {
    const ids = new Set(Array.from({ length: 100 }, () => pendingOf(pending({ id: "", kind: "input", prompt: "" }))?.id));
    assert.equal(ids.size, 100);
    assert.equal(pendingOf(pending({ id: "mine", kind: "input", prompt: "" }))?.id, "mine");
  });

  it("appends the url on a line of its own", () => {
    assert.equal(pending({ id: "x", kind: "authorization", prompt: "Log in", url: "https://e.com" }).output, "Log in\nhttps://e.com");
    assert.equal(pending({ id: "x", kind: "authorization", prompt: "Log in", url: "" }).output, "Log in");
  });

  it("writes the request's wire form, optional fields and unknown keys included", () => {
    const request = { id: "p1", kind: "input", prompt: "Name?", data: { type: "string" }, expiresAt: "2030-01-01T00:00:00Z", note: "x" };
    const r = pending(request);
    assert.equal(
      toJsonToolResult(r),
      '{"output":"Name?","isError":true,"metadata":{"pending":{"id":"p1","kind":"input","prompt":"Name?","data":{"type":"string"},"expiresAt":"2030-01-01T00:00:00Z","note":"x"}}}',
    );
  });

  it("refuses a request the schema rejects", () => {
    assert.throws(() => pending({ id: "", kind: "", prompt: "" }), (err: unknown) => err instanceof WireError && err.path === "$.kind");
  });
});

describe("authRequired", () => {
  it("asks for authorization at the url, with the default prompt", () => {
    const r = authRequired("https://example.com/login");
    assert.equal(r.output, "Authorization required to continue\nhttps://example.com/login");
    assert.equal(AUTHORIZATION_PROMPT, "Authorization required to continue");
    const req = pendingOf(r);
    assert.equal(req?.kind, "authorization");
    assert.equal(req?.url, "https://example.com/login");
    assert.equal(authRequired("https://e.com", "").output, "Authorization required to continue\nhttps://e.com");
  });

  it("uses a prompt that is given", () => {
    assert.equal(authRequired("https://e.com", "Sign in to GitHub").output, "Sign in to GitHub\nhttps://e.com");
  });
});

describe("pendingOf", () => {
  it("reads the request back, also after a wire round trip", () => {
    const r = pending({ id: "", kind: "approval", prompt: "Delete 3 files?" });
    const req = pendingOf(r);
    assert.ok(req !== undefined);
    assert.equal(req.kind, "approval");
    assert.ok(req.id.startsWith("pnd-"));
    assert.deepEqual(pendingOf(fromJsonToolResult(toJsonToolResult(r))), req);
  });

  it("is undefined for an ordinary result or error", () => {
    const error: ToolResult = { output: "boom", isError: true };
    assert.equal(pendingOf(error), undefined);
    assert.equal(pendingOf({ output: "ok", metadata: { exitCode: 0 } }), undefined);
  });

  it("is undefined when metadata.pending is not a valid Request", () => {
    for (const bad of [null, "pnd-1", [], { id: "p", kind: "approval" }, { id: 1, kind: "approval", prompt: "" }, { id: "p", kind: "", prompt: "" }]) {
      assert.equal(pendingOf({ output: "", isError: true, metadata: { pending: bad } }), undefined, JSON.stringify(bad));
    }
  });
});
