// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the strict schema 1.0.0, one struct per IDL file.
//!
//! Emitting is serde's derive (keys in schema order, absent optionals and empty arrays
//! skipped, unknown keys flattened in last); parsing is written out below field by
//! field from the IDL, so it checks what the JSON Schema checks and names the path of
//! what it rejects.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Number, Value};

use crate::wire::{self, JsonPath, StringRule, Wire, WireError};

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
        "Point" => Point::from_slice(json).map(|v| v.to_json()),
        _ => return None,
    };
    Some(emitted)
}

static POINT_LABEL: StringRule = StringRule::new(1, None);

/// A labelled point.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
        Ok(Point {
            x: x.ok_or_else(|| wire::missing(at, "x"))?,
            y: y.ok_or_else(|| wire::missing(at, "y"))?,
            label: label.ok_or_else(|| wire::missing(at, "label"))?,
            tags: tags.ok_or_else(|| wire::missing(at, "tags"))?,
            visible: visible.ok_or_else(|| wire::missing(at, "visible"))?,
            attrs: attrs.ok_or_else(|| wire::missing(at, "attrs"))?,
        })
    }
}

impl Wire for Point {
    const NAME: &'static str = "Point";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}
