// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/runtime/engine.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The loop, once: what happens to one tool call, from its first run to its last result.
//!
//! A port of the Python package's `toolnexus/_engine.py`, with the same rules and the same
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
//!    `{"tool", "arguments"}`).
//! 2. **The answer to an approval** ([`answered`]): refused or expired, the call settles as
//!    `declined: the call to <tool> was not approved` and never runs; approved, the handler
//!    runs for the first time, with the person's edited arguments when the answer's
//!    `data["arguments"]` holds them (an object: anything else settles the call as invalid
//!    arguments, unrun). A question's answer never changes the arguments.
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

use std::collections::HashSet;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::book::{nested_past, quoted};
use super::errors::{ResumeError, ResumeReason};
use super::join::BoxFuture;
use super::time::{format_time, micros, parse_time, random_hex};
use super::tool::{NeedsApproval, Tool, normalize_tool_name};
use crate::{Answer, MAX_DEPTH, Request, ToolCall, ToolResult, pending_of};

/// Ids of the approval requests the toolkit asks before a tool runs.
pub const APPROVAL_PREFIX: &str = "apr-";

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
            return settle(
                step.call,
                ToolResult::error(format!("unresolved: {prompt}")),
            );
        }
        return settle(step.call, result);
    }
    let Some(request) = asked else {
        return settle(step.call, result);
    };
    if let Some(problem) = unstorable(&step.call, &request) {
        let text = format!("the call cannot wait for an answer: {problem}");
        return settle(step.call, ToolResult::error(text));
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
    let edited = answer.data.as_ref().and_then(|d| d.get("arguments"));
    let Some(edited) = edited else {
        return Step::Run(Run {
            call,
            answer: None,
            request: None,
            gate: false,
        }); // approved as asked
    };
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
/// A rule over the arguments sees them checked: arguments that fail the input schema are
/// not asked about (the run refuses them anyway), and a rule that panics asks (an approval
/// too many is the safe side).
pub fn gate(tool: Option<&Tool>, call: &ToolCall) -> Gate {
    let Some(tool) = tool else {
        return Gate::Open;
    };
    match tool.approval() {
        NeedsApproval::Never => return Gate::Open,
        NeedsApproval::Always => {}
        NeedsApproval::Rule(rule) => {
            if tool.check_arguments(&call.arguments).is_err() {
                return Gate::Open;
            }
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
        prompt: format!("Allow {} to run with these arguments?", tool.name()),
        id: format!("{APPROVAL_PREFIX}{}", random_hex(16)),
        data: Some(data),
        ..Request::default()
    };
    if let Some(problem) = unstorable(call, &request) {
        return Gate::Settle(ToolResult::error(format!(
            "the call cannot wait for its approval: {problem}"
        )));
    }
    Gate::Ask(request)
}

/// Which waiting call each answer answers (their indices), or [`ResumeError`] for the
/// whole list: an answer goes to the first call, in call order, that waits on its request
/// id and has not taken an answer (two calls may ask under one fixed id: each takes one).
///
/// `candidates(request_id)` lists `(index, call id)` of the calls waiting on that id, in
/// call order; `answered(call_id, request_id)` says whether that call took an answer to it
/// before. An answer that finds no call is `replayed` when it, or another in the list with
/// its id, already took the call it would answer, and `mismatch` otherwise (`first` is the
/// id of the first request waited on, for the message).
pub fn match_answers(
    answers: &[Answer],
    candidates: impl Fn(&str) -> Vec<(usize, String)>,
    answered: impl Fn(&str, &str) -> bool,
    first: &str,
) -> Result<Vec<usize>, ResumeError> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut picks = Vec::with_capacity(answers.len());
    for answer in answers {
        let mut replayed = !seen.insert(answer.id.as_str());
        let mut found = None;
        for (index, call_id) in candidates(&answer.id) {
            if taken.contains(&call_id) {
                continue;
            }
            if answered(&call_id, &answer.id) {
                replayed = true;
                continue;
            }
            found = Some(index);
            taken.insert(call_id);
            break;
        }
        match found {
            Some(index) => picks.push(index),
            None if replayed => {
                return Err(ResumeError::new(
                    ResumeReason::Replayed,
                    format!("request {} was already answered", quoted(&answer.id)),
                ));
            }
            None => {
                return Err(ResumeError::new(
                    ResumeReason::Mismatch,
                    format!(
                        "answer {} does not answer the pending request {} nor any other \
                         request the run waits on",
                        quoted(&answer.id),
                        quoted(first)
                    ),
                ));
            }
        }
    }
    Ok(picks)
}

// -- decisions: what a person decided, and decisions that reach beyond one call ------------

/// How far an answer's decision reaches ([`Answer::scope`]); `Session` carries the host's id
/// (see [`scope_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScopeKind {
    /// This call only (the default).
    Once,
    /// Every call to the same tool that waits on an approval in this turn.
    Turn,
    /// Every call to the same tool in the host's session `<id>` (`session:<id>`).
    Session,
    /// Every call to the same tool made for the same principal.
    Principal,
    /// Every call to the same tool.
    Tool,
}

