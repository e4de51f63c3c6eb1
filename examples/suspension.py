"""Spec example 3: the reserved key `metadata["pending"]` is a suspension.

Build a suspension with `pending` / `auth_required` rather than by hand;
`pending_of` reads it back. The loop treats such a result as a request, not
as a tool error.
"""

from toolnexus import Request, ToolResult, auth_required, pending, pending_of

r = pending(Request(kind="approval", prompt="Delete 3 files?"))
assert r.is_error
assert r.output == "Delete 3 files?"
req = pending_of(r)
assert req is not None, "a suspension"
assert req.kind == "approval"
assert req.id.startswith("pnd-"), "an empty id is generated"

auth = auth_required("https://example.com/login", "")
assert auth.output == "Authorization required to continue\nhttps://example.com/login"
auth_req = pending_of(auth)
assert auth_req is not None and auth_req.kind == "authorization"

# The suspension survives the wire.
again = pending_of(ToolResult.from_json(r.to_json()))
assert again is not None and again.id == req.id

# An ordinary error is not a suspension.
assert pending_of(ToolResult.error("boom")) is None
print(f"ok: {req.kind} {req.id}")
