// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The toolkit as the engine's host: its effects for the steps of one turn.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use serde_json::{Map, Value};

use super::{Toolkit, WaitFor};
use crate::runtime::book::{idempotency_key, quoted};
use crate::runtime::engine::{
    Ask, Asked, Circumstances, Effects, Gate, Run, Step, check_answer, reached,
};
use crate::runtime::errors::{ResumeError, ResumeReason};
use crate::runtime::join::{BoxFuture, TurnLock};
use crate::runtime::spill::ResultScope;
use crate::runtime::tool::{LogHook, LogLevel, ProgressHook, ToolContext};
use crate::{Answer, Request, ToolCall, ToolResult, pending};

/// The toolkit's effects for the engine's steps of one turn: handlers run in process, asks
/// go to `wait_for` one at a time (or leave the call waiting), the time is the toolkit's,
/// and decisions go to its log and policy store.
pub(super) struct KitEffects<'a> {
    kit: &'a Toolkit,
    turn: [u8; 32],
    wait_for: Option<&'a WaitFor>,
    lock: TurnLock,
    session: Option<&'a str>,
    principal: Option<&'a str>,
    /// The turn's answers so far, for [`reached`].
    decided: Mutex<Vec<(Ask, Answer)>>,
}

impl Effects for KitEffects<'_> {
    fn run<'a>(&'a self, step: &'a Run) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let key = idempotency_key(&self.turn, &step.call.id);
            let scope = (self.session, self.principal);
            let gate = step.gate.then_some(scope);
            self.kit
                .perform(
                    &step.call,
                    (step.answer.clone(), step.request.clone()),
                    gate,
                    key,
                    scope,
                )
                .await
        })
    }

    fn ask<'a>(&'a self, step: &'a Ask) -> BoxFuture<'a, Result<Asked, ResumeError>> {
        Box::pin(async move {
            let Some(wait_for) = self.wait_for else {
                return Ok(Asked::Stop);
            };
            let _turn = self.lock.lock().await; // one question at a time, in the order asked
            let earlier = {
                let decided = self.decided.lock().unwrap_or_else(PoisonError::into_inner);
                reached(decided.iter(), step) // decided already, with a scope beyond once
            };
            if let Some(answer) = earlier {
                return Ok(Asked::Answer(answer));
            }
            let answer = wait_for(step.request.clone()).await;
            if answer.id != step.request.id {
                return Err(ResumeError::new(
                    ResumeReason::Mismatch,
                    format!(
                        "wait_for answered {}, but the request is {}",
                        quoted(&answer.id),
                        quoted(&step.request.id)
                    ),
                ));
            }
            check_answer(step, &answer)?;
            Ok(Asked::Answer(answer))
        })
    }

    fn now(&self) -> SystemTime {
        self.kit.now()
    }

    fn decide(&self, step: &Ask, answer: Option<&Answer>, after: &Step) {
        if let Some(answer) = answer {
            self.decided
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((step.clone(), answer.clone()));
        }
        let at = Circumstances {
            session: self.session,
            principal: self.principal,
            now: self.kit.now(),
        };
        self.kit.decisions.decide(step, answer, after, &at);
    }
}

impl Toolkit {
    /// One run of `call`, as the loop asks a host for it: with `gate_first` (the turn's
    /// session and principal), a first run that suspends on the tool's approval instead when
    /// the tool needs one and no policy decides it (the handler does not run); else the
    /// handler, with `answer` to `request` on a retry, its result fitted to the call's limit
    /// (the whole output kept when cut, for the turn's `scope`: its session and principal).
    async fn perform(
        &self,
        call: &ToolCall,
        (answer, request): (Option<Answer>, Option<Request>),
        gate_first: Option<(Option<&str>, Option<&str>)>,
        idempotency_key: String,
        (session, principal): (Option<&str>, Option<&str>),
    ) -> ToolResult {
        if let Some((session, principal)) = gate_first {
            let at = Circumstances {
                session,
                principal,
                now: self.now(),
            };
            match self.decisions.gate(self.get(&call.name), call, &at) {
                Gate::Open => {}
                Gate::Ask(request) => return pending(request),
                Gate::Settle(result) => return result,
            }
        }
        let on_progress: Option<ProgressHook> = self.on_progress.as_ref().map(|hook| {
            let hook = Arc::clone(hook);
            let call_id = call.id.clone();
            Arc::new(move |fraction: f64, message: &str| hook(&call_id, fraction, message))
                as ProgressHook
        });
        let on_log: Option<LogHook> = self.on_log.as_ref().map(|hook| {
            let hook = Arc::clone(hook);
            let call_id = call.id.clone();
            Arc::new(
                move |level: LogLevel, message: &str, data: &Map<String, Value>| {
                    hook(&call_id, level, message, data)
                },
            ) as LogHook
        });
        #[allow(clippy::needless_update)] // `timeout` is there with the feature `tokio`
        let ctx = ToolContext {
            answer,
            request,
            call_id: call.id.clone(),
            idempotency_key: idempotency_key.clone(),
            on_progress,
            on_log,
            ..ToolContext::default()
        };
        let scope = || ResultScope {
            principal: principal.map(str::to_owned),
            session: session.map(str::to_owned),
        };
        let tool = self.get(&call.name);
        let arguments = Value::Object(call.arguments.clone());
        let result = match tool {
            None => ToolResult::error(format!("Unknown tool: {}", call.name)),
            Some(tool) => self.limits.bind(tool, scope).call(arguments, ctx).await,
        };
        self.limits.apply(tool, result, &idempotency_key, scope)
    }

    pub(super) fn effects<'a>(
        &'a self,
        turn: [u8; 32],
        wait_for: Option<&'a WaitFor>,
        session: Option<&'a str>,
        principal: Option<&'a str>,
    ) -> KitEffects<'a> {
        KitEffects {
            kit: self,
            turn,
            wait_for,
            lock: TurnLock::default(),
            session,
            principal,
            decided: Mutex::new(Vec::new()),
        }
    }
}
