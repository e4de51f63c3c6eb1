// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The seal of a pending run, version 4 (`docs/seal.md`, pinned by `idl/seal/vectors.json`):
//!
//! ```text
//! v4.hmac-sha256.<key id>.<expiry>.<principal tag>.<mac>
//! ```
//!
//! Each element of the run (a result, a waiting call, a request) is digested as SHA-256 of
//! its RFC 8785 canonical JSON ([`canonical`]); the results, and the waiting calls, are
//! summed modulo 2^256 as keyed terms (HMAC-SHA256 under subkeys of the key, with their
//! position in the turn), so answering any one waiting call is one term less; the MAC is
//! HMAC-SHA256 of a fixed layout of those sums, the digests of the pending request and of
//! the turn's order, and the clear parts. Every package of the contract writes the same
//! bytes, so a run sealed in one language resumes in any other.
//!
//! RFC 8785 writes every number as the double it denotes, so an integer beyond ±(2^53 − 1),
//! which no double holds exactly, has no canonical form here: such an element cannot be
//! sealed ([`NotJson`]), whatever the features the crate is built with (with `lossless`
//! the integer's digits are kept, without it an integer beyond 64 bits has already become
//! a double when read). Only version 4 is checked here; versions 1 to 3, which only the
//! Python package wrote, resume there.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::{RunResult, Wire};

/// What every version-4 seal starts with.
pub const PREFIX: &str = "v4.hmac-sha256.";
const DOMAIN: &[u8] = b"toolnexus.RunResult.seal.v4\n";
/// The fewest bytes a key may have.
pub const MIN_SECRET_BYTES: usize = 16;
/// The largest integer a double holds exactly, and so the largest RFC 8785 writes exactly.
const SAFE: i128 = (1 << 53) - 1;

/// A value that has no canonical JSON form under RFC 8785: an integer beyond ±(2^53 − 1)
/// (JSON numbers are doubles there), or a value nested past the wire's limit. Such a
/// value cannot be sealed, so a toolkit settles the call, or replaces the result, with an
/// error result saying so instead of losing the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson(String);

impl fmt::Display for NotJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotJson {}

const BEYOND_2_53: &str =
    "an integer beyond ±2**53 has no exact form in RFC 8785 (JSON numbers are doubles there)";

/// The RFC 8785 canonical JSON of `value` (keys sorted by their UTF-16 code units, no
/// whitespace, strings escaped as RFC 8785 says, numbers as ECMAScript writes the double
/// they denote), written by `serde_jcs`; [`NotJson`] for an integer beyond ±(2^53 − 1).
///
/// Numbers are read from their text, so the result is the same with and without the
/// crate's feature `lossless` (serde_json's `arbitrary_precision`).
pub fn canonical(value: &Value) -> Result<Vec<u8>, NotJson> {
    serde_jcs::to_vec(&Doubles(value)).map_err(|e| NotJson(e.to_string()))
}

/// The double a JSON number denotes, read from its text; an error for an integer beyond
/// ±(2^53 − 1) (a double would round it).
fn double(number: &serde_json::Number) -> Result<f64, &'static str> {
    let text = number.to_string();
    if text.contains(['.', 'e', 'E']) {
        // serde_json writes every f64 with a fraction or an exponent, and so does JSON.
        return text
            .parse::<f64>()
            .ok()
            .filter(|d| d.is_finite())
            .ok_or("a number beyond the range of a double");
    }
    match text.parse::<i128>() {
        Ok(n) if (-SAFE..=SAFE).contains(&n) => Ok(n as f64),
        _ => Err(BEYOND_2_53),
    }
}

/// `Value` serialized with every number as the double it denotes (so that `serde_jcs`
/// writes it as ECMAScript does), whatever serde_json's features.
struct Doubles<'a>(&'a Value);

impl Serialize for Doubles<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => serializer.serialize_f64(double(n).map_err(S::Error::custom)?),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Doubles(item))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (key, item) in map {
                    out.serialize_entry(key, &Doubles(item))?;
                }
                out.end()
            }
        }
    }
}

/// [`NotJson`] when `run` was read from text that held an integer beyond 64 bits in an
/// element the seal covers (its results, waiting calls, requests or pending request): read
/// without the feature `lossless`, such an integer is already a double, which would seal
/// as the float it rounds to, where every language of the contract refuses it.
pub(crate) fn read_exactly(run: &RunResult) -> Result<(), NotJson> {
    let sealed = ["results", "calls", "requests", "pending"];
    if sealed.iter().any(|key| run.wide_integers.under(key)) {
        return Err(NotJson(BEYOND_2_53.to_owned()));
    }
    Ok(())
}

