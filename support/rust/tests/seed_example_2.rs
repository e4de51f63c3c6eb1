// codegen: package; requires ToolResult

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
