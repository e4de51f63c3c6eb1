//! `toolnexus-conformance [--check] <idl/examples>`: parses every wire vector with the
//! generated crate and prints one JSON line per vector, in sorted order:
//!
//! ```text
//! {"vector":"ToolResult/valid/x.json","ok":true,"emitted":"<re-emitted compact JSON>"}
//! {"vector":"ToolResult/invalid/y.json","ok":false,"path":"$.isError","error":"invalid ToolResult: $.isError: ..."}
//! ```
//!
//! Vectors are `<Type>/valid/*.json` and `<Type>/invalid/*.json`, read as raw bytes
//! (bytes that are not UTF-8 are a rejection). With `--check` it also judges them as
//! `idl/examples/README.md` says, prints `N passed, N failed` on stderr, and exits 1
//! on a failure: a valid vector must emit its bytes (or its `canonical/` sidecar)
//! without the final newline, an invalid one must be rejected at the path in its
//! `.path` sidecar.
//!
//! `toolnexus-conformance --built <idl/examples/built.json>` builds each vector of that
//! file (too large to keep as files: its `text` is a list of segments, a string as it
//! is or `{"repeat": s, "times": n}`), runs it the same way, and prints one line per
//! vector, with the times taken, and judges them as `--check` does (`built: N passed, N
//! failed` on stderr, exit 1 on a failure):
//!
//! ```text
//! {"vector":"part-5MB","ok":true,"same":true,"parseMs":12.3,"emitMs":4.5}
//! {"vector":"part-5MB-bad-last-character","ok":false,"path":"$.parts[0].data","error":"...","parseMs":9.1}
//! ```
//!
//! `toolnexus-conformance --helpers <idl/helpers>` runs the helper vectors (edge inputs
//! of `from_path`, `from_url`, `from_bytes`, `pending`, `auth_required`) and judges them
//! the same way (`helpers: N passed, N failed`):
//!
//! ```text
//! {"case":"from_url/https-by-reference","ok":true,"value":{"type":"image",...}}
//! {"case":"from_url/javascript-url","ok":false,"error":"bad-url","message":"..."}
//! ```

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toolnexus::serde_json::{Map, Value};

mod built;
mod helpers;

const USAGE: &str = "usage: toolnexus-conformance [--check] <idl/examples> \
                     | --built <idl/examples/built.json> | --helpers <idl/helpers>";

struct Vector {
    type_name: String,
    class: &'static str,
    file: PathBuf,
    name: String,
}

fn main() -> ExitCode {
    let mut check = false;
    let mut built = false;
    let mut helpers = false;
    let mut root = None;
    for arg in std::env::args_os().skip(1) {
        if arg == "--check" {
            check = true;
        } else if arg == "--built" {
            built = true;
        } else if arg == "--helpers" {
            helpers = true;
        } else if arg == "-h" || arg == "--help" {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        } else if root.is_none() {
            root = Some(PathBuf::from(arg));
        } else {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    let Some(root) = root else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    if built || helpers {
        let judged = if built {
            built::run(&root)
        } else {
            helpers::run(&root)
        };
        return match judged {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                eprintln!("toolnexus-conformance: {}: {e}", root.display());
                ExitCode::from(2)
            }
        };
    }
    match run(&root, check) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("toolnexus-conformance: {}: {e}", root.display());
            ExitCode::from(2)
        }
    }
}

fn sorted_entries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut paths = fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<io::Result<Vec<_>>>()?;
    paths.sort();
    Ok(paths)
}

fn vectors(root: &Path) -> io::Result<Vec<Vector>> {
    let mut found = Vec::new();
    for type_dir in sorted_entries(root)? {
        if !type_dir.is_dir() {
            continue;
        }
        let type_name = type_dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for class in ["valid", "invalid"] {
            let dir = type_dir.join(class);
            if !dir.is_dir() {
                continue;
            }
            for file in sorted_entries(&dir)? {
                if file.is_file() && file.extension().is_some_and(|ext| ext == "json") {
                    let name = file
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned();
                    found.push(Vector {
                        type_name: type_name.clone(),
                        class,
                        file,
                        name,
                    });
                }
            }
        }
    }
    Ok(found)
}

fn run(root: &Path, check: bool) -> io::Result<bool> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut passed, mut failed) = (0usize, 0usize);
    for v in vectors(root)? {
        let label = format!("{}/{}/{}", v.type_name, v.class, v.name);
        let bytes = fs::read(&v.file)?;
        let mut line = Map::new();
        line.insert("vector".into(), Value::from(label.as_str()));
        let outcome = match toolnexus::roundtrip(&v.type_name, &bytes) {
            Some(Ok(emitted)) => {
                line.insert("ok".into(), Value::Bool(true));
                line.insert("emitted".into(), Value::from(emitted.as_str()));
                Ok(emitted)
            }
            Some(Err(e)) => {
                line.insert("ok".into(), Value::Bool(false));
                line.insert("path".into(), Value::from(e.path()));
                line.insert("error".into(), Value::from(e.to_string()));
                Err(Some(e.path().to_owned()))
            }
            None => {
                let error = format!("no wire type named {:?}", v.type_name);
                line.insert("ok".into(), Value::Bool(false));
                line.insert("error".into(), Value::from(error));
                Err(None)
            }
        };
        writeln!(out, "{}", Value::Object(line))?;
        if check {
            match judge(root, &v, outcome)? {
                None => passed += 1,
                Some(why) => {
                    failed += 1;
                    eprintln!("FAIL {label}: {why}");
                }
            }
        }
    }
    out.flush()?;
    if check {
        eprintln!("conformance: {passed} passed, {failed} failed");
    }
    Ok(failed == 0)
}

/// `None` when the outcome is what the vector asks for, else why not.
fn judge(
    root: &Path,
    v: &Vector,
    outcome: Result<String, Option<String>>,
) -> io::Result<Option<String>> {
    let sidecar = |dir: &str, ext: &str| {
        let stem = v.name.strip_suffix(".json").unwrap_or(&v.name);
        root.join(&v.type_name)
            .join(dir)
            .join(format!("{stem}.{ext}"))
    };
    let why = match (v.class, outcome) {
        ("valid", Ok(emitted)) => {
            let canonical = sidecar("canonical", "json");
            let expected = if canonical.is_file() {
                fs::read(canonical)?
            } else {
                fs::read(&v.file)?
            };
            let expected = expected.strip_suffix(b"\n").unwrap_or(&expected);
            (emitted.as_bytes() != expected).then(|| {
                format!(
                    "emitted {emitted}\n  expected {}",
                    String::from_utf8_lossy(expected)
                )
            })
        }
        ("valid", Err(_)) => Some("a valid vector was rejected".to_owned()),
        (_, Ok(_)) => Some("an invalid vector was accepted".to_owned()),
        (_, Err(None)) => Some("no wire type of that name".to_owned()),
        (_, Err(Some(path))) => {
            let want = sidecar("invalid", "path");
            if want.is_file() {
                let want = fs::read_to_string(want)?;
                (want.trim() != path)
                    .then(|| format!("rejected at {path}, expected at {}", want.trim()))
            } else {
                None
            }
        }
    };
    Ok(why)
}