/// The scope an answer gives its decision, and the session id of a `session:<id>` scope
/// (empty for the others). A scope the wire refuses, which only an `Answer` built by hand
/// can hold, reaches no further than its call: it is read as `once`.
pub fn scope_of(answer: &Answer) -> (ScopeKind, String) {
    let scope = answer.scope.as_deref().unwrap_or("");
    if let Some(session) = scope.strip_prefix("session:") {
        return (ScopeKind::Session, session.to_owned());
    }
    let kind = match scope {
        "turn" => ScopeKind::Turn,
        "principal" => ScopeKind::Principal,
        "tool" => ScopeKind::Tool,
        _ => ScopeKind::Once,
    };
    (kind, String::new())
}

/// What a person (or a policy) decided about a waiting call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecisionKind {
    /// Approved as asked.
    Approve,
    /// Approved with other arguments.
    Edit,
    /// Refused (cancelled too).
    Decline,
    /// A tool's question answered.
    Respond,
    /// No answer came in time, or it came after the request expired.
    Expire,
}

impl DecisionKind {
    /// The kind as a log writes it: `approve`, `edit`, `decline`, `respond`, `expire`.
    pub fn as_str(self) -> &'static str {
        match self {
            DecisionKind::Approve => "approve",
            DecisionKind::Edit => "edit",
            DecisionKind::Decline => "decline",
            DecisionKind::Respond => "respond",
            DecisionKind::Expire => "expire",
        }
    }
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decision about one waiting call, as a host logs it: what was decided, for which tool,
/// call and request (none when a policy decided: nothing was asked), the arguments asked
/// and (an edit) approved, the scope, a refusal's reason and message, and the policy that
/// decided it, when one did.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Decision {
    /// What was decided.
    pub kind: DecisionKind,
    /// The tool called.
    pub tool: String,
    /// The call's id.
    pub call: String,
    /// The id of the request answered (`None`: a policy decided, unasked).
    pub request: Option<String>,
    /// The arguments asked about.
    pub arguments: Map<String, Value>,
    /// The arguments approved instead (an edit).
    pub approved: Option<Map<String, Value>>,
    /// The answer's scope (`once` when it had none), or a policy's.
    pub scope: String,
    /// Why a refusal refused: `declined`, `cancelled` or `expired`.
    pub reason: Option<String>,
    /// A refusal's words, as the person gave them.
    pub message: Option<String>,
    /// The id of the policy that decided, when one did.
    pub policy: Option<String>,
}

impl Decision {
    fn about(kind: DecisionKind, call: &ToolCall, request: Option<&str>, scope: &str) -> Decision {
        Decision {
            kind,
            tool: call.name.clone(),
            call: call.id.clone(),
            request: request.map(str::to_owned),
            arguments: call.arguments.clone(),
            approved: None,
            scope: scope.to_owned(),
            reason: None,
            message: None,
            policy: None,
        }
    }