/// SHA-256 of the canonical JSON of a wire element's wire form.
pub(crate) fn digest<T: Wire>(element: &T) -> Result<[u8; 32], NotJson> {
    let wire = element.try_to_wire().map_err(|e| NotJson(e.to_string()))?;
    Ok(sha256(&canonical(&wire)?))
}

pub(crate) fn sha256(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

fn hmac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes a key of any size");
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// A sum of seal terms: a 256-bit unsigned integer, big-endian.
pub(crate) type Sum = [u8; 32];

/// `a + b` modulo 2^256.
pub(crate) fn add(a: &Sum, b: &Sum) -> Sum {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let total = u16::from(a[i]) + u16::from(b[i]) + carry;
        out[i] = total.to_le_bytes()[0];
        carry = total >> 8;
    }
    out
}

/// `a - b` modulo 2^256.
pub(crate) fn sub(a: &Sum, b: &Sum) -> Sum {
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let mut total = i16::from(a[i]) - i16::from(b[i]) - borrow;
        borrow = 0;
        if total < 0 {
            total += 256;
            borrow = 1;
        }
        out[i] = total.to_le_bytes()[0];
    }
    out
}

/// A toolkit key: its id, the secret, and the subkeys of the terms and the principal tag.
#[derive(Clone)]
pub struct SealKey {
    key_id: String,
    secret: Vec<u8>,
    results_key: [u8; 32],
    waiting_key: [u8; 32],
    principal_key: [u8; 32],
}

impl fmt::Debug for SealKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealKey")
            .field("key_id", &self.key_id)
            .finish_non_exhaustive()
    }
}

/// Whether `key_id` may name a key: 1 to 64 of `[A-Za-z0-9_-]` (it is written into the seal
/// between dots).
pub(crate) fn valid_key_id(key_id: &str) -> bool {
    (1..=64).contains(&key_id.len())
        && key_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl SealKey {
    /// The key `secret` (at least [`MIN_SECRET_BYTES`] bytes) under the id `key_id`
    /// (`[A-Za-z0-9_-]{1,64}`); `None` when either is not so.
    pub fn new(key_id: &str, secret: &[u8]) -> Option<SealKey> {
        if !valid_key_id(key_id) || secret.len() < MIN_SECRET_BYTES {
            return None;
        }
        Some(SealKey {
            key_id: key_id.to_owned(),
            secret: secret.to_vec(),
            results_key: hmac(secret, &[b"toolnexus.RunResult.seal.v4.results"]),
            waiting_key: hmac(secret, &[b"toolnexus.RunResult.seal.v4.waiting"]),
            principal_key: hmac(secret, &[b"toolnexus.RunResult.seal.v4.principal"]),
        })
    }

    /// The key's id.
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    /// The term of a finished result at `position` in the turn, with digest `element`.
    pub(crate) fn term(&self, position: usize, element: &[u8; 32]) -> Sum {
        hmac(&self.results_key, &[&u64_bytes(position), element])
    }

    /// The term of a waiting call at `position`, digest `call`, asked `request` (digest).
    pub(crate) fn waiting_term(&self, position: usize, call: &[u8; 32], request: &[u8; 32]) -> Sum {
        hmac(&self.waiting_key, &[&u64_bytes(position), call, request])
    }

    /// The principal tag written into a seal: empty for none.
    pub(crate) fn principal_tag(&self, principal: Option<&str>) -> String {
        match principal {
            None => String::new(),
            Some(p) => URL_SAFE_NO_PAD.encode(&hmac(&self.principal_key, &[p.as_bytes()])[..18]),
        }
    }

    /// The seal of a run of these parts (see `docs/seal.md`, "The MAC").
    pub(crate) fn seal(&self, parts: &SealParts<'_>) -> String {
        let expires = parts.expires.map(|e| e.to_string()).unwrap_or_default();
        let clear = format!("{}.{expires}.{}", self.key_id, parts.principal_tag);
        let mac = hmac(
            &self.secret,
            &[
                DOMAIN,
                clear.as_bytes(),
                b"\npending\n",
                parts.pending,
                parts.order,
                &u64_bytes(parts.n_results),
                parts.results,
                &u64_bytes(parts.n_waiting),
                parts.waiting,
            ],
        );
        format!("{PREFIX}{clear}.{}", URL_SAFE_NO_PAD.encode(mac))
    }
}

/// What the MAC of a seal covers besides the key.
pub(crate) struct SealParts<'a> {
    pub(crate) expires: Option<i128>,
    pub(crate) principal_tag: &'a str,
    pub(crate) pending: &'a [u8; 32],
    pub(crate) order: &'a [u8; 32],
    pub(crate) n_results: usize,
    pub(crate) results: &'a Sum,
    pub(crate) n_waiting: usize,
    pub(crate) waiting: &'a Sum,
}

