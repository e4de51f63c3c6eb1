// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Answering: a pending run checked and opened for its answers, or for the calls whose
//! time ran out.

use std::collections::HashSet;

use super::{Opening, Pick, RunBook, Turn, ZERO, quoted, refuse, turn_digest};
use crate::runtime::engine::{Ask, check_answer, expired, match_answers, reach};
use crate::runtime::errors::{ResumeError, ResumeReason};
use crate::{Answer, Request, RunResult, RunResultStatus};

impl RunBook {
    /// `run` checked and opened for `batch`: each answer matched to the call it answers and
    /// remembered as taken. [`ResumeError`] (nothing taken) when the run cannot take them.
    pub(crate) fn open(
        &self,
        run: RunResult,
        batch: Vec<Answer>,
        principal: Option<&str>,
        now_ms: i128,
    ) -> Result<Opening, ResumeError> {
        let Some(first) = batch.first() else {
            return Err(refuse(
                ResumeReason::Mismatch,
                "resume needs at least one Answer",
            ));
        };
        let Some(request) = run
            .pending
            .clone()
            .filter(|_| run.status == RunResultStatus::Pending && !run.calls.is_empty())
        else {
            return Err(self.not_pending(&run, first));
        };
        if run.requests.is_empty() {
            return self.open_unlisted(run, batch, principal, now_ms);
        }
        if run.requests.len() != run.calls.len() || run.requests[0].id != request.id {
            if self.active.is_some() {
                return Err(refuse(
                    ResumeReason::Seal,
                    "the run's requests do not match its waiting calls: it was altered",
                ));
            }
            return Err(refuse(
                ResumeReason::NotPending,
                "the run's requests do not match its waiting calls",
            ));
        }
        let (turn, results_total, waiting_total) = self.verify(&run, principal, now_ms, true)?;
        let picks = pick(&run, &turn, batch, |key| self.taken(key))?;
        for p in &picks {
            self.remember((turn.digest, p.call.id.clone(), p.request.id.clone()));
        }
        Ok(Opening {
            run,
            turn,
            picks,
            restart: Vec::new(),
            results_total,
            waiting_total,
        })
    }

    /// `run` opened to settle its waiting calls whose time ran out by `now_us`: those whose
    /// request expired, or all of them past the run's sealed expiry. `None` when none has.
    /// The seal must hold; the sealed expiry and principal do not stop it (no tool runs).
    pub(crate) fn open_lapsed(
        &self,
        run: &RunResult,
        now_us: i128,
        principal: Option<&str>,
        now_ms: i128,
    ) -> Result<Option<Opening>, ResumeError> {
        let Some(pending) = run
            .pending
            .clone()
            .filter(|_| run.status == RunResultStatus::Pending && !run.calls.is_empty())
        else {
            return Err(refuse(
                ResumeReason::NotPending,
                "the run waits on no request, so nothing of it can expire",
            ));
        };
        if run.requests.is_empty() {
            return self.open_lapsed_unlisted(run, pending, now_us, principal);
        }
        if run.requests.len() != run.calls.len() || run.requests[0].id != pending.id {
            let reason = if self.active.is_some() {
                ResumeReason::Seal
            } else {
                ResumeReason::NotPending
            };
            return Err(refuse(
                reason,
                "the run's requests do not match its waiting calls",
            ));
        }
        let (turn, results_total, waiting_total) = self.verify(run, principal, now_ms, false)?;
        let whole = turn.expires.is_some_and(|e| now_us >= e * 1000);
        let picks = lapsed_picks(run, whole, now_us);
        if picks.is_empty() {
            return Ok(None);
        }
        for p in &picks {
            self.remember((turn.digest, p.call.id.clone(), p.request.id.clone()));
        }
        Ok(Some(Opening {
            run: run.clone(),
            turn,
            picks,
            restart: Vec::new(),
            results_total,
            waiting_total,
        }))
    }

    /// Why a run that waits on no request cannot take `first`: it was answered already
    /// (`replayed`), or it is not pending.
    fn not_pending(&self, run: &RunResult, first: &Answer) -> ResumeError {
        if let Some(head) = run.calls.first() {
            let digest = turn_digest(&run.order, &run.turn);
            if self.taken(&(digest, head.id.clone(), first.id.clone())) {
                return refuse(
                    ResumeReason::Replayed,
                    format!("request {} was already answered", quoted(&first.id)),
                );
            }
        }
        refuse(
            ResumeReason::NotPending,
            format!(
                "the run waits on no request, so answer {} has no use",
                quoted(&first.id)
            ),
        )
    }

    /// [`open_lapsed`](RunBook::open_lapsed) of a run stored before `requests` existed:
    /// only its pending request is known.
    fn open_lapsed_unlisted(
        &self,
        run: &RunResult,
        pending: Request,
        now_us: i128,
        principal: Option<&str>,
    ) -> Result<Option<Opening>, ResumeError> {
        let (turn, ..) = self.verify_unlisted(run, principal)?;
        if run.calls.len() > 1 || !expired(&pending, now_us) {
            return Ok(None); // (its other calls would run again)
        }
        let head = run.calls[0].clone();
        self.remember((turn.digest, head.id.clone(), pending.id.clone()));
        Ok(Some(Opening {
            picks: vec![Pick {
                index: 0,
                call: head,
                request: pending,
                answer: None,
            }],
            run: run.clone(),
            turn,
            restart: Vec::new(),
            results_total: ZERO,
            waiting_total: ZERO,
        }))
    }

