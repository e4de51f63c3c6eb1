// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! [`Limit`]: how much of a call's output the model reads, in code points, tokens and bytes;
//! the marker a cut output holds, and the smallest limit that leaves room for it. The cut
//! itself is the engine's ([`engine::fit`](crate::engine::fit)); the rule and its vectors are
//! in `idl/loop/README.md`, "Result limits".

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::errors::ToolkitError;
use crate::loop_data as texts;

/// A host's token counter: the tokens a text takes. Without one, tokens are the estimate
/// [`estimate_tokens`].
pub type Tokenizer = Arc<dyn Fn(&str) -> usize + Send + Sync>;

/// The prefix of a kept result's reference; the rest is 16 hex digits of the call's
/// idempotency key.
pub const REF_PREFIX: &str = "result-";

/// The units of a limit, in the order they are checked and written.
const UNITS: [&str; 3] = ["chars", "tokens", "bytes"];

/// The documented token estimate: the UTF-8 bytes of `text` over four, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(4)
}

/// The marker put where `cut` code points were cut, on a line of its own (naming
/// `reference`, the name the whole output is kept under, when there is one).
pub fn marker(cut: usize, reference: Option<&str>) -> String {
    let count = cut.to_string();
    let text = match reference {
        Some(reference) => texts::cut_kept(&count, reference),
        None => texts::cut(&count),
    };
    ["\n", &text, "\n"].concat()
}

/// The most a marker may take in each unit (`chars`, `tokens`, `bytes`): written with a
/// 20-digit count and a reference. A limit below it is refused.
pub fn cut_floor() -> [usize; 3] {
    let count = texts::cut_kept("99999999999999999999", &format!("{REF_PREFIX}{:016}", 0));
    let widest = ["\n", &count, "\n"].concat();
    [
        widest.chars().count(),
        widest.len().div_ceil(4),
        widest.len(),
    ]
}

/// How much of a call's output the model reads: at most `chars` code points, `tokens`
/// tokens and `bytes` UTF-8 bytes (each optional; at least one). A tool's
/// ([`Tool::with_limit`](crate::Tool::with_limit)) and a toolkit's
/// ([`ToolkitBuilder::limit`](crate::ToolkitBuilder::limit)) combine unit by unit, the
/// tighter winning. Checked when made: see [`Limit::new`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limit {
    chars: Option<usize>,
    tokens: Option<usize>,
    bytes: Option<usize>,
}

impl fmt::Debug for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Limit({})", Value::Object(self.to_json()))
    }
}

impl Limit {
    /// A limit of `chars` code points, `tokens` tokens and `bytes` UTF-8 bytes (`None`: the
    /// unit is not bounded). [`ToolkitError`] with the reason for a limit that sets no unit,
    /// a unit not above zero, or one below the cut marker's own size ([`cut_floor`]: 98
    /// chars, 26 tokens, 102 bytes), checked in the order chars, tokens, bytes.
    pub fn new(
        chars: Option<i64>,
        tokens: Option<i64>,
        bytes: Option<i64>,
    ) -> Result<Limit, ToolkitError> {
        let given = [chars, tokens, bytes].map(|v| v.map(Value::from));
        Limit::checked(&given)
    }

    /// A limit from its JSON form, `{"chars"?, "tokens"?, "bytes"?}` (as the loop vectors
    /// write it): a value that is not a whole number is refused as [`Limit::new`] refuses
    /// zero, written as JSON writes it (`250.5`).
    pub fn from_json(value: &Value) -> Result<Limit, ToolkitError> {
        let Value::Object(units) = value else {
            return Err(ToolkitError(format!(
                "a result limit is an object of chars, tokens and bytes, got {value}"
            )));
        };
        let unknown: Vec<&String> = units
            .keys()
            .filter(|k| !UNITS.contains(&k.as_str()))
            .collect();
        if !unknown.is_empty() {
            return Err(ToolkitError(format!(
                "a result limit counts chars, tokens and bytes, not {unknown:?}"
            )));
        }
        Limit::checked(&UNITS.map(|unit| units.get(unit).cloned()))
    }

