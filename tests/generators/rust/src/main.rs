//! Reads `<tool>\t<Type>\t<path>` lines on stdin; for each, parses the file with that tool's
//! Rust type and writes it back with serde_json, and prints one JSON line:
//! `{"tool", "vector": path, "ok": bool, "emitted"?: text, "error"?: text}`.
#![allow(clippy::all, dead_code, unused_imports, non_camel_case_types)]

use std::io::{self, BufRead, Write};

mod typify {
    include!(concat!(env!("OUT_DIR"), "/typify.rs"));
}
mod quicktype {
    include!(concat!(env!("OUT_DIR"), "/quicktype.rs"));
}
mod dispatch {
    use super::roundtrip;
    include!(concat!(env!("OUT_DIR"), "/dispatch.rs"));
}

fn roundtrip<T: serde::de::DeserializeOwned + serde::Serialize>(
    raw: &str,
) -> Result<String, String> {
    let value: T = serde_json::from_str(raw).map_err(|e| e.to_string())?;
    serde_json::to_string(&value).map_err(|e| e.to_string())
}

fn main() {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    // First: whether each tool took the schema, and wrote a type for every wire type.
    let refused = typify::REFUSED.map(str::to_owned);
    for (tool, refused, missing) in [
        ("cargo-typify", refused, dispatch::MISSING_TYPIFY),
        ("quicktype-rust", None, dispatch::MISSING_QUICKTYPE),
    ] {
        let note = refused.or_else(|| {
            (!missing.is_empty()).then(|| format!("no type for {}", missing.join(", ")))
        });
        let row = serde_json::json!({"tool": tool, "accepts": note.is_none(), "note": note.unwrap_or_default()});
        writeln!(out, "{row}").unwrap();
    }
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        let mut parts = line.splitn(3, '\t');
        let (tool, name, path) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let answer = match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(raw) => dispatch::run(tool, name, &raw)
                    .unwrap_or_else(|| Err(format!("no type {name}"))),
                Err(e) => Err(format!("not UTF-8: {e}")),
            },
            Err(e) => Err(e.to_string()),
        };
        let row = match answer {
            Ok(emitted) => {
                serde_json::json!({"tool": tool, "vector": path, "ok": true, "emitted": emitted})
            }
            Err(error) => {
                serde_json::json!({"tool": tool, "vector": path, "ok": false, "error": error})
            }
        };
        writeln!(out, "{row}").unwrap();
    }
}
