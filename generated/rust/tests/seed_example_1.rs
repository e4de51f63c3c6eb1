// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/seed_example_1.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult
// cargo: required-features = ["tokio"]

use serde_json::json;
use toolnexus::{ToolContext, define_tool};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sqrt = define_tool("sqrt", "Square root", None, |args, _ctx| async move {
        let n = args["n"].as_f64().ok_or("n is required")?;
        if n < 0.0 {
            return Err(format!("cannot take the square root of {n}"));
        }
        Ok(n.sqrt().to_string())
    });
    let ok = sqrt.call(json!({"n": 16}), ToolContext::default()).await;
    let bad = sqrt.call(json!({"n": -1}), ToolContext::default()).await;
    assert!(!ok.is_error && ok.output == "4");
    assert!(bad.is_error && bad.output == "cannot take the square root of -1");
    println!("ok: {} | {}", ok.output, bad.output);
    Ok(())
}
