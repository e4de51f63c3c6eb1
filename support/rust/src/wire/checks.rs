// codegen: package

//! The checks the generated parsers in `types.rs` are made of, one per kind of field.

use std::sync::OnceLock;

use regex::Regex;
use serde_json::{Map, Number, Value};

use super::{JsonPath, WireError};

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
