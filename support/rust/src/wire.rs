// codegen: package

//! Parsing and emitting the wire form: the [`Wire`] trait, [`WireError`], and the
//! checks the generated parsers in `types.rs` are made of.
//!
//! A parser calls only the checks its IDL needs (a schema with no array calls no
//! [`array`]), so each check that some IDL leaves unused is `#[allow(dead_code)]`.

use std::fmt;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;
use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// A document that is not a valid wire value of the type asked for.
///
/// It is the one error parsing returns: malformed JSON, bytes that are not UTF-8, a
/// missing key, a known key with the wrong type, a value outside an enum, a string
/// that breaks `minLength` or `pattern` all end here, with the JSON path of the
/// first offending place (`$` for the document itself, `$.parts[0].mimeType` for a
/// nested key). Emitting fails only for a value nested more than [`MAX_DEPTH`] levels
/// ([`Wire::try_to_json`]), with this error at `$`. Reading a file into a part fails
/// with [`FileError`](crate::FileError) instead, which names a file path, not a JSON path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError {
    type_name: &'static str,
    path: String,
    message: String,
}

impl WireError {
    pub(crate) fn new(at: &JsonPath<'_>, message: impl Into<String>) -> Self {
        WireError {
            type_name: "",
            path: at.to_string(),
            message: message.into(),
        }
    }

    pub(crate) fn in_type(mut self, type_name: &'static str) -> Self {
        if self.type_name.is_empty() {
            self.type_name = type_name;
        }
        self
    }

    /// The wire type that was being parsed, such as `ToolResult`.
    pub fn type_name(&self) -> &str {
        self.type_name
    }

    /// The JSON path of the offending value, such as `$.parts[0].mimeType`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What is wrong there, without the path.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.type_name.is_empty() {
            write!(f, "{}: {}", self.path, self.message)
        } else {
            write!(
                f,
                "invalid {}: {}: {}",
                self.type_name, self.path, self.message
            )
        }
    }
}

impl std::error::Error for WireError {}

/// The deepest a document may nest, counting its own object as level 1: parsing rejects
/// a deeper document at `$`, and emitting refuses to write one. `metadata` of a
/// `ToolResult` (level 2) may hold values nested 98 levels deep. The same limit holds
/// in every language of the contract (idl/loop.json).
pub use crate::loop_data::MAX_DEPTH;

/// A wire type: parsed from and emitted as its JSON wire form.
///
/// Emitting follows the wire rules: keys in schema order, an absent optional and an
/// empty `parts` omitted, unknown keys kept from parsing and written last, compact
/// UTF-8. Parsing accepts exactly what the type's JSON Schema accepts, after the rules
/// of JSON itself that every language of the contract applies: the text is RFC 8259
/// JSON (no `NaN` or `Infinity`, no lone surrogate escape, UTF-8), no number is beyond
/// the range of a double (`1e400`), no object repeats a key, and the document nests at
/// most [`MAX_DEPTH`] levels; a document that breaks one of these is rejected at `$`.
/// The unknown keys and those of free-form objects keep the order they came in, and
/// numbers their text, with the crate's feature `lossless` (see the crate's
/// documentation).
///
/// Emitting, and the type's [`Serialize`] impl, check the nesting first (without
/// recursing) and refuse a value nested more than [`MAX_DEPTH`] levels, so free-form
/// JSON built in code (`metadata`, `extra`) can never overflow the stack there.
pub trait Wire: Sized + Serialize {
    /// The type's name in the IDL, such as `ToolResult`.
    const NAME: &'static str;

    /// Parses a JSON value that is already in memory. Its nesting and its numbers are
    /// checked as [`from_json`](Wire::from_json) checks them, without recursing; a value
    /// rejected for its nesting is dropped without recursing too.
    fn from_wire(value: Value) -> Result<Self, WireError>;

    /// Parses JSON text.
    fn from_json(text: &str) -> Result<Self, WireError> {
        from_text(text)
    }

