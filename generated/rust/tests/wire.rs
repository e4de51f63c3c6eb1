// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/wire.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult, ToolSpec

//! The wire rules, pinned: what parses, what is rejected and where, and the bytes
//! that come back out.

use serde_json::json;
use toolnexus::{
    Answer, AnswerReason, ContentPart, ContentPartKind, Request, RunResult, RunResultStatus,
    TYPE_NAMES, ToolCall, ToolCallResult, ToolResult, ToolSpec, Wire, WireError, parse, roundtrip,
};

fn same_bytes<T: Wire>(text: &str) {
    let parsed = T::from_json(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(parsed.to_json(), text);
}

fn rejected<T: Wire + std::fmt::Debug>(text: &str, path: &str) -> WireError {
    let err = T::from_json(text).expect_err(text);
    assert_eq!(err.path(), path, "{err}");
    assert_eq!(err.type_name(), T::NAME);
    assert!(err.to_string().contains(path), "{err}");
    err
}

#[test]
fn a_full_result_comes_back_byte_for_byte() {
    // Map keys already sorted, integers in range: the same bytes with or without `lossless`.
    same_bytes::<ToolResult>(
        r#"{"output":"ok","isError":true,"parts":[{"type":"image","mimeType":"image/png","data":"iVBORw0KGgo=","name":"a.png","dpi":72}],"metadata":{"a":{"x":null,"y":[1,-2,18446744073709551615,-9223372036854775808,2.5]},"z":1},"b":2,"trace":"t"}"#,
    );
    same_bytes::<ToolResult>(r#"{"output":"","isError":false}"#);
    same_bytes::<ToolResult>(r#"{"output":"é ✓ \"q\" \\ \n\t\u0001 😀","isError":false}"#);
}

/// Unsorted keys, a big integer and numbers in other spellings than serde_json's.
const AS_WRITTEN: &str = r#"{"output":"ok","isError":false,"metadata":{"z":1,"a":{"y":[1,2.50,-0,1e+2],"x":null},"big":123456789012345678901234567890},"trace":"t","b":2}"#;

#[cfg(feature = "lossless")]
#[test]
fn lossless_keeps_key_order_and_number_text() {
    same_bytes::<ToolResult>(AS_WRITTEN);
    // A number beyond the range of a double is rejected all the same (tests/limits.rs).
    rejected::<ToolResult>(
        r#"{"output":"","isError":false,"metadata":{"n":1e+400}}"#,
        "$",
    );
    // The one change to a number's text: an exponent gets its sign.
    let r = ToolResult::from_json(r#"{"output":"","metadata":{"n":1e2}}"#).unwrap();
    assert_eq!(
        r.to_json(),
        r#"{"output":"","isError":false,"metadata":{"n":1e+2}}"#
    );
}

/// What the crate's documentation says the default build does instead.
#[cfg(not(feature = "lossless"))]
#[test]
fn without_lossless_keys_are_sorted_and_numbers_are_serde_jsons() {
    let r = ToolResult::from_json(AS_WRITTEN).unwrap();
    // The nearest f64, as serde_json writes an f64 (`1.2345678901234568e+29`).
    let big = serde_json::to_string(&123456789012345678901234567890_f64).unwrap();
    assert_eq!(
        r.to_json(),
        r#"{"output":"ok","isError":false,"metadata":{"a":{"x":null,"y":[1,2.5,-0.0,100.0]},"big":BIG,"z":1},"b":2,"trace":"t"}"#
            .replace("BIG", &big)
    );
    let e = rejected::<ToolResult>(r#"{"output":"","metadata":{"n":1e400}}"#, "$");
    assert!(e.message().starts_with("not valid JSON"), "{e}");
}

#[test]
fn every_type_comes_back_byte_for_byte() {
    same_bytes::<ContentPart>(
        r#"{"type":"file","mimeType":"application/pdf","url":"https://e.x/a.pdf","name":"a.pdf"}"#,
    );
    same_bytes::<ContentPart>(r#"{"type":"text","text":"hi","later":[]}"#);
    same_bytes::<ContentPart>(
        r#"{"type":"image","mimeType":"image/png","url":"https://e.com/a.png"}"#,
    );
    same_bytes::<Request>(
        r#"{"id":"pnd-1","kind":"input","prompt":"Name?","url":"https://x","data":{"type":"object"},"expiresAt":"2030-01-02T03:04:05.123+01:00","k":[]}"#,
    );
    same_bytes::<Answer>(r#"{"id":"pnd-1","ok":false,"data":{},"reason":"expired"}"#);
    same_bytes::<ToolSpec>(
        r#"{"name":"read_file-2","description":"Reads","inputSchema":{"type":"object"},"source":"mcp:fs"}"#,
    );
    same_bytes::<ToolCall>(r#"{"id":"c1","name":"sqrt","arguments":{"n":16}}"#);
    same_bytes::<ToolCallResult>(
        r#"{"id":"c1","name":"sqrt","result":{"output":"4","isError":false}}"#,
    );
    same_bytes::<RunResult>(
        r#"{"status":"pending","results":[],"pending":{"id":"p","kind":"approval","prompt":"?"},"calls":[{"id":"c2","name":"rm","arguments":{}}],"seal":"s"}"#,
    );
}

#[test]
fn defaults_are_written_and_empty_arrays_are_not() {
    let r = ToolResult::from_json(r#"{"output":"x","parts":[]}"#).unwrap();
    assert!(!r.is_error && r.parts.is_empty());
    assert_eq!(r.to_json(), r#"{"output":"x","isError":false}"#);
    let run = RunResult::from_json(r#"{"status":"done","results":[],"calls":[]}"#).unwrap();
    assert_eq!(run.to_json(), r#"{"status":"done","results":[]}"#);
}

#[test]
fn unknown_keys_are_kept_after_the_known_ones() {
    let r = ToolResult::from_json(r#"{"zeta":1,"output":"x","alpha":2,"isError":false}"#).unwrap();
    if cfg!(feature = "lossless") {
        // In the order they came.
        assert_eq!(r.extra.keys().collect::<Vec<_>>(), ["zeta", "alpha"]);
        assert_eq!(
            r.to_json(),
            r#"{"output":"x","isError":false,"zeta":1,"alpha":2}"#
        );
    } else {
        assert_eq!(r.extra.keys().collect::<Vec<_>>(), ["alpha", "zeta"]);
        assert_eq!(
            r.to_json(),
            r#"{"output":"x","isError":false,"alpha":2,"zeta":1}"#
        );
    }
}

#[test]
fn a_known_key_with_the_wrong_type_names_its_path() {
    rejected::<ToolResult>(r#"{"output":"x","isError":"yes"}"#, "$.isError");
    rejected::<ToolResult>(r#"{"output":1}"#, "$.output");
    rejected::<ToolResult>(r#"{"output":"x","parts":{}}"#, "$.parts");
    rejected::<ToolResult>(r#"{"output":"x","metadata":[]}"#, "$.metadata");
    rejected::<ToolResult>(r#"{"output":"x","parts":[1]}"#, "$.parts[0]");
    rejected::<ToolCallResult>(
        r#"{"id":"c","name":"n","result":{"output":false}}"#,
        "$.result.output",
    );
    rejected::<RunResult>(
        r#"{"status":"done","results":[{"id":"c","name":"n","result":{"output":"x"}},{"id":"c","name":"n","result":{}}]}"#,
        "$.results[1].result",
    );
}

#[test]
fn null_is_not_an_absent_optional() {
    rejected::<ToolResult>(r#"{"output":"x","metadata":null}"#, "$.metadata");
    rejected::<ToolResult>(r#"{"output":"x","isError":null}"#, "$.isError");
    rejected::<ToolResult>(
        r#"{"output":"x","structuredContent":null}"#,
        "$.structuredContent",
    );
    rejected::<ContentPart>(r#"{"type":"text","text":null}"#, "$.text");
    rejected::<ContentPart>(r#"{"type":"file","url":null}"#, "$.url");
    rejected::<Request>(
        r#"{"id":"","kind":"input","prompt":"","url":null}"#,
        "$.url",
    );
    rejected::<RunResult>(
        r#"{"status":"done","results":[],"pending":null}"#,
        "$.pending",
    );
}

#[test]
fn required_keys_enums_lengths_and_patterns_are_checked() {
    // A missing key is reported at the object that lacks it.
    let e = rejected::<ToolResult>(
        r#"{"output":"x","parts":[{"kind":"image","data":""}]}"#,
        "$.parts[0]",
    );
    assert_eq!(e.message(), r#"the required key "type" is missing"#);
    rejected::<ToolResult>(r#"{"isError":true}"#, "$");
    let e = rejected::<ContentPart>(r#"{"type":"video","mimeType":"video/mp4"}"#, "$.type");
    assert_eq!(
        e.message(),
        r#""video" is not one of "text", "image", "audio", "file""#
    );
    rejected::<ContentPart>(
        r#"{"type":"image","mimeType":"a/b","data":"abc"}"#,
        "$.data",
    );
    // The schema's pattern does not ask for zero unused bits.
    assert!(ContentPart::from_json(r#"{"type":"image","mimeType":"a/b","data":"ab=="}"#).is_ok());
    rejected::<ContentPart>(
        r#"{"type":"image","mimeType":"a/b","data":"YQ==\n"}"#,
        "$.data",
    );
    rejected::<Request>(r#"{"id":"","kind":"","prompt":""}"#, "$.kind");
    // `expiresAt` is any string, as the upstream ports send it; the loop reads the time.
    same_bytes::<Request>(r#"{"id":"","kind":"k","prompt":"","expiresAt":"2030-01-02 03:04:05Z"}"#);
    rejected::<Answer>(r#"{"id":"","ok":false,"reason":"timeout"}"#, "$.reason");
    rejected::<RunResult>(r#"{"status":"running","results":[]}"#, "$.status");
    // `$` is the end of the text, as in ECMA-262, not "before a final newline".
    rejected::<ToolSpec>(
        r#"{"name":"abc\n","description":"","inputSchema":{}}"#,
        "$.name",
    );
    rejected::<ToolSpec>(
        r#"{"name":"a b","description":"","inputSchema":{}}"#,
        "$.name",
    );
    // Empty strings are absent: read as empty, and omitted on the way out.
    let part = ContentPart::from_json(
        r#"{"name":"","type":"file","text":"","mimeType":"","data":"aGk=","url":""}"#,
    )
    .unwrap();
    assert_eq!((part.name.as_str(), part.url.as_str()), ("", ""));
    assert_eq!(part.to_json(), r#"{"type":"file","data":"aGk="}"#);
}

#[test]
fn structured_content_is_any_json_but_null() {
    for value in [
        "0",
        "false",
        r#""""#,
        "[]",
        r#"{"b":[1,{"c":null}],"a":"x"}"#,
    ] {
        let text = format!(r#"{{"output":"x","isError":false,"structuredContent":{value}}}"#);
        let r = ToolResult::from_json(&text).unwrap();
        assert!(r.structured_content.is_some(), "{value}");
        if value.starts_with('{') {
            // serde_json sorts keys unless `lossless`; compare the value then.
            assert_eq!(ToolResult::from_json(&r.to_json()).unwrap(), r);
        } else {
            assert_eq!(r.to_json(), text);
        }
    }
    let r = ToolResult::from_json(r#"{"output":"x","structuredContent":{"t":21.5}}"#).unwrap();
    assert_eq!(r.structured_content, Some(json!({"t": 21.5})));
    // Its nesting counts from the result, as metadata's does: 99 levels inside it.
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let at = |n: usize| format!(r#"{{"output":"x","structuredContent":{}}}"#, deep(n));
    assert!(ToolResult::from_json(&at(99)).is_ok());
    rejected::<ToolResult>(&at(100), "$");
    let mut built = ToolResult::ok("x");
    built.structured_content = Some(serde_json::from_str(&deep(100)).unwrap());
    assert!(built.try_to_json().is_err());
}

#[test]
fn the_document_itself() {
    rejected::<ToolResult>("[]", "$");
    rejected::<ToolResult>("null", "$");
    let e = rejected::<ToolResult>(r#"{"output":"x""#, "$");
    assert!(e.message().starts_with("not valid JSON"), "{e}");
    rejected::<ToolResult>(r#"{"output":"x"} {}"#, "$");
    let e = ToolResult::from_slice(b"{\"output\":\"\xff\"}").unwrap_err();
    assert_eq!(e.path(), "$");
    assert!(e.message().starts_with("not UTF-8"), "{e}");
    assert!(ToolResult::from_slice(b"{\"output\":\"x\"}\n").is_ok());
}

#[test]
fn serde_deserialize_goes_through_the_same_checks() {
    let ok: ToolResult = serde_json::from_str(r#"{"output":"x","k":1}"#).unwrap();
    assert_eq!(ok.extra["k"], 1);
    let err = serde_json::from_str::<ContentPart>(r#"{"type":"image","mimeType":1}"#).unwrap_err();
    assert!(err.to_string().contains("$.mimeType"), "{err}");
    let kind: ContentPartKind = serde_json::from_value(json!("audio")).unwrap();
    assert_eq!(kind, ContentPartKind::Audio);
    assert!(serde_json::from_value::<ContentPartKind>(json!("video")).is_err());
}

#[test]
fn enums_compare_with_strings() {
    let part = ContentPart::from_bytes(b"x", "image/png").unwrap();
    assert_eq!(part.kind, "image");
    assert!("image" == part.kind && part.kind == *"image");
    assert_eq!(part.kind.to_string(), "image");
    assert_eq!(
        "declined".parse::<AnswerReason>().unwrap(),
        AnswerReason::Declined
    );
    assert_eq!(
        "nope".parse::<RunResultStatus>().unwrap_err().to_string(),
        r#"invalid RunResultStatus: $: "nope" is not one of "done", "pending""#
    );
    assert_eq!(
        serde_json::to_value(RunResultStatus::Pending).unwrap(),
        json!("pending")
    );
}

#[test]
fn parse_and_roundtrip_by_name() {
    let r: ToolResult = parse(r#"{"output":"x"}"#).unwrap();
    assert_eq!(r.output, "x");
    assert_eq!(r.to_wire(), json!({"output": "x", "isError": false}));
    assert!(
        ["ToolResult", "Request", "Answer", "RunResult"]
            .iter()
            .all(|n| TYPE_NAMES.contains(n))
    );
    for name in TYPE_NAMES {
        assert!(roundtrip(name, b"[]").unwrap().is_err());
    }
    assert_eq!(
        roundtrip(
            "ToolCall",
            br#"{"id":"1","name":"n","arguments":{},"x":true}"#
        )
        .unwrap(),
        Ok(r#"{"id":"1","name":"n","arguments":{},"x":true}"#.to_owned())
    );
    assert!(roundtrip("Nope", b"{}").is_none());
}

#[test]
fn a_large_part_is_validated_in_linear_time() {
    let data = "QUJD".repeat(7 << 20); // 28 MiB of base64, a 21 MiB file
    let text = format!(r#"{{"type":"file","mimeType":"a/b","data":"{data}"}}"#);
    let started = std::time::Instant::now();
    let part = ContentPart::from_json(&text).unwrap();
    assert_eq!(part.data.len(), data.len());
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}
