// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Settling: the run of a turn, or of an opened run, once its calls have their outcomes;
//! a pending run is sealed.

use std::collections::HashMap;

use serde_json::Value;

use super::{Opening, RunBook, Turn, ZERO, nested_past};
use crate::runtime::engine::{Outcome, Settle};
use crate::runtime::seal::{self, SealParts, Sum};
use crate::{MAX_DEPTH, Request, RunResult, RunResultStatus, ToolCall, ToolCallResult, ToolResult};

impl RunBook {
    /// The run of `turn` after its calls' `outcomes` (and the results `done` before): done,
    /// or pending on its waiting calls, sealed. In a pending run, a finished result that
    /// cannot be stored becomes an error result saying so: the run always can be.
    pub(crate) fn close(
        &self,
        mut turn: Turn,
        outcomes: Vec<Outcome>,
        done: Vec<ToolCallResult>,
    ) -> RunResult {
        let mut finished = done;
        let mut waiting = Vec::new();
        for outcome in outcomes {
            match settle_unsealable(&mut turn, outcome) {
                Outcome::Settle(s) => finished.push(item_of(s)),
                Outcome::Ask(ask) => waiting.push((ask.call, ask.request)),
            }
        }
        finished.sort_by_key(|item| turn.position(&item.id));
        if waiting.is_empty() {
            return done_run(finished);
        }
        let mut results_total = ZERO;
        let finished = finished
            .into_iter()
            .map(|item| {
                let (item, term) = storable(item, &turn);
                results_total = seal::add(&results_total, &term);
                item
            })
            .collect();
        let mut waiting_total = ZERO;
        if turn.key.is_some() {
            for (call, request) in &waiting {
                waiting_total = seal::add(&waiting_total, &turn.term_of(call, request).0);
            }
        }
        let (calls, requests) = waiting.into_iter().unzip();
        pending_run(
            &turn,
            finished,
            calls,
            requests,
            &results_total,
            &waiting_total,
        )
    }

    /// The opened run with each pick's outcome (in pick order, then `restart`'s) in place.
    pub(crate) fn advance(&self, opening: Opening, outcomes: Vec<Outcome>) -> RunResult {
        let Opening {
            run,
            mut turn,
            picks,
            results_total,
            mut waiting_total,
            ..
        } = opening;
        if run.requests.is_empty() {
            // A run stored before `requests` existed: every call is in `outcomes`.
            let fresh = Turn::new(run.order.clone(), run.turn.clone(), self.active.clone());
            let Ok(fresh) = fresh else {
                return done_run(run.results);
            };
            return self.close(fresh, outcomes, run.results);
        }
        let sealed = turn.key.is_some();
        let mut results_total = results_total;
        let mut new_items = Vec::new();
        let mut stays: HashMap<usize, Option<(ToolCall, Request)>> = HashMap::new();
        for (p, outcome) in picks.iter().zip(outcomes) {
            if sealed {
                waiting_total = seal::sub(&waiting_total, &turn.term_of(&p.call, &p.request).0);
            }
            match settle_unsealable(&mut turn, outcome) {
                Outcome::Ask(ask) => {
                    // Asked afresh after its approval: it waits on.
                    if sealed {
                        waiting_total =
                            seal::add(&waiting_total, &turn.term_of(&ask.call, &ask.request).0);
                    }
                    stays.insert(p.index, Some((ask.call, ask.request)));
                }
                Outcome::Settle(s) => {
                    stays.insert(p.index, None);
                    let (item, term) = storable(item_of(s), &turn);
                    results_total = seal::add(&results_total, &term);
                    new_items.push(item);
                }
            }
        }
        let mut results = run.results;
        insert_in_order(&mut results, new_items, &turn);
        let (calls, requests) = still_waiting(run.calls, run.requests, stays);
        if calls.is_empty() {
            return done_run(results);
        }
        pending_run(
            &turn,
            results,
            calls,
            requests,
            &results_total,
            &waiting_total,
        )
    }
}

/// `new_items` put into `results` in call order.
fn insert_in_order(results: &mut Vec<ToolCallResult>, new_items: Vec<ToolCallResult>, turn: &Turn) {
    for item in new_items {
        // After the results at or before its place: as Python's bisect.insort.
        let place = turn.position(&item.id);
        let at = results.partition_point(|r| turn.position(&r.id) <= place);
        results.insert(at, item);
    }
}

