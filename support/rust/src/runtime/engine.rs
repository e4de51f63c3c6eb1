// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The loop, once: what happens to one tool call, from its first run to its last result.
//!
//! A port of the Python package's `toolnexus/_engine/`, with the same rules and the same
//! texts (the loop vectors in `idl/loop/` pin both). A sans-IO engine: it runs nothing,
//! waits for nothing and reads no clock. Each function takes a call's state and an event
//! (a run's result, an answer, the time) and returns the next step, and the host performs
//! it. The steps are data:
//!
//! ```text
//! Run { call, answer, request, gate }   run the handler (gate: ask the tool's approval first)
//! Ask { call, request }                 wait for an answer to `request`
//! Settle { call, result }               the call is over; `result` is its result
//! ```
//!
//! The rules, in the order a call meets them:
//!
//! 1. **Approval before the run.** A first run is gated ([`start`]): a tool that needs
//!    approval (always, or by a rule over the checked arguments) does not run; it asks the
//!    toolkit's own approval ([`gate`]: kind `approval`, id `apr-…`, data
//!    `{"tool", "arguments"}`). Arguments that fail the tool's input schema are never put
//!    to a person: the call runs ungated, and its run refuses them. The form a person
//!    answers an approval with ([`approval_form`]) holds the arguments, to edit.
//! 2. **The answer to an approval** ([`answered`]): refused or expired, the call settles as
//!    `declined: the call to <tool> was not approved` and never runs; approved, the handler
//!    runs for the first time, with the person's edited arguments when the answer's
//!    `data["arguments"]` holds them (an object: anything else settles the call as invalid
//!    arguments, unrun; the same arguments as asked are no edit). An approving answer's
//!    data holds nothing else ([`APPROVAL_DATA`]): any other key refuses the answer
//!    ([`check_answer`]: `mismatch`, naming it, nothing taken). A question's answer never
//!    changes the arguments.
//! 3. **A question from the tool** ([`ran`]): a first run that suspends waits on its
//!    request; a call whose arguments or request cannot be stored settles as an error
//!    saying so.
//! 4. **The answer to a question**: refused or expired, the call settles as
//!    `declined/expired: <prompt>`; answered, the call runs once more with the answer.
//! 5. **One retry per question**: a retry that suspends again settles as
//!    `unresolved: <the first request's prompt>`.
//! 6. **Expiry**: a request whose `expiresAt` has passed settles as if refused, with reason
//!    `expired` ([`timed`]); so does an `ok` that comes after it.
//! 7. **Which call an answer answers** ([`match_answers`]): the first waiting call, in call
//!    order, asked under its id; a list of answers is taken or refused whole.
//! 8. **A refusal's words**: an answer that refuses may carry `message`; the call then
//!    settles as `declined: <message>` (cut at [`MESSAGE_LIMIT`] characters, `…` added).
//! 9. **Decisions that reach further** ([`scope_of`], [`reached`], [`reach`],
//!    [`policy_of`], [`applicable`], [`gated`]): an approval's `scope` beyond `once` decides
//!    the turn's other approvals of the same tool alike; `session:<id>`, `principal` and
//!    `tool` also make a [`Policy`], which decides later approvals unasked; a refusal that
//!    covers a call beats every approval that does (deny overrides).
//! 10. **What the host logs** ([`decided`]): every decision, as a [`Decision`].
//!
//! Every refusal and expiry carries `metadata["declined"] = {"request": id, "reason": ...}`
//! (a policy's refusal: `{"policy": id, "reason": ...}`), host-only, so a host tells a
//! denial from a tool failure. [`drive`] performs the steps of one call with a host's
//! [`Effects`].

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::SystemTime;

use serde_json::{Map, Value};

use super::book::nested_past;
use super::time::{micros, parse_time, random_hex};
use super::tool::{NeedsApproval, Tool, normalize_tool_name};
use crate::loop_data as texts;
use crate::{Answer, MAX_DEPTH, Request, ToolCall, ToolResult, pending_of};

#[path = "engine/answers.rs"]
mod answers;
#[path = "engine/decisions.rs"]
mod decisions;
#[path = "engine/drive.rs"]
mod drive;
#[path = "engine/limits.rs"]
mod limits;
#[path = "engine/policy.rs"]
mod policy;

pub use answers::{approval_form, check_answer, match_answers};
pub use decisions::{Decision, DecisionKind, ScopeKind, decided, reach, reached, scope_of};
pub use drive::{Asked, Effects, drive};
pub use limits::{fit, result_ref, sizes};
pub(crate) use limits::{fit_keeping, surely_within};
pub use policy::{Circumstances, Policy, PolicyScope, applicable, by_policy, gated, policy_of};

/// Ids of the approval requests the toolkit asks before a tool runs.
pub const APPROVAL_PREFIX: &str = "apr-";

