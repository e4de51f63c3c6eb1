// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Policies: decisions kept beyond their turn, which decide later approvals unasked
//! (deny overrides).

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

#[cfg(doc)]
use super::MESSAGE_LIMIT;
use super::decisions::{Decision, DecisionKind, ScopeKind, scope_of};
use super::{Ask, Gate, cut, gate, refusal};
use crate::loop_data as texts;
use crate::runtime::time::{format_time, micros, parse_time, random_hex};
use crate::runtime::tool::Tool;
use crate::{Answer, ToolCall, ToolResult};

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
            let output = texts::declined_with_message(&message);
            marker.insert("message".into(), Value::from(message));
            output
        }
        None => texts::not_allowed_by_policy(&call.name, &policy.id),
    };
    Some(refusal(output, marker))
}
