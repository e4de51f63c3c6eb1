// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The toolkit: a turn run, stored, resumed, refused; keys, rotation, expiry, principals;
//! and what a run keeps through this crate's JSON in the build's feature set (the crate's
//! tests run without and with `lossless`). The loop's rules themselves are pinned by the
//! loop vectors (`idl/loop/`), which `tests/rust/loop` runs through this toolkit.
#![cfg(feature = "tokio")]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};
use toolnexus::{
    Answer, AnswerReason, LogLevel, Request, ResumeReason, RunError, RunOptions, RunResult,
    RunResultStatus, Tool, ToolCall, ToolContext, ToolResult, Toolkit, Wire, define_tool,
    idempotency_key, pending, turn_digest,
};

const K1: &[u8] = b"key one, thirty-two bytes long!!";
const K2: &[u8] = b"rotated-in-key-2026!";

fn call(id: &str, name: &str, arguments: Value) -> ToolCall {
    let Value::Object(arguments) = arguments else {
        panic!("arguments are an object")
    };
    ToolCall::new(id, name, arguments)
}

fn answer(request: &Request, ok: bool, data: Option<Value>) -> Answer {
    let mut answer = Answer::new(request.id.clone(), ok);
    answer.data = data.map(|d| match d {
        Value::Object(map) => map,
        _ => panic!("data is an object"),
    });
    answer
}

/// Every run of `ask_user`, as (call id, idempotency key, retry).
type Log = Arc<Mutex<Vec<(String, String, bool)>>>;

/// `ask_user` asks "Which colour?" and, answered, says what it was told; `hello` greets.
fn tools(log: &Log) -> Vec<Tool> {
    let log = Arc::clone(log);
    let ask_user = define_tool("ask_user", "", None, move |args, ctx: ToolContext| {
        log.lock().unwrap().push((
            ctx.call_id.clone(),
            ctx.idempotency_key.clone(),
            ctx.answer.is_some(),
        ));
        async move {
            let Some(answer) = ctx.answer else {
                return Ok::<_, String>(pending(Request {
                    kind: "input".into(),
                    prompt: "Which colour?".into(),
                    data: args["ask"].as_object().cloned(),
                    ..Request::default()
                }));
            };
            let told = answer.data.map(Value::Object).unwrap_or(Value::Null);
            Ok(ToolResult::ok(format!("told {told}")))
        }
    });
    let hello = define_tool("hello", "", None, |args, _ctx| async move {
        let meta = args["meta"].as_object().cloned().unwrap_or_default();
        Ok::<_, String>(ToolResult::ok("hello").with_metadata(meta))
    });
    vec![ask_user, hello]
}

/// A clock at `ms` milliseconds after the epoch, moved by the test.
fn clock(ms: &Arc<AtomicU64>) -> impl Fn() -> SystemTime + Send + Sync + 'static {
    let ms = Arc::clone(ms);
    move || UNIX_EPOCH + Duration::from_millis(ms.load(Ordering::SeqCst))
}

fn sealed_kit(log: &Log) -> Toolkit {
    Toolkit::builder()
        .tools(tools(log))
        .secret("k1", K1)
        .build()
        .unwrap()
}

/// `run` written by this crate and read back, as storage does.
fn stored(run: &RunResult) -> RunResult {
    RunResult::from_json(&run.to_json()).unwrap()
}

#[tokio::test]
async fn a_turn_stops_on_a_question_and_resumes_from_storage_with_the_same_key() {
    let log = Log::default();
    let kit = sealed_kit(&log);
    let calls = vec![
        call("c1", "ask_user", json!({})),
        call("c2", "hello", json!({})),
    ];
    let run = kit
        .run_calls(calls, RunOptions::default().turn_id("turn-7"))
        .await
        .unwrap();
    assert_eq!(run.status, RunResultStatus::Pending);
    assert_eq!(run.results[0].result.output, "hello");
    assert_eq!(run.turn, "turn-7");
    assert!(
        run.seal
            .as_deref()
            .unwrap()
            .starts_with("v4.hmac-sha256.k1..")
    );
    let request = run.pending.clone().unwrap();
    assert_eq!(
        (request.kind.as_str(), request.prompt.as_str()),
        ("input", "Which colour?")
    );
    assert!(request.id.starts_with("pnd-"));

    let done = kit
        .resume(
            stored(&run),
            vec![answer(&request, true, Some(json!({"text": "teal"})))],
            None,
        )
        .await
        .unwrap();
    assert_eq!(done.status, RunResultStatus::Done);
    let outputs: Vec<&str> = done
        .results
        .iter()
        .map(|r| r.result.output.as_str())
        .collect();
    assert_eq!(outputs, ["told {\"text\":\"teal\"}", "hello"]);

    // The first run and the retry share the key, which is the Python package's for the call.
    let runs = log.lock().unwrap().clone();
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0].2, runs[1].2), (false, true));
    assert_eq!(runs[0].1, runs[1].1);
    assert_eq!(runs[0].1, "idk-fcf3027a4a22f742d506726aa2fcffba");
    let order = ["c1".to_owned(), "c2".to_owned()];
    assert_eq!(
        idempotency_key(&turn_digest(&order, "turn-7"), "c1"),
        runs[0].1
    );
    let unnamed = idempotency_key(&turn_digest(&order, ""), "c2");
    assert_eq!(unnamed, "idk-10c1b854f12ff68150ccd0429e4eda26");
    let accented = ["é".to_owned(), "c2".to_owned()];
    assert_eq!(
        idempotency_key(&turn_digest(&accented, "tür"), "é"),
        "idk-0f61ecd81c3c1c94071ac2fd0d394e32"
    );
}

