// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: codegen/templates/rust/tests/seed_example_3.rs (hand-written, copied verbatim).

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
