//! The loop vectors (`idl/loop/*.json`, format in `idl/loop/README.md`) through the crate's
//! `Toolkit`: every step played, every expectation checked, as the Python harness does
//! (`tests/loop_vectors.py`, `tests/runtime/test_loop_vectors.py`).

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use toolnexus::serde_json::{self, json, Map, Value};
use toolnexus::{
    read_result, Answer, AnswerReason, Decision, DecisionLog, Limit, Policy, ResultScope,
    ResultSpill, ResumeOptions, RunOptions, RunResult, ToolCall, ToolCallResult, Toolkit, Wire,
};

use crate::script::{self, Clock, Log, Ran};

/// The key every host of the vectors seals with.
pub const SECRET: &[u8] = b"loop-vectors-host-key-0123456789";

pub fn load(path: &Path) -> Result<Value, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The calls of a vector, built as a model's are, without the wire's checks (a vector may
/// hold arguments nested past the wire's limit, to show what the loop does with them).
pub fn calls(vector: &Value) -> Vec<ToolCall> {
    calls_of(vector, &Value::Null)
}

/// The calls a `run` step runs: its own, or the file's.
fn calls_of(vector: &Value, step: &Value) -> Vec<ToolCall> {
    let given = step.get("calls").unwrap_or(&vector["calls"]);
    let items = given.as_array().cloned().unwrap_or_default();
    items
        .into_iter()
        .map(|c| {
            ToolCall::new(
                c["id"].as_str().unwrap_or_default(),
                c["name"].as_str().unwrap_or_default(),
                c["arguments"].as_object().cloned().unwrap_or_default(),
            )
        })
        .collect()
}

/// The options of a vector's turn: its id, sealed expiry and principal.
pub fn turn_options(vector: &Value) -> RunOptions {
    let turn = &vector["turn"];
    let mut options = RunOptions::default();
    if let Some(id) = turn["id"].as_str() {
        options = options.turn_id(id);
    }
    if let Some(seconds) = turn["expiresIn"].as_f64() {
        options = options.expires_in(std::time::Duration::from_secs_f64(seconds));
    }
    if let Some(principal) = turn["principal"].as_str() {
        options = options.principal(principal);
    }
    options
}

/// A step's options for a later `run`: the turn's (a later turn gets an id of its own,
/// `<id>-<n>`), its principal (the step's, `null` for none, else the file's) and session.
fn step_options(vector: &Value, step: &Value, turns: usize) -> RunOptions {
    let turn = &vector["turn"];
    let mut options = RunOptions::default();
    if turns == 1 {
        if let Some(id) = turn["id"].as_str() {
            options = options.turn_id(id);
        }
    } else {
        let id = turn["id"].as_str().unwrap_or("turn");
        options = options.turn_id(format!("{id}-{turns}"));
    }
    if let Some(seconds) = turn["expiresIn"].as_f64() {
        options = options.expires_in(std::time::Duration::from_secs_f64(seconds));
    }
    let principal = match step.get("principal") {
        Some(given) => given.as_str(),
        None => turn["principal"].as_str(),
    };
    if let Some(principal) = principal {
        options = options.principal(principal);
    }
    if let Some(session) = step["session"].as_str() {
        options = options.session(session);
    }
    options
}

/// A step's options for a `resume`: its principal and session.
pub fn resume_options(step: &Value) -> ResumeOptions {
    let mut options = ResumeOptions::default();
    if let Some(principal) = step["principal"].as_str() {
        options = options.principal(principal);
    }
    if let Some(session) = step["session"].as_str() {
        options = options.session(session);
    }
    options
}

/// A decision log kept in memory, for `expect.decisions`: each decision as JSON, with who
/// made it and when.
#[derive(Default)]
pub struct Logged(Mutex<Vec<Value>>);

impl Logged {
    pub fn entries(&self) -> Vec<Value> {
        self.0.lock().unwrap().clone()
    }
}

impl DecisionLog for Logged {
    fn record(&self, decision: &Decision, principal: Option<&str>, at: SystemTime) {
        let mut entry = decision.to_wire();
        entry["by"] = principal.map_or(Value::Null, Value::from);
        let micros = at
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX));
        entry["at"] = Value::from(script::rfc3339(micros));
        self.0.lock().unwrap().push(entry);
    }
}

