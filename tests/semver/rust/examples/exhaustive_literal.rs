//! What the crate refuses to compile, so that no user depends on the set of fields: a struct
//! literal of a #[non_exhaustive] wire type, even one ending in ..Default::default().
//! tests/project/test_semver.py builds it and expects rustc's E0639.

use toolnexus::ToolResult;

fn main() {
    let r = ToolResult {
        output: "x".into(),
        ..Default::default()
    };
    println!("{}", r.output);
}
