// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/seed_example_4.rs (hand-written, copied verbatim).
// codegen: copy; requires ContentPart, ToolResult

use std::path::PathBuf;

use toolnexus::{ContentPart, ToolResult};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // TOOLNEXUS_REPO is set by the docs test runner; in your own code just use a path.
    let png = PathBuf::from(std::env::var("TOOLNEXUS_REPO")?).join("examples/media/fixture.png");
    let mut r = ToolResult::ok("fixture.png (image/png)");
    r.parts.push(ContentPart::from_path(&png)?);

    assert_eq!(r.parts[0].kind, "image");
    assert_eq!(r.parts[0].mime_type, "image/png");
    assert!(!r.parts[0].data.is_empty());
    let wire = serde_json::to_value(&r)?;
    assert_eq!(wire["parts"][0]["mimeType"], "image/png");
    println!("ok: {} + {} part(s)", r.output, r.parts.len());
    Ok(())
}