/// A step's answers, each to the request its call waits on now, or to a literal id.
pub fn answers_of(specs: &[Value], run: &RunResult) -> Vec<Answer> {
    let asked: HashMap<&str, &str> = run
        .calls
        .iter()
        .zip(&run.requests)
        .map(|(c, r)| (c.id.as_str(), r.id.as_str()))
        .collect();
    specs
        .iter()
        .map(|spec| {
            let id = match spec["id"].as_str() {
                Some(id) => id.to_owned(),
                None => {
                    let to = spec["to"].as_str().unwrap_or_default();
                    asked
                        .get(to)
                        .map_or_else(|| format!("(no request of {to})"), |r| (*r).to_owned())
                }
            };
            let mut answer = Answer::new(id, spec["ok"].as_bool().unwrap_or(false));
            answer.data = spec.get("data").and_then(Value::as_object).cloned();
            answer.reason = spec
                .get("reason")
                .and_then(Value::as_str)
                .and_then(|r| r.parse::<AnswerReason>().ok());
            answer.message = spec
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned);
            answer.scope = spec.get("scope").and_then(Value::as_str).map(str::to_owned);
            answer
        })
        .collect()
}

/// `wire` with each JSON pointer of `edits` set to its value.
pub fn tampered(mut wire: Value, edits: &[Value]) -> Value {
    for edit in edits {
        let pointer = edit["at"].as_str().unwrap_or_default();
        let parts: Vec<String> = pointer
            .split('/')
            .skip(1)
            .map(|p| p.replace("~1", "/").replace("~0", "~"))
            .collect();
        let Some((last, path)) = parts.split_last() else {
            continue;
        };
        let mut target = &mut wire;
        for part in path {
            target = match target {
                Value::Array(items) => &mut items[part.parse::<usize>().unwrap()],
                other => &mut other[part.as_str()],
            };
        }
        match target {
            Value::Array(items) => items[last.parse::<usize>().unwrap()] = edit["set"].clone(),
            other => other[last.as_str()] = edit["set"].clone(),
        }
    }
    wire
}

/// What a step gave: a refusal, or a run.
#[derive(Debug)]
pub enum Got {
    /// The reason, and the text.
    Refused(String, String),
    Run(Box<RunResult>),
}

/// Checks each step's outcome against its `expect`, and the idempotency-key labels across
/// the whole vector.
#[derive(Default)]
pub struct Checker {
    labels: HashMap<String, String>,
    keys: HashMap<String, String>,
}

fn ensure(ok: bool, message: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(message())
    }
}

impl Checker {
    pub fn check(
        &mut self,
        index: usize,
        expect: &Value,
        got: &Got,
        runs: &[Ran],
        decisions: Option<&[Value]>,
        policies: Option<&[Policy]>,
    ) -> Result<(), String> {
        let at = format!("step {index}");
        let refused = match got {
            Got::Refused(reason, _) => Some(reason.as_str()),
            Got::Run(_) => None,
        };
        match expect["error"].as_str() {
            Some(reason) => ensure(refused == Some(reason), || {
                format!("{at}: expected the refusal {reason}, got {got:?}")
            })?,
            None => ensure(refused.is_none(), || {
                format!("{at}: refused ({refused:?}), expected {expect}")
            })?,
        }
        if let (Some(part), Got::Refused(_, message)) = (expect["errorIncludes"].as_str(), got) {
            ensure(message.contains(part), || {
                format!("{at}: refusal {message:?}")
            })?;
        }
        if let Got::Run(run) = got {
            if let Some(status) = expect["status"].as_str() {
                ensure(run.status.as_str() == status, || {
                    format!("{at}: status {}, expected {status}", run.status)
                })?;
            }
            if let Some(results) = expect["results"].as_array() {
                check_results(&at, results, &run.results)?;
            }
            if let Some(waiting) = expect["waiting"].as_array() {
                check_waiting(&at, waiting, run)?;
            }
        }
        if let Some(ran) = expect["ran"].as_array() {
            self.check_ran(&at, ran, runs)?;
        }
        if let (Some(expected), Some(logged)) = (expect["decisions"].as_array(), decisions) {
            check_decisions(&at, expected, logged)?;
        }
        if let (Some(expected), Some(kept)) = (expect.get("policies"), policies) {
            let got: Vec<Value> = kept
                .iter()
                .map(|p| json!({"tool": p.tool, "approve": p.approve, "scope": p.scope.as_str(), "key": p.key}))
                .collect();
            let got = Value::Array(got);
            ensure(&got == expected, || format!("{at}: policies {got}"))?;
        }
        Ok(())
    }

