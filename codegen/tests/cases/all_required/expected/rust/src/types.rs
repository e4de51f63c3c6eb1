// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the strict schema 1.0.0, one struct per IDL file.
//!
//! Emitting and parsing are written out below field by field from the IDL. Emitting
//! (each type's `Serialize`) first checks the value's nesting without recursing, then
//! writes the keys in schema order, skipping absent optionals and empty arrays, and the
//! unknown keys last; parsing checks what the JSON Schema checks and names the path of
//! what it rejects.

use serde::ser::{Error as _, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Number, Value};

use crate::wire::{self, JsonPath, Nest, Nesting, StringRule, Wire, WireError};

/// The version of the schema these types were generated from.
pub const SCHEMA_VERSION: &str = "1.0.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 1] = [
    "Point",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Point" => Point::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

static POINT_LABEL: StringRule = StringRule::new(1, None);

/// A labelled point.
///
/// `#[non_exhaustive]`: build one with [`Point::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Point {
    /// Across.
    pub x: Number,
    /// Down.
    pub y: Number,
    /// Its name.
    pub label: String,
    /// Labels, written even when empty.
    pub tags: Vec<String>,
    /// Shown or not.
    pub visible: bool,
    /// Free-form JSON.
    pub attrs: Map<String, Value>,
}

impl Point {
    /// A `Point` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(x: Number, y: Number, label: impl Into<String>, tags: Vec<String>, visible: bool, attrs: Map<String, Value>) -> Self {
        Point {
            x,
            y,
            label: label.into(),
            tags,
            visible,
            attrs,
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut x = None;
        let mut y = None;
        let mut label = None;
        let mut tags = None;
        let mut visible = None;
        let mut attrs = None;
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "x" => {
                    let at = &at.key("x");
                    x = Some(wire::number(value, at)?);
                }
                "y" => {
                    let at = &at.key("y");
                    y = Some(wire::number(value, at)?);
                }
                "label" => {
                    let at = &at.key("label");
                    label = Some(wire::checked_string(value, at, &POINT_LABEL)?);
                }
                "tags" => {
                    let at = &at.key("tags");
                    tags = Some(wire::array(value, at, wire::string)?);
                }
                "visible" => {
                    let at = &at.key("visible");
                    visible = Some(wire::boolean(value, at)?);
                }
                "attrs" => {
                    let at = &at.key("attrs");
                    attrs = Some(wire::object(value, at)?);
                }
                _ => return Err(wire::unknown_key(at, &key)),
            }
        }
        let parsed = Point {
            x: x.ok_or_else(|| wire::missing(at, "x"))?,
            y: y.ok_or_else(|| wire::missing(at, "y"))?,
            label: label.ok_or_else(|| wire::missing(at, "label"))?,
            tags: tags.ok_or_else(|| wire::missing(at, "tags"))?,
            visible: visible.ok_or_else(|| wire::missing(at, "visible"))?,
            attrs: attrs.ok_or_else(|| wire::missing(at, "attrs"))?,
        };
        Ok(parsed)
    }
}

impl Nest for Point {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.attrs.nest(level + 1, nesting);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order.
impl Serialize for Point {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let len = 6;
        let mut state = serializer.serialize_struct("Point", len)?;
        state.serialize_field("x", &self.x)?;
        state.serialize_field("y", &self.y)?;
        state.serialize_field("label", &self.label)?;
        state.serialize_field("tags", &self.tags)?;
        state.serialize_field("visible", &self.visible)?;
        state.serialize_field("attrs", &self.attrs)?;
        state.end()
    }
}

impl Wire for Point {
    const NAME: &'static str = "Point";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}
