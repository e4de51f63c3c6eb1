//! Code a user writes against the wire types, in every way the crate allows: constructors,
//! `Default`, field assignment, the specification's struct literal of `Request`, patterns with
//! `..`, parsing and emitting. None of it names every field, so none of it breaks when a
//! minor version adds one.

use serde_json::{json, Map};
use toolnexus::{
    pending, pending_of, Answer, ContentPart, ContentPartKind, Request, RunResult, RunResultStatus,
    ToolCall, ToolCallResult, ToolHints, ToolResult, ToolSpec, Wire,
};

fn describe(result: &ToolResult) -> String {
    // A pattern of a #[non_exhaustive] struct from another crate must end in `..`.
    let ToolResult {
        output,
        is_error,
        parts,
        ..
    } = result;
    format!("{output} error={is_error} parts={}", parts.len())
}

fn main() {
    // The specification's example 3: a struct literal that ends in ..Default::default().
    let suspended = pending(Request {
        kind: "approval".into(),
        prompt: "Delete 3 files?".into(),
        ..Default::default()
    });
    let request = pending_of(&suspended).expect("a suspension");
    let Request { id, kind, .. } = &request;
    assert_eq!(kind, "approval");

    // Every other wire type: `new` with the required fields, then fields set by name.
    let mut result = ToolResult::new("a chart");
    result.parts.push(ContentPart::text("rendered in 40 ms"));
    let mut chart = ContentPart::new(ContentPartKind::Image);
    chart.mime_type = "image/png".into();
    chart.url = "https://example.com/chart.png".into();
    result.parts.push(chart);
    result.structured_content = Some(json!({"points": 3}));
    let mut hints = ToolHints::default();
    hints.read_only = true;
    let mut spec = ToolSpec::new("chart", "Draw a chart", Map::new());
    spec.hints = Some(hints);
    let answer = Answer::new(id.clone(), true);
    let call = ToolCall::new("call_1", "chart", Map::new());
    let run = RunResult::new(
        RunResultStatus::Done,
        vec![ToolCallResult::new(
            call.id.clone(),
            call.name.clone(),
            result.clone(),
        )],
    );

    // The wire, both ways.
    let text = run.to_json();
    assert_eq!(RunResult::from_json(&text).unwrap(), run);
    assert_eq!(Answer::from_json(&answer.to_json()).unwrap(), answer);
    assert_eq!(ToolSpec::from_json(&spec.to_json()).unwrap().name, "chart");
    println!("ok: {} | {}", describe(&result), text.len());
}
