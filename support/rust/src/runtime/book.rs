// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The pending-run book: what a toolkit keeps of its turns, and the check of a run that
//! comes back. A port of the Python package's `toolnexus/_book.py` and `_stored.py`, with
//! the same guarantees and one simplification: every run that comes back is read and
//! checked in full (the Python book also continues, without reading it again, a run it
//! handed out that comes back as the very same object).
//!
//! ```text
//! turn = book.begin(calls, turn_id, expires_in, principal)   ids checked, keys derived
//! run = book.close(turn, outcomes)                           done, or pending and sealed
//! opening = book.open(run, answers, principal)               checked, answers matched
//! run = book.advance(opening, outcomes)                      the answered calls settled
//! ```
//!
//! - turn state: the call order, the turn id (`RunResult.turn`) and each call's
//!   idempotency key ([`idempotency_key`]);
//! - the seal (version 4): keyed sums over the results and the waiting calls;
//! - the replay memory: the last 10,000 answers taken, by turn, call and request.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::engine::{Ask, Outcome, Settle, check_answer, expired, match_answers, reach};
use super::errors::{ResumeError, ResumeReason};
use super::seal::{self, NotJson, SealKey, SealParts, Sum};
use super::time::random_hex;
use crate::{
    Answer, MAX_DEPTH, Request, RunResult, RunResultStatus, ToolCall, ToolCallResult, ToolResult,
    Wire,
};

const ANSWERED_MEMORY: usize = 10_000;
/// Seconds; the seal writes an expiry in at most 20 digits.
const MAX_EXPIRES_IN_MS: u128 = 100 * 365 * 24 * 3600 * 1000;
const ZERO: Sum = [0; 32];

/// What identifies a turn: SHA-256 over `toolnexus.turn.v1\n` and its id (when it has one)
/// and its call ids in call order, each as an 8-byte big-endian length and its UTF-8.
/// The same bytes in every language.
pub fn turn_digest(order: &[String], turn_id: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"toolnexus.turn.v1\n");
    let head = if turn_id.is_empty() {
        None
    } else {
        Some(turn_id)
    };
    for id in head.into_iter().chain(order.iter().map(String::as_str)) {
        h.update(u64::try_from(id.len()).unwrap_or(u64::MAX).to_be_bytes());
        h.update(id.as_bytes());
    }
    h.finalize().into()
}

/// The `ToolContext::idempotency_key` of the call `call_id` in the turn `turn` (its
/// [`turn_digest`]): `idk-` and the first 32 hex digits of SHA-256 over
/// `toolnexus.idempotency.v1\n`, the turn digest and the call id. The same key in every
/// language, in the first run, the retry and any process that resumes the run.
pub fn idempotency_key(turn: &[u8; 32], call_id: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"toolnexus.idempotency.v1\n");
    h.update(turn);
    h.update(call_id.as_bytes());
    let digest: [u8; 32] = h.finalize().into();
    let mut key = String::from("idk-");
    for b in &digest[..16] {
        key.push_str(&format!("{b:02x}"));
    }
    key
}

/// What every run of one turn shares.
pub(crate) struct Turn {
    pub(crate) order: Vec<String>,
    positions: HashMap<String, usize>,
    pub(crate) digest: [u8; 32],
    pub(crate) key: Option<Arc<SealKey>>,
    /// The run's `turn` on the wire (empty for a run stored before it existed).
    pub(crate) tid: String,
    order_digest: [u8; 32],
    pub(crate) expires: Option<i128>,
    pub(crate) principal_tag: String,
    /// By (call id, request id): the sealing term of a waiting call and its request's digest.
    terms: HashMap<(String, String), (Sum, [u8; 32])>,
    /// By request id: the calls waiting on it, in the order they were asked.
    asked: HashMap<String, Vec<String>>,
}

impl Turn {
    fn new(order: Vec<String>, tid: String, key: Option<Arc<SealKey>>) -> Result<Turn, NotJson> {
        let order_digest = match key {
            Some(_) => seal::order_digest(&tid, &order)?,
            None => ZERO,
        };
        Ok(Turn {
            positions: order
                .iter()
                .enumerate()
                .map(|(i, id)| (id.clone(), i))
                .collect(),
            digest: turn_digest(&order, &tid),
            order,
            key,
            tid,
            order_digest,
            expires: None,
            principal_tag: String::new(),
            terms: HashMap::new(),
            asked: HashMap::new(),
        })
    }

