//! `toolnexus-loop-host`: the crate's `Toolkit` as a host of the loop vectors, the seal
//! vectors, and a command line the cross-language tests drive.
//!
//! ```text
//! toolnexus-loop-host vectors <idl/loop>        every vector played and checked: one JSON
//!                                               line each, `loop: N passed, N failed` on
//!                                               stderr, exit 1 on a failure
//! toolnexus-loop-host seal <vectors.json>       the seal vectors, the same way
//! toolnexus-loop-host run <vector> [--now MS]   the vector's first step with its tools:
//!     {"run": <RunResult wire>, "ran": [{"id", "arguments", "retry", "data", "key"}]}
//! toolnexus-loop-host resume <vector>           reads {"run", "answers", "principal",
//!     "session"?, "now"?}
//!     (or a list of them, resumed in turn by one toolkit) on stdin and prints, for each,
//!     {"run": <RunResult wire>, "ran": [...]} or {"error": "<ResumeError reason>", "ran": [...]}
//! toolnexus-loop-host relay                     reads a RunResult on stdin and writes it
//!                                               back as this build of the crate does
//! ```
//!
//! `<vector>` is a vector's name in `idl/loop` (or a path to its file). `run` and `resume`
//! seal with the key `k1` of `tests/seal_spec.py`, on the wall clock unless given `now`
//! (milliseconds since the epoch).

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use toolnexus::serde_json::{self, json, Value};
use toolnexus::{Answer, RunResult, Wire};

mod script;
mod seal;
mod vectors;

use script::{Clock, Log};

const USAGE: &str = "usage: toolnexus-loop-host vectors <idl/loop> | seal <vectors.json> \
                     | run <vector> [--now MS] | resume <vector> | relay";
/// `K1` of tests/seal_spec.py: "key one, thirty-two bytes long!!".
const K1: &[u8] = b"key one, thirty-two bytes long!!";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn vector_path(name: &str) -> PathBuf {
    if name.ends_with(".json") {
        PathBuf::from(name)
    } else {
        repository().join("idl/loop").join(format!("{name}.json"))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["vectors", dir] => all_vectors(Path::new(dir)).await,
        ["seal", file] => seal_vectors(Path::new(file)).await,
        ["run", name] => run(name, None).await,
        ["run", name, "--now", ms] => match ms.parse() {
            Ok(ms) => run(name, Some(ms)).await,
            Err(_) => Err(format!("--now takes milliseconds, got {ms:?}")),
        },
        ["resume", name] => resume(name).await,
        ["relay"] => relay(),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("toolnexus-loop-host: {e}");
            ExitCode::from(2)
        }
    }
}

fn print(line: &Value) -> Result<(), String> {
    let mut out = io::stdout().lock();
    writeln!(out, "{line}").map_err(|e| e.to_string())
}

async fn all_vectors(dir: &Path) -> Result<bool, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let name = file
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let verdict = match vectors::load(file) {
            Ok(vector) => vectors::play(&vector).await,
            Err(e) => Err(e),
        };
        match &verdict {
            Ok(()) => passed += 1,
            Err(_) => failed += 1,
        }
        let line = match verdict {
            Ok(()) => json!({"vector": name, "ok": true}),
            Err(e) => json!({"vector": name, "ok": false, "error": e}),
        };
        print(&line)?;
    }
    eprintln!("loop: {passed} passed, {failed} failed");
    Ok(failed == 0 && passed > 0)
}

async fn seal_vectors(file: &Path) -> Result<bool, String> {
    let doc = vectors::load(file)?;
    let (mut passed, mut failed) = (0, 0);
    for (name, verdict) in seal::run(&doc).await {
        let line = match verdict {
            Ok(()) => {
                passed += 1;
                json!({"case": name, "ok": true})
            }
            Err(e) => {
                failed += 1;
                json!({"case": name, "ok": false, "error": e})
            }
        };
        print(&line)?;
    }
    eprintln!("seal: {passed} passed, {failed} failed");
    Ok(failed == 0 && passed > 0)
}

fn clock_of(now: Option<i64>) -> Clock {
    now.map_or_else(Clock::wall, Clock::at_ms)
}

fn ran_of(log: &Log, from: usize) -> Value {
    Value::Array(
        log.lock().unwrap()[from..]
            .iter()
            .map(script::Ran::to_json)
            .collect(),
    )
}

async fn run(name: &str, now: Option<i64>) -> Result<bool, String> {
    let vector = vectors::load(&vector_path(name))?;
    let clock = clock_of(now);
    let log = Log::default();
    let kit = vectors::toolkit(&vector, &clock, &log, "k1", K1, &Default::default())?;
    let run = kit
        .run_calls(vectors::calls(&vector), vectors::turn_options(&vector))
        .await
        .map_err(|e| e.to_string())?;
    print(&json!({"run": run.to_wire(), "ran": ran_of(&log, 0)}))?;
    Ok(true)
}

async fn resume(name: &str) -> Result<bool, String> {
    let vector = vectors::load(&vector_path(name))?;
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| e.to_string())?;
    let input: Value = serde_json::from_str(&input).map_err(|e| format!("stdin: {e}"))?;
    let requests = match input {
        Value::Array(items) => items,
        one => vec![one],
    };
    let clock = clock_of(requests.first().and_then(|r| r["now"].as_i64()));
    let log = Log::default();
    let kit = vectors::toolkit(&vector, &clock, &log, "k1", K1, &Default::default())?;
    for request in requests {
        if let Some(ms) = request["now"].as_i64() {
            clock.set_ms(ms);
        }
        let run =
            RunResult::from_wire(request["run"].clone()).map_err(|e| format!("stdin: {e}"))?;
        let answers = request["answers"]
            .as_array()
            .ok_or("stdin: `answers` must be a list")?
            .iter()
            .map(|a| Answer::from_wire(a.clone()).map_err(|e| format!("stdin: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let before = log.lock().unwrap().len();
        let line = match kit
            .resume_with(run, answers, vectors::resume_options(&request))
            .await
        {
            Ok(next) => json!({"run": next.to_wire(), "ran": ran_of(&log, before)}),
            Err(e) => {
                json!({"error": e.reason().as_str(), "message": e.message(), "ran": ran_of(&log, before)})
            }
        };
        print(&line)?;
    }
    Ok(true)
}

fn relay() -> Result<bool, String> {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| e.to_string())?;
    let run = RunResult::from_json(&input).map_err(|e| e.to_string())?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", run.to_json()).map_err(|e| e.to_string())?;
    Ok(true)
}
