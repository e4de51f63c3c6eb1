// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Decisions: what a person decided about a waiting call, and the answers an approval
//! with a scope beyond `once` gives the turn's other approvals of its tool.

use std::fmt;

use serde_json::{Map, Value};

use super::{Ask, Step};
#[cfg(doc)]
use super::{answered, timed};
use crate::{Answer, ToolCall, ToolResult};

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
    pub(super) fn about(
        kind: DecisionKind,
        call: &ToolCall,
        request: Option<&str>,
        scope: &str,
    ) -> Decision {
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
    // An approval whose answer holds edited arguments, other than those asked, runs a call
    // of its own (`answered`).
    let edits = answer
        .data
        .as_ref()
        .is_some_and(|d| d.contains_key("arguments"));
    if let (true, Step::Run(run)) = (edits, after) {
        if run.call.arguments != call.arguments {
            let mut d = Decision::about(DecisionKind::Edit, call, request, scope);
            d.approved = Some(run.call.arguments.clone());
            return d;
        }
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