#[tokio::test]
async fn a_run_altered_replayed_misanswered_or_finished_is_refused_and_nothing_runs() {
    let log = Log::default();
    let kit = sealed_kit(&log);
    let run = kit
        .run_calls(
            vec![call("c1", "ask_user", json!({}))],
            RunOptions::default(),
        )
        .await
        .unwrap();
    let request = run.pending.clone().unwrap();
    let ok = answer(&request, true, None);

    let mut altered = stored(&run);
    altered.calls[0].arguments.insert("path".into(), json!("/"));
    let err = kit
        .resume(altered, vec![ok.clone()], None)
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Seal);

    let mut unsealed = stored(&run);
    unsealed.seal = None;
    assert_eq!(
        kit.resume(unsealed, vec![ok.clone()], None)
            .await
            .unwrap_err()
            .reason(),
        ResumeReason::Seal
    );

    let mut wrong = ok.clone();
    wrong.id = "pnd-nope".into();
    assert_eq!(
        kit.resume(stored(&run), vec![wrong], None)
            .await
            .unwrap_err()
            .reason(),
        ResumeReason::Mismatch
    );
    assert_eq!(log.lock().unwrap().len(), 1, "nothing ran");

    let done = kit
        .resume(stored(&run), vec![ok.clone()], None)
        .await
        .unwrap();
    assert_eq!(done.status, RunResultStatus::Done);
    let again = kit
        .resume(stored(&run), vec![ok.clone()], None)
        .await
        .unwrap_err();
    assert_eq!(again.reason(), ResumeReason::Replayed);
    let finished = kit.resume(done, vec![ok], None).await.unwrap_err();
    assert_eq!(finished.reason(), ResumeReason::NotPending);
    assert_eq!(log.lock().unwrap().len(), 2, "the answer ran once");

    // A toolkit without keys refuses a sealed run; one with keys, an unsealed one.
    let keyless = Toolkit::new(tools(&log)).unwrap();
    let err = keyless
        .resume(stored(&run), vec![answer(&request, true, None)], None)
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Seal);
}

#[tokio::test]
async fn a_sealed_expiry_and_principal_are_kept_and_keys_rotate() {
    let log = Log::default();
    let now = Arc::new(AtomicU64::new(1_700_000_000_000));
    let kit = Toolkit::builder()
        .tools(tools(&log))
        .secret("k1", K1)
        .clock(clock(&now))
        .build()
        .unwrap();
    let options = RunOptions::default()
        .expires_in(Duration::from_secs(60))
        .principal("user-42");
    let run = kit
        .run_calls(vec![call("c1", "ask_user", json!({}))], options)
        .await
        .unwrap();
    assert!(
        run.seal
            .as_deref()
            .unwrap()
            .starts_with("v4.hmac-sha256.k1.1700000060000.")
    );
    let ok = answer(run.pending.as_ref().unwrap(), true, None);

    let err = kit
        .resume(stored(&run), vec![ok.clone()], Some("user-7"))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Principal);
    let err = kit
        .resume(stored(&run), vec![ok.clone()], None)
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Principal);
    now.store(1_700_000_060_000, Ordering::SeqCst);
    let err = kit
        .resume(stored(&run), vec![ok.clone()], Some("user-42"))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Expired);
    now.store(1_700_000_059_999, Ordering::SeqCst);

    // A new key is made active: the run sealed under k1 still resumes while k1 is kept.
    let rotated = Toolkit::builder()
        .tools(tools(&log))
        .secret("k1", K1)
        .secret("k2", K2)
        .active_key("k2")
        .clock(clock(&now))
        .build()
        .unwrap();
    let retired = Toolkit::builder()
        .tools(tools(&log))
        .secret("k2", K2)
        .clock(clock(&now))
        .build()
        .unwrap();
    let err = retired
        .resume(stored(&run), vec![ok.clone()], Some("user-42"))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Seal);
    let two = kit
        .run_calls(
            vec![
                call("c1", "ask_user", json!({})),
                call("c2", "ask_user", json!({})),
            ],
            RunOptions::default().principal("user-42"),
        )
        .await
        .unwrap();
    let first = answer(&two.requests[0], true, None);
    let moved = rotated
        .resume(stored(&two), vec![first], Some("user-42"))
        .await
        .unwrap();
    assert!(
        moved
            .seal
            .as_deref()
            .unwrap()
            .starts_with("v4.hmac-sha256.k2.."),
        "{:?}",
        moved.seal
    );
    let second = answer(&moved.requests[0], true, None);
    let done = retired
        .resume(stored(&moved), vec![second], Some("user-42"))
        .await
        .unwrap();
    assert_eq!(done.status, RunResultStatus::Done);
}

