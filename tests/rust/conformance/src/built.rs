//! The vectors of `idl/examples/built.json`: wire documents too large to keep as files,
//! built from segments, parsed and emitted again, each step timed.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use toolnexus::serde_json::{self, Map, Value};
use toolnexus::{ContentPart, ToolResult, Wire};

/// The text of a list of segments: a string as it is, `{"repeat": s, "times": n}` as `s`
/// repeated `n` times.
pub fn build(segments: &[Value]) -> io::Result<String> {
    let mut text = String::new();
    for segment in segments {
        match segment {
            Value::String(s) => text.push_str(s),
            Value::Object(o) => {
                let repeat = o.get("repeat").and_then(Value::as_str);
                let times = o.get("times").and_then(Value::as_u64);
                let (Some(repeat), Some(times)) = (repeat, times) else {
                    return Err(bad(format!("a segment needs repeat and times: {segment}")));
                };
                text.push_str(&repeat.repeat(times as usize));
            }
            _ => return Err(bad(format!("not a segment: {segment}"))),
        }
    }
    Ok(text)
}

fn bad(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

fn millis(since: Instant) -> Value {
    Value::from(since.elapsed().as_secs_f64() * 1e3)
}

/// Parses `text` as a `T`, emits it again, and says how it went.
fn timed<T: Wire>(text: &str, line: &mut Map<String, Value>) {
    let t0 = Instant::now();
    match T::from_json(text) {
        Ok(value) => {
            line.insert("parseMs".into(), millis(t0));
            let t1 = Instant::now();
            let emitted = value.try_to_json();
            line.insert("emitMs".into(), millis(t1));
            line.insert("ok".into(), Value::Bool(true));
            line.insert("same".into(), Value::Bool(emitted.is_ok_and(|e| e == text)));
        }
        Err(e) => {
            line.insert("parseMs".into(), millis(t0));
            line.insert("ok".into(), Value::Bool(false));
            line.insert("path".into(), Value::from(e.path()));
            let error: String = e.to_string().chars().take(300).collect();
            line.insert("error".into(), Value::from(error));
        }
    }
}

/// Runs every vector of the file at `file`, one JSON line each on stdout, and judges it
/// (a valid one must be accepted and emitted byte for byte, an invalid one refused at its
/// `path`): `N passed, N failed` on stderr, and `false` when one failed.
pub fn run(file: &Path) -> io::Result<bool> {
    let doc: Value = serde_json::from_slice(&fs::read(file)?).map_err(|e| bad(e.to_string()))?;
    let Some(vectors) = doc.get("vectors").and_then(Value::as_array) else {
        return Err(bad("no \"vectors\" array".to_owned()));
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut passed, mut failed) = (0usize, 0usize);
    for v in vectors {
        let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
        let type_name = v.get("type").and_then(Value::as_str).unwrap_or_default();
        let segments = v.get("text").and_then(Value::as_array);
        let text = build(segments.map_or(&[], Vec::as_slice))?;
        let mut line = Map::new();
        line.insert("vector".into(), Value::from(name));
        match type_name {
            "ToolResult" => timed::<ToolResult>(&text, &mut line),
            "ContentPart" => timed::<ContentPart>(&text, &mut line),
            other => return Err(bad(format!("no built vectors of type {other:?} here"))),
        }
        let valid = v.get("valid").and_then(Value::as_bool).unwrap_or(false);
        let ok = line.get("ok").and_then(Value::as_bool).unwrap_or(false);
        let why = if valid && !ok {
            Some("a valid vector was rejected".to_owned())
        } else if valid && line.get("same") != Some(&Value::Bool(true)) {
            Some("the emitted text is not the document".to_owned())
        } else if !valid && ok {
            Some("an invalid vector was accepted".to_owned())
        } else if !valid && line.get("path") != v.get("path") {
            Some(format!(
                "rejected at {:?}, expected at {:?}",
                line.get("path"),
                v.get("path")
            ))
        } else {
            None
        };
        writeln!(out, "{}", Value::Object(line))?;
        match why {
            None => passed += 1,
            Some(why) => {
                failed += 1;
                eprintln!("FAIL {name}: {why}");
            }
        }
    }
    out.flush()?;
    eprintln!("built: {passed} passed, {failed} failed");
    Ok(failed == 0)
}
