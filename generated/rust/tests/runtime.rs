// Generated from idl/ (toolnexus schema 1.0.0, sha256 fba634dffffaefd970e0f3dc7e5ba5788254ff546fd625fdd1bdb0d5e3a8b159).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/runtime.rs (hand-written, copied verbatim).
// codegen: copy; requires ContentPart, Request, ToolResult

//! The runtime helpers: results, suspensions and parts from files, with the same
//! semantics as the Python runtime.

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use toolnexus::{
    ContentPart, ContentPartKind, DEFAULT_AUTH_PROMPT, DEFAULT_MAX_BYTES, FileError, Request,
    ToolResult, Wire, auth_required, new_request_id, pending, pending_of,
};

fn meta(pairs: &[(&str, Value)]) -> Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

/// A fresh folder under the system's temp folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("toolnexus-{name}-{}", new_request_id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn ok_and_error() {
    let ok = ToolResult::ok("4");
    assert_eq!((ok.output.as_str(), ok.is_error), ("4", false));
    assert!(ok.parts.is_empty() && ok.metadata.is_none() && ok.extra.is_empty());
    let err = ToolResult::error(String::from("boom"));
    assert_eq!((err.output.as_str(), err.is_error), ("boom", true));
    assert_eq!(err.to_json(), r#"{"output":"boom","isError":true}"#);
}

#[test]
fn with_metadata_merges_and_keeps_places() {
    let r = ToolResult::ok("x")
        .with_metadata(meta(&[("b", json!(1)), ("a", json!(2))]))
        .with_metadata(meta(&[("c", json!(3)), ("b", json!(9))]));
    let expected = if cfg!(feature = "lossless") {
        r#"{"output":"x","isError":false,"metadata":{"b":9,"a":2,"c":3}}"#
    } else {
        r#"{"output":"x","isError":false,"metadata":{"a":2,"b":9,"c":3}}"#
    };
    assert_eq!(r.to_json(), expected);
    let suspended = auth_required("https://x", "").with_metadata(meta(&[("n", json!(1))]));
    assert!(
        pending_of(&suspended).is_some(),
        "a pending request survives with_metadata"
    );
}

#[test]
fn pending_fills_in_an_id_and_the_output() {
    let r = pending(Request {
        kind: "input".into(),
        prompt: "Your name?".into(),
        url: Some("https://example.com/form".into()),
        ..Default::default()
    });
    assert!(r.is_error);
    assert_eq!(r.output, "Your name?\nhttps://example.com/form");
    let req = pending_of(&r).unwrap();
    assert_eq!(req.id.len(), 4 + 32);
    assert!(
        req.id[4..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    );
    assert_eq!(r.metadata.as_ref().unwrap()["pending"], req.to_wire());

    let kept = pending(Request {
        id: "mine".into(),
        kind: "approval".into(),
        prompt: "Go?".into(),
        url: Some(String::new()),
        ..Default::default()
    });
    assert_eq!(kept.output, "Go?", "an empty url adds no line");
    assert_eq!(pending_of(&kept).unwrap().id, "mine");
    assert_ne!(new_request_id(), new_request_id());
}

#[test]
fn pending_of_after_a_wire_round_trip() {
    let r = auth_required("https://example.com/login", "Sign in to GitHub");
    assert_eq!(r.output, "Sign in to GitHub\nhttps://example.com/login");
    let back = ToolResult::from_json(&r.to_json()).unwrap();
    assert_eq!(back, r);
    let req = pending_of(&back).unwrap();
    assert_eq!(req.kind, "authorization");
    assert_eq!(req.url.as_deref(), Some("https://example.com/login"));
    assert_eq!(
        pending_of(&auth_required("u", "")).unwrap().prompt,
        DEFAULT_AUTH_PROMPT
    );
}

#[test]
fn pending_of_ignores_anything_else() {
    assert!(pending_of(&ToolResult::ok("x")).is_none());
    let not_a_request =
        ToolResult::error("x").with_metadata(meta(&[("pending", json!({"id": 1}))]));
    assert!(pending_of(&not_a_request).is_none());
    let null = ToolResult::error("x").with_metadata(meta(&[("pending", Value::Null)]));
    assert!(pending_of(&null).is_none());
}

const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

#[test]
fn from_path_reads_sniffs_and_names() {
    let dir = TempDir::new("parts");
    let part = ContentPart::from_path(dir.file("shot.dat", PNG)).unwrap();
    assert_eq!(part.kind, ContentPartKind::Image);
    assert_eq!(part.mime_type, "image/png");
    assert_eq!(part.name.as_deref(), Some("shot.dat"));
    assert_eq!(part.raw().unwrap(), PNG);
    assert_eq!(ContentPart::from_json(&part.to_json()).unwrap(), part);

    let notes = ContentPart::from_path(dir.file("notes.md", b"# hi")).unwrap();
    assert_eq!(
        (notes.kind, notes.mime_type.as_str()),
        (ContentPartKind::File, "text/markdown")
    );
    assert_eq!(notes.data, "IyBoaQ==");
    let blob = ContentPart::from_path(dir.file("blob", b"\0\x01\x02")).unwrap();
    assert_eq!(blob.mime_type, "application/octet-stream");
    let empty = ContentPart::from_path(dir.file("empty.wav", b"")).unwrap();
    assert_eq!(
        (empty.kind, empty.data.as_str()),
        (ContentPartKind::Audio, "")
    );
}

#[test]
fn from_path_errors_name_the_path_and_the_reason() {
    let dir = TempDir::new("errors");
    let missing = dir.0.join("missing.png");
    let err = ContentPart::from_path(&missing).unwrap_err();
    assert!(matches!(err, FileError::NotFound { .. }), "{err:?}");
    assert_eq!(err.path(), missing);
    assert!(err.to_string().contains("missing.png") && err.to_string().contains("no such file"));

    let err = ContentPart::from_path(&dir.0).unwrap_err();
    assert!(matches!(err, FileError::IsDirectory { .. }), "{err:?}");
    assert!(err.to_string().contains("is a directory"), "{err}");

    let ten = dir.file("ten.bin", &[7u8; 10]);
    assert!(ContentPart::from_path_with_limit(&ten, 10).is_ok());
    let err = ContentPart::from_path_with_limit(&ten, 9).unwrap_err();
    assert!(
        matches!(
            err,
            FileError::TooLarge {
                size: 10,
                limit: 9,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("ten.bin") && err.to_string().contains("limit of 9"));

    let big = dir.file("big.bin", &vec![0u8; DEFAULT_MAX_BYTES as usize + 1]);
    let err = ContentPart::from_path(&big).unwrap_err();
    assert!(
        matches!(
            err,
            FileError::TooLarge {
                limit: DEFAULT_MAX_BYTES,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn raw_rejects_what_is_not_base64() {
    let mut part = ContentPart::from_bytes(b"abc", "text/plain");
    assert_eq!(part.kind, ContentPartKind::File);
    assert_eq!(part.raw().unwrap(), b"abc");
    part.data = "YWJj!".into();
    assert_eq!(part.raw().unwrap_err().path(), "$.data");
}
