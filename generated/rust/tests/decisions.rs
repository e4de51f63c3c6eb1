// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/tests/decisions.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Decisions through the toolkit, where the loop vectors (`idl/loop/`) do not reach: a turn's
//! scope under `wait_for` (asked once), `policies()`, `revoke_policy()` and the policy
//! lifetime, the decision log's entries (who and when, a policy's decisions, expiries), a
//! host's own policy store, and tools whose results a person supplies.
#![cfg(feature = "tokio")]

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use toolnexus::{
    Answer, Decision, DecisionKind, DecisionLog, MESSAGE_LIMIT, Policy, PolicyMemory, PolicyScope,
    PolicyStore, Request, ResumeOptions, RunOptions, RunResult, RunResultStatus, Tool, ToolCall,
    ToolContext, Toolkit, Wire, define_supplied_tool, define_tool, try_define_supplied_tool,
};

const K1: &[u8] = b"key one, thirty-two bytes long!!";
/// 2026-01-01T00:00:00Z.
const NEW_YEAR_MS: u64 = 1_767_225_600_000;

fn wipe(ran: &Arc<AtomicUsize>) -> Tool {
    let ran = Arc::clone(ran);
    define_tool("wipe", "Wipe a folder", None, move |args, _ctx| {
        ran.fetch_add(1, Ordering::SeqCst);
        async move { Ok::<_, String>(format!("wiped {}", args["path"].as_str().unwrap_or("?"))) }
    })
    .with_needs_approval(true)
}

fn calls(paths: &[&str]) -> Vec<ToolCall> {
    paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let Value::Object(arguments) = json!({"path": path}) else {
                unreachable!()
            };
            ToolCall::new(format!("c{}", i + 1), "wipe", arguments)
        })
        .collect()
}

/// A clock at `ms` milliseconds after the epoch, moved by the test.
fn clock(ms: &Arc<AtomicU64>) -> impl Fn() -> SystemTime + Send + Sync + 'static {
    let ms = Arc::clone(ms);
    move || UNIX_EPOCH + Duration::from_millis(ms.load(Ordering::SeqCst))
}

/// Every decision, with who made it and when.
#[derive(Default)]
struct Logged(Mutex<Vec<(Decision, Option<String>, SystemTime)>>);

impl DecisionLog for Logged {
    fn record(&self, decision: &Decision, principal: Option<&str>, at: SystemTime) {
        let entry = (decision.clone(), principal.map(str::to_owned), at);
        self.0.lock().unwrap().push(entry);
    }
}