/// The keys an approving answer to the toolkit's approval may hold in its `data`: the
/// edited arguments. Any other refuses the answer ([`check_answer`]).
pub const APPROVAL_DATA: [&str; 1] = ["arguments"];

/// Run `call`'s handler with its arguments: a first run (`answer` `None`), gated by the
/// tool's approval when `gate`, or a retry with `answer` to `request`.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The call to run.
    pub call: ToolCall,
    /// The answer of a retry.
    pub answer: Option<Answer>,
    /// The request `answer` answers.
    pub request: Option<Request>,
    /// Ask the tool's approval first, when it needs one.
    pub gate: bool,
}

/// `call` waits for an answer to `request`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ask {
    /// The waiting call.
    pub call: ToolCall,
    /// What it waits on.
    pub request: Request,
}

impl Ask {
    /// Whether `request` is the toolkit's own approval, asked before the handler ran.
    pub fn approval(&self) -> bool {
        is_approval(&self.call.name, &self.request)
    }
}

/// `call` is over, with `result`.
#[derive(Debug, Clone, PartialEq)]
pub struct Settle {
    /// The call.
    pub call: ToolCall,
    /// Its result.
    pub result: ToolResult,
}

/// Any step of a call.
// A step is moved from one transition to the next, never kept in bulk: boxing its larger
// variants (the `lossless` feature's maps make them so) would cost an allocation a step.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// See [`Run`].
    Run(Run),
    /// See [`Ask`].
    Ask(Ask),
    /// See [`Settle`].
    Settle(Settle),
}

/// Where [`drive`] leaves a call: waiting, or over.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The call waits on a request the host did not answer (it stores the run).
    Ask(Ask),
    /// The call is over.
    Settle(Settle),
}

impl From<Outcome> for Step {
    fn from(outcome: Outcome) -> Step {
        match outcome {
            Outcome::Ask(a) => Step::Ask(a),
            Outcome::Settle(s) => Step::Settle(s),
        }
    }
}

/// What [`gate`] finds a call needs before its handler runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Gate {
    /// Nothing: run it.
    Open,
    /// This approval.
    Ask(Request),
    /// Nothing can be asked: the call settles with this error result.
    Settle(ToolResult),
}

// -- the transitions ------------------------------------------------------------------------

/// A call's first step: its first run, gated by the tool's approval.
pub fn start(call: ToolCall) -> Run {
    Run {
        call,
        answer: None,
        request: None,
        gate: true,
    }
}

/// What follows `step`'s `result`: its settling, or (a first run that suspended) a wait.
pub fn ran(step: Run, result: ToolResult) -> Outcome {
    let asked = pending_of(&result);
    if step.answer.is_some() {
        // A retry: one per question.
        if asked.is_some() {
            let prompt = step.request.map(|r| r.prompt).unwrap_or_default();
            return settle(step.call, ToolResult::error(texts::unresolved(&prompt)));
        }
        return settle(step.call, result);
    }
    let Some(request) = asked else {
        return settle(step.call, result);
    };
    if let Some(problem) = unstorable(&step.call, &request) {
        return settle(step.call, ToolResult::error(texts::cannot_wait(&problem)));
    }
    Outcome::Ask(Ask {
        call: step.call,
        request,
    })
}

/// What follows `answer` to `step`'s request (`None`: the time ran out before one came).
pub fn answered(step: Ask, answer: Option<Answer>, now: SystemTime) -> Step {
    if let Some(ended) = verdict(&step.call.name, &step.request, answer.as_ref(), now) {
        return Step::Settle(Settle {
            call: step.call,
            result: ended,
        });
    }
    let approval = step.approval();
    let Ask { call, request } = step;
    let answer = answer.expect("a verdict ends every call without an answer");
    if !approval {
        return Step::Run(Run {
            call,
            answer: Some(answer),
            request: Some(request),
            gate: false,
        });
    }
    approved(call, &answer)
}

/// What follows an approving `answer` to the toolkit's approval of `call`: its first run,
/// with the person's edited arguments when the answer holds them.
fn approved(call: ToolCall, answer: &Answer) -> Step {
    let edited = answer.data.as_ref().and_then(|d| d.get("arguments"));
    let Some(edited) = edited else {
        return Step::Run(Run {
            call,
            answer: None,
            request: None,
            gate: false,
        }); // approved as asked
    };
    if *edited == Value::Object(call.arguments.clone()) {
        // The arguments asked, sent back (a form's default): approved as asked.
        return Step::Run(Run {
            call,
            answer: None,
            request: None,
            gate: false,
        });
    }
    let Value::Object(arguments) = edited else {
        let what = match edited {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            _ => "a list",
        };
        let message = format!(
            "invalid arguments for {}: $: the approval's edited arguments are {what}, not an object",
            call.name
        );
        return Step::Settle(Settle {
            call,
            result: ToolResult::error(message),
        });
    };
    // The handler checks them against its schema.
    let edited = ToolCall {
        id: call.id,
        name: call.name,
        arguments: arguments.clone(),
        ..ToolCall::default()
    };
    Step::Run(Run {
        call: edited,
        answer: None,
        request: None,
        gate: false,
    })
}

