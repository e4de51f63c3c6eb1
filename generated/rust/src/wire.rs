// Generated from idl/ (toolnexus schema 1.0.0, sha256 d106c0605c0b7741ba15055557e7193c5afe8392ed0e5add12ef0e6abed99f3f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/wire.rs (hand-written, copied verbatim).
// codegen: copy

//! Parsing and emitting the wire form: the [`Wire`] trait, [`WireError`], and the
//! checks the generated parsers in `types.rs` are made of.
//!
//! A parser calls only the checks its IDL needs (a schema with no array calls no
//! [`array`]), so each check that some IDL leaves unused is `#[allow(dead_code)]`.

use std::fmt;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;
use serde::de::{Deserialize, Deserializer, Error as _};
use serde_json::{Map, Number, Value};

/// A document that is not a valid wire value of the type asked for.
///
/// It is the one error parsing returns: malformed JSON, bytes that are not UTF-8, a
/// missing key, a known key with the wrong type, a value outside an enum, a string
/// that breaks `minLength` or `pattern` all end here, with the JSON path of the
/// first offending place (`$` for the document itself, `$.parts[0].mimeType` for a
/// nested key). Emitting never fails. Reading a file into a part fails with
/// [`FileError`](crate::FileError) instead, which names a file path, not a JSON path.
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

/// A wire type: parsed from and emitted as its JSON wire form.
///
/// Emitting follows the wire rules: keys in schema order, an absent optional and an
/// empty `parts` omitted, unknown keys kept from parsing and written last, compact
/// UTF-8. Parsing accepts exactly what the type's JSON Schema accepts. The unknown keys
/// and those of free-form objects keep the order they came in, and numbers their text,
/// with the crate's feature `lossless` (see the crate's documentation).
pub trait Wire: Sized + Serialize {
    /// The type's name in the IDL, such as `ToolResult`.
    const NAME: &'static str;

    /// Parses a JSON value that is already in memory.
    fn from_wire(value: Value) -> Result<Self, WireError>;

    /// Parses JSON text.
    fn from_json(text: &str) -> Result<Self, WireError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| syntax_error(e).in_type(Self::NAME))?;
        Self::from_wire(value)
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
    fn to_wire(&self) -> Value {
        serde_json::to_value(self).expect("a wire type always serializes: its map keys are strings")
    }

    /// The wire form as compact JSON text.
    fn to_json(&self) -> String {
        serde_json::to_string(self)
            .expect("a wire type always serializes: its map keys are strings")
    }
}

/// Parses JSON text as the wire type `T`: `parse::<ToolResult>(text)`.
pub fn parse<T: Wire>(text: &str) -> Result<T, WireError> {
    T::from_json(text)
}

fn syntax_error(e: serde_json::Error) -> WireError {
    WireError::new(&JsonPath::Root, format!("not valid JSON: {e}"))
}

/// `Deserialize` for a wire type goes through its parser, so serde users get the
/// same checks (the message of the error names the JSON path).
pub(crate) fn deserialize<'de, T: Wire, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let value = Value::deserialize(deserializer)?;
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