    /// Parses JSON bytes; bytes that are not UTF-8 are rejected.
    fn from_slice(bytes: &[u8]) -> Result<Self, WireError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            WireError::new(&JsonPath::Root, format!("not UTF-8: {e}")).in_type(Self::NAME)
        })?;
        Self::from_json(text)
    }

    /// The wire form as a JSON value (its objects' keys are in sorted order unless
    /// serde_json's `preserve_order` is on, as with the feature `lossless`).
    ///
    /// # Panics
    ///
    /// When the value is nested more than [`MAX_DEPTH`] levels, which only free-form
    /// JSON built in code can be (a parsed value never is);
    /// [`try_to_wire`](Wire::try_to_wire) returns that as an error instead.
    fn to_wire(&self) -> Value {
        self.try_to_wire().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The wire form as compact JSON text.
    ///
    /// # Panics
    ///
    /// When the value is nested more than [`MAX_DEPTH`] levels, which only free-form
    /// JSON built in code can be (a parsed value never is);
    /// [`try_to_json`](Wire::try_to_json) returns that as an error instead.
    fn to_json(&self) -> String {
        self.try_to_json().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The wire form as a JSON value, or a [`WireError`] at `$` when the value is nested
    /// more than [`MAX_DEPTH`] levels (checked first, without recursing).
    fn try_to_wire(&self) -> Result<Value, WireError> {
        serde_json::to_value(self).map_err(|e| emit_error(e).in_type(Self::NAME))
    }

    /// The wire form as compact JSON text, or a [`WireError`] at `$` when the value is
    /// nested more than [`MAX_DEPTH`] levels (checked first, without recursing).
    fn try_to_json(&self) -> Result<String, WireError> {
        serde_json::to_string(self).map_err(|e| emit_error(e).in_type(Self::NAME))
    }
}

/// Parses JSON text as the wire type `T`: `parse::<ToolResult>(text)`.
pub fn parse<T: Wire>(text: &str) -> Result<T, WireError> {
    T::from_json(text)
}

/// What [`Wire::from_json`] does unless a type adds to it: the text read as a [`Document`],
/// then [`Wire::from_wire`].
pub(crate) fn from_text<T: Wire>(text: &str) -> Result<T, WireError> {
    let Document(value) =
        serde_json::from_str(text).map_err(|e| syntax_error(e).in_type(T::NAME))?;
    T::from_wire(value)
}

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

fn syntax_error(e: serde_json::Error) -> WireError {
    if e.to_string().starts_with("recursion limit exceeded") {
        // serde_json stops at 128 levels; past MAX_DEPTH either way.
        return too_deep();
    }
    WireError::new(&JsonPath::Root, format!("not valid JSON: {e}"))
}

/// What serializing a wire type can fail with: only the nesting check of its
/// `Serialize` impl (its map keys are strings).
fn emit_error(e: serde_json::Error) -> WireError {
    WireError::new(&JsonPath::Root, e.to_string())
}

fn too_deep() -> WireError {
    WireError::new(
        &JsonPath::Root,
        format!("nested more than {MAX_DEPTH} levels"),
    )
}

/// Walks free-form JSON without recursing: each value of `stack` sits at the level
/// paired with it, and no array or object may sit deeper than [`MAX_DEPTH`]; with
/// `numbers`, no number may be beyond the range of a double (which only serde_json's
/// `arbitrary_precision` lets through: without it serde_json rejects such a number).
fn walk(mut stack: Vec<(&Value, usize)>, numbers: bool) -> Result<(), WireError> {
    while let Some((value, level)) = stack.pop() {
        match value {
            Value::Array(items) => {
                if level > MAX_DEPTH {
                    return Err(too_deep());
                }
                stack.extend(items.iter().map(|v| (v, level + 1)));
            }
            Value::Object(map) => {
                if level > MAX_DEPTH {
                    return Err(too_deep());
                }
                stack.extend(map.values().map(|v| (v, level + 1)));
            }
            Value::Number(n) if numbers && n.as_f64().is_none() => {
                // Only with `arbitrary_precision`, whose `as_f64` is `None` for a number
                // that rounds to an infinity.
                let message = "a number beyond the range of a double (it rounds to infinity)";
                return Err(WireError::new(&JsonPath::Root, message));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A parsed document, checked for the rules of JSON that precede the schema's (see
/// [`Wire`]): nesting and numbers. A rejected one is dropped without recursing.
pub(crate) fn document(value: Value) -> Result<Value, WireError> {
    match walk(vec![(&value, 1)], true) {
        Ok(()) => Ok(value),
        Err(e) => {
            drop_deep(value);
            Err(e)
        }
    }
}

/// `value` if it is a document [`from_wire`](Wire::from_wire) accepts as far as nesting
/// and numbers go; checked without recursing, so that a deep value is never cloned.
#[allow(dead_code)] // for `pending_of`; the IDL may have no `Request`
pub(crate) fn acceptable(value: &Value) -> Option<&Value> {
    walk(vec![(value, 1)], true).ok().map(|()| value)
}

/// Drops `value` without recursing, however deeply it nests.
///
/// `serde_json::Value`'s own drop (like its `Clone`, `Debug`, `PartialEq` and
/// `Serialize`) recurses once per level, so a value nested some 100,000 levels deep,
/// which only code can build (parsing stops at [`MAX_DEPTH`]), overflows the stack
/// when it goes out of scope. Hand such a value, or a `Map` of them, to this function
/// instead. The crate does so with what it owns and rejects; a `ToolResult` holding
/// such metadata is the caller's to take apart:
///
/// ```
/// # use toolnexus::{ToolResult, serde_json::{Map, Value}};
/// let mut deep = Value::Null;
/// for _ in 0..200_000 {
///     deep = Value::Array(vec![deep]);
/// }
/// let mut r = ToolResult::ok("x").with_metadata(Map::from_iter([("deep".into(), deep)]));
/// assert!(toolnexus::Wire::try_to_json(&r).is_err());
/// if let Some(metadata) = r.metadata.take() {
///     toolnexus::drop_deep(metadata);
/// }
/// ```
pub fn drop_deep(value: impl Into<Value>) {
    let mut stack = vec![value.into()];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The free-form JSON of a wire value to emit, each piece with the level it sits at in
/// the value's document, gathered by [`Nest`] and then walked without recursing.
pub(crate) struct Nesting<'a> {
    deepest: usize,
    pending: Vec<(&'a Value, usize)>,
}

#[allow(dead_code)] // for an open type or a free-form object; the IDL may have neither
impl<'a> Nesting<'a> {
    /// An array or object of the wire types' own sits at `level`.
    pub(crate) fn container(&mut self, level: usize) {
        self.deepest = self.deepest.max(level);
    }

    /// The values of `map` (an object's members) sit at `level`.
    pub(crate) fn members(&mut self, map: &'a Map<String, Value>, level: usize) {
        self.pending.extend(map.values().map(|v| (v, level)));
    }
}

/// What a wire value holds that nests: its own objects and arrays, and free-form JSON.
pub(crate) trait Nest {
    /// Records `self`, which sits at `level` of its document, in `nesting`.
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>);
}

impl Nest for Map<String, Value> {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(self, level + 1);
    }
}

/// A value of a field without a `type` (any JSON but `null`), sitting at `level`.
impl Nest for Value {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.pending.push((self, level));
    }
}

impl<T: Nest> Nest for Vec<T> {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        for item in self {
            item.nest(level + 1, nesting);
        }
    }
}

impl<T: Nest> Nest for Option<T> {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        if let Some(value) = self {
            value.nest(level, nesting);
        }
    }
}

/// Checks that `value`, a wire type's document, nests at most [`MAX_DEPTH`] levels;
/// every wire type's `Serialize` impl calls it before writing anything.
pub(crate) fn emittable(value: &impl Nest) -> Result<(), WireError> {
    let mut nesting = Nesting {
        deepest: 0,
        pending: Vec::new(),
    };
    value.nest(1, &mut nesting);
    if nesting.deepest > MAX_DEPTH {
        return Err(too_deep());
    }
    walk(nesting.pending, false)
}

/// `Deserialize` for a wire type goes through its parser, so serde users get the
/// same checks (the message of the error names the JSON path).
pub(crate) fn deserialize<'de, T: Wire, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let Document(value) = Document::deserialize(deserializer)?;
    T::from_wire(value).map_err(D::Error::custom)
}