/// The calls of a run (and their requests) that still wait once the picks at the indices
/// of `stays` have their outcomes: those not picked, and those asked afresh.
fn still_waiting(
    run_calls: Vec<ToolCall>,
    run_requests: Vec<Request>,
    mut stays: HashMap<usize, Option<(ToolCall, Request)>>,
) -> (Vec<ToolCall>, Vec<Request>) {
    let mut calls = Vec::new();
    let mut requests = Vec::new();
    for (index, (call, request)) in run_calls.into_iter().zip(run_requests).enumerate() {
        match stays.remove(&index) {
            Some(None) => {}
            Some(Some((call, request))) => {
                calls.push(call);
                requests.push(request);
            }
            None => {
                calls.push(call);
                requests.push(request);
            }
        }
    }
    (calls, requests)
}

/// A result of the loop as it stands in a run.
fn item_of(settle: Settle) -> ToolCallResult {
    ToolCallResult::new(settle.call.id, settle.call.name, settle.result)
}

fn done_run(results: Vec<ToolCallResult>) -> RunResult {
    RunResult::new(RunResultStatus::Done, results)
}

/// A pending run of these lists, sealed under the turn's key.
fn pending_run(
    turn: &Turn,
    results: Vec<ToolCallResult>,
    calls: Vec<ToolCall>,
    requests: Vec<Request>,
    results_total: &Sum,
    waiting_total: &Sum,
) -> RunResult {
    let seal = turn.key.as_ref().map(|key| {
        let (_, pending) = turn.term_of(&calls[0], &requests[0]);
        key.seal(&SealParts {
            expires: turn.expires,
            principal_tag: &turn.principal_tag,
            pending: &pending,
            order: &turn.order_digest,
            n_results: results.len(),
            results: results_total,
            n_waiting: calls.len(),
            waiting: waiting_total,
        })
    });
    let mut run = RunResult::new(RunResultStatus::Pending, results);
    run.pending = Some(requests[0].clone());
    run.calls = calls;
    run.requests = requests;
    run.order = turn.order.clone();
    run.turn = turn.tid.clone();
    run.seal = seal;
    run
}

/// `outcome`, noted as waiting in `turn`; or, when its call or request cannot be sealed
/// (an integer beyond ±2^53), the error result that settles it instead, so the run stays
/// sealable.
fn settle_unsealable(turn: &mut Turn, outcome: Outcome) -> Outcome {
    let Outcome::Ask(ask) = outcome else {
        return outcome;
    };
    match turn.wait(&ask.call, &ask.request, None) {
        Ok(()) => Outcome::Ask(ask),
        Err(e) => Outcome::Settle(Settle {
            call: ask.call,
            result: ToolResult::error(crate::loop_data::cannot_wait(&format!(
                "its arguments or request cannot be sealed ({e})"
            ))),
        }),
    }
}

/// `item` and its seal term (zero without a key), or the error result that stands in for
/// it when it cannot be written (nesting past the wire's limit, in a run) or sealed (an
/// integer beyond ±2^53).
fn storable(item: ToolCallResult, turn: &Turn) -> (ToolCallResult, Sum) {
    let problem = match (nested_past(&item, MAX_DEPTH - 2), &turn.key) {
        (Some(problem), _) => problem,
        (None, None) => return (item, ZERO),
        (None, Some(key)) => match seal::digest(&item) {
            Ok(d) => {
                let term = key.term(turn.position(&item.id), &d);
                return (item, term);
            }
            Err(e) => e.to_string(),
        },
    };
    let what = match &item.result.metadata {
        Some(meta) if seal::canonical(&Value::Object(meta.clone())).is_err() => "metadata",
        _ => "result",
    };
    let stand_in = ToolCallResult {
        id: item.id,
        name: item.name,
        result: ToolResult::error(format!(
            "the tool's {what} cannot be stored, so it is not kept: {problem}"
        )),
        ..ToolCallResult::default()
    };
    let term = match &turn.key {
        Some(key) => seal::digest(&stand_in)
            .map(|d| key.term(turn.position(&stand_in.id), &d))
            .unwrap_or(ZERO),
        None => ZERO,
    };
    (stand_in, term)
}