    fn check_ran(&mut self, at: &str, expected: &[Value], runs: &[Ran]) -> Result<(), String> {
        let mut got: Vec<&Ran> = runs.iter().collect();
        got.sort_by(|a, b| a.id.cmp(&b.id)); // stable: in order within a call
        let mut want: Vec<&Value> = expected.iter().collect();
        want.sort_by(|a, b| a["id"].as_str().cmp(&b["id"].as_str()));
        let ids: Vec<&str> = got.iter().map(|r| r.id.as_str()).collect();
        let wanted: Vec<&str> = want
            .iter()
            .map(|w| w["id"].as_str().unwrap_or_default())
            .collect();
        ensure(ids == wanted, || {
            format!("{at}: runs {got:?}, expected {wanted:?}")
        })?;
        for (w, r) in want.into_iter().zip(got) {
            let here = format!("{at}: run of {}", r.id);
            ensure(r.arguments == w["arguments"], || {
                format!("{here}: arguments {}", r.arguments)
            })?;
            let retry = w["retry"].as_bool().unwrap_or(false);
            ensure(r.retry == retry, || format!("{here}: retry {}", r.retry))?;
            if retry {
                let data = w.get("data").cloned().unwrap_or(Value::Null);
                ensure(r.data == data, || format!("{here}: data {}", r.data))?;
            }
            ensure(!r.key.is_empty(), || format!("{here}: no idempotency key"))?;
            let label = w["key"].as_str().unwrap_or_default().to_owned();
            match self.labels.get(&label) {
                Some(key) => ensure(key == &r.key, || {
                    format!("{here}: key {} differs from {label}'s earlier key", r.key)
                })?,
                None => {
                    ensure(!self.keys.contains_key(&r.key), || {
                        format!(
                            "{here}: key {} is {:?}'s too, not {label}'s",
                            r.key,
                            self.keys.get(&r.key)
                        )
                    })?;
                    self.labels.insert(label.clone(), r.key.clone());
                    self.keys.insert(r.key.clone(), label);
                }
            }
        }
        Ok(())
    }
}

/// The decisions logged during a step against those expected, by call (in order within a
/// call): every key expected is checked; `policy` says whether a kept policy decided.
fn check_decisions(at: &str, expected: &[Value], got: &[Value]) -> Result<(), String> {
    let shown: Vec<Value> = got
        .iter()
        .map(|d| json!({"kind": d["kind"], "call": d["call"], "scope": d["scope"], "policy": d["policy"], "by": d["by"]}))
        .collect();
    ensure(got.len() == expected.len(), || {
        format!("{at}: decisions {shown:?}")
    })?;
    let by_call = |items: &[Value]| {
        let mut sorted = items.to_vec();
        sorted.sort_by(|a, b| a["call"].as_str().cmp(&b["call"].as_str()));
        sorted
    };
    for (e, d) in by_call(expected).iter().zip(by_call(got)) {
        for (key, value) in e.as_object().into_iter().flatten() {
            if key == "policy" {
                ensure(Value::Bool(!d["policy"].is_null()) == *value, || {
                    format!("{at}: decision {d}")
                })?;
            } else {
                let found = d.get(key).unwrap_or(&Value::Null);
                ensure(found == value, || {
                    format!("{at}: decision {key} {found}, expected {value} ({d})")
                })?;
            }
        }
    }
    Ok(())
}