#[tokio::test]
async fn expire_settles_what_has_expired_and_nothing_runs() {
    let log = Log::default();
    let now = Arc::new(AtomicU64::new(1_767_225_600_000)); // 2026-01-01T00:00:00Z
    let kit = Toolkit::builder()
        .tools(tools(&log))
        .secret("k1", K1)
        .clock(clock(&now))
        .build()
        .unwrap();
    let run = kit
        .run_calls(
            vec![call("c1", "ask_user", json!({}))],
            RunOptions::default().expires_in(Duration::from_secs(30)),
        )
        .await
        .unwrap();
    let same = kit.expire(stored(&run), None, None).await.unwrap();
    assert_eq!(same, stored(&run));
    now.store(1_767_225_630_000, Ordering::SeqCst);
    let settled = kit.expire(stored(&run), None, None).await.unwrap();
    assert_eq!(settled.status, RunResultStatus::Done);
    let result = &settled.results[0].result;
    assert_eq!(result.output, "declined/expired: Which colour?");
    assert_eq!(
        result.metadata.as_ref().unwrap()["declined"]["reason"],
        "expired"
    );
    assert_eq!(log.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn wait_for_answers_in_place_and_approvals_gate_the_handler() {
    let log = Log::default();
    let ran = Arc::new(Mutex::new(Vec::new()));
    let into = Arc::clone(&ran);
    let wipe = define_tool("wipe", "", None, move |args, _ctx| {
        into.lock().unwrap().push(args.clone());
        async move { Ok::<_, String>(format!("wiped {}", args["path"].as_str().unwrap_or("?"))) }
    })
    .with_approval_rule(|args| args.get("path").and_then(Value::as_str) != Some("tmp"));
    let kit = Toolkit::builder()
        .tools(tools(&log))
        .tool(wipe)
        .build()
        .unwrap();
    let calls = vec![
        call("c1", "ask_user", json!({})),
        call("c2", "wipe", json!({"path": "reports/old"})),
        call("c3", "wipe", json!({"path": "tmp"})),
    ];
    let options = RunOptions::default().wait_for(|request: Request| async move {
        let approval = request.kind == "approval";
        let mut answer = Answer::new(request.id, true);
        if !approval {
            answer.data = Some(Map::from_iter([("text".to_owned(), json!("red"))]));
        }
        answer
    });
    let done = kit.run_calls(calls.clone(), options).await.unwrap();
    let outputs: Vec<&str> = done
        .results
        .iter()
        .map(|r| r.result.output.as_str())
        .collect();
    assert_eq!(
        outputs,
        ["told {\"text\":\"red\"}", "wiped reports/old", "wiped tmp"]
    );

    // Without wait_for the approval waits; refused, the handler never runs.
    ran.lock().unwrap().clear();
    let run = kit
        .run_calls(calls[1..2].to_vec(), RunOptions::default())
        .await
        .unwrap();
    let approval = run.pending.clone().unwrap();
    assert!(approval.id.starts_with("apr-"));
    assert_eq!(approval.prompt, "Allow wipe to run with these arguments?");
    assert_eq!(
        Value::Object(approval.data.clone().unwrap()),
        json!({"tool": "wipe", "arguments": {"path": "reports/old"}})
    );
    let mut no = answer(&approval, false, None);
    no.reason = Some(AnswerReason::Declined);
    let refused = kit.resume(stored(&run), vec![no], None).await.unwrap();
    assert_eq!(
        refused.results[0].result.output,
        "declined: the call to wipe was not approved"
    );
    assert!(ran.lock().unwrap().is_empty());

    // A wait_for that answers another request stops the turn.
    let lying = RunOptions::default()
        .wait_for(|_request: Request| async move { Answer::new("pnd-other", true) });
    let err = kit.run_calls(calls[..1].to_vec(), lying).await.unwrap_err();
    assert!(matches!(err, RunError::Resume(e) if e.reason() == ResumeReason::Mismatch));
}

#[tokio::test]
async fn a_sealed_run_keeps_through_this_builds_json_or_says_a_value_cannot_be_kept() {
    let log = Log::default();
    let kit = sealed_kit(&log);
    // Floats Python writes that serde_json's own parser reads an ulp off, and metadata whose
    // keys are not in sorted order.
    let meta = json!({"z": 0.30000000000000004, "a": 9.977421578902324e-10, "m": [429455817.44877523, 1e21, -0.0, 5e-324]});
    let calls = vec![
        call("c1", "hello", json!({"meta": meta})),
        call("c2", "ask_user", json!({"q": 2.5e-7})),
    ];
    let run = kit.run_calls(calls, RunOptions::default()).await.unwrap();
    let text = run.to_json();
    let again = RunResult::from_json(&text).unwrap();
    assert_eq!(
        again.to_json(),
        RunResult::from_json(&again.to_json()).unwrap().to_json()
    );
    let ok = answer(run.pending.as_ref().unwrap(), true, None);
    let done = kit.resume(again, vec![ok], None).await.unwrap();
    assert_eq!(
        done.results[0].result.metadata.as_ref().unwrap()["z"],
        json!(0.30000000000000004)
    );

    // An integer beyond ±2^53 has no exact form in the seal: the call that would wait on it
    // settles as an error saying so, and the turn is kept.
    let big = call("c1", "ask_user", json!({"ask": {"n": 9007199254740993u64}}));
    let run = kit
        .run_calls(vec![big], RunOptions::default())
        .await
        .unwrap();
    assert_eq!(run.status, RunResultStatus::Done);
    let output = &run.results[0].result.output;
    assert!(
        output.starts_with(
            "the call cannot wait for an answer: its arguments or request cannot be sealed"
        ),
        "{output}"
    );
    assert!(output.contains("2**53"), "{output}");

    // A stored run that comes back holding such an integer is refused as unsealable, not
    // blamed on tampering alone.
    let run = kit
        .run_calls(
            vec![call("c1", "ask_user", json!({}))],
            RunOptions::default(),
        )
        .await
        .unwrap();
    let mut wire = run.to_wire();
    wire["calls"][0]["arguments"]["n"] = json!(18446744073709551615u64);
    let altered = RunResult::from_wire(wire).unwrap();
    let err = kit
        .resume(
            altered,
            vec![answer(run.pending.as_ref().unwrap(), true, None)],
            None,
        )
        .await
        .unwrap_err();
    assert_eq!(err.reason(), ResumeReason::Seal);
    assert!(err.message().contains("cannot be sealed exactly"), "{err}");
}

#[test]
fn a_toolkit_is_refused_for_bad_keys_and_names_and_a_turn_for_bad_ids() {
    let log = Log::default();
    let short = Toolkit::builder()
        .secret("k1", b"too short")
        .build()
        .unwrap_err();
    assert!(short.to_string().contains("at least 16 bytes"), "{short}");
    let bad_id = Toolkit::builder().secret("k.1", K1).build().unwrap_err();
    assert!(bad_id.to_string().contains("key id"), "{bad_id}");
    let two = Toolkit::builder()
        .secret("k1", K1)
        .secret("k2", K2)
        .build()
        .unwrap_err();
    assert!(two.to_string().contains("active_key"), "{two}");
    let unknown = Toolkit::builder()
        .secret("k1", K1)
        .active_key("k9")
        .build()
        .unwrap_err();
    assert!(unknown.to_string().contains("k9"), "{unknown}");
    let mut twice = tools(&log);
    twice.extend(tools(&log));
    let dup = Toolkit::new(twice).unwrap_err();
    assert!(dup.to_string().contains("already registered"), "{dup}");
    let renamed = Toolkit::new([define_tool("get weather", "", None, |_a, _c| async move {
        Ok::<_, String>("sunny")
    })])
    .unwrap();
    assert_eq!(renamed.get("get weather").unwrap().name(), "get_weather");
}

#[tokio::test]
async fn a_turn_with_two_calls_of_one_id_or_a_seal_binding_without_a_key_is_refused() {
    let log = Log::default();
    let keyless = Toolkit::new(tools(&log)).unwrap();
    let calls = vec![
        call("c1", "hello", json!({})),
        call("c1", "hello", json!({})),
    ];
    let err = keyless
        .run_calls(calls, RunOptions::default())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, RunError::Invalid(m) if m.contains("distinct ids")),
        "{err}"
    );
    let bound = RunOptions::default().principal("user-42");
    let err = keyless
        .run_calls(vec![call("c1", "hello", json!({}))], bound)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, RunError::Invalid(m) if m.contains("need a toolkit with a key")),
        "{err}"
    );
    let unknown = keyless
        .run_calls(vec![call("c1", "nope", json!({}))], RunOptions::default())
        .await
        .unwrap();
    assert_eq!(unknown.results[0].result.output, "Unknown tool: nope");
}

