//! Interop probe for the upstream `toolnexus` 0.23.0 crate (issue #11 item 6).
//!
//! `emit <media-dir>`: one JSON line per case, `{"case", "type", "doc"}`, where `doc` is the
//! JSON text upstream writes (`serde_json::to_string`) for a value built with its own API.
//! The media directory holds `pixel.png`, `report.pdf`, `clip.mp3` and `clip.mp4`.
//!
//! `parse`: reads lines `{"case", "type", "doc"}` (doc: JSON text, or a JSON value) from
//! stdin and answers one line each: `{"case", "type", "ok", "error"?, "reemit"?,
//! "pendingOf"?}`: whether upstream parses the document as that type, the JSON text it
//! writes back for the parsed value, and for a `ToolResult` what `pending_of` finds.

use std::io::{BufRead, Write};
use std::path::Path;

use serde_json::{json, Map, Value};
use toolnexus::{auth_required, pending, pending_of, Answer, ContentPart, Request, ToolResult};

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("not an object"),
    }
}

fn with_parts(parts: Vec<ContentPart>) -> ToolResult {
    let mut r = ToolResult::ok("see the attachment");
    r.parts = parts;
    r
}

fn emit(dir: &Path) {
    let read = |name: &str| std::fs::read(dir.join(name)).expect("media file");
    let png = read("pixel.png");
    let pdf = read("report.pdf");
    let mp3 = read("clip.mp3");
    let mp4 = read("clip.mp4");
    let b64_png = {
        // The data: URL case carries the same PNG; upstream's own encoder spells it.
        let p = ContentPart::from_bytes(&png, "image/png").unwrap();
        format!("data:image/png;base64,{}", p.data)
    };

    let mut out: Vec<(&str, &str, String)> = Vec::new();
    let mut put = |case: &'static str, ty: &'static str, text: String| out.push((case, ty, text));
    let tr = |r: &ToolResult| serde_json::to_string(r).unwrap();
    let cp = |p: &ContentPart| serde_json::to_string(p).unwrap();

    // ToolResult
    put("ok", "ToolResult", tr(&ToolResult::ok("done")));
    put(
        "error",
        "ToolResult",
        tr(&ToolResult::error("boom: disk full")),
    );
    put(
        "with_metadata",
        "ToolResult",
        tr(&ToolResult::ok("3 files").with_metadata(obj(json!({
            "exitCode": 0, "b": [1, 2.5, "x"], "a": {"z": true, "y": null}
        })))),
    );
    put(
        "pending_approval",
        "ToolResult",
        tr(&pending(Request {
            kind: "approval".into(),
            prompt: "Delete 3 files?".into(),
            data: Some(obj(json!({"paths": ["a.txt", "b.txt", "c.txt"]}))),
            expires_at: "2030-01-02T03:04:05Z".into(),
            ..Default::default()
        })),
    );
    put(
        "pending_input_fixed_id",
        "ToolResult",
        tr(&pending(Request {
            id: "req-42".into(),
            kind: "input".into(),
            prompt: "Which branch?".into(),
            data: Some(obj(
                json!({"type": "object", "properties": {"branch": {"type": "string"}}}),
            )),
            ..Default::default()
        })),
    );
    put(
        "auth_required",
        "ToolResult",
        tr(&auth_required("https://example.com/login?token=abc", "")),
    );
    put(
        "auth_required_prompt",
        "ToolResult",
        tr(&auth_required(
            "https://example.com/login",
            "Log in to view your balance",
        )),
    );
    put(
        "result_with_parts",
        "ToolResult",
        tr(&with_parts(vec![
            ContentPart::text("caption"),
            ContentPart::from_bytes(&png, "image/png").unwrap(),
        ])),
    );

    // ContentPart, each constructor
    put("part_text", "ContentPart", cp(&ContentPart::text("hello")));
    put(
        "part_image_bytes",
        "ContentPart",
        cp(&ContentPart::from_bytes(&png, "image/png").unwrap()),
    );
    put(
        "part_image_path",
        "ContentPart",
        cp(&ContentPart::from_path(dir.join("pixel.png")).unwrap()),
    );
    put(
        "part_audio_bytes",
        "ContentPart",
        cp(&ContentPart::from_bytes(&mp3, "audio/mpeg").unwrap()),
    );
    put(
        "part_audio_path",
        "ContentPart",
        cp(&ContentPart::from_path(dir.join("clip.mp3")).unwrap()),
    );
    put(
        "part_pdf_bytes",
        "ContentPart",
        cp(&ContentPart::from_bytes(&pdf, "application/pdf").unwrap()),
    );
    put(
        "part_pdf_path",
        "ContentPart",
        cp(&ContentPart::from_path(dir.join("report.pdf")).unwrap()),
    );
    put(
        "part_video_bytes",
        "ContentPart",
        cp(&ContentPart::from_bytes(&mp4, "video/mp4").unwrap()),
    );
    put(
        "part_url",
        "ContentPart",
        cp(&ContentPart::from_url("https://example.com/cat.png", "image/png").unwrap()),
    );
    put(
        "part_data_url",
        "ContentPart",
        cp(&ContentPart::from_url(&b64_png, "").unwrap()),
    );

    // Request and Answer on their own
    put(
        "request",
        "Request",
        serde_json::to_string(&Request {
            id: "req-7".into(),
            kind: "approval".into(),
            prompt: "Send the email?".into(),
            ..Default::default()
        })
        .unwrap(),
    );
    put(
        "request_full",
        "Request",
        serde_json::to_string(&Request {
            id: "req-8".into(),
            kind: "authorization".into(),
            prompt: "Log in".into(),
            url: "https://example.com/login".into(),
            data: Some(obj(json!({"scope": "read"}))),
            expires_at: "2030-01-02T03:04:05Z".into(),
        })
        .unwrap(),
    );
    put(
        "answer_ok",
        "Answer",
        serde_json::to_string(&Answer {
            id: "req-7".into(),
            ok: true,
            data: Some(obj(json!({"branch": "main"}))),
            ..Default::default()
        })
        .unwrap(),
    );
    put(
        "answer_declined",
        "Answer",
        serde_json::to_string(&Answer {
            id: "req-7".into(),
            ok: false,
            reason: "declined".into(),
            ..Default::default()
        })
        .unwrap(),
    );

    // Loop text reachable without a model: the toolkit's unknown-tool result.
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let unknown = rt.block_on(async {
        let tk = toolnexus::create_toolkit(toolnexus::ToolkitOptions {
            builtins: Some(toolnexus::BuiltinsConfig::off()),
            ..Default::default()
        })
        .await
        .expect("toolkit");
        tk.execute("no_such_tool", json!({}), Default::default())
            .await
    });
    put("unknown_tool", "ToolResult", tr(&unknown));

    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    for (case, ty, text) in out {
        let line = json!({"case": case, "type": ty, "doc": text});
        writeln!(w, "{line}").unwrap();
    }
}