fn check_results(at: &str, expected: &[Value], got: &[ToolCallResult]) -> Result<(), String> {
    let ids: Vec<&str> = got.iter().map(|r| r.id.as_str()).collect();
    let wanted: Vec<&str> = expected
        .iter()
        .map(|e| e["id"].as_str().unwrap_or_default())
        .collect();
    ensure(ids == wanted, || {
        format!("{at}: result ids {ids:?}, expected {wanted:?}")
    })?;
    for (e, item) in expected.iter().zip(got) {
        let r = &item.result;
        let here = format!("{at}: result of {}", item.id);
        if let Some(output) = e["output"].as_str() {
            ensure(r.output == output, || {
                format!("{here}: output {:?}, expected {output:?}", r.output)
            })?;
        }
        if let Some(start) = e["outputStartsWith"].as_str() {
            ensure(r.output.starts_with(start), || {
                format!(
                    "{here}: output {:?}, expected it to start {start:?}",
                    r.output
                )
            })?;
        }
        ensure(Some(r.is_error) == e["isError"].as_bool(), || {
            format!("{here}: isError {}", r.is_error)
        })?;
        if let Some(parts) = e.get("parts") {
            let wire: Vec<Value> = r.parts.iter().map(Wire::to_wire).collect();
            ensure(&Value::Array(wire.clone()) == parts, || {
                format!("{here}: parts {wire:?}")
            })?;
        }
        if let Some(structured) = e.get("structuredContent") {
            ensure(r.structured_content.as_ref() == Some(structured), || {
                format!("{here}: structuredContent {:?}", r.structured_content)
            })?;
        }
        let truncated = r.metadata.as_ref().and_then(|m| m.get("truncated"));
        ensure(truncated == e.get("truncated"), || {
            format!(
                "{here}: truncated {truncated:?}, expected {:?}",
                e.get("truncated")
            )
        })?;
        let marker = r.metadata.as_ref().and_then(|m| m.get("declined"));
        match e["declined"].as_str() {
            Some(reason) => {
                // Decided by an answer (its request's id) or by a policy (its id).
                let decider = |m: &Value| {
                    let id = |key: &str| m[key].as_str().filter(|id| !id.is_empty());
                    id("request").or_else(|| id("policy")).is_some()
                };
                let ok = marker.is_some_and(|m| m["reason"] == reason && decider(m));
                ensure(ok, || {
                    format!(
                        "{here}: metadata {:?}, expected declined {reason}",
                        r.metadata
                    )
                })?;
                if let Some(message) = e.get("declinedMessage") {
                    let kept = marker.and_then(|m| m.get("message"));
                    ensure(kept == Some(message), || {
                        format!("{here}: declined marker {marker:?}, expected message {message}")
                    })?;
                }
            }
            None => ensure(marker.is_none(), || {
                format!("{here}: unexpected declined marker {marker:?}")
            })?,
        }
    }
    Ok(())
}