#[tokio::test]
async fn a_turn_and_a_resume_run_on_any_tokio_worker() {
    let log = Log::default();
    let kit = Arc::new(sealed_kit(&log));
    let on = Arc::clone(&kit);
    // tokio::spawn needs the futures to be Send: a toolkit's turn can move between threads.
    let run = tokio::spawn(async move {
        on.run_calls(
            vec![call("c1", "ask_user", json!({}))],
            RunOptions::default(),
        )
        .await
    })
    .await
    .unwrap()
    .unwrap();
    let ok = answer(run.pending.as_ref().unwrap(), true, None);
    let on = Arc::clone(&kit);
    let done = tokio::spawn(async move { on.resume(run, vec![ok], None).await })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(done.results[0].result.output, "told null");
}

#[test]
fn every_error_of_the_crate_converts_into_the_root_and_keeps_its_source() {
    use std::error::Error as _;

    fn build_and_parse() -> Result<RunResult, toolnexus::Error> {
        Toolkit::builder().secret("k1", K1).build()?;
        Ok(RunResult::from_json("{")?)
    }
    let wire = build_and_parse().unwrap_err();
    assert!(matches!(wire, toolnexus::Error::Wire(_)), "{wire:?}");
    assert!(
        wire.source()
            .is_some_and(|s| s.to_string() == wire.to_string())
    );
    let toolkit: toolnexus::Error = Toolkit::builder()
        .secret("k1", b"too short")
        .build()
        .unwrap_err()
        .into();
    assert!(
        matches!(toolkit, toolnexus::Error::Toolkit(_)),
        "{toolkit:?}"
    );
    assert!(
        toolkit.to_string().contains("at least 16 bytes"),
        "{toolkit}"
    );
}

