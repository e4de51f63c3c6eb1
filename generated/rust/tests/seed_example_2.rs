// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/seed_example_2.rs (hand-written, copied verbatim).
// codegen: copy; requires ToolResult

use serde_json::{Map, Value, json};
use toolnexus::ToolResult;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = json!([{"id": 1, "name": "ada"}, {"id": 2, "name": "linus"}]);
    let mut meta = Map::new();
    meta.insert("rowCount".into(), json!(2));
    meta.insert("elapsedMs".into(), json!(12));
    let r = ToolResult::ok(serde_json::to_string(&rows)?).with_metadata(meta);

    let parsed: Value = serde_json::from_str(&r.output)?;
    assert_eq!(parsed[1]["name"], "linus");
    assert_eq!(r.metadata.as_ref().unwrap()["rowCount"], 2);

    // The wire shape: camelCase isError, parts omitted when empty.
    let wire = serde_json::to_value(&r)?;
    assert_eq!(wire["isError"], false);
    assert!(wire.get("parts").is_none());
    println!("ok: {} rows, wire keys {:?}", parsed.as_array().unwrap().len(), wire.as_object().unwrap().keys().collect::<Vec<_>>());
    Ok(())
}
