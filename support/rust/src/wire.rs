// codegen: package

//! Parsing and emitting the wire form: the [`Wire`] trait, [`WireError`], and the
//! checks the generated parsers in `types.rs` are made of.
//!
//! A parser calls only the checks its IDL needs (a schema with no array calls no
//! [`array`]), so each check that some IDL leaves unused is `#[allow(dead_code)]`.

use std::fmt;

use serde::Serialize;
use serde::de::{Deserialize, Deserializer, Error as _};
use serde_json::{Map, Value};

mod checks;
mod document;

pub(crate) use checks::*;
use document::Document;
#[allow(unused_imports)] // for `RunResult`; the IDL may have none
pub(crate) use document::WideIntegers;

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