    pub(crate) fn position(&self, call_id: &str) -> usize {
        self.positions
            .get(call_id)
            .copied()
            .unwrap_or(self.positions.len())
    }

    /// Notes that `call` waits on `request` (with their digests and term, when known).
    fn wait(
        &mut self,
        call: &ToolCall,
        request: &Request,
        known: Option<([u8; 32], [u8; 32], Option<Sum>)>,
    ) -> Result<(), NotJson> {
        if let Some(key) = &self.key {
            let (c, r, term) = match known {
                Some(k) => k,
                None => (seal::digest(call)?, seal::digest(request)?, None),
            };
            let term = term.unwrap_or_else(|| key.waiting_term(self.position(&call.id), &c, &r));
            self.terms
                .insert((call.id.clone(), request.id.clone()), (term, r));
        }
        self.asked
            .entry(request.id.clone())
            .or_default()
            .push(call.id.clone());
        Ok(())
    }

    fn term_of(&self, call: &ToolCall, request: &Request) -> (Sum, [u8; 32]) {
        self.terms
            .get(&(call.id.clone(), request.id.clone()))
            .copied()
            .unwrap_or((ZERO, ZERO))
    }
}

/// One answer of a `resume`, and the waiting call (at `index` in the run) it answers.
pub(crate) struct Pick {
    pub(crate) index: usize,
    pub(crate) call: ToolCall,
    pub(crate) request: Request,
    /// `None`: settled by the time (`open_lapsed`).
    pub(crate) answer: Option<Answer>,
}

/// A pending run opened for answers.
pub(crate) struct Opening {
    pub(crate) run: RunResult,
    pub(crate) turn: Turn,
    pub(crate) picks: Vec<Pick>,
    /// The calls of a run stored before `requests` existed, which run afresh.
    pub(crate) restart: Vec<ToolCall>,
    results_total: Sum,
    waiting_total: Sum,
}

/// The replay memory: (turn digest, call id, request id) of the answers taken, oldest first.
#[derive(Default)]
struct Memory {
    taken: HashSet<([u8; 32], String, String)>,
    order: VecDeque<([u8; 32], String, String)>,
}

/// The pending runs of one toolkit.
pub(crate) struct RunBook {
    keys: HashMap<String, Arc<SealKey>>,
    pub(crate) active: Option<Arc<SealKey>>,
    memory: Mutex<Memory>,
}

fn refuse(reason: ResumeReason, message: impl Into<String>) -> ResumeError {
    ResumeError::new(reason, message)
}