fn u64_bytes(n: usize) -> [u8; 8] {
    u64::try_from(n).unwrap_or(u64::MAX).to_be_bytes()
}

/// The digest of a turn's `order` (with its `turn` id when it has one).
pub(crate) fn order_digest(turn: &str, order: &[String]) -> Result<[u8; 32], NotJson> {
    let ids = Value::from(order.to_vec());
    let value = if turn.is_empty() {
        ids
    } else {
        Value::Array(vec![Value::from(turn), ids])
    };
    Ok(sha256(&canonical(&value)?))
}

/// What a version-4 seal says in the clear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(crate) version: u8,
    pub(crate) key_id: String,
    pub(crate) expires: Option<i128>,
    pub(crate) principal_tag: String,
}

/// The clear parts of a seal of version 3 or 4, or `None` when `seal` is neither
/// (`v<3|4>.hmac-sha256.<id>.<0-20 digits>.<0-43 base64url>.<43 base64url>`).
pub(crate) fn parse_stamp(seal: &str) -> Option<Stamp> {
    let version = match seal.get(..15)? {
        "v3.hmac-sha256." => 3,
        "v4.hmac-sha256." => 4,
        _ => return None,
    };
    let parts: Vec<&str> = seal[15..].split('.').collect();
    let [key_id, expires, tag, mac] = parts[..] else {
        return None;
    };
    let b64 = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    };
    if !valid_key_id(key_id)
        || expires.len() > 20
        || !expires.bytes().all(|b| b.is_ascii_digit())
        || tag.len() > 43
        || !b64(tag)
        || mac.len() != 43
        || !b64(mac)
    {
        return None;
    }
    Some(Stamp {
        version,
        key_id: key_id.to_owned(),
        expires: if expires.is_empty() {
            None
        } else {
            expires.parse().ok()
        },
        principal_tag: tag.to_owned(),
    })
}