fn parse_one(ty: &str, text: &str) -> Result<(String, Option<Value>), String> {
    fn go<T: serde::de::DeserializeOwned + serde::Serialize>(
        text: &str,
    ) -> Result<(T, String), String> {
        let v: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let back = serde_json::to_string(&v).map_err(|e| e.to_string())?;
        Ok((v, back))
    }
    match ty {
        "ToolResult" => {
            let (v, back) = go::<ToolResult>(text)?;
            let p = pending_of(&v).map(|r| serde_json::to_value(r).unwrap());
            Ok((back, Some(p.unwrap_or(Value::Null))))
        }
        "ContentPart" => go::<ContentPart>(text).map(|(_, b)| (b, None)),
        "Request" => go::<Request>(text).map(|(_, b)| (b, None)),
        "Answer" => go::<Answer>(text).map(|(_, b)| (b, None)),
        other => Err(format!("unknown type {other}")),
    }
}

fn parse() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        if line.trim().is_empty() {
            continue;
        }
        let req: Value = serde_json::from_str(&line).expect("request line is JSON");
        let case = req["case"].clone();
        let ty = req["type"].as_str().unwrap_or("").to_string();
        let text = match &req["doc"] {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let answer = match parse_one(&ty, &text) {
            Ok((back, pend)) => {
                let mut a = json!({"case": case, "type": ty, "ok": true, "reemit": back});
                if let Some(p) = pend {
                    a["pendingOf"] = p;
                }
                a
            }
            Err(e) => json!({"case": case, "type": ty, "ok": false, "error": e}),
        };
        writeln!(w, "{answer}").unwrap();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("emit") => emit(Path::new(args.get(2).expect("emit <media-dir>"))),
        Some("parse") => parse(),
        _ => {
            eprintln!("usage: upstream-interop emit <media-dir> | parse < lines");
            std::process::exit(2);
        }
    }
}