/// A JSON value read as serde_json's [`Value`] reads it, except that an object that
/// repeats a key is an error. `Value` keeps the last of the two values, other parsers the
/// first, so a repeated key would let two readers of one document see different values;
/// every language of the contract refuses it.
struct Document(Value);

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

/// Where a value sits in the document being parsed; rendered only for an error.
#[derive(Debug, Clone, Copy)]
pub(crate) enum JsonPath<'a> {
    Root,
    Key(&'a JsonPath<'a>, &'a str),
    #[allow(dead_code)] // for an array; the IDL may have none
    Index(&'a JsonPath<'a>, usize),
}

impl<'a> JsonPath<'a> {
    pub(crate) fn key(&'a self, key: &'a str) -> JsonPath<'a> {
        JsonPath::Key(self, key)
    }

    #[allow(dead_code)] // for an array; the IDL may have none
    pub(crate) fn index(&'a self, index: usize) -> JsonPath<'a> {
        JsonPath::Index(self, index)
    }
}

impl fmt::Display for JsonPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonPath::Root => f.write_str("$"),
            JsonPath::Key(parent, key) => {
                let plain = key
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if plain {
                    write!(f, "{parent}.{key}")
                } else {
                    write!(f, "{parent}[{}]", Value::from(*key))
                }
            }
            JsonPath::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

