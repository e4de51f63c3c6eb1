// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The pending-run book: what a toolkit keeps of its turns, and the check of a run that
//! comes back. A port of the Python package's `toolnexus/_book/`, with
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

use super::errors::{ResumeError, ResumeReason};
use super::seal::{self, NotJson, SealKey, Sum};
use super::time::random_hex;
use crate::{Answer, MAX_DEPTH, Request, RunResult, ToolCall, Wire};

#[path = "book/answer.rs"]
mod answer;
#[path = "book/settle.rs"]
mod settle;
#[path = "book/verify.rs"]
mod verify;

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
