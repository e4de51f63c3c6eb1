// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/limits.rs (hand-written, copied verbatim).
// codegen: copy; requires ContentPart, Request, RunResult, ToolCallResult, ToolResult

//! One wire, one verdict (issue #12): the rules of JSON itself that every language of the
//! contract applies before the schema's, in both configurations of the crate (with and
//! without the feature `lossless`), and emitting's own nesting limit.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::{Map, Value, json};
use toolnexus::{
    ContentPart, MAX_DEPTH, Request, RunResult, ToolCallResult, ToolResult, Wire, WireError,
    drop_deep, pending, pending_of,
};

fn rejected_at_root(text: &str) -> WireError {
    let err = ToolResult::from_json(text).expect_err(text);
    assert_eq!(err.path(), "$", "{err}");
    assert_eq!(err.type_name(), "ToolResult");
    // serde's route gives the same verdict.
    assert!(serde_json::from_str::<ToolResult>(text).is_err(), "{text}");
    err
}

/// `n` arrays, one inside the other, around `null`.
fn nested(n: usize) -> Value {
    let mut v = Value::Null;
    for _ in 0..n {
        v = Value::Array(vec![v]);
    }
    v
}

fn nested_text(n: usize) -> String {
    format!("{}{}", "[".repeat(n), "]".repeat(n))
}

fn metadata(value: Value) -> Map<String, Value> {
    Map::from_iter([("a".to_owned(), value)])
}

/// Runs `f` on a thread whose stack is far too small for anything that recurses once per
/// level of a value nested 200,000 deep.
fn on_a_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .expect("the thread finished without a panic or an overflow");
}