/// The type of the hidden field that keeps a struct literal of a wire type open to
/// fields added later: only this crate can make one, so a literal outside it ends in
/// `..Default::default()` (the struct's `Default` fills it in). Unused by a crate whose
/// IDL has no such type (codegen's LITERAL_STRUCTS).
#[doc(hidden)]
#[allow(dead_code)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NonExhaustive(());

#[allow(dead_code)]
impl NonExhaustive {
    pub(crate) const fn new() -> Self {
        NonExhaustive(())
    }
}

/// The checks the IDL puts on a string field: `minLength` and `pattern` (compiled
/// on first use).
#[allow(dead_code)] // for `minLength` or `pattern`; the IDL may have neither
pub(crate) struct StringRule {
    min_length: usize,
    /// The pattern as the schema writes it (ECMA-262), quoted in errors.
    pattern: Option<&'static str>,
    /// The same pattern in the syntax of Rust's regex.
    regex: Option<&'static str>,
    compiled: OnceLock<Regex>,
}

#[allow(dead_code)] // for `minLength` or `pattern`; the IDL may have neither
impl StringRule {
    /// A rule whose pattern, if any, reads the same in ECMA-262 and in Rust's regex.
    pub(crate) const fn new(min_length: usize, pattern: Option<&'static str>) -> Self {
        StringRule {
            min_length,
            pattern,
            regex: pattern,
            compiled: OnceLock::new(),
        }
    }

    /// A rule whose pattern is spelled `regex` in Rust's syntax.
    pub(crate) const fn translated(
        min_length: usize,
        pattern: &'static str,
        regex: &'static str,
    ) -> Self {
        StringRule {
            min_length,
            pattern: Some(pattern),
            regex: Some(regex),
            compiled: OnceLock::new(),
        }
    }

    /// The compiled pattern; the generated test `patterns_compile` guards the expect.
    pub(crate) fn regex(&self) -> Option<&Regex> {
        let source = self.regex?;
        Some(
            self.compiled
                .get_or_init(|| Regex::new(source).expect("an IDL pattern compiles")),
        )
    }
}

fn found(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn expected(what: &str, value: &Value, at: &JsonPath<'_>) -> WireError {
    WireError::new(at, format!("expected {what}, found {}", found(value)))
}

/// A required key is missing: the error is at the object that lacks it.
#[allow(dead_code)] // for a required key; the IDL may have none
pub(crate) fn missing(at: &JsonPath<'_>, key: &str) -> WireError {
    WireError::new(at, format!("the required key {key:?} is missing"))
}

#[allow(dead_code)] // for a closed type; the IDL may have none
pub(crate) fn unknown_key(at: &JsonPath<'_>, key: &str) -> WireError {
    WireError::new(&at.key(key), "unknown key (this type allows no others)")
}

pub(crate) fn object(value: Value, at: &JsonPath<'_>) -> Result<Map<String, Value>, WireError> {
    match value {
        Value::Object(map) => Ok(map),
        other => Err(expected("an object", &other, at)),
    }
}

/// A field without a `type`: any JSON value but `null` (an optional field is absent,
/// never null). Its nesting and numbers were checked with the whole document.
#[allow(dead_code)] // for a field without a type; the IDL may have none
pub(crate) fn any(value: Value, at: &JsonPath<'_>) -> Result<Value, WireError> {
    match value {
        Value::Null => Err(expected("a JSON value other than null", &Value::Null, at)),
        other => Ok(other),
    }
}

#[allow(dead_code)] // for a string or an enum; the IDL may have neither
pub(crate) fn string(value: Value, at: &JsonPath<'_>) -> Result<String, WireError> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(expected("a string", &other, at)),
    }
}