/// The settling of `step` when its request has expired by `now`, else `None`.
pub fn timed(step: &Ask, now: SystemTime) -> Option<Settle> {
    if expired(&step.request, micros(now)) {
        Some(lapsed(step.clone(), now))
    } else {
        None
    }
}

/// The settling of `step` whose time ran out (its request's, or its whole run's sealed
/// expiry) before an answer came: as a refusal, with reason `expired`.
pub fn lapsed(step: Ask, now: SystemTime) -> Settle {
    let result = verdict(&step.call.name, &step.request, None, now)
        .expect("a verdict ends every call without an answer");
    Settle {
        call: step.call,
        result,
    }
}

/// The approval `call` needs before its handler runs, or the error result that settles it
/// when its arguments cannot be asked about or stored.
///
/// Arguments that fail the input schema are not asked about: the call runs ungated and its
/// run refuses them, before its handler (a person never approves what cannot run). A rule
/// over the arguments sees them checked; a rule that panics asks (an approval too many is
/// the safe side).
pub fn gate(tool: Option<&Tool>, call: &ToolCall) -> Gate {
    let Some(tool) = tool else {
        return Gate::Open;
    };
    if matches!(tool.approval(), NeedsApproval::Never) {
        return Gate::Open;
    }
    if tool.check_arguments(&call.arguments).is_err() {
        return Gate::Open;
    }
    match tool.approval() {
        NeedsApproval::Never | NeedsApproval::Always => {}
        NeedsApproval::Rule(rule) => {
            let arguments = &call.arguments;
            if let Ok(false) = catch_unwind(AssertUnwindSafe(|| rule(arguments))) {
                return Gate::Open;
            }
        }
    }
    let mut data = Map::new();
    data.insert("tool".to_owned(), Value::from(tool.name()));
    data.insert(
        "arguments".to_owned(),
        Value::Object(call.arguments.clone()),
    );
    let request = Request {
        kind: "approval".to_owned(),
        prompt: texts::approval_prompt(tool.name()),
        id: format!("{APPROVAL_PREFIX}{}", random_hex(16)),
        data: Some(data),
        ..Request::default()
    };
    if let Some(problem) = unstorable(call, &request) {
        return Gate::Settle(ToolResult::error(texts::cannot_wait_for_approval(&problem)));
    }
    Gate::Ask(request)
}

// -- the rules' parts -------------------------------------------------------------------------

fn settle(call: ToolCall, result: ToolResult) -> Outcome {
    Outcome::Settle(Settle { call, result })
}

/// Whether `request` is the toolkit's own approval of a call of `tool_name` ([`gate`]).
pub fn is_approval(tool_name: &str, request: &Request) -> bool {
    let Some(data) = &request.data else {
        return false;
    };
    request.kind == "approval"
        && request.id.starts_with(APPROVAL_PREFIX)
        && data.len() == 2
        && data.contains_key("arguments")
        && data.get("tool").and_then(Value::as_str) == Some(normalize_tool_name(tool_name).as_str())
}

/// The result that ends a call suspended on `request`, given `answer` (`None`: none came
/// in time), or `None` when the call runs on.
fn verdict(
    tool_name: &str,
    request: &Request,
    answer: Option<&Answer>,
    now: SystemTime,
) -> Option<ToolResult> {
    let late = expired(request, micros(now));
    let reason = match answer {
        Some(a) if a.ok && !late => return None,
        None => "expired",
        Some(a) if a.ok => "expired",
        Some(a) => a.reason.map_or("declined", |r| r.as_str()),
    };
    let mut marker = Map::new();
    marker.insert("request".to_owned(), Value::from(request.id.clone()));
    marker.insert("reason".to_owned(), Value::from(reason));
    let message = answer
        .filter(|a| !a.ok)
        .and_then(|a| a.message.as_deref())
        .filter(|m| !m.is_empty());
    if let Some(message) = message {
        // The person's words, for the model.
        let message = cut(message);
        let output = texts::declined_with_message(&message);
        marker.insert("message".to_owned(), Value::from(message));
        return Some(refusal(output, marker));
    }
    let output = if is_approval(tool_name, request) {
        let tail = if reason == "declined" {
            String::new()
        } else {
            format!(" ({reason})")
        };
        texts::not_approved(tool_name, &tail)
    } else {
        texts::declined_or_expired(&request.prompt)
    };
    Some(refusal(output, marker))
}

