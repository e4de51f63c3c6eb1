// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The loop's entry points: a turn's calls run, a pending run resumed, or its lapsed calls
//! settled.

use std::time::SystemTime;

use super::{ResumeOptions, RunOptions, Toolkit};
#[cfg(doc)]
use crate::runtime::engine::Policy;
use crate::runtime::engine::{Ask, Circumstances, Outcome, Step, answered, drive, lapsed, start};
use crate::runtime::errors::{ResumeError, RunError};
use crate::runtime::join::try_join_all;
use crate::runtime::time::{micros, millis};
use crate::{Answer, RunResult, RunResultStatus, ToolCall, ToolCallResult};

impl Toolkit {
    /// Runs one turn's calls concurrently under the loop's rules (see
    /// [`engine`](crate::engine)).
    ///
    /// A call to a tool that needs approval does not run: it suspends on a request of kind
    /// `approval` whose `data` is `{"tool": name, "arguments": args}` (its id begins
    /// `apr-`). Without `wait_for` the run stops when any call suspends: it is `pending` on
    /// the first suspension in call order, with every finished result in `results`, the
    /// suspended calls in `calls` and their requests in `requests` (call order). Continue it
    /// with [`resume`](Toolkit::resume). A call whose arguments or request could not be
    /// stored or sealed settles as an error saying so, so the run always can be.
    pub async fn run_calls(
        &self,
        calls: Vec<ToolCall>,
        options: RunOptions,
    ) -> Result<RunResult, RunError> {
        let expires_in_ms = options.expires_in.map(|d| d.as_nanos().div_ceil(1_000_000));
        let turn = self
            .book
            .begin(
                &calls,
                options.turn_id.as_deref(),
                expires_in_ms,
                options.principal.as_deref(),
                millis(self.now()),
            )
            .map_err(RunError::Invalid)?;
        let (session, principal) = (options.session.as_deref(), options.principal.as_deref());
        let first = self.effects(turn.digest, None, session, principal);
        let outcomes = try_join_all(
            calls
                .into_iter()
                .map(|call| drive(Step::Run(start(call)), &first))
                .collect(),
        )
        .await
        .map_err(RunError::Resume)?;
        let Some(wait_for) = &options.wait_for else {
            return Ok(self.book.close(turn, outcomes, Vec::new()));
        };
        let answering = self.effects(turn.digest, Some(wait_for), session, principal);
        let settled = try_join_all(
            outcomes
                .into_iter()
                .map(|outcome| drive(outcome.into(), &answering))
                .collect(),
        )
        .await
        .map_err(RunError::Resume)?;
        let results = settled
            .into_iter()
            .map(|outcome| match outcome {
                Outcome::Settle(s) => ToolCallResult::new(s.call.id, s.call.name, s.result),
                Outcome::Ask(_) => unreachable!("with wait_for every call settles"),
            })
            .collect();
        Ok(RunResult::new(RunResultStatus::Done, results))
    }

    /// Continues a pending run with answers to any of the requests it waits on, in any
    /// order; each answers the waiting call whose request has its id (two calls asked under
    /// one fixed id take one answer each, in call order). The answered calls go on under the
    /// loop's rules, concurrently; the others keep waiting without running again. The run
    /// returned is `pending` on the first call still waiting, or `done`; results stay in
    /// call order.
    ///
    /// Every run is read and checked in full: its seal (with keys), its expiry and its
    /// principal (`principal` must be the one it is bound to). [`ResumeError`], with nothing
    /// run, when an answer does not belong to the run (or none is given: `mismatch`) or was
    /// already given to this toolkit (it remembers the last 10,000 answers, by turn, call
    /// and request), the seal does not
    /// hold, the run has expired, or the principal is not the one bound. Two processes each
    /// resuming their own copy of one stored run are not caught here: the host's store
    /// must hand a pending run out once, and a tool with side effects passes
    /// `ctx.idempotency_key` to the system it changes.
    ///
    /// `resume(run, answers, principal)` is [`resume_with`](Toolkit::resume_with) with
    /// only a principal.
    pub async fn resume(
        &self,
        run: RunResult,
        answers: Vec<Answer>,
        principal: Option<&str>,
    ) -> Result<RunResult, ResumeError> {
        let options = ResumeOptions {
            principal: principal.map(str::to_owned),
            session: None,
        };
        self.resume_with(run, answers, options).await
    }

    /// [`resume`](Toolkit::resume), with the host's session (for policies) as well as the
    /// principal.
    ///
    /// An approval's [`Answer::scope`] may reach beyond its call: `turn` decides the run's
    /// other approvals of the same tool alike (each with an answer of its own, scope
    /// `turn`); `session:<id>`, `principal` and `tool` also keep a [`Policy`] deciding
    /// later calls unasked. Every decision goes to the decision log, with `principal` as
    /// who made it.
    pub async fn resume_with(
        &self,
        run: RunResult,
        answers: Vec<Answer>,
        options: ResumeOptions,
    ) -> Result<RunResult, ResumeError> {
        let principal = options.principal.as_deref();
        let session = options.session.as_deref();
        let opening = self
            .book
            .open(run, answers, principal, millis(self.now()))?;
        let now = self.now();
        let at = Circumstances {
            session,
            principal,
            now,
        };
        let mut steps: Vec<Step> = Vec::with_capacity(opening.picks.len());
        for p in &opening.picks {
            let ask = Ask {
                call: p.call.clone(),
                request: p.request.clone(),
            };
            let step = answered(ask.clone(), p.answer.clone(), now);
            self.decisions.decide(&ask, p.answer.as_ref(), &step, &at);
            steps.push(step);
        }
        steps.extend(opening.restart.iter().cloned().map(|c| Step::Run(start(c))));
        let effects = self.effects(opening.turn.digest, None, session, principal);
        let outcomes =
            try_join_all(steps.into_iter().map(|s| drive(s, &effects)).collect()).await?;
        Ok(self.book.advance(opening, outcomes))
    }

    /// `run` with every waiting call whose time ran out by `now` (this toolkit's clock when
    /// `None`) settled as the loop settles an expiry (`declined/expired: <prompt>`, or
    /// `declined: the call to <tool> was not approved (expired)`, marked
    /// `metadata["declined"]` with reason `expired`): each call whose request's `expiresAt`
    /// has passed, and every call once the run's sealed expiry has. No tool runs. Returns
    /// `run` itself when nothing has expired.
    ///
    /// The seal must hold (`seal`); the sealed expiry and principal do not stop it, and a
    /// bound run stays bound (`principal` is needed only to re-seal a bound run made under
    /// a key that is no longer the active one).
    pub async fn expire(
        &self,
        run: RunResult,
        now: Option<SystemTime>,
        principal: Option<&str>,
    ) -> Result<RunResult, ResumeError> {
        let now = now.unwrap_or_else(|| self.now());
        let Some(opening) =
            self.book
                .open_lapsed(&run, micros(now), principal, millis(self.now()))?
        else {
            return Ok(run);
        };
        let at = Circumstances {
            session: None,
            principal: None,
            now,
        };
        let outcomes = opening
            .picks
            .iter()
            .map(|p| {
                let ask = Ask {
                    call: p.call.clone(),
                    request: p.request.clone(),
                };
                let settled = Step::Settle(lapsed(ask.clone(), now));
                self.decisions.decide(&ask, None, &settled, &at);
                let Step::Settle(settled) = settled else {
                    unreachable!("settled above")
                };
                Outcome::Settle(settled)
            })
            .collect();
        Ok(self.book.advance(opening, outcomes))
    }
}
