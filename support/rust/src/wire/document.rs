// codegen: package

//! Reading a document: JSON text as serde_json's `Value` reads it, but refusing a repeated
//! key, and where the text held an integer beyond 64 bits.

use std::fmt;
use std::sync::OnceLock;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// Where a document read from text held an integer beyond 64 bits while serde_json reads
/// numbers as `i64`, `u64` or `f64` (without the feature `lossless`): such an integer
/// becomes the nearest double, the same value as a float such as `1e21` of the same
/// magnitude, so the text is the only place that tells them apart. A `RunResult` keeps the
/// top-level keys such integers stood under, so that a seal over one is refused as every
/// language of the contract refuses it (`docs/limits.md`, "Seals"); with `lossless` the
/// integer's digits are kept and nothing needs noting.
///
/// Not on the wire, and not part of a value's equality: two runs are equal when their
/// wire values are.
#[derive(Debug, Clone, Default)]
pub(crate) struct WideIntegers(Vec<String>);

impl PartialEq for WideIntegers {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for WideIntegers {}

#[allow(dead_code)] // for `RunResult`; the IDL may have none
impl WideIntegers {
    /// The top-level keys of the JSON text `text` (already read as a document, so valid
    /// JSON) under which an integer literal beyond 64 bits stands, when numbers are read as
    /// doubles; none otherwise.
    pub(crate) fn scan(text: &str) -> Self {
        if numbers_as_text() {
            return WideIntegers::default();
        }
        let bytes = text.as_bytes();
        let mut keys: Vec<String> = Vec::new();
        let (mut depth, mut i) = (0usize, 0usize);
        let mut key = String::new(); // the top-level key being read, once its value starts
        let mut expect_key = false;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    let end = string_end(bytes, i);
                    if depth == 1 && expect_key {
                        key = serde_json::from_str(&text[i..end]).unwrap_or_default();
                        expect_key = false;
                    }
                    i = end;
                    continue;
                }
                b'{' | b'[' => {
                    depth += 1;
                    expect_key = depth == 1 && bytes[i] == b'{';
                }
                b'}' | b']' => depth = depth.saturating_sub(1),
                b',' => expect_key = depth == 1,
                b'-' | b'0'..=b'9' => {
                    let start = i;
                    while i < bytes.len()
                        && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                    {
                        i += 1;
                    }
                    let number = &text[start..i];
                    let integer = !number.contains(['.', 'e', 'E']);
                    if integer
                        && number.parse::<i64>().is_err()
                        && number.parse::<u64>().is_err()
                        && !keys.contains(&key)
                    {
                        keys.push(key.clone());
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        WideIntegers(keys)
    }

    /// Whether an integer beyond 64 bits stood under the top-level key `key`.
    pub(crate) fn under(&self, key: &str) -> bool {
        self.0.iter().any(|k| k == key)
    }
}

/// The index just past the JSON string that starts at `start` (a `"`).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// A JSON value read as serde_json's [`Value`] reads it, except that an object that
/// repeats a key is an error. `Value` keeps the last of the two values, other parsers the
/// first, so a repeated key would let two readers of one document see different values;
/// every language of the contract refuses it.
pub(crate) struct Document(pub(crate) Value);

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DocumentVisitor).map(Document)
    }
}

/// The key under which serde_json with `arbitrary_precision` hands a number's text to a
/// visitor, as a map of one entry; its own `Value` reads that map as the number.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Whether serde_json keeps numbers' text (`arbitrary_precision`): the feature `lossless`
/// turns it on, and so may any other crate of the build, as cargo unifies features.
fn numbers_as_text() -> bool {
    static AS_TEXT: OnceLock<bool> = OnceLock::new();
    *AS_TEXT.get_or_init(|| {
        "1.50"
            .parse::<Number>()
            .is_ok_and(|n| n.to_string() == "1.50")
    })
}

struct DocumentVisitor;

impl<'de> Visitor<'de> for DocumentVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Document::deserialize(deserializer).map(|Document(v)| v)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Document(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            if map.is_empty() && key == NUMBER_TOKEN && numbers_as_text() {
                let text: String = access.next_value()?;
                return text.parse().map(Value::Number).map_err(A::Error::custom);
            }
            match map.entry(key) {
                Entry::Vacant(slot) => {
                    let Document(value) = access.next_value()?;
                    slot.insert(value);
                }
                Entry::Occupied(taken) => {
                    let key = Value::String(taken.key().clone());
                    return Err(A::Error::custom(format_args!(
                        "an object repeats the key {key}"
                    )));
                }
            }
        }
        Ok(Value::Object(map))
    }
}