/// The most of a refusal's message the model reads (code points); a longer one is cut, and
/// `…` added (idl/loop.json).
pub use crate::loop_data::MESSAGE_LIMIT;

/// `message`, cut at [`MESSAGE_LIMIT`] code points, `…` added.
fn cut(message: &str) -> String {
    match message.char_indices().nth(MESSAGE_LIMIT) {
        None => message.to_owned(),
        Some((at, _)) => format!("{}…", &message[..at]),
    }
}

/// Whether `request.expiresAt` has passed by `now_us` (microseconds since the epoch); an
/// unreadable time counts as passed, and an empty one as no expiry (as the upstream ports
/// read it).
pub(crate) fn expired(request: &Request, now_us: i128) -> bool {
    match request.expires_at.as_deref() {
        None | Some("") => false,
        Some(text) => parse_time(text).is_none_or(|at| at <= now_us),
    }
}

/// Why a pending run holding `call`, waiting on `request`, could not be written (nesting
/// past the wire's limit), or `None` when it can. In a run both sit at its third level.
fn unstorable(call: &ToolCall, request: &Request) -> Option<String> {
    nested_past(call, MAX_DEPTH - 2).or_else(|| nested_past(request, MAX_DEPTH - 2))
}

fn refusal(output: String, marker: Map<String, Value>) -> ToolResult {
    let mut meta = Map::new();
    meta.insert("declined".to_owned(), Value::Object(marker));
    ToolResult::error(output).with_metadata(meta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::errors::ResumeReason;
    use std::time::{Duration, UNIX_EPOCH};

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "ask_user".into(),
            ..ToolCall::default()
        }
    }

    #[test]
    fn the_resume_reasons_are_the_idls_in_its_order() {
        let names: Vec<&str> = ResumeReason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(names, texts::RESUME_REASONS);
    }

    fn answer(id: &str) -> Answer {
        Answer {
            id: id.into(),
            ok: true,
            ..Answer::default()
        }
    }

    #[test]
    fn an_answer_goes_to_the_first_waiting_call_asked_under_its_id() {
        // c1 and c2 both wait on "x"; c3 on "y".
        let candidates = |id: &str| match id {
            "x" => vec![(0, "c1".to_owned()), (1, "c2".to_owned())],
            "y" => vec![(2, "c3".to_owned())],
            _ => vec![],
        };
        let never = |_: &str, _: &str| false;
        let picks = match_answers(
            &[answer("x"), answer("y"), answer("x")],
            candidates,
            never,
            "x",
        );
        assert_eq!(picks.unwrap(), vec![0, 2, 1]);
        let err = match_answers(&[answer("z")], candidates, never, "x").unwrap_err();
        assert_eq!(err.reason(), ResumeReason::Mismatch);
        let err = match_answers(&[answer("y"), answer("y")], candidates, never, "x").unwrap_err();
        assert_eq!(err.reason(), ResumeReason::Replayed);
        let before = |call: &str, _: &str| call == "c3";
        let err = match_answers(&[answer("y")], candidates, before, "x").unwrap_err();
        assert_eq!(err.reason(), ResumeReason::Replayed);
    }

    #[test]
    fn a_retry_that_asks_again_is_unresolved() {
        let request = Request {
            id: "pnd-1".into(),
            kind: "input".into(),
            prompt: "Which file?".into(),
            ..Request::default()
        };
        let retry = Run {
            call: call("c1"),
            answer: Some(answer("pnd-1")),
            request: Some(request.clone()),
            gate: false,
        };
        let again = crate::pending(Request {
            prompt: "Which other file?".into(),
            kind: "input".into(),
            ..Request::default()
        });
        let Outcome::Settle(s) = ran(retry, again) else {
            panic!("settled")
        };
        assert_eq!(s.result.output, "unresolved: Which file?");
        assert!(s.result.is_error);
    }

    #[test]
    fn an_ok_after_the_expiry_is_expired() {
        let request = Request {
            id: "pnd-1".into(),
            kind: "input".into(),
            prompt: "Soon?".into(),
            expires_at: Some("1970-01-01T00:01:00Z".into()),
            ..Request::default()
        };
        let ask = Ask {
            call: call("c1"),
            request,
        };
        let before = UNIX_EPOCH + Duration::from_secs(59);
        let after = UNIX_EPOCH + Duration::from_secs(60);
        assert!(timed(&ask, before).is_none());
        assert!(matches!(
            answered(ask.clone(), Some(answer("pnd-1")), before),
            Step::Run(_)
        ));
        let Step::Settle(s) = answered(ask, Some(answer("pnd-1")), after) else {
            panic!("settled")
        };
        assert_eq!(s.result.output, "declined/expired: Soon?");
        assert_eq!(s.result.metadata.unwrap()["declined"]["reason"], "expired");
    }
}