impl Logged {
    fn taken(&self) -> Vec<(Decision, Option<String>, SystemTime)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

fn approve(request: &Request, scope: &str) -> Answer {
    let mut answer = Answer::new(request.id.clone(), true);
    answer.scope = Some(scope.to_owned());
    answer
}

#[tokio::test]
async fn wait_for_asks_once_for_an_approval_for_the_turn() {
    let ran = Arc::new(AtomicUsize::new(0));
    let log = Arc::new(Logged::default());
    let kit = Toolkit::builder()
        .tool(wipe(&ran))
        .decision_log(Arc::clone(&log))
        .build()
        .unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let options = RunOptions::default().wait_for(move |request: Request| {
        counted.fetch_add(1, Ordering::SeqCst);
        async move { approve(&request, "turn") }
    });
    let done = kit
        .run_calls(calls(&["a", "b", "c"]), options)
        .await
        .unwrap();
    let outputs: Vec<&str> = done
        .results
        .iter()
        .map(|r| r.result.output.as_str())
        .collect();
    assert_eq!(outputs, ["wiped a", "wiped b", "wiped c"]);
    assert_eq!(asked.load(Ordering::SeqCst), 1, "asked once for the turn");
    assert_eq!(ran.load(Ordering::SeqCst), 3);
    let logged = log.taken();
    assert_eq!(logged.len(), 3);
    assert!(
        logged
            .iter()
            .all(|(d, by, _)| d.kind == DecisionKind::Approve
                && d.scope == "turn"
                && d.policy.is_none()
                && by.is_none())
    );
    assert!(
        kit.policies(None).is_empty(),
        "a turn's scope keeps no policy"
    );
}

#[tokio::test]
async fn policies_are_listed_revoked_and_expire_after_the_policy_lifetime() {
    let ran = Arc::new(AtomicUsize::new(0));
    let now = Arc::new(AtomicU64::new(NEW_YEAR_MS));
    let kit = Toolkit::builder()
        .tool(wipe(&ran))
        .secret("k1", K1)
        .clock(clock(&now))
        .policy_lifetime(Duration::from_secs(60))
        .build()
        .unwrap();
    let run = kit
        .run_calls(calls(&["a"]), RunOptions::default().principal("user-42"))
        .await
        .unwrap();
    let request = run.pending.clone().unwrap();
    let options = ResumeOptions::default().principal("user-42");
    let done = kit
        .resume_with(run, vec![approve(&request, "principal")], options)
        .await
        .unwrap();
    assert_eq!(done.results[0].result.output, "wiped a");

    let [policy] = &kit.policies(Some("wipe"))[..] else {
        panic!("one policy")
    };
    assert!(kit.policies(Some("other")).is_empty());
    assert!(policy.id.starts_with("pol-") && policy.id.len() == 20);
    assert_eq!(
        (policy.approve, policy.scope, policy.key.as_str()),
        (true, PolicyScope::Principal, "user-42")
    );
    assert_eq!(policy.made_by.as_deref(), Some("user-42"));
    let wire = policy.to_wire();
    assert_eq!(wire["madeAt"], "2026-01-01T00:00:00+00:00");
    assert_eq!(wire["expiresAt"], "2026-01-01T00:01:00+00:00");
    assert_eq!(wire["reason"], Value::Null);
    assert_eq!(Policy::from_wire(&wire).as_ref(), Some(policy));
    assert_eq!(Policy::from_wire(&json!({"id": "pol-1"})), None);

    // Decided unasked within its lifetime, for its principal only.
    let again = kit
        .run_calls(calls(&["b"]), RunOptions::default().principal("user-42"))
        .await
        .unwrap();
    assert_eq!(again.status, RunResultStatus::Done);
    let other = kit
        .run_calls(calls(&["b"]), RunOptions::default().principal("user-7"))
        .await
        .unwrap();
    assert_eq!(other.status, RunResultStatus::Pending);

    // Expired: listed still, deciding nothing.
    now.store(NEW_YEAR_MS + 60_000, Ordering::SeqCst);
    let later = kit
        .run_calls(calls(&["c"]), RunOptions::default().principal("user-42"))
        .await
        .unwrap();
    assert_eq!(later.status, RunResultStatus::Pending);
    assert_eq!(kit.policies(None).len(), 1);

    assert!(!kit.revoke_policy("pol-0000000000000000"));
    assert!(kit.revoke_policy(&policy.id));
    assert!(kit.policies(None).is_empty());
    assert_eq!(ran.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_log_says_who_decided_when_and_by_which_policy() {
    let ran = Arc::new(AtomicUsize::new(0));
    let now = Arc::new(AtomicU64::new(NEW_YEAR_MS));
    let log = Arc::new(Logged::default());
    let kit = Toolkit::builder()
        .tool(wipe(&ran))
        .clock(clock(&now))
        .decision_log(Arc::clone(&log))
        .build()
        .unwrap();
    let run = kit
        .run_calls(calls(&["a"]), RunOptions::default().session("s1"))
        .await
        .unwrap();
    let request = run.pending.clone().unwrap();
    let mut no = Answer::new(request.id.clone(), false);
    no.scope = Some("session:s1".into());
    no.message = Some("Not in this session.".into());
    now.store(NEW_YEAR_MS + 5_000, Ordering::SeqCst);
    let options = ResumeOptions::default().principal("ops").session("s1");
    let done = kit.resume_with(run, vec![no], options).await.unwrap();
    assert_eq!(
        done.results[0].result.output,
        "declined: Not in this session."
    );
    let [(decision, by, at)] = &log.taken()[..] else {
        panic!("one decision")
    };
    assert_eq!(decision.kind, DecisionKind::Decline);
    assert_eq!(decision.request.as_deref(), Some(request.id.as_str()));
    assert_eq!(decision.scope, "session:s1");
    assert_eq!(decision.message.as_deref(), Some("Not in this session."));
    assert_eq!(by.as_deref(), Some("ops"));
    assert_eq!(*at, UNIX_EPOCH + Duration::from_millis(NEW_YEAR_MS + 5_000));
    let wire = decision.to_wire();
    assert_eq!(wire["kind"], "decline");
    assert_eq!(wire["reason"], "declined");
    assert_eq!(wire["policy"], Value::Null);

    // The session's next turn: refused by the policy, unasked; the handler never runs.
    let next = kit
        .run_calls(calls(&["b"]), RunOptions::default().session("s1"))
        .await
        .unwrap();
    let result = &next.results[0].result;
    assert_eq!(result.output, "declined: Not in this session.");
    let marker = &result.metadata.as_ref().unwrap()["declined"];
    let [policy] = &kit.policies(None)[..] else {
        panic!("one policy")
    };
    assert_eq!(marker["policy"], policy.id.as_str());
    let [(decision, _, _)] = &log.taken()[..] else {
        panic!("one decision")
    };
    assert_eq!(decision.policy.as_deref(), Some(policy.id.as_str()));
    assert_eq!(decision.request, None);
    assert_eq!(ran.load(Ordering::SeqCst), 0);

    // Another session is asked; what expires unanswered is logged as such.
    let mut question = kit
        .run_calls(calls(&["c"]), RunOptions::default().session("s2"))
        .await
        .unwrap();
    question.requests[0].expires_at = Some("2000-01-01T00:00:00Z".into());
    let expired = kit.expire(question, None, None).await;
    // (altered without a key: nothing checks the run, and the request has expired)
    let expired = expired.unwrap();
    assert_eq!(
        expired.results[0].result.output,
        "declined: the call to wipe was not approved (expired)"
    );
    let [(decision, _, _)] = &log.taken()[..] else {
        panic!("one decision")
    };
    assert_eq!(
        (decision.kind, decision.reason.as_deref()),
        (DecisionKind::Expire, Some("expired"))
    );
}

#[tokio::test]
async fn a_hosts_own_store_decides_and_a_refusal_beats_an_approval() {
    let ran = Arc::new(AtomicUsize::new(0));
    let approval = Policy::from_wire(&json!({
        "id": "pol-aaaaaaaaaaaaaaaa", "tool": "wipe", "approve": true, "scope": "tool", "key": "",
        "madeAt": "2026-01-01T00:00:00Z", "expiresAt": "2099-01-01T00:00:00Z",
    }))
    .unwrap();
    let store = Arc::new(PolicyMemory::new([approval]));
    let kit = Toolkit::builder()
        .tool(wipe(&ran))
        .policy_store(Arc::clone(&store))
        .build()
        .unwrap();
    let done = kit
        .run_calls(calls(&["a"]), RunOptions::default())
        .await
        .unwrap();
    assert_eq!(done.results[0].result.output, "wiped a");

    let refusal = Policy::from_wire(&json!({
        "id": "pol-bbbbbbbbbbbbbbbb", "tool": "wipe", "approve": false, "scope": "session",
        "key": "s1", "madeAt": "2026-01-01T00:00:00Z", "expiresAt": "2099-01-01T00:00:00Z",
    }))
    .unwrap();
    store.keep(refusal);
    let refused = kit
        .run_calls(calls(&["b"]), RunOptions::default().session("s1"))
        .await
        .unwrap();
    assert_eq!(
        refused.results[0].result.output,
        "declined: the call to wipe is not allowed (policy pol-bbbbbbbbbbbbbbbb)"
    );
    assert_eq!(kit.policies(None).len(), 2);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_refusals_message_is_cut_at_the_limit_in_code_points() {
    let ran = Arc::new(AtomicUsize::new(0));
    let kit = Toolkit::new([wipe(&ran)]).unwrap();
    let run = kit
        .run_calls(calls(&["a"]), RunOptions::default())
        .await
        .unwrap();
    let mut no = Answer::new(run.requests[0].id.clone(), false);
    no.message = Some("é".repeat(MESSAGE_LIMIT + 1));
    let done = kit.resume(run, vec![no], None).await.unwrap();
    let output = &done.results[0].result.output;
    assert_eq!(*output, format!("declined: {}…", "é".repeat(MESSAGE_LIMIT)));
}

#[test]
fn a_policy_lifetime_must_be_positive() {
    for lifetime in [Duration::ZERO, Duration::from_secs(101 * 365 * 24 * 3600)] {
        let err = Toolkit::builder()
            .policy_lifetime(lifetime)
            .build()
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("policy_lifetime must be a positive time, at most 100 years"),
            "{err}"
        );
    }
}

#[tokio::test]
async fn a_supplied_tool_asks_for_its_result_and_checks_it() {
    let schema = json!({"type": "object", "properties": {"eur": {"type": "number"}}});
    let quote = define_supplied_tool(
        "quote",
        "A price, from a person",
        None,
        Some(schema.clone()),
    );
    assert_eq!(quote.output_schema(), schema.as_object());
    assert_eq!(quote.spec().output_schema.as_ref(), schema.as_object());
    let asked = quote
        .call(json!({"item": "A-1"}), ToolContext::default())
        .await;
    let request = toolnexus::pending_of(&asked).expect("a suspension");
    assert!(request.id.starts_with("res-") && request.id.len() == 36);
    assert_eq!(request.kind, "result");
    assert_eq!(
        Value::Object(request.data.clone().unwrap()),
        json!({"tool": "quote", "arguments": {"item": "A-1"}, "schema": schema})
    );

    let supplied = |data: Value| {
        let mut answer = Answer::new(request.id.clone(), true);
        answer.data = data.as_object().cloned();
        ToolContext {
            answer: Some(answer),
            request: Some(request.clone()),
            ..ToolContext::default()
        }
    };
    let good = json!({"output": "12 EUR", "structuredContent": {"eur": 12}});
    let result = quote.call(json!({"item": "A-1"}), supplied(good)).await;
    assert_eq!((result.output.as_str(), result.is_error), ("12 EUR", false));
    let bad = json!({"output": "lots", "structuredContent": {"eur": "lots"}});
    let result = quote.call(json!({"item": "A-1"}), supplied(bad)).await;
    assert!(result.is_error);
    assert!(
        result
            .output
            .starts_with("the tool's output does not match its output schema: $.eur: "),
        "{}",
        result.output
    );
    let result = quote.call(json!({}), supplied(json!({"out": 1}))).await;
    assert!(
        result
            .output
            .starts_with("the result supplied for quote is not a ToolResult: "),
        "{}",
        result.output
    );

    let err = try_define_supplied_tool("quote", "", None, Some(json!({"type": 7}))).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("define_tool \"quote\": output_schema is not a valid JSON Schema"),
        "{err}"
    );
    let err = try_define_supplied_tool("quote", "", None, Some(json!([]))).unwrap_err();
    assert!(
        err.to_string()
            .contains("output_schema must be a JSON object")
    );

    // In a toolkit, from storage: the answer's data is the result.
    let kit = Toolkit::builder()
        .tool(quote)
        .secret("k1", K1)
        .build()
        .unwrap();
    let Value::Object(arguments) = json!({"item": "A-1"}) else {
        unreachable!()
    };
    let run = kit
        .run_calls(
            vec![ToolCall::new("c1", "quote", arguments)],
            RunOptions::default(),
        )
        .await
        .unwrap();
    let stored = RunResult::from_json(&run.to_json()).unwrap();
    let mut answer = Answer::new(stored.requests[0].id.clone(), true);
    answer.data = json!({"output": "9 EUR", "structuredContent": {"eur": 9}})
        .as_object()
        .cloned();
    let done = kit.resume(stored, vec![answer], None).await.unwrap();
    assert_eq!(done.results[0].result.output, "9 EUR");
    assert_eq!(
        done.results[0].result.structured_content,
        Some(json!({"eur": 9}))
    );
}
