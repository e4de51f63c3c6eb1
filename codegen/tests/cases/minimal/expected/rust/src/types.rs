// Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the mini schema 0.1.0, one struct per IDL file.
//!
//! Emitting and parsing are written out below field by field from the IDL. Emitting
//! (each type's `Serialize`) first checks the value's nesting without recursing, then
//! writes the keys in schema order, skipping absent optionals and empty arrays, and the
//! unknown keys last; parsing checks what the JSON Schema checks and names the path of
//! what it rejects.

use serde::ser::{Error as _, SerializeMap};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::wire::{self, JsonPath, Nest, Nesting, StringRule, Wire, WireError};

/// The version of the schema these types were generated from.
pub const SCHEMA_VERSION: &str = "0.1.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 1] = [
    "Note",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Note" => Note::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

static NOTE_AUTHOR: StringRule = StringRule::new(1, None);

/// A note.
///
/// `#[non_exhaustive]`: build one with [`Note::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Note {
    /// What it says.
    pub text: String,
    /// Pinned to the top.
    pub is_pinned: bool,
    /// Who wrote it.
    pub author: Option<String>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Note {
    /// A `Note` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(text: impl Into<String>) -> Self {
        Note {
            text: text.into(),
            is_pinned: false,
            author: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut text = None;
        let mut is_pinned = None;
        let mut author = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "text" => {
                    let at = &at.key("text");
                    text = Some(wire::string(value, at)?);
                }
                "isPinned" => {
                    let at = &at.key("isPinned");
                    is_pinned = Some(wire::boolean(value, at)?);
                }
                "author" => {
                    let at = &at.key("author");
                    author = Some(wire::checked_string(value, at, &NOTE_AUTHOR)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Note {
            text: text.ok_or_else(|| wire::missing(at, "text"))?,
            is_pinned: is_pinned.unwrap_or_default(),
            author,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Note {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Note {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("text", &self.text)?;
        map.serialize_entry("isPinned", &self.is_pinned)?;
        if self.author.is_some() {
            map.serialize_entry("author", &self.author)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Note {
    const NAME: &'static str = "Note";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Note {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}