    /// A run stored before `requests` existed: only its pending request is known, so it
    /// takes that one answer, and its other waiting calls run afresh (gated as new calls).
    fn open_unlisted(
        &self,
        run: RunResult,
        batch: Vec<Answer>,
        principal: Option<&str>,
        _now_ms: i128,
    ) -> Result<Opening, ResumeError> {
        let request = run.pending.clone().expect("a pending run");
        let head = run.calls[0].clone();
        let (turn, ..) = self.verify_unlisted(&run, principal)?;
        if self.taken(&(turn.digest, head.id.clone(), batch[0].id.clone())) {
            return Err(refuse(
                ResumeReason::Replayed,
                format!("request {} was already answered", quoted(&batch[0].id)),
            ));
        }
        if batch.len() != 1 || batch[0].id != request.id {
            let wrong = batch
                .iter()
                .find(|a| a.id != request.id)
                .unwrap_or(&batch[batch.len() - 1]);
            return Err(refuse(
                ResumeReason::Mismatch,
                format!(
                    "answer {} does not answer the pending request {}",
                    quoted(&wrong.id),
                    quoted(&request.id)
                ),
            ));
        }
        let step = Ask {
            call: head.clone(),
            request: request.clone(),
        };
        check_answer(&step, &batch[0])?;
        self.remember((turn.digest, head.id.clone(), request.id.clone()));
        let restart = run.calls[1..].to_vec();
        let answer = batch.into_iter().next();
        Ok(Opening {
            picks: vec![Pick {
                index: 0,
                call: head,
                request,
                answer,
            }],
            run,
            turn,
            restart,
            results_total: ZERO,
            waiting_total: ZERO,
        })
    }
}

/// The waiting call each answer answers (`engine::match_answers`), and the others a
/// decision that reaches beyond its call decides with it (`engine::reach`): an approval
/// with a scope beyond `once` settles the run's other approvals of its tool.
fn pick(
    run: &RunResult,
    turn: &Turn,
    batch: Vec<Answer>,
    taken: impl Fn(&([u8; 32], String, String)) -> bool,
) -> Result<Vec<Pick>, ResumeError> {
    let candidates = |request_id: &str| -> Vec<(usize, String)> {
        let mut found = Vec::new();
        for call_id in turn.asked.get(request_id).into_iter().flatten() {
            let index = run.calls.iter().position(|c| &c.id == call_id);
            if let Some(index) = index.filter(|&i| run.requests[i].id == request_id) {
                found.push((index, call_id.clone()));
            }
        }
        found
    };
    let answered = |call_id: &str, request_id: &str| {
        taken(&(turn.digest, call_id.to_owned(), request_id.to_owned()))
    };
    let first = run.pending.as_ref().map_or("", |p| p.id.as_str());
    let indices = match_answers(&batch, candidates, answered, first)?;
    let once = batch.iter().all(|a| {
        a.scope
            .as_deref()
            .is_none_or(|s| s.is_empty() || s == "once")
    });
    let mut picks: Vec<Pick> = indices
        .iter()
        .zip(batch)
        .map(|(&index, answer)| Pick {
            index,
            call: run.calls[index].clone(),
            request: run.requests[index].clone(),
            answer: Some(answer),
        })
        .collect();
    for pick in &picks {
        let step = Ask {
            call: pick.call.clone(),
            request: pick.request.clone(),
        };
        if let Some(answer) = &pick.answer {
            check_answer(&step, answer)?;
        }
    }
    if once {
        return Ok(picks);
    }
    reach_further(run, indices, &mut picks, answered);
    Ok(picks)
}

/// `picks` with the waiting calls that their answers decide too (`engine::reach`), each
/// with its answer, unless it is picked already (`indices`) or took an answer before.
fn reach_further(
    run: &RunResult,
    indices: Vec<usize>,
    picks: &mut Vec<Pick>,
    answered: impl Fn(&str, &str) -> bool,
) {
    let asks: Vec<Ask> = run
        .calls
        .iter()
        .zip(&run.requests)
        .map(|(call, request)| Ask {
            call: call.clone(),
            request: request.clone(),
        })
        .collect();
    let mut chosen: HashSet<usize> = indices.into_iter().collect();
    for at in 0..picks.len() {
        let (index, answer) = match &picks[at] {
            Pick {
                index,
                answer: Some(answer),
                ..
            } => (*index, answer.clone()),
            _ => continue,
        };
        for (other, derived) in reach(&asks, index, &answer) {
            if !chosen.contains(&other) && !answered(&run.calls[other].id, &derived.id) {
                chosen.insert(other);
                picks.push(Pick {
                    index: other,
                    call: run.calls[other].clone(),
                    request: run.requests[other].clone(),
                    answer: Some(derived),
                });
            }
        }
    }
}

/// The picks of `run`'s waiting calls whose time ran out by `now_us`: every one when
/// `whole` (the run's sealed expiry has passed), else those whose request expired.
fn lapsed_picks(run: &RunResult, whole: bool, now_us: i128) -> Vec<Pick> {
    run.calls
        .iter()
        .zip(&run.requests)
        .enumerate()
        .filter(|(_, (_, request))| whole || expired(request, now_us))
        .map(|(index, (call, request))| Pick {
            index,
            call: call.clone(),
            request: request.clone(),
            answer: None,
        })
        .collect()
}