    /// The decision as JSON: every field, by its camelCase name (`null` when it has none),
    /// as the Python package's `Decision.to_wire` writes it.
    pub fn to_wire(&self) -> Value {
        let text = |v: &Option<String>| v.clone().map_or(Value::Null, Value::String);
        let mut out = Map::new();
        out.insert("kind".into(), Value::from(self.kind.as_str()));
        out.insert("tool".into(), Value::from(self.tool.clone()));
        out.insert("call".into(), Value::from(self.call.clone()));
        out.insert("request".into(), text(&self.request));
        out.insert("arguments".into(), Value::Object(self.arguments.clone()));
        out.insert(
            "approved".into(),
            self.approved.clone().map_or(Value::Null, Value::Object),
        );
        out.insert("scope".into(), Value::from(self.scope.clone()));
        out.insert("reason".into(), text(&self.reason));
        out.insert("message".into(), text(&self.message));
        out.insert("policy".into(), text(&self.policy));
        Value::Object(out)
    }
}

/// The decision `answer` (`None`: none came in time) made about `step`, which led to
/// `after` (what [`answered`] or [`timed`] made of it).
pub fn decided(step: &Ask, answer: Option<&Answer>, after: &Step) -> Decision {
    let (call, request) = (&step.call, Some(step.request.id.as_str()));
    let scope = answer
        .and_then(|a| a.scope.as_deref())
        .filter(|s| !s.is_empty())
        .unwrap_or("once");
    let settled_declined = matches!(after, Step::Settle(s) if declined(&s.result));
    let answer = match answer {
        Some(a) if !(a.ok && settled_declined) => a,
        _ => {
            let mut d = Decision::about(DecisionKind::Expire, call, request, scope);
            d.reason = Some("expired".to_owned());
            return d;
        }
    };
    if !answer.ok {
        let mut d = Decision::about(DecisionKind::Decline, call, request, scope);
        d.reason = Some(answer.reason.map_or("declined", |r| r.as_str()).to_owned());
        d.message.clone_from(&answer.message);
        return d;
    }
    if !step.approval() {
        return Decision::about(DecisionKind::Respond, call, request, scope);
    }
    // An approval whose answer holds edited arguments runs a call of its own (`answered`).
    let edits = answer
        .data
        .as_ref()
        .is_some_and(|d| d.contains_key("arguments"));
    if let (true, Step::Run(run)) = (edits, after) {
        let mut d = Decision::about(DecisionKind::Edit, call, request, scope);
        d.approved = Some(run.call.arguments.clone());
        return d;
    }
    Decision::about(DecisionKind::Approve, call, request, scope)
}

fn declined(result: &ToolResult) -> bool {
    result
        .metadata
        .as_ref()
        .and_then(|m| m.get("declined"))
        .is_some_and(Value::is_object)
}

/// The answer an earlier decision of the same turn gives `step`, or `None`: an approval
/// decided with a scope beyond `once` decides every later approval of the same tool in its
/// turn alike, each by an answer of its own, for the turn (no edited arguments: an edit is
/// one call's; and no policy again: the first answer made it).
pub fn reached<'a>(
    earlier: impl IntoIterator<Item = &'a (Ask, Answer)>,
    step: &Ask,
) -> Option<Answer> {
    if !step.approval() {
        return None;
    }
    earlier.into_iter().find_map(|(ask, answer)| {
        let same = ask.approval() && ask.call.name == step.call.name;
        if !same || scope_of(answer).0 == ScopeKind::Once {
            return None;
        }
        let mut derived = Answer::new(step.request.id.clone(), answer.ok);
        derived.reason = answer.reason;
        derived.message.clone_from(&answer.message);
        derived.scope = Some("turn".to_owned());
        Some(derived)
    })
}

/// The other waiting calls of a run that `answer` to `asks[index]` decides with it
/// ([`reached`]), each with its answer.
pub fn reach(asks: &[Ask], index: usize, answer: &Answer) -> Vec<(usize, Answer)> {
    let decided_here = [(asks[index].clone(), answer.clone())];
    asks.iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .filter_map(|(i, other)| reached(&decided_here, other).map(|a| (i, a)))
        .collect()
}

/// The scopes a kept decision (a [`Policy`]) has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PolicyScope {
    /// The host's session named by the policy's `key`.
    Session,
    /// The principal named by the policy's `key`.
    Principal,
    /// Every call to the tool.
    Tool,
}

impl PolicyScope {
    /// `session`, `principal` or `tool`.
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyScope::Session => "session",
            PolicyScope::Principal => "principal",
            PolicyScope::Tool => "tool",
        }
    }
}