fn check_waiting(at: &str, expected: &[Value], run: &RunResult) -> Result<(), String> {
    let ids: Vec<&str> = run.calls.iter().map(|c| c.id.as_str()).collect();
    let wanted: Vec<&str> = expected
        .iter()
        .map(|e| e["id"].as_str().unwrap_or_default())
        .collect();
    ensure(ids == wanted, || {
        format!("{at}: waiting {ids:?}, expected {wanted:?}")
    })?;
    for (e, (call, request)) in expected.iter().zip(run.calls.iter().zip(&run.requests)) {
        let here = format!("{at}: waiting {}", call.id);
        ensure(
            Some(request.prompt.as_str()) == e["prompt"].as_str(),
            || format!("{here}: prompt {:?}", request.prompt),
        )?;
        ensure(Some(request.kind.as_str()) == e["kind"].as_str(), || {
            format!("{here}: kind {:?}", request.kind)
        })?;
        if let Some(url) = e.get("url") {
            ensure(request.url.as_deref() == url.as_str(), || {
                format!("{here}: url {:?}", request.url)
            })?;
        }
        if let Some(data) = e.get("data") {
            ensure(
                request.data.clone().map(Value::Object).as_ref() == Some(data),
                || format!("{here}: data {:?}", request.data),
            )?;
        }
        if let Some(id) = e["requestId"].as_str() {
            ensure(request.id == id, || format!("{here}: id {:?}", request.id))?;
        }
        if e["kind"] == "approval" && e.get("requestId").is_none() {
            let data = json!({"tool": call.name, "arguments": call.arguments});
            ensure(
                request.data.clone().map(Value::Object) == Some(data),
                || format!("{here}: {:?}", request.data),
            )?;
            ensure(request.id.starts_with("apr-"), || {
                format!("{here}: id {:?}", request.id)
            })?;
        }
        if let Some(arguments) = e.get("arguments") {
            ensure(&Value::Object(call.arguments.clone()) == arguments, || {
                format!("{here}: arguments {:?}", call.arguments)
            })?;
        }
        if let Some(form) = e.get("form") {
            let shown = toolnexus::engine::approval_form(request).map(Value::Object);
            ensure(shown.as_ref() == Some(form), || {
                format!("{here}: form {shown:?}")
            })?;
        }
    }
    Ok(())
}

/// The whole outputs a toolkit cut, kept in memory by scope and reference (the format's
/// `"spill": true`).
#[derive(Default)]
struct Kept(Mutex<HashMap<(ResultScope, String), String>>);

impl ResultSpill for Kept {
    fn put(&self, scope: &ResultScope, reference: &str, text: &str) -> std::io::Result<()> {
        let key = (scope.clone(), reference.to_owned());
        self.0.lock().unwrap().insert(key, text.to_owned());
        Ok(())
    }

    fn get(&self, scope: &ResultScope, reference: &str) -> std::io::Result<Option<String>> {
        let key = (scope.clone(), reference.to_owned());
        Ok(self.0.lock().unwrap().get(&key).cloned())
    }
}

/// A toolkit of a vector's tools (and `read_result` with `toolkit.readResult`), with its
/// `toolkit` options, sealing with the vectors' key, on `clock`, logging its decisions in
/// `decisions`; the message when defining them is refused (a bad limit).
pub fn toolkit(
    vector: &Value,
    clock: &Clock,
    log: &Log,
    key_id: &str,
    secret: &[u8],
    decisions: &Arc<Logged>,
) -> Result<Toolkit, String> {
    let now = clock.clone();
    let options = &vector["toolkit"];
    let mut builder = Toolkit::builder()
        .tools(script::tools(vector, clock, log)?)
        .secret(key_id, secret)
        .clock(move || now.now())
        .decision_log(Arc::clone(decisions));
    if let Some(limit) = options.get("limit") {
        builder = builder.limit(Limit::from_json(limit).map_err(|e| e.to_string())?);
    }
    if options["readResult"] == true {
        builder = builder.tool(read_result());
    }
    if options["spill"] == true || options["readResult"] == true {
        builder = builder.spill(Kept::default());
    }
    builder.build().map_err(|e| e.to_string())
}

/// For a vector with `refused`: checks that defining its tools and toolkit is refused with
/// exactly that message.
fn definition_refused(vector: &Value, expected: &str) -> Result<(), String> {
    let (clock, log) = (Clock::at_ms(script::EPOCH_MS), Log::default());
    match toolkit(vector, &clock, &log, "default", SECRET, &Arc::default()) {
        Err(message) if message == expected => Ok(()),
        Err(message) => Err(format!("refused with {message:?}, expected {expected:?}")),
        Ok(_) => Err(format!(
            "the definition was not refused (expected {expected:?})"
        )),
    }
}