#[allow(dead_code)] // for `minLength` or `pattern`; the IDL may have neither
pub(crate) fn checked_string(
    value: Value,
    at: &JsonPath<'_>,
    rule: &StringRule,
) -> Result<String, WireError> {
    let s = string(value, at)?;
    // JSON Schema counts characters (code points), not bytes.
    if rule.min_length > 0 && s.chars().count() < rule.min_length {
        let message = format!("shorter than the minimum length {}", rule.min_length);
        return Err(WireError::new(at, message));
    }
    if let (Some(source), Some(regex)) = (rule.pattern, rule.regex()) {
        if !regex.is_match(&s) {
            let message = format!("does not match the pattern {source}");
            return Err(WireError::new(at, message));
        }
    }
    Ok(s)
}

#[allow(dead_code)] // for a boolean; the IDL may have none
pub(crate) fn boolean(value: Value, at: &JsonPath<'_>) -> Result<bool, WireError> {
    match value {
        Value::Bool(b) => Ok(b),
        other => Err(expected("a boolean", &other, at)),
    }
}

#[allow(dead_code)] // for a number; the IDL may have none
pub(crate) fn number(value: Value, at: &JsonPath<'_>) -> Result<Number, WireError> {
    match value {
        Value::Number(n) => Ok(n),
        other => Err(expected("a number", &other, at)),
    }
}

/// A number within the inclusive bounds of its schema, compared as an IEEE double (the
/// number keeps its text; only the comparison reads its value).
#[allow(dead_code)] // for a bounded number; the IDL may have none
pub(crate) fn number_in(
    n: Number,
    at: &JsonPath<'_>,
    kind: &str,
    minimum: Option<f64>,
    maximum: Option<f64>,
) -> Result<Number, WireError> {
    let v = n.as_f64().unwrap_or(f64::NAN);
    let outside = v.is_nan() || minimum.is_some_and(|m| v < m) || maximum.is_some_and(|m| v > m);
    if outside {
        let mut bounds = Vec::new();
        if let Some(m) = minimum {
            bounds.push(format!("at least {m}"));
        }
        if let Some(m) = maximum {
            bounds.push(format!("at most {m}"));
        }
        let message = format!("expected {kind} {}, found {n}", bounds.join(" and "));
        return Err(WireError::new(at, message));
    }
    Ok(n)
}

/// JSON Schema's `integer`: any number whose fractional part is zero (`1.0` too).
#[allow(dead_code)] // for an integer; the IDL may have none
pub(crate) fn integer(value: Value, at: &JsonPath<'_>) -> Result<Number, WireError> {
    let n = number(value, at)?;
    let whole = n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
    if whole {
        Ok(n)
    } else {
        Err(WireError::new(at, "expected an integer, found a fraction"))
    }
}

#[allow(dead_code)] // for an array; the IDL may have none
pub(crate) fn array<T>(
    value: Value,
    at: &JsonPath<'_>,
    item: impl Fn(Value, &JsonPath<'_>) -> Result<T, WireError>,
) -> Result<Vec<T>, WireError> {
    match value {
        Value::Array(values) => values
            .into_iter()
            .enumerate()
            .map(|(i, v)| item(v, &at.index(i)))
            .collect(),
        other => Err(expected("an array", &other, at)),
    }
}

#[allow(dead_code)] // for an enum; the IDL may have none
pub(crate) fn enum_value<T: Copy>(
    value: Value,
    at: &JsonPath<'_>,
    values: &[(&str, T)],
) -> Result<T, WireError> {
    let s = string(value, at)?;
    match values.iter().find(|(wire, _)| *wire == s) {
        Some((_, v)) => Ok(*v),
        None => {
            let allowed: Vec<String> = values.iter().map(|(w, _)| format!("{w:?}")).collect();
            Err(WireError::new(
                at,
                format!("{s:?} is not one of {}", allowed.join(", ")),
            ))
        }
    }
}