impl fmt::Display for PolicyScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decision kept beyond its turn (`Answer.scope` `session:<id>`, `principal` or `tool`):
/// every later call to `tool` that it covers is approved, or refused, without asking.
///
/// `key` is the session id (`session`), the principal (`principal`), or empty (`tool`). It
/// holds until `expires_at`, and the host can revoke it (by `id`). Which one decides when
/// several cover a call is [`applicable`]'s rule. A store of the host's own writes one with
/// [`to_wire`](Policy::to_wire) and reads it back with [`from_wire`](Policy::from_wire).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Policy {
    /// `pol-` and 16 hex digits.
    pub id: String,
    /// The tool it decides.
    pub tool: String,
    /// Approves (`true`) or refuses.
    pub approve: bool,
    /// How far it reaches.
    pub scope: PolicyScope,
    /// The session id, the principal, or empty.
    pub key: String,
    /// When it was made, by the toolkit's clock.
    pub made_at: SystemTime,
    /// When it stops deciding.
    pub expires_at: SystemTime,
    /// The principal whose answer made it.
    pub made_by: Option<String>,
    /// A refusal's reason.
    pub reason: Option<String>,
    /// A refusal's words, kept whole (the model reads them cut at [`MESSAGE_LIMIT`]).
    pub message: Option<String>,
}

impl Policy {
    /// Whether the policy decides a call to `tool` in `session`, for `principal`, at `now`.
    pub fn covers(
        &self,
        tool: &str,
        session: Option<&str>,
        principal: Option<&str>,
        now: SystemTime,
    ) -> bool {
        if self.tool != tool || micros(now) >= micros(self.expires_at) {
            return false;
        }
        match self.scope {
            PolicyScope::Session => session == Some(self.key.as_str()),
            PolicyScope::Principal => principal == Some(self.key.as_str()),
            PolicyScope::Tool => true,
        }
    }

    /// The policy as JSON, as the Python package's `Policy.to_wire` writes it (times in
    /// RFC 3339, in UTC).
    pub fn to_wire(&self) -> Value {
        let text = |v: &Option<String>| v.clone().map_or(Value::Null, Value::String);
        let mut out = Map::new();
        out.insert("id".into(), Value::from(self.id.clone()));
        out.insert("tool".into(), Value::from(self.tool.clone()));
        out.insert("approve".into(), Value::Bool(self.approve));
        out.insert("scope".into(), Value::from(self.scope.as_str()));
        out.insert("key".into(), Value::from(self.key.clone()));
        out.insert(
            "madeAt".into(),
            Value::from(format_time(micros(self.made_at))),
        );
        out.insert(
            "expiresAt".into(),
            Value::from(format_time(micros(self.expires_at))),
        );
        out.insert("madeBy".into(), text(&self.made_by));
        out.insert("reason".into(), text(&self.reason));
        out.insert("message".into(), text(&self.message));
        Value::Object(out)
    }

    /// A policy from its JSON ([`to_wire`](Policy::to_wire), or the Python or TypeScript
    /// package's), or `None` when `doc` is not one.
    pub fn from_wire(doc: &Value) -> Option<Policy> {
        let text = |key: &str| doc.get(key).and_then(Value::as_str).map(str::to_owned);
        let time = |key: &str| {
            let at = parse_time(doc.get(key)?.as_str()?)?;
            let offset = Duration::from_micros(u64::try_from(at.unsigned_abs()).ok()?);
            if at >= 0 {
                UNIX_EPOCH.checked_add(offset)
            } else {
                UNIX_EPOCH.checked_sub(offset)
            }
        };
        let scope = match doc.get("scope")?.as_str()? {
            "session" => PolicyScope::Session,
            "principal" => PolicyScope::Principal,
            "tool" => PolicyScope::Tool,
            _ => return None,
        };
        Some(Policy {
            id: text("id")?,
            tool: text("tool")?,
            approve: doc.get("approve")?.as_bool()?,
            scope,
            key: text("key")?,
            made_at: time("madeAt")?,
            expires_at: time("expiresAt")?,
            made_by: text("madeBy"),
            reason: text("reason"),
            message: text("message"),
        })
    }
}