/// A line the toolkit's log hook heard: the call id, the level, the message, the data.
type LogLine = (String, LogLevel, String, Value);

#[tokio::test]
async fn a_tools_log_lines_reach_the_toolkits_hook_under_the_calls_id() {
    let heard: Arc<Mutex<Vec<LogLine>>> = Arc::default();
    let into = Arc::clone(&heard);
    let fetch = define_tool(
        "fetch",
        "",
        None,
        |args: Value, ctx: ToolContext| async move {
            let mut data = Map::new();
            data.insert("url".to_owned(), args["url"].clone());
            ctx.log(LogLevel::Notice, "fetching", data);
            Ok::<_, String>("fetched")
        },
    );
    let kit = Toolkit::builder()
        .tool(fetch)
        .on_log(move |call_id, level, message, data| {
            let line = (call_id.to_owned(), level, message.to_owned(), json!(data));
            into.lock().unwrap().push(line);
        })
        .build()
        .unwrap();
    let calls = vec![
        call("c1", "fetch", json!({"url": "a"})),
        call("c2", "fetch", json!({"url": "b"})),
    ];
    let run = kit.run_calls(calls, RunOptions::default()).await.unwrap();
    assert_eq!(run.status, RunResultStatus::Done);
    let mut lines = heard.lock().unwrap().clone();
    lines.sort_by(|a, b| a.0.cmp(&b.0)); // the calls run side by side
    assert_eq!(
        lines,
        vec![
            (
                "c1".to_owned(),
                LogLevel::Notice,
                "fetching".to_owned(),
                json!({"url": "a"})
            ),
            (
                "c2".to_owned(),
                LogLevel::Notice,
                "fetching".to_owned(),
                json!({"url": "b"})
            ),
        ]
    );
}
