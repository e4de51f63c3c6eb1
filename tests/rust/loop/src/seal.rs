//! The seal vectors (`idl/seal/vectors.json`, written from `docs/seal.md` alone by
//! `tests/seal_spec.py`) through the crate: its canonical JSON is RFC 8785's, it writes the
//! documented seals, accepts them (also after reading and writing the run again in this
//! build's feature set) and refuses what the document refuses, with the same reason.

use std::time::{Duration, UNIX_EPOCH};

use toolnexus::seal::{canonical, seal_run, SealKey};
use toolnexus::serde_json::Value;
use toolnexus::{Answer, RunResult, Toolkit, Wire};

/// `hex` as bytes.
pub fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

fn toolkit(doc: &Value, active: &str, now_ms: u64) -> Toolkit {
    let mut builder = Toolkit::builder()
        .active_key(active)
        .clock(move || UNIX_EPOCH + Duration::from_millis(now_ms));
    for (key_id, hex) in doc["secrets"].as_object().expect("secrets") {
        builder = builder.secret(key_id.clone(), unhex(hex.as_str().expect("hex")));
    }
    builder.build().expect("the vectors' keys make a toolkit")
}

/// A refusal of the run's first request: the run's seal is checked, nothing runs.
fn declining(run: &RunResult) -> Vec<Answer> {
    vec![Answer::new(run.requests[0].id.clone(), false)]
}

/// One line per case: (name, Ok or why not).
pub async fn run(doc: &Value) -> Vec<(String, Result<(), String>)> {
    let mut out = Vec::new();
    for case in doc["jcs"].as_array().into_iter().flatten() {
        let name = format!("jcs/{}", case["name"].as_str().unwrap_or_default());
        let value: Value =
            toolnexus::serde_json::from_str(case["json"].as_str().unwrap_or_default())
                .expect("json");
        let got = canonical(&value).map(|b| String::from_utf8(b).expect("utf-8"));
        let want = case["canonical"].as_str().unwrap_or_default();
        let verdict = match got {
            Ok(text) if text == want => Ok(()),
            Ok(text) => Err(format!("canonical {text}, expected {want}")),
            Err(e) => Err(format!("no canonical form: {e}")),
        };
        out.push((name, verdict));
    }
    for case in doc["seals"].as_array().into_iter().flatten() {
        let name = format!("seals/{}", case["name"].as_str().unwrap_or_default());
        out.push((name, accepted(doc, case).await));
    }
    for case in doc["refused"].as_array().into_iter().flatten() {
        let name = format!("refused/{}", case["name"].as_str().unwrap_or_default());
        // A run given as `text` is read from it: its number literals matter.
        let run = match case["text"].as_str() {
            Some(text) => RunResult::from_json(text),
            None => RunResult::from_wire(case["run"].clone()),
        }
        .expect("a RunResult");
        let kit = toolkit(doc, "k1", case["now"].as_u64().unwrap_or(1_700_000_000_000));
        let want = case["reason"].as_str().unwrap_or_default();
        let verdict = match kit
            .resume(run.clone(), declining(&run), case["principal"].as_str())
            .await
        {
            Ok(_) => Err(format!("accepted, expected the refusal {want}")),
            Err(e) if e.reason().as_str() == want => Ok(()),
            Err(e) => Err(format!("refused {} ({e}), expected {want}", e.reason())),
        };
        out.push((name, verdict));
    }
    out
}

async fn accepted(doc: &Value, case: &Value) -> Result<(), String> {
    let key_id = case["key"].as_str().unwrap_or_default();
    let secret = unhex(doc["secrets"][key_id].as_str().unwrap_or_default());
    let key = SealKey::new(key_id, &secret).ok_or("a bad key")?;
    let run = RunResult::from_wire(case["run"].clone()).map_err(|e| e.to_string())?;
    let expires = case["expires"].as_i64().map(i128::from);
    let principal = case["principal"].as_str();
    // The crate writes the documented seal.
    let written = seal_run(&key, &run, expires, principal).map_err(|e| e.to_string())?;
    if written.as_deref() != run.seal.as_deref() {
        return Err(format!("sealed {written:?}, documented {:?}", run.seal));
    }
    // It accepts it, as given and after this build's JSON; a refused first request leaves
    // the run waiting on its second call, sealed as the document says.
    let again = RunResult::from_json(&run.to_json()).map_err(|e| e.to_string())?;
    for (how, given) in [("as given", run.clone()), ("read and written again", again)] {
        let kit = toolkit(doc, key_id, 1_700_000_000_000); // a fresh one: no replay memory
        let next = kit
            .resume(given, declining(&run), principal)
            .await
            .map_err(|e| format!("{how}: refused {} ({e})", e.reason()))?;
        let waiting: Vec<&str> = next.calls.iter().map(|c| c.id.as_str()).collect();
        if waiting != ["c3"] {
            return Err(format!("{how}: waiting {waiting:?}"));
        }
        let resealed = seal_run(&key, &next, expires, principal).map_err(|e| e.to_string())?;
        if resealed != next.seal {
            return Err(format!(
                "{how}: the next run is sealed {:?}, the document gives {resealed:?}",
                next.seal
            ));
        }
    }
    Ok(())
}