/// The turn a decision is made in, and its time: what [`policy_of`] and [`gated`] read.
#[derive(Debug, Clone, Copy)]
pub struct Circumstances<'a> {
    /// The host's session id (`session:<id>` policies decide its turns).
    pub session: Option<&'a str>,
    /// Who the turn is for (and who decides, for a policy an answer makes).
    pub principal: Option<&'a str>,
    /// The time, by the host's clock.
    pub now: SystemTime,
}

/// The policy an approval's answer makes, when its scope reaches beyond the turn, lasting
/// `lifetime`. A `session` or `principal` scope needs the turn's session or principal:
/// without one, the decision reaches no further than the turn. (The session of a
/// `session:<id>` scope is the one the answer names.)
pub fn policy_of(
    step: &Ask,
    answer: &Answer,
    at: &Circumstances<'_>,
    lifetime: Duration,
) -> Option<Policy> {
    let (kind, session_id) = scope_of(answer);
    let scope = match kind {
        ScopeKind::Once | ScopeKind::Turn => return None,
        ScopeKind::Session => PolicyScope::Session,
        ScopeKind::Principal => PolicyScope::Principal,
        ScopeKind::Tool => PolicyScope::Tool,
    };
    if !step.approval() {
        return None;
    }
    let key = match scope {
        PolicyScope::Session if session_id.is_empty() => return None,
        PolicyScope::Session => session_id,
        PolicyScope::Principal => at.principal?.to_owned(),
        PolicyScope::Tool => String::new(),
    };
    let (reason, message) = if answer.ok {
        (None, None)
    } else {
        let reason = answer.reason.map_or("declined", |r| r.as_str());
        (Some(reason.to_owned()), answer.message.clone())
    };
    Some(Policy {
        id: format!("pol-{}", random_hex(8)),
        tool: step.call.name.clone(),
        approve: answer.ok,
        scope,
        key,
        made_at: at.now,
        expires_at: at.now.checked_add(lifetime).unwrap_or(at.now),
        made_by: at.principal.map(str::to_owned),
        reason,
        message,
    })
}

/// The policy that decides a call to `tool`, or `None` (the call is asked about).
///
/// A refusal beats every approval (deny overrides): a call covered by any refusal is
/// refused, however broad or narrow that refusal and the approvals that also cover it, and
/// whichever came later; a call covered only by approvals is approved. So a later refusal
/// is never lost to an earlier `tool` approval, and an approval never lifts a refusal:
/// revoke it instead.
pub fn applicable<'p>(
    policies: impl IntoIterator<Item = &'p Policy>,
    tool: &str,
    session: Option<&str>,
    principal: Option<&str>,
    now: SystemTime,
) -> Option<&'p Policy> {
    let mut approval = None;
    for policy in policies {
        if !policy.covers(tool, session, principal, now) {
            continue;
        }
        if !policy.approve {
            return Some(policy);
        }
        approval = approval.or(Some(policy));
    }
    approval
}

/// [`gate`], with the host's policies: an approval a policy decides is not asked. Returns
/// what `gate` does ([`Gate::Open`]: the call runs) and the policy's decision, when one
/// decided.
pub fn gated(
    tool: Option<&Tool>,
    call: &ToolCall,
    policies: &[Policy],
    at: &Circumstances<'_>,
) -> (Gate, Option<Decision>) {
    let asked = gate(tool, call);
    if !matches!(asked, Gate::Ask(_)) {
        return (asked, None);
    }
    let Some(policy) = applicable(policies, &call.name, at.session, at.principal, at.now) else {
        return (asked, None);
    };
    let refused = by_policy(call, policy);
    let kind = if refused.is_none() {
        DecisionKind::Approve
    } else {
        DecisionKind::Decline
    };
    let scope = match policy.scope {
        PolicyScope::Session => format!("session:{}", policy.key),
        other => other.as_str().to_owned(),
    };
    let mut decision = Decision::about(kind, call, None, &scope);
    decision.policy = Some(policy.id.clone());
    if refused.is_some() {
        decision.reason = Some(policy.reason.clone().unwrap_or_else(|| "declined".into()));
        decision.message.clone_from(&policy.message);
    }
    let gate = refused.map_or(Gate::Open, Gate::Settle);
    (gate, Some(decision))
}

