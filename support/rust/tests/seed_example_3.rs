// codegen: package; requires Request, ToolResult

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
