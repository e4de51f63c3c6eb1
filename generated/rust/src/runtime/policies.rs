// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/runtime/policies.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Where a host keeps the decisions that outlive a turn, and the log of every decision. A
//! port of the Python package's `toolnexus/_policies.py`.
//!
//! The rules (which policy decides a call, what an answer's scope makes, what a decision
//! records) are the engine's ([`Policy`], [`applicable`](crate::engine::applicable),
//! [`policy_of`], [`Decision`]); this module only keeps them.
//! [`ToolkitBuilder::policy_store`](crate::ToolkitBuilder::policy_store) and
//! [`decision_log`](crate::ToolkitBuilder::decision_log) take any type with these methods:
//! [`PolicyMemory`] (in process, the default) or a store of the host's own.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use super::engine::{Ask, Circumstances, Decision, Gate, Policy, Step, decided, gated, policy_of};
use super::tool::Tool;
use crate::{Answer, ToolCall};

/// Keeps policies ([`Policy`]), which the toolkit consults before asking an approval.
pub trait PolicyStore: Send + Sync {
    /// The policies kept (of `tool`, when given), expired ones too, oldest first.
    fn policies(&self, tool: Option<&str>) -> Vec<Policy>;
    /// Keeps `policy` (in place of one with its id).
    fn keep(&self, policy: Policy);
    /// Removes a policy; `false` when there is none by that id.
    fn revoke(&self, policy_id: &str) -> bool;
}

/// Takes every decision the loop makes, with who made it (the principal the turn or the
/// resume was for) and when (by the toolkit's clock).
pub trait DecisionLog: Send + Sync {
    /// Records one decision.
    fn record(&self, decision: &Decision, principal: Option<&str>, at: SystemTime);
}

impl<T: PolicyStore + ?Sized> PolicyStore for Arc<T> {
    fn policies(&self, tool: Option<&str>) -> Vec<Policy> {
        (**self).policies(tool)
    }

    fn keep(&self, policy: Policy) {
        (**self).keep(policy);
    }

    fn revoke(&self, policy_id: &str) -> bool {
        (**self).revoke(policy_id)
    }
}

impl<T: DecisionLog + ?Sized> DecisionLog for Arc<T> {
    fn record(&self, decision: &Decision, principal: Option<&str>, at: SystemTime) {
        (**self).record(decision, principal, at);
    }
}

/// Policies kept in this process (lost when it ends), in the order they were made.
#[derive(Debug, Default)]
pub struct PolicyMemory {
    kept: Mutex<Vec<Policy>>,
}

impl PolicyMemory {
    /// A store holding `policies` (read back from the host's storage, say).
    pub fn new(policies: impl IntoIterator<Item = Policy>) -> PolicyMemory {
        let memory = PolicyMemory::default();
        for policy in policies {
            memory.keep(policy);
        }
        memory
    }
}

impl PolicyStore for PolicyMemory {
    fn policies(&self, tool: Option<&str>) -> Vec<Policy> {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter()
            .filter(|p| tool.is_none_or(|t| p.tool == t))
            .cloned()
            .collect()
    }

    fn keep(&self, policy: Policy) {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        match kept.iter_mut().find(|p| p.id == policy.id) {
            Some(slot) => *slot = policy,
            None => kept.push(policy),
        }
    }

    fn revoke(&self, policy_id: &str) -> bool {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let before = kept.len();
        kept.retain(|p| p.id != policy_id);
        kept.len() != before
    }
}

/// A toolkit's decisions: its policy store and decision log, and the engine's rules applied
/// to them ([`gated`] before a first run, [`decided`] and [`policy_of`] after an answer).
pub(crate) struct Decisions {
    pub(crate) store: Arc<dyn PolicyStore>,
    log: Option<Arc<dyn DecisionLog>>,
    lifetime: Duration,
}

impl Decisions {
    pub(crate) fn new(
        store: Option<Arc<dyn PolicyStore>>,
        log: Option<Arc<dyn DecisionLog>>,
        lifetime: Duration,
    ) -> Decisions {
        Decisions {
            store: store.unwrap_or_else(|| Arc::new(PolicyMemory::default())),
            log,
            lifetime,
        }
    }

    /// [`gated`] with the kept policies; a policy's decision is logged.
    pub(crate) fn gate(
        &self,
        tool: Option<&Tool>,
        call: &ToolCall,
        at: &Circumstances<'_>,
    ) -> Gate {
        let policies = self.store.policies(Some(&call.name));
        let (asked, decision) = gated(tool, call, &policies, at);
        if let Some(decision) = decision {
            self.record(&decision, at.principal, at.now);
        }
        asked
    }

    /// Logs `answer`'s decision, and keeps the policy it makes, if it makes one.
    pub(crate) fn decide(
        &self,
        ask: &Ask,
        answer: Option<&Answer>,
        step: &Step,
        at: &Circumstances<'_>,
    ) {
        self.record(&decided(ask, answer, step), at.principal, at.now);
        if let Some(policy) = answer.and_then(|a| policy_of(ask, a, at, self.lifetime)) {
            self.store.keep(policy);
        }
    }

    fn record(&self, decision: &Decision, principal: Option<&str>, now: SystemTime) {
        if let Some(log) = &self.log {
            log.record(decision, principal, now);
        }
    }
}