/// Plays every step of `vector` through the crate's `Toolkit` and checks it.
pub async fn play(vector: &Value) -> Result<(), String> {
    if let Some(expected) = vector["refused"].as_str() {
        return definition_refused(vector, expected);
    }
    let clock = Clock::at_ms(script::EPOCH_MS);
    let log = Log::default();
    let decisions = Arc::new(Logged::default());
    let kit = toolkit(vector, &clock, &log, "default", SECRET, &decisions)?;
    let mut checker = Checker::default();
    let mut run: Option<RunResult> = None;
    let mut given: HashMap<usize, (RunResult, Vec<Answer>)> = HashMap::new();
    let mut turns = 0;
    let steps = vector["steps"].as_array().cloned().unwrap_or_default();
    for (index, step) in steps.iter().enumerate() {
        if let Some(at) = step["at"].as_f64() {
            clock.set_after_epoch(at);
        }
        let before = log.lock().unwrap().len();
        let logged = decisions.entries().len();
        let got = match step["do"].as_str() {
            Some("run") => {
                turns += 1;
                let options = step_options(vector, step, turns);
                Got::Run(Box::new(
                    kit.run_calls(calls_of(vector, step), options)
                        .await
                        .map_err(|e| format!("step {index}: {e}"))?,
                ))
            }
            Some("resume") => {
                let current = run
                    .clone()
                    .ok_or_else(|| format!("step {index}: no run to resume"))?;
                let (input, answers) = match step["replay"].as_u64() {
                    Some(n) => given
                        .get(&(n as usize))
                        .cloned()
                        .ok_or_else(|| format!("step {index}: no step {n} to replay"))?,
                    None => {
                        let answers = answers_of(
                            step["answers"].as_array().map_or(&[][..], Vec::as_slice),
                            &current,
                        );
                        let edits = step["tamper"].as_array().cloned().unwrap_or_default();
                        let input = if step["stored"] == true || !edits.is_empty() {
                            let wire = tampered(current.to_wire(), &edits);
                            RunResult::from_json(&wire.to_string())
                                .map_err(|e| format!("step {index}: {e}"))?
                        } else {
                            current
                        };
                        given.insert(index, (input.clone(), answers.clone()));
                        (input, answers)
                    }
                };
                match kit.resume_with(input, answers, resume_options(step)).await {
                    Ok(next) => Got::Run(Box::new(next)),
                    Err(e) => Got::Refused(e.reason().as_str().to_owned(), e.message().to_owned()),
                }
            }
            Some("revoke") => {
                let tool = step["tool"].as_str().unwrap_or_default();
                for policy in kit.policies(Some(tool)) {
                    if !kit.revoke_policy(&policy.id) {
                        return Err(format!("step {index}: policy {} not revoked", policy.id));
                    }
                }
                let current = run
                    .clone()
                    .ok_or_else(|| format!("step {index}: no run after the revocation"))?;
                Got::Run(Box::new(current))
            }
            Some("expire") => {
                let current = run
                    .clone()
                    .ok_or_else(|| format!("step {index}: no run to expire"))?;
                match kit.expire(current, None, None).await {
                    Ok(next) => Got::Run(Box::new(next)),
                    Err(e) => Got::Refused(e.reason().as_str().to_owned(), e.message().to_owned()),
                }
            }
            other => return Err(format!("step {index}: unknown step {other:?}")),
        };
        let runs: Vec<Ran> = log.lock().unwrap()[before..].to_vec();
        let empty = Value::Object(Map::new());
        let logged = &decisions.entries()[logged..];
        let policies = kit.policies(None);
        checker.check(
            index,
            step.get("expect").unwrap_or(&empty),
            &got,
            &runs,
            Some(logged),
            Some(&policies),
        )?;
        if let Got::Run(next) = got {
            run = Some(*next);
        }
    }
    Ok(())
}
