// Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the wire2 schema 1.0.0, one struct per IDL file.
//!
//! Emitting and parsing are written out below field by field from the IDL. Emitting
//! (each type's `Serialize`) first checks the value's nesting without recursing, then
//! writes the keys in schema order, skipping absent optionals and empty arrays, and the
//! unknown keys last; parsing checks what the JSON Schema checks and names the path of
//! what it rejects.

use std::fmt;
use std::str::FromStr;

use serde::ser::{Error as _, SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::wire::{self, JsonPath, Nest, Nesting, Wire, WireError};

/// The version of the schema these types were generated from.
pub const SCHEMA_VERSION: &str = "1.0.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 2] = [
    "Piece",
    "Outcome",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Piece" => Piece::from_slice(json).and_then(|v| v.try_to_json()),
        "Outcome" => Outcome::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

/// One piece of an outcome.
///
/// `#[non_exhaustive]`: build one with [`Piece::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Piece {
    /// What the piece is; `kind` in the APIs.
    pub kind: PieceKind,
    /// A label; omitted when empty.
    pub label: String,
    /// The piece itself: any JSON value but null.
    pub body: Value,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Piece {
    /// A `Piece` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(kind: PieceKind, body: Value) -> Self {
        Piece {
            kind,
            body,
            label: Default::default(),
            extra: Map::new(),
        }
    }

    /// What the IDL's `allOf` requires of a `Piece`; an error at the object's path.
    fn check_requirements(&self, at: &JsonPath<'_>) -> Result<(), WireError> {
        // A blob is labelled.
        if matches!(self.kind, PieceKind::Blob) && self.label.is_empty() {
            let message = format!("a \"type\": \"{}\" object carries nothing: it needs \"label\"", self.kind.as_str());
            return Err(WireError::new(at, message));
        }
        Ok(())
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut kind = None;
        let mut label = None;
        let mut body = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "type" => {
                    let at = &at.key("type");
                    kind = Some(PieceKind::parse_at(value, at)?);
                }
                "label" => {
                    let at = &at.key("label");
                    label = Some(wire::string(value, at)?);
                }
                "body" => {
                    let at = &at.key("body");
                    body = Some(wire::any(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Piece {
            kind: kind.ok_or_else(|| wire::missing(at, "type"))?,
            label: label.unwrap_or_default(),
            body: body.ok_or_else(|| wire::missing(at, "body"))?,
            extra,
        };
        parsed.check_requirements(at)?;
        Ok(parsed)
    }
}

impl Nest for Piece {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.body.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Piece {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", &self.kind)?;
        if !self.label.is_empty() {
            map.serialize_entry("label", &self.label)?;
        }
        map.serialize_entry("body", &self.body)?;
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Piece {
    const NAME: &'static str = "Piece";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Piece {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// A summary, a value and pieces; no other keys.
///
/// `#[non_exhaustive]`: build one with [`Outcome::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Outcome {
    /// What happened.
    pub summary: String,
    /// The value, when there is one: any JSON but null; `resultValue` in the APIs.
    pub result_value: Option<Value>,
    /// The pieces; omitted when empty.
    pub pieces: Vec<Piece>,
    /// A note; omitted when empty.
    pub note: String,
}

impl Outcome {
    /// An `Outcome` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(summary: impl Into<String>) -> Self {
        Outcome {
            summary: summary.into(),
            result_value: None,
            pieces: Default::default(),
            note: Default::default(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut summary = None;
        let mut result_value = None;
        let mut pieces = None;
        let mut note = None;
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "summary" => {
                    let at = &at.key("summary");
                    summary = Some(wire::string(value, at)?);
                }
                "result" => {
                    let at = &at.key("result");
                    result_value = Some(wire::any(value, at)?);
                }
                "pieces" => {
                    let at = &at.key("pieces");
                    pieces = Some(wire::array(value, at, Piece::parse_at)?);
                }
                "note" => {
                    let at = &at.key("note");
                    note = Some(wire::string(value, at)?);
                }
                _ => return Err(wire::unknown_key(at, &key)),
            }
        }
        let parsed = Outcome {
            summary: summary.ok_or_else(|| wire::missing(at, "summary"))?,
            result_value,
            pieces: pieces.unwrap_or_default(),
            note: note.unwrap_or_default(),
        };
        Ok(parsed)
    }
}

impl Nest for Outcome {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.result_value.nest(level + 1, nesting);
        self.pieces.nest(level + 1, nesting);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order.
impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let len = 1 + usize::from(self.result_value.is_some()) + usize::from(!self.pieces.is_empty()) + usize::from(!self.note.is_empty());
        let mut state = serializer.serialize_struct("Outcome", len)?;
        state.serialize_field("summary", &self.summary)?;
        if self.result_value.is_some() {
            state.serialize_field("result", &self.result_value)?;
        } else {
            state.skip_field("result")?;
        }
        if !self.pieces.is_empty() {
            state.serialize_field("pieces", &self.pieces)?;
        } else {
            state.skip_field("pieces")?;
        }
        if !self.note.is_empty() {
            state.serialize_field("note", &self.note)?;
        } else {
            state.skip_field("note")?;
        }
        state.end()
    }
}

impl Wire for Outcome {
    const NAME: &'static str = "Outcome";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// What the piece is; `kind` in the APIs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum PieceKind {
    /// The wire value `text`.
    #[serde(rename = "text")]
    Text,
    /// The wire value `blob`.
    #[serde(rename = "blob")]
    Blob,
}

impl PieceKind {
    /// Every value, in schema order.
    pub const ALL: [Self; 2] = [Self::Text, Self::Blob];

    /// The wire value, such as `"text"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Blob => "blob",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PieceKind {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("PieceKind"))
    }
}

impl PartialEq<str> for PieceKind {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for PieceKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<PieceKind> for &str {
    fn eq(&self, other: &PieceKind) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for PieceKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
