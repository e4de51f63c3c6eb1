// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The check of a run that comes back: its seal, its order, its expiry and principal.

use std::sync::Arc;

use super::{RunBook, Turn, ZERO, quoted, refuse};
use crate::RunResult;
use crate::ToolCallResult;
use crate::runtime::errors::{ResumeError, ResumeReason};
use crate::runtime::seal::{self, NotJson, SealKey, SealParts, Stamp, Sum};

impl RunBook {
    /// The check of a run stored before `requests` existed: it was never sealed in version
    /// 4 (versions 3 and 4 always list the requests), so only a toolkit without keys takes it.
    pub(super) fn verify_unlisted(
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
    pub(super) fn verify(
        &self,
        run: &RunResult,
        principal: Option<&str>,
        now_ms: i128,
        stamp: bool,
    ) -> Result<(Turn, Sum, Sum), ResumeError> {
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
        in_call_order(run, &turn)?;
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
        turn.principal_tag = rebound(&checked, &active, same_key, principal, now_ms)?;
        sums_under(turn, run, &checked, &active, same_key).map_err(not_json)
    }

    /// What `run`'s seal `given` holds, once it holds.
    fn check_seal(&self, run: &RunResult, given: &str, turn: &Turn) -> Result<Checked, Checking> {
        let (stamp, key) = self.stamp_key(given).map_err(Checking::Refused)?;
        let (results, calls, requests) = element_digests(run).map_err(Checking::NotJson)?;
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

    /// The clear parts of the seal `given`, and the key it names, when it is a seal of
    /// version 4 under a key this toolkit has.
    fn stamp_key(&self, given: &str) -> Result<(Stamp, Arc<SealKey>), ResumeError> {
        let Some(stamp) = seal::parse_stamp(given) else {
            if given.starts_with("v3.hmac-sha256.") || given.starts_with(seal::PREFIX) {
                return Err(refuse(
                    ResumeReason::Seal,
                    "the run's seal is malformed: it was altered or not sealed here",
                ));
            }
            return Err(refuse(
                ResumeReason::Seal,
                "the run's seal is not of version 4: it was altered, or sealed by an earlier \
                 version of the Python package (resume it there)",
            ));
        };
        if stamp.version != 4 {
            return Err(refuse(
                ResumeReason::Seal,
                "the run's seal is of version 3, which only the Python package checks: \
                 resume it there",
            ));
        }
        let Some(key) = self.keys.get(&stamp.key_id).cloned() else {
            return Err(refuse(
                ResumeReason::Seal,
                format!(
                    "the run is sealed under key {}, which this toolkit does not have",
                    quoted(&stamp.key_id)
                ),
            ));
        };
        Ok((stamp, key))
    }
}

/// A run that holds a value the seal cannot take exactly: not sealed as it is now.
fn not_json(e: NotJson) -> ResumeError {
    refuse(
        ResumeReason::Seal,
        format!(
            "the run holds a value that cannot be sealed exactly ({e}); it was not \
             sealed as it is now"
        ),
    )
}

/// `Ok` when `run`'s results and waiting calls stand in call order, each waiting call in
/// the run's order.
fn in_call_order(run: &RunResult, turn: &Turn) -> Result<(), ResumeError> {
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
    Ok(())
}

/// The principal tag of a run whose seal held (`checked`), under the `active` key.
fn rebound(
    checked: &Checked,
    active: &SealKey,
    same_key: bool,
    principal: Option<&str>,
    now_ms: i128,
) -> Result<String, ResumeError> {
    Ok(if checked.principal_tag.is_empty() {
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
    })
}

/// `turn` with the run's waiting calls noted, and the sums of the run's seal under the
/// `active` key: those `checked` holds when it was made with that key (`same_key`).
fn sums_under(
    mut turn: Turn,
    run: &RunResult,
    checked: &Checked,
    active: &SealKey,
    same_key: bool,
) -> Result<(Turn, Sum, Sum), NotJson> {
    if same_key {
        for (i, (call, request)) in run.calls.iter().zip(&run.requests).enumerate() {
            let known = (
                checked.calls[i],
                checked.requests[i],
                Some(checked.terms[i]),
            );
            turn.wait(call, request, Some(known))?;
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
        )?;
        waiting_total = seal::add(&waiting_total, &turn.term_of(call, request).0);
    }
    Ok((turn, results_total, waiting_total))
}

/// SHA-256 digests, one an element.
type Digests = Vec<[u8; 32]>;

/// The digests of `run`'s results, waiting calls and requests, once the run reads exactly.
fn element_digests(run: &RunResult) -> Result<(Digests, Digests, Digests), NotJson> {
    seal::read_exactly(run)?;
    let digests = |items: &[ToolCallResult]| -> Result<Vec<[u8; 32]>, NotJson> {
        items.iter().map(seal::digest).collect()
    };
    let results = digests(&run.results)?;
    let calls: Vec<[u8; 32]> = run
        .calls
        .iter()
        .map(seal::digest)
        .collect::<Result<_, _>>()?;
    let requests: Vec<[u8; 32]> = run
        .requests
        .iter()
        .map(seal::digest)
        .collect::<Result<_, _>>()?;
    Ok((results, calls, requests))
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