    fn checked(given: &[Option<Value>; 3]) -> Result<Limit, ToolkitError> {
        if given.iter().all(Option::is_none) {
            return Err(ToolkitError(texts::limit_empty()));
        }
        let floor = cut_floor();
        let mut units = [None; 3];
        for (at, value) in given.iter().enumerate() {
            let Some(value) = value else { continue };
            let unit = UNITS[at];
            let whole = value
                .as_u64()
                .and_then(|v| usize::try_from(v).ok())
                .filter(|&v| v > 0);
            let Some(whole) = whole else {
                return Err(ToolkitError(texts::limit_not_positive(
                    &value.to_string(),
                    unit,
                )));
            };
            if whole < floor[at] {
                return Err(ToolkitError(texts::limit_below_marker(
                    &whole.to_string(),
                    unit,
                    &floor[at].to_string(),
                )));
            }
            units[at] = Some(whole);
        }
        let [chars, tokens, bytes] = units;
        Ok(Limit {
            chars,
            tokens,
            bytes,
        })
    }

    /// The most code points the model reads.
    pub fn chars(&self) -> Option<usize> {
        self.chars
    }

    /// The most tokens the model reads.
    pub fn tokens(&self) -> Option<usize> {
        self.tokens
    }

    /// The most UTF-8 bytes the model reads.
    pub fn bytes(&self) -> Option<usize> {
        self.bytes
    }

    /// How many UTF-8 bytes surely fit by every unit, under the token estimate (four bytes
    /// at most a code point, four a token).
    pub(crate) fn sure_bytes(&self) -> usize {
        let bounds = [self.chars, self.bytes, self.tokens.map(|t| t * 4)];
        bounds.into_iter().flatten().min().unwrap_or(usize::MAX)
    }

    /// The tighter of the two limits, unit by unit.
    pub fn tighter(&self, other: Option<&Limit>) -> Limit {
        let Some(other) = other else { return *self };
        let pick = |mine: Option<usize>, theirs: Option<usize>| match (mine, theirs) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limit {
            chars: pick(self.chars, other.chars),
            tokens: pick(self.tokens, other.tokens),
            bytes: pick(self.bytes, other.bytes),
        }
    }

    /// The limit as JSON: the units it sets, in the order chars, tokens, bytes.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut out = Map::new();
        for (unit, value) in UNITS.into_iter().zip([self.chars, self.tokens, self.bytes]) {
            if let Some(value) = value {
                out.insert(unit.to_owned(), Value::from(value));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_floor_is_the_widest_marker() {
        assert_eq!(cut_floor(), [98, 26, 102]);
    }

    #[test]
    fn bad_limits_are_refused_with_their_reason() {
        let refused = |value: Value| Limit::from_json(&value).unwrap_err().to_string();
        assert_eq!(
            refused(json!({})),
            "a result limit counts at least one of chars, tokens and bytes"
        );
        assert_eq!(
            refused(json!({"chars": 0})),
            "a result limit of 0 chars is refused: a limit is a whole number above zero"
        );
        assert_eq!(
            refused(json!({"tokens": -5})),
            "a result limit of -5 tokens is refused: a limit is a whole number above zero"
        );
        assert_eq!(
            refused(json!({"chars": 250.5})),
            "a result limit of 250.5 chars is refused: a limit is a whole number above zero"
        );
        assert_eq!(
            refused(json!({"bytes": 101})),
            "a result limit of 101 bytes is refused: the cut marker alone may take 102 bytes, \
             so a limit is at least 102"
        );
        // The units are checked in the order chars, tokens, bytes.
        assert_eq!(
            refused(json!({"bytes": 0, "chars": 97})),
            "a result limit of 97 chars is refused: the cut marker alone may take 98 chars, \
             so a limit is at least 98"
        );
        assert!(refused(json!({"lines": 3})).contains("not [\"lines\"]"));
        assert_eq!(
            Limit::new(None, Some(0), None).unwrap_err().to_string(),
            "a result limit of 0 tokens is refused: a limit is a whole number above zero"
        );
        assert!(Limit::new(None, None, None).is_err());
    }

    #[test]
    fn the_tighter_limit_wins_unit_by_unit() {
        let tool = Limit::new(Some(200), None, None).unwrap();
        let kit = Limit::new(Some(400), None, Some(300)).unwrap();
        let both = tool.tighter(Some(&kit));
        assert_eq!(
            Value::Object(both.to_json()),
            json!({"chars": 200, "bytes": 300})
        );
        assert_eq!(kit.tighter(Some(&tool)), both);
        assert_eq!(tool.tighter(None), tool);
        assert_eq!(format!("{tool:?}"), r#"Limit({"chars":200})"#);
    }
}