#[test]
fn r1_text_that_is_not_json_is_rejected_at_the_root() {
    for text in [
        r#"{"output":"x","isError":false,"metadata":{"a":NaN}}"#,
        r#"{"output":"x","isError":false,"metadata":{"a":Infinity}}"#,
        r#"{"output":"x","isError":false,"metadata":{"a":-Infinity}}"#,
        r#"{"output":"a\ud800b","isError":false}"#,
        r#"{"output":"x","isError":false,"metadata":{"\udc00":1}}"#,
        r#"{"output":"x","isError":false,"later":"\udbff"}"#,
    ] {
        let err = rejected_at_root(text);
        assert!(err.message().starts_with("not valid JSON"), "{err}");
    }
    let err =
        ToolResult::from_slice(b"{\"output\":\"\xed\xa0\x80\",\"isError\":false}").unwrap_err();
    assert_eq!(
        (err.path(), err.message().starts_with("not UTF-8")),
        ("$", true),
        "{err}"
    );
    // An escaped surrogate pair is one character.
    let r = ToolResult::from_json(r#"{"output":"\ud83d\ude00","isError":false}"#).unwrap();
    assert_eq!(r.output, "😀");
    assert_eq!(r.to_json(), r#"{"output":"😀","isError":false}"#);
}

#[test]
fn r2_a_number_beyond_a_double_is_rejected_at_the_root() {
    let integer_310 = format!("1{}", "0".repeat(309));
    for number in ["1e400", "-1e400", "-1.7976931348623159e308", &integer_310] {
        let text = format!(r#"{{"output":"x","isError":false,"metadata":{{"a":{number}}}}}"#);
        rejected_at_root(&text);
        // In an unknown key, and in a part's unknown key, too.
        rejected_at_root(&format!(r#"{{"output":"x","later":[{number}]}}"#));
        let part = format!(r#"{{"type":"file","mimeType":"a/b","n":{number}}}"#);
        assert_eq!(ContentPart::from_json(&part).unwrap_err().path(), "$");
    }
    // The largest double, and a 308-digit integer, are in range.
    let max = r#"{"output":"x","isError":false,"metadata":{"a":1.7976931348623157e308}}"#;
    assert!(ToolResult::from_json(max).is_ok());
    let integer_308 = r#"{"output":"x","isError":false,"metadata":{"a":NINES}}"#
        .replace("NINES", &"9".repeat(308));
    let r = ToolResult::from_json(&integer_308).unwrap();
    if cfg!(feature = "lossless") {
        // Kept exactly.
        assert_eq!(r.to_json(), integer_308);
    } else {
        assert!(r.metadata.unwrap()["a"].as_f64().unwrap() > 9.9e307);
    }
}

#[cfg(feature = "lossless")]
#[test]
fn r2_holds_for_a_value_parsed_elsewhere() {
    // serde_json with `arbitrary_precision` keeps `1e400` as text; from_wire refuses it.
    let value: Value = serde_json::from_str(r#"{"output":"x","metadata":{"a":1e400}}"#).unwrap();
    let err = ToolResult::from_wire(value).unwrap_err();
    assert_eq!(err.path(), "$");
    assert!(
        err.message().contains("beyond the range of a double"),
        "{err}"
    );
}

#[test]
fn r3_a_document_nests_at_most_100_levels() {
    assert_eq!(MAX_DEPTH, 100);
    // The document's own object is level 1, `metadata` level 2, its value level 3.
    let doc = |n: usize| {
        format!(
            r#"{{"output":"x","isError":false,"metadata":{{"a":{}}}}}"#,
            nested_text(n)
        )
    };
    let r = ToolResult::from_json(&doc(98)).unwrap();
    assert_eq!(r.to_json(), doc(98));
    for n in [99, 126, 127, 5000] {
        let err = rejected_at_root(&doc(n));
        assert_eq!(err.message(), "nested more than 100 levels", "{n}: {err}");
    }
    // The same, for a value already in memory.
    let mut value = json!({"output": "x"});
    value["metadata"] = json!({"a": nested(98)});
    assert!(ToolResult::from_wire(value.clone()).is_ok());
    value["metadata"] = json!({"a": nested(99)});
    let err = ToolResult::from_wire(value).unwrap_err();
    assert_eq!(
        (err.path(), err.message()),
        ("$", "nested more than 100 levels")
    );
    // A bare array counts as a level too.
    assert_eq!(
        ToolResult::from_json(&nested_text(101))
            .unwrap_err()
            .message(),
        "nested more than 100 levels"
    );
}

#[test]
fn r3_a_value_built_200_000_deep_is_rejected_without_recursing() {
    on_a_small_stack(|| {
        let value = Value::Object(Map::from_iter([
            ("output".to_owned(), Value::from("x")),
            (
                "metadata".to_owned(),
                Value::Object(metadata(nested(200_000))),
            ),
        ]));
        // Walked, rejected and dropped without recursing.
        let err = ToolResult::from_wire(value).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid ToolResult: $: nested more than 100 levels"
        );
    });
}

/// Every emitting route gives the same verdict, and it is the parser's.
fn emits(r: &ToolResult) -> bool {
    let verdict = r.try_to_json().is_ok();
    assert_eq!(r.try_to_wire().is_ok(), verdict);
    assert_eq!(serde_json::to_value(r).is_ok(), verdict);
    assert_eq!(serde_json::to_string(r).is_ok(), verdict);
    assert_eq!(serde_json::to_vec(r).is_ok(), verdict);
    if verdict {
        assert_eq!(ToolResult::from_json(&r.to_json()).as_ref(), Ok(r));
    } else {
        let err = r.try_to_json().unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid ToolResult: $: nested more than 100 levels"
        );
        assert_eq!(r.try_to_wire().unwrap_err(), err);
        let serde_err = serde_json::to_string(r).unwrap_err();
        assert_eq!(serde_err.to_string(), "nested more than 100 levels");
    }
    verdict
}

#[test]
fn r4_emitting_refuses_what_parsing_would() {
    // metadata's value at level 3.
    assert!(emits(
        &ToolResult::ok("x").with_metadata(metadata(nested(98)))
    ));
    assert!(!emits(
        &ToolResult::ok("x").with_metadata(metadata(nested(99)))
    ));
    // An unknown key's value at level 2.
    let mut r = ToolResult::ok("x");
    r.extra.insert("later".to_owned(), nested(99));
    assert!(emits(&r));
    r.extra.insert("later".to_owned(), nested(100));
    assert!(!emits(&r));
    // A part's unknown key at level 4 (the result 1, parts 2, the part 3).
    let mut part = ContentPart::from_bytes(b"x", "text/plain").unwrap();
    part.extra.insert("later".to_owned(), nested(97));
    let mut r = ToolResult::ok("x");
    r.parts.push(part.clone());
    assert!(emits(&r));
    r.parts[0].extra.insert("later".to_owned(), nested(98));
    assert!(!emits(&r));
    // The part alone is its own document, and nests 3 levels less.
    assert!(r.parts[0].try_to_json().is_ok());
    // Deeper still: the run 1, results 2, the call's result 3, the result 4, metadata 5.
    let run = |n: usize| {
        // The wire structs are #[non_exhaustive]: built with `new`, then their fields set.
        let mut run = RunResult::new(toolnexus::RunResultStatus::Done, Vec::new());
        run.results.push(ToolCallResult::new(
            "c",
            "t",
            ToolResult::ok("x").with_metadata(metadata(nested(n))),
        ));
        run
    };
    let fine = run(95).to_json();
    assert_eq!(RunResult::from_json(&fine).unwrap(), run(95));
    let err = run(96).try_to_json().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid RunResult: $: nested more than 100 levels"
    );
    let text = serde_json::to_string(
        &json!({"status": "done", "results": [{"id": "c", "name": "t",
        "result": {"output": "x", "metadata": {"a": nested(96)}}}]}),
    )
    .unwrap();
    assert_eq!(RunResult::from_json(&text).unwrap_err().path(), "$");
}

#[test]
fn r4_to_json_panics_instead_of_overflowing() {
    let r = ToolResult::ok("x").with_metadata(metadata(nested(99)));
    let panic = catch_unwind(AssertUnwindSafe(|| r.to_json())).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert_eq!(
        message,
        "invalid ToolResult: $: nested more than 100 levels"
    );
    assert!(catch_unwind(AssertUnwindSafe(|| r.to_wire())).is_err());
}

/// shared/repro/rust_deep_to_json_abort.rs: metadata built 200,000 levels deep. Every
/// crate path gives an answer on a small stack; disposing of the value is `drop_deep`.
#[test]
fn r4_metadata_built_200_000_deep_is_an_error_not_an_abort() {
    on_a_small_stack(|| {
        let mut r = ToolResult::ok("x");
        r.metadata = Some(metadata(nested(200_000)));
        let err = r.try_to_json().unwrap_err();
        assert_eq!(err.path(), "$");
        assert!(r.try_to_wire().is_err());
        assert!(serde_json::to_value(&r).is_err());
        assert!(serde_json::to_writer(std::io::sink(), &r).is_err());
        assert!(catch_unwind(AssertUnwindSafe(|| r.to_json())).is_err());
        // Replacing the deep value drops it without recursing.
        let mut r = r.with_metadata(metadata(Value::Null));
        assert_eq!(
            r.to_json(),
            r#"{"output":"x","isError":false,"metadata":{"a":null}}"#
        );

        // A suspension whose request carries deep data: built without serializing it,
        // never read back, never emitted.
        let suspended = pending(Request {
            kind: "input".to_owned(),
            prompt: "?".to_owned(),
            data: Some(metadata(nested(200_000))),
            ..Request::default()
        });
        assert!(pending_of(&suspended).is_none());
        assert!(suspended.try_to_json().is_err());
        let mut suspended = suspended;
        drop_deep(suspended.metadata.take().unwrap());

        // What the crate cannot do for a ToolResult it does not own: drop it. Its
        // metadata is the caller's to take out and hand to drop_deep.
        r.metadata = Some(metadata(nested(200_000)));
        drop_deep(r.metadata.take().unwrap());
        r.extra.insert("later".to_owned(), nested(200_000));
        drop_deep(std::mem::take(&mut r.extra));
    });
}

#[test]
fn pending_keeps_the_key_order_of_a_request_that_emits() {
    let r = pending(Request {
        id: "pnd-1".to_owned(),
        kind: "input".to_owned(),
        prompt: "?".to_owned(),
        data: Some(metadata(nested(96))),
        expires_at: Some("2030-01-02T03:04:05Z".to_owned()),
        ..Request::default()
    });
    let wire = r.metadata.as_ref().unwrap()["pending"].as_object().unwrap();
    if cfg!(feature = "lossless") {
        let keys: Vec<_> = wire.keys().collect();
        assert_eq!(keys, ["id", "kind", "prompt", "data", "expiresAt"]);
    }
    // The request at level 3 of the result: 96 + 4 = 100 levels.
    assert!(r.try_to_json().is_ok());
    assert_eq!(pending_of(&r).unwrap().data.unwrap()["a"], nested(96));
}

#[test]
fn r7_an_object_that_repeats_a_key_is_rejected_at_the_root() {
    for (text, key) in [
        (r#"{"output":"a","output":"b"}"#, "output"),
        (r#"{"output":"a","metadata":{"k":1,"k":1}}"#, "k"),
        (r#"{"output":"a","metadata":{"k":1,"\u006b":2}}"#, "k"),
        (
            r#"{"output":"a","metadata":{"a":[{"b":{"c":1.50,"c":2}}]}}"#,
            "c",
        ),
        (
            r#"{"output":"a","parts":[{"type":"text","text":"x","text":"y"}]}"#,
            "text",
        ),
        (r#"{"output":"a","x-trace":1,"x-trace":2}"#, "x-trace"),
    ] {
        let err = rejected_at_root(text);
        let named = format!("an object repeats the key \"{key}\"");
        assert!(err.message().contains(&named), "{text}: {err}");
    }
    // Keys that only look alike, and numbers in every spelling, read as before.
    let text = r#"{"output":"{\"k\":1,\"k\":2}","isError":false,"metadata":{"k":{"k":1.50},"K":-0,"k ":1e5}}"#;
    let r = ToolResult::from_json(text).unwrap();
    assert_eq!(r.metadata.as_ref().unwrap().len(), 3);
    let back = r.to_json();
    if cfg!(feature = "lossless") {
        assert_eq!(back, text.replace("1e5", "1e+5"));
    }
    assert_eq!(serde_json::from_str::<ToolResult>(text).unwrap(), r);
}

#[test]
fn r7_holds_for_serde_users_of_other_inputs() {
    // `Deserialize` reads through the same visitor, whatever the deserializer.
    let mut de =
        serde_json::Deserializer::from_reader(&br#"{"output":"a","metadata":{"k":1,"k":2}}"#[..]);
    let err = <ToolResult as serde::Deserialize>::deserialize(&mut de).unwrap_err();
    assert!(err.to_string().contains(r#"repeats the key "k""#), "{err}");
}
