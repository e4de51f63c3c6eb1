// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Driving one call: the engine's steps performed with a host's [`Effects`].

use std::time::SystemTime;

#[cfg(doc)]
use super::decided;
use super::{Ask, Outcome, Run, Step, answered, ran, timed};
use crate::runtime::errors::ResumeError;
use crate::runtime::join::BoxFuture;
use crate::{Answer, ToolResult};

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