/// A comparison of two seals whose time does not depend on where they differ.
pub(crate) fn same(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The seal `key` gives the pending run `run` (its `seal` ignored), bound to `expires`
/// (milliseconds since the epoch) and `principal`: the whole of `docs/seal.md` in one call,
/// for hosts and tests that seal or check runs themselves. [`NotJson`] when an element has
/// no canonical form; `None` inside when the run is not pending (no `pending` request, or
/// `requests` not one per waiting call).
pub fn seal_run(
    key: &SealKey,
    run: &RunResult,
    expires: Option<i128>,
    principal: Option<&str>,
) -> Result<Option<String>, NotJson> {
    let Some(pending) = &run.pending else {
        return Ok(None);
    };
    if run.requests.len() != run.calls.len() {
        return Ok(None);
    }
    read_exactly(run)?;
    let position = |id: &str| {
        run.order
            .iter()
            .position(|o| o == id)
            .unwrap_or(run.order.len())
    };
    let mut results = [0u8; 32];
    for item in &run.results {
        results = add(&results, &key.term(position(&item.id), &digest(item)?));
    }
    let mut waiting = [0u8; 32];
    for (call, request) in run.calls.iter().zip(&run.requests) {
        let term = key.waiting_term(position(&call.id), &digest(call)?, &digest(request)?);
        waiting = add(&waiting, &term);
    }
    let tag = key.principal_tag(principal);
    Ok(Some(key.seal(&SealParts {
        expires,
        principal_tag: &tag,
        pending: &digest(pending)?,
        order: &order_digest(&run.turn, &run.order)?,
        n_results: run.results.len(),
        results: &results,
        n_waiting: run.calls.len(),
        waiting: &waiting,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jcs(text: &str) -> String {
        let value: Value = serde_json::from_str(text).unwrap();
        String::from_utf8(canonical(&value).unwrap()).unwrap()
    }

    #[test]
    fn sums_wrap_around_2_to_the_256() {
        let max = [0xff; 32];
        let mut one = [0; 32];
        one[31] = 1;
        assert_eq!(add(&max, &one), [0; 32]);
        assert_eq!(sub(&[0; 32], &one), max);
        let mut two_five_six = [0; 32];
        two_five_six[30] = 1;
        let mut two_five_five = [0; 32];
        two_five_five[31] = 0xff;
        assert_eq!(add(&two_five_five, &one), two_five_six);
        assert_eq!(sub(&two_five_six, &one), two_five_five);
        let a = sha256(b"a");
        let b = sha256(b"b");
        assert_eq!(sub(&add(&a, &b), &b), a);
    }

    #[test]
    fn a_run_read_from_text_knows_where_an_integer_beyond_64_bits_stood() {
        // `1e21` as a float, and an integer that rounds to the same double: only the text
        // tells them apart when numbers are read as doubles.
        let run = |number: &str| {
            let text = format!(
                r#"{{"status":"done","results":[{{"id":"c1","name":"t","result":{{"output":"x","metadata":{{"n":{number},"s":"123456789012345678901234"}}}}}}],"\u0074urn":"7"}}"#
            );
            RunResult::from_json(&text).unwrap()
        };
        assert!(read_exactly(&run("1e21")).is_ok());
        assert!(read_exactly(&run("18446744073709551615")).is_ok()); // u64::MAX
        assert!(read_exactly(&run("-9223372036854775808")).is_ok()); // i64::MIN
        let wide = read_exactly(&run("1000000000000000000001"));
        if cfg!(feature = "lossless") {
            // The digits are kept: the digest itself refuses the integer.
            assert!(wide.is_ok());
        } else {
            assert!(wide.unwrap_err().to_string().contains("beyond ±2**53"));
        }
        // Only the keys the seal covers count, and a digit inside a string is no number.
        let text = r#"{"status":"done","results":[],"x-note":1000000000000000000001}"#;
        assert!(read_exactly(&RunResult::from_json(text).unwrap()).is_ok());
    }

    #[test]
    fn numbers_are_the_doubles_they_denote() {
        assert_eq!(
            jcs("[1.0, 100, 1e2, -0.0, 0.1, 1e21, 1e-7]"),
            "[1,100,100,0,0.1,1e+21,1e-7]"
        );
        assert_eq!(
            jcs("[9007199254740991, -9007199254740991]"),
            "[9007199254740991,-9007199254740991]"
        );
        for big in [
            "9007199254740992",
            "-9007199254740992",
            "18446744073709551615",
            "-9223372036854775808",
        ] {
            let value: Value = serde_json::from_str(big).unwrap();
            let err = canonical(&value).unwrap_err();
            assert!(err.to_string().contains("beyond ±2**53"), "{big}: {err}");
        }
    }

    #[test]
    fn a_seal_parses_only_in_its_form() {
        let mac = "A".repeat(43);
        let stamp = parse_stamp(&format!("v4.hmac-sha256.k1.1893456000000.tag.{mac}")).unwrap();
        assert_eq!(
            stamp,
            Stamp {
                version: 4,
                key_id: "k1".into(),
                expires: Some(1_893_456_000_000),
                principal_tag: "tag".into()
            }
        );
        assert_eq!(
            parse_stamp(&format!("v3.hmac-sha256.k1...{mac}"))
                .unwrap()
                .version,
            3
        );
        for bad in [
            format!("v2.hmac-sha256.k1...{mac}"),
            format!("v4.hmac-sha256.k1..{mac}"),
            format!("v4.hmac-sha256.k.1...{mac}"),
            format!("v4.hmac-sha256.k1.1e3..{mac}"),
            format!("v4.hmac-sha256.k1...{mac}A"),
            format!("v4.hmac-sha256.k1..a+b.{mac}"),
            format!("v4.hmac-sha256.k1.{}..{mac}", "1".repeat(21)),
        ] {
            assert_eq!(parse_stamp(&bad), None, "{bad}");
        }
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
    }

    #[test]
    fn keys_need_sixteen_bytes_and_a_plain_id() {
        assert!(SealKey::new("k1", &[7; 16]).is_some());
        assert!(SealKey::new("k1", &[7; 15]).is_none());
        assert!(SealKey::new("", &[7; 16]).is_none());
        assert!(SealKey::new("a.b", &[7; 16]).is_none());
        assert!(SealKey::new(&"k".repeat(65), &[7; 16]).is_none());
    }
}