/// What a policy makes of a call that needs an approval: `None` (approved: it runs), or
/// the result of its refusal.
pub fn by_policy(call: &ToolCall, policy: &Policy) -> Option<ToolResult> {
    if policy.approve {
        return None;
    }
    let mut marker = Map::new();
    marker.insert("policy".into(), Value::from(policy.id.clone()));
    let reason = policy.reason.as_deref().unwrap_or("declined");
    marker.insert("reason".into(), Value::from(reason));
    let output = match policy.message.as_deref().filter(|m| !m.is_empty()) {
        Some(message) => {
            let message = cut(message); // kept whole in the policy, cut for the model
            let output = format!("declined: {message}");
            marker.insert("message".into(), Value::from(message));
            output
        }
        None => format!(
            "declined: the call to {} is not allowed (policy {})",
            call.name, policy.id
        ),
    };
    Some(refusal(output, marker))
}

fn refusal(output: String, marker: Map<String, Value>) -> ToolResult {
    let mut meta = Map::new();
    meta.insert("declined".to_owned(), Value::Object(marker));
    ToolResult::error(output).with_metadata(meta)
}

// -- driving one call -----------------------------------------------------------------------

/// What [`Effects::ask`] gives back.
// Returned once per question, never kept in bulk (see `Step`).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    /// The answer.
    Answer(Answer),
    /// The request expired before an answer came.
    Expired,
    /// Leave the call waiting (the host stores the run).
    Stop,
}

/// What a host supplies: running a handler, waiting for an answer, and the time.
pub trait Effects: Sync {
    /// Runs `step` (its approval first when `step.gate` and the tool needs one).
    fn run<'a>(&'a self, step: &'a Run) -> BoxFuture<'a, ToolResult>;
    /// Waits for an answer to `step`'s request, or says to stop; an error stops the turn.
    fn ask<'a>(&'a self, step: &'a Ask) -> BoxFuture<'a, Result<Asked, ResumeError>>;
    /// The time.
    fn now(&self) -> SystemTime;
    /// Told each decision made in the call (an answer, or none in time: see [`decided`]),
    /// with the step it led to: a host logs it and keeps the policies it makes.
    fn decide(&self, step: &Ask, answer: Option<&Answer>, after: &Step);
}

/// Performs `step` and the steps after it until the call settles, or waits on an
/// [`Ask`] for which `effects.ask` returns [`Asked::Stop`].
pub async fn drive<E: Effects + ?Sized>(step: Step, effects: &E) -> Result<Outcome, ResumeError> {
    let mut step = step;
    loop {
        let ask = match step {
            Step::Settle(s) => return Ok(Outcome::Settle(s)),
            Step::Run(run) => {
                let result = effects.run(&run).await;
                step = ran(run, result).into();
                continue;
            }
            Step::Ask(ask) => ask,
        };
        if let Some(ended) = timed(&ask, effects.now()) {
            let after = Step::Settle(ended);
            effects.decide(&ask, None, &after);
            let Step::Settle(ended) = after else {
                unreachable!("settled above")
            };
            return Ok(Outcome::Settle(ended));
        }
        let answer = match effects.ask(&ask).await? {
            Asked::Stop => return Ok(Outcome::Ask(ask)),
            Asked::Expired => None,
            Asked::Answer(a) => Some(a),
        };
        let after = answered(ask.clone(), answer.clone(), effects.now());
        effects.decide(&ask, answer.as_ref(), &after);
        step = after;
    }
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
        let output = format!("declined: {message}");
        marker.insert("message".to_owned(), Value::from(message));
        return Some(refusal(output, marker));
    }
    let output = if is_approval(tool_name, request) {
        let tail = if reason == "declined" {
            String::new()
        } else {
            format!(" ({reason})")
        };
        format!("declined: the call to {tool_name} was not approved{tail}")
    } else {
        format!("declined/expired: {}", request.prompt)
    };
    Some(refusal(output, marker))
}

/// The most of a refusal's message the model reads (code points); a longer one is cut, and
/// `…` added.
pub const MESSAGE_LIMIT: usize = 1000;

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "ask_user".into(),
            ..ToolCall::default()
        }
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
