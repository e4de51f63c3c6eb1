// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/seed_example_3.rs (hand-written, copied verbatim).
// codegen: copy; requires Request, ToolResult

use toolnexus::{Request, ToolResult, auth_required, pending, pending_of};

fn main() {
    let r = pending(Request {
        kind: "approval".into(),
        prompt: "Delete 3 files?".into(),
        ..Default::default()
    });
    assert!(r.is_error);
    assert_eq!(r.output, "Delete 3 files?");
    let req = pending_of(&r).expect("a suspension");
    assert_eq!(req.kind, "approval");
    assert!(req.id.starts_with("pnd-"), "an empty id is generated");

    let auth = auth_required("https://example.com/login", "");
    assert_eq!(auth.output, "Authorization required to continue\nhttps://example.com/login");
    assert_eq!(pending_of(&auth).unwrap().kind, "authorization");

    // An ordinary error is not a suspension.
    assert!(pending_of(&ToolResult::error("boom")).is_none());
    println!("ok: {} {}", req.kind, req.id);
}