/// `text` quoted as Python's `repr` quotes a plain string, for messages.
pub(crate) fn quoted(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

impl RunBook {
    pub(crate) fn new(
        keys: HashMap<String, Arc<SealKey>>,
        active: Option<Arc<SealKey>>,
    ) -> RunBook {
        RunBook {
            keys,
            active,
            memory: Mutex::new(Memory::default()),
        }
    }

    // -- a turn, from its calls to its run ---------------------------------------------

    /// A new turn of `calls` (distinct ids), to be sealed with `expires_in_ms` and `principal`.
    pub(crate) fn begin(
        &self,
        calls: &[ToolCall],
        turn_id: Option<&str>,
        expires_in_ms: Option<u128>,
        principal: Option<&str>,
        now_ms: i128,
    ) -> Result<Turn, String> {
        let tid = match turn_id {
            None => random_hex(8),
            Some("") => return Err("turn_id must be a non-empty string or None".to_owned()),
            Some(tid) => tid.to_owned(),
        };
        let ids: Vec<String> = calls.iter().map(|c| c.id.clone()).collect();
        let distinct: HashSet<&String> = ids.iter().collect();
        if distinct.len() != ids.len() {
            let shown: Vec<String> = ids.iter().map(|id| quoted(id)).collect();
            return Err(format!(
                "the calls of one turn need distinct ids, got [{}]",
                shown.join(", ")
            ));
        }
        if let Some(ms) = expires_in_ms {
            if ms == 0 || ms > MAX_EXPIRES_IN_MS {
                return Err("expires_in must be a positive time, at most 100 years".to_owned());
            }
        }
        if (expires_in_ms.is_some() || principal.is_some()) && self.active.is_none() {
            return Err(
                "expires_in and principal are written into the seal, so they need a \
                        toolkit with a key"
                    .to_owned(),
            );
        }
        let mut turn = Turn::new(ids, tid, self.active.clone()).map_err(|e| e.to_string())?;
        turn.expires = expires_in_ms.map(|ms| now_ms + ms as i128);
        if let Some(key) = &self.active {
            turn.principal_tag = key.principal_tag(principal);
        }
        Ok(turn)
    }

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

    // -- a run, from its answers to its next run -----------------------------------------

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
            if let Some(head) = run.calls.first() {
                let digest = turn_digest(&run.order, &run.turn);
                if self.taken(&(digest, head.id.clone(), first.id.clone())) {
                    return Err(refuse(
                        ResumeReason::Replayed,
                        format!("request {} was already answered", quoted(&first.id)),
                    ));
                }
            }
            return Err(refuse(
                ResumeReason::NotPending,
                format!(
                    "the run waits on no request, so answer {} has no use",
                    quoted(&first.id)
                ),
            ));
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
            // A run stored before `requests` existed: only its pending request is known.
            let (turn, ..) = self.verify_unlisted(run, principal)?;
            if run.calls.len() > 1 || !expired(&pending, now_us) {
                return Ok(None); // (its other calls would run again)
            }
            let head = run.calls[0].clone();
            self.remember((turn.digest, head.id.clone(), pending.id.clone()));
            return Ok(Some(Opening {
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
            }));
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
        let picks: Vec<Pick> = run
            .calls
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
            .collect();
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
        for item in new_items {
            // After the results at or before its place: as Python's bisect.insort.
            let place = turn.position(&item.id);
            let at = results.partition_point(|r| turn.position(&r.id) <= place);
            results.insert(at, item);
        }
        let mut calls = Vec::new();
        let mut requests = Vec::new();
        for (index, (call, request)) in run.calls.into_iter().zip(run.requests).enumerate() {
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

    // -- the parts -------------------------------------------------------------------------

    fn taken(&self, key: &([u8; 32], String, String)) -> bool {
        self.memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .taken
            .contains(key)
    }

    fn remember(&self, key: ([u8; 32], String, String)) {
        let mut memory = self.memory.lock().unwrap_or_else(PoisonError::into_inner);
        if memory.taken.insert(key.clone()) {
            memory.order.push_back(key);
        }
        while memory.order.len() > ANSWERED_MEMORY {
            if let Some(old) = memory.order.pop_front() {
                memory.taken.remove(&old);
            }
        }
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

    /// The check of a run stored before `requests` existed: it was never sealed in version
    /// 4 (versions 3 and 4 always list the requests), so only a toolkit without keys takes it.
    fn verify_unlisted(
        &self,
        run: &RunResult,
        _principal: Option<&str>,
    ) -> Result<(Turn, Sum, Sum), ResumeError> {
        let turn = Turn::new(run.order.clone(), run.turn.clone(), None)
            .map_err(|e| refuse(ResumeReason::Seal, e.to_string()))?;
        match (&self.active, &run.seal) {
            (None, None) => Ok((turn, ZERO, ZERO)),
            (None, Some(_)) => Err(refuse(
                ResumeReason::Seal,
                "the run is sealed, but this toolkit has no secret to check it",
            )),
            (Some(_), None) => Err(refuse(
                ResumeReason::Seal,
                "the run has no seal; this toolkit only resumes runs it sealed",
            )),
            (Some(_), Some(given))
                if given.starts_with("v3.") || given.starts_with(seal::PREFIX) =>
            {
                Err(refuse(
                    ResumeReason::Seal,
                    "the run's seal does not match: it was altered or not sealed here",
                ))
            }
            (Some(_), Some(_)) => Err(refuse(
                ResumeReason::Seal,
                "the run's seal is of version 1 or 2, which only the Python package checks: \
                 resume it there",
            )),
        }
    }

    /// Checks `run` in full (its seal, when the toolkit has keys) and returns its turn and
    /// the sums its seal holds, under the active key. Without `stamp`, the sealed expiry
    /// and principal are not checked (the run is settled, not resumed: no tool runs).
    fn verify(
        &self,
        run: &RunResult,
        principal: Option<&str>,
        now_ms: i128,
        stamp: bool,
    ) -> Result<(Turn, Sum, Sum), ResumeError> {
        let not_json = |e: NotJson| {
            refuse(
                ResumeReason::Seal,
                format!(
                    "the run holds a value that cannot be sealed exactly ({e}); it was not \
                     sealed as it is now"
                ),
            )
        };
        let mut turn = Turn::new(run.order.clone(), run.turn.clone(), self.active.clone())
            .map_err(not_json)?;
        let Some(active) = self.active.clone() else {
            if run.seal.is_some() {
                return Err(refuse(
                    ResumeReason::Seal,
                    "the run is sealed, but this toolkit has no secret to check it",
                ));
            }
            for (call, request) in run.calls.iter().zip(&run.requests) {
                turn.wait(call, request, None).map_err(not_json)?;
            }
            return Ok((turn, ZERO, ZERO));
        };
        let Some(given) = &run.seal else {
            return Err(refuse(
                ResumeReason::Seal,
                "the run has no seal; this toolkit only resumes runs it sealed",
            ));
        };
        let checked = self.check_seal(run, given, &turn).map_err(|e| match e {
            Checking::Refused(e) => e,
            Checking::NotJson(e) => not_json(e),
        })?;
        let places: Vec<usize> = run.results.iter().map(|r| turn.position(&r.id)).collect();
        let waits: Vec<usize> = run.calls.iter().map(|c| turn.position(&c.id)).collect();
        if places.windows(2).any(|w| w[0] > w[1]) || waits.windows(2).any(|w| w[0] >= w[1]) {
            return Err(refuse(
                ResumeReason::Seal,
                "the run's results or calls are out of call order: it was altered",
            ));
        }
        if waits.last().is_some_and(|&w| w >= turn.positions.len()) {
            return Err(refuse(
                ResumeReason::Seal,
                "a waiting call is not in the run's order: it was altered",
            ));
        }
        if stamp {
            check_stamp(
                &checked.key,
                checked.expires,
                &checked.principal_tag,
                principal,
                now_ms,
            )?;
        }
        // From here on the run is sealed under the active key: rotation moves it forward.
        let same_key = Arc::ptr_eq(&checked.key, &active);
        turn.expires = checked.expires;
        turn.principal_tag = if checked.principal_tag.is_empty() {
            String::new()
        } else if same_key && principal.is_none() {
            checked.principal_tag.clone() // settled unasked: the binding stays as it is
        } else {
            check_stamp(
                &checked.key,
                None,
                &checked.principal_tag,
                principal,
                now_ms,
            )?;
            active.principal_tag(principal)
        };
        if same_key {
            for (i, (call, request)) in run.calls.iter().zip(&run.requests).enumerate() {
                let known = (
                    checked.calls[i],
                    checked.requests[i],
                    Some(checked.terms[i]),
                );
                turn.wait(call, request, Some(known)).map_err(not_json)?;
            }
            return Ok((turn, checked.results_total, checked.waiting_total));
        }
        let mut results_total = ZERO;
        for (item, digest) in run.results.iter().zip(&checked.results) {
            results_total = seal::add(
                &results_total,
                &active.term(turn.position(&item.id), digest),
            );
        }
        let mut waiting_total = ZERO;
        for (i, (call, request)) in run.calls.iter().zip(&run.requests).enumerate() {
            turn.wait(
                call,
                request,
                Some((checked.calls[i], checked.requests[i], None)),
            )
            .map_err(not_json)?;
            waiting_total = seal::add(&waiting_total, &turn.term_of(call, request).0);
        }
        Ok((turn, results_total, waiting_total))
    }

    /// What `run`'s seal `given` holds, once it holds.
    fn check_seal(&self, run: &RunResult, given: &str, turn: &Turn) -> Result<Checked, Checking> {
        let Some(stamp) = seal::parse_stamp(given) else {
            if given.starts_with("v3.hmac-sha256.") || given.starts_with(seal::PREFIX) {
                return Err(Checking::Refused(refuse(
                    ResumeReason::Seal,
                    "the run's seal is malformed: it was altered or not sealed here",
                )));
            }
            return Err(Checking::Refused(refuse(
                ResumeReason::Seal,
                "the run's seal is not of version 4: it was altered, or sealed by an earlier \
                 version of the Python package (resume it there)",
            )));
        };
        if stamp.version != 4 {
            return Err(Checking::Refused(refuse(
                ResumeReason::Seal,
                "the run's seal is of version 3, which only the Python package checks: \
                 resume it there",
            )));
        }
        let Some(key) = self.keys.get(&stamp.key_id).cloned() else {
            return Err(Checking::Refused(refuse(
                ResumeReason::Seal,
                format!(
                    "the run is sealed under key {}, which this toolkit does not have",
                    quoted(&stamp.key_id)
                ),
            )));
        };
        seal::read_exactly(run).map_err(Checking::NotJson)?;
        let digests = |items: &[ToolCallResult]| -> Result<Vec<[u8; 32]>, NotJson> {
            items.iter().map(seal::digest).collect()
        };
        let results = digests(&run.results).map_err(Checking::NotJson)?;
        let calls: Vec<[u8; 32]> = run
            .calls
            .iter()
            .map(seal::digest)
            .collect::<Result<_, _>>()
            .map_err(Checking::NotJson)?;
        let requests: Vec<[u8; 32]> = run
            .requests
            .iter()
            .map(seal::digest)
            .collect::<Result<_, _>>()
            .map_err(Checking::NotJson)?;
        let mut results_total = ZERO;
        for (item, d) in run.results.iter().zip(&results) {
            results_total = seal::add(&results_total, &key.term(turn.position(&item.id), d));
        }
        let terms: Vec<Sum> = run
            .calls
            .iter()
            .zip(calls.iter().zip(&requests))
            .map(|(call, (c, r))| key.waiting_term(turn.position(&call.id), c, r))
            .collect();
        let waiting_total = terms.iter().fold(ZERO, |total, t| seal::add(&total, t));
        let pending = match &run.pending {
            Some(p) => seal::digest(p).map_err(Checking::NotJson)?,
            None => ZERO,
        };
        let order = seal::order_digest(&run.turn, &run.order).map_err(Checking::NotJson)?;
        let expected = key.seal(&SealParts {
            expires: stamp.expires,
            principal_tag: &stamp.principal_tag,
            pending: &pending,
            order: &order,
            n_results: results.len(),
            results: &results_total,
            n_waiting: calls.len(),
            waiting: &waiting_total,
        });
        if !seal::same(given, &expected) {
            return Err(Checking::Refused(refuse(
                ResumeReason::Seal,
                "the run's seal does not match: it was altered or not sealed here",
            )));
        }
        Ok(Checked {
            key,
            expires: stamp.expires,
            principal_tag: stamp.principal_tag,
            results,
            calls,
            requests,
            results_total,
            waiting_total,
            terms,
        })
    }
}

enum Checking {
    Refused(ResumeError),
    NotJson(NotJson),
}

/// What a seal that holds gives: the key it was made with, its expiry and principal tag,
/// the digests of the run's elements, its sums and each waiting call's term.
struct Checked {
    key: Arc<SealKey>,
    expires: Option<i128>,
    principal_tag: String,
    results: Vec<[u8; 32]>,
    calls: Vec<[u8; 32]>,
    requests: Vec<[u8; 32]>,
    results_total: Sum,
    waiting_total: Sum,
    terms: Vec<Sum>,
}

/// `expired` past the sealed expiry; `principal` when the run is bound to a principal
/// (`tag`, under `key`) and `principal` is not it.
fn check_stamp(
    key: &SealKey,
    expires: Option<i128>,
    tag: &str,
    principal: Option<&str>,
    now_ms: i128,
) -> Result<(), ResumeError> {
    if expires.is_some_and(|e| now_ms >= e) {
        return Err(refuse(
            ResumeReason::Expired,
            "the run has expired: its seal's time to resume has passed",
        ));
    }
    if !tag.is_empty() && (principal.is_none() || !seal::same(&key.principal_tag(principal), tag)) {
        let who = if principal.is_none() {
            "no principal was given"
        } else {
            "the principal given is not it"
        };
        return Err(refuse(
            ResumeReason::Principal,
            format!("the run is bound to a principal, and {who}"),
        ));
    }
    Ok(())
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
    Ok(picks)
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

/// Why `item`, as a document, nests past `levels` (its place in a run leaves it that many),
/// or `None`.
pub(crate) fn nested_past<T: Wire>(item: &T, levels: usize) -> Option<String> {
    let Ok(wire) = item.try_to_wire() else {
        return Some(format!("nested more than {MAX_DEPTH} levels"));
    };
    let mut stack = vec![(&wire, 1usize)];
    while let Some((value, level)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if level > levels {
            return Some(format!("nested more than {MAX_DEPTH} levels"));
        }
        stack.extend(children.map(|v| (v, level + 1)));
    }
    None
}
