// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the enums schema 1.2.0, one struct per IDL file.
//!
//! Emitting and parsing are written out below field by field from the IDL. Emitting
//! (each type's `Serialize`) first checks the value's nesting without recursing, then
//! writes the keys in schema order, skipping absent optionals and empty arrays, and the
//! unknown keys last; parsing checks what the JSON Schema checks and names the path of
//! what it rejects.

use std::fmt;
use std::str::FromStr;

use serde::ser::{Error as _, SerializeMap};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::wire::{self, JsonPath, Nest, Nesting, Wire, WireError};

/// The version of the schema these types were generated from.
pub const SCHEMA_VERSION: &str = "1.2.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 1] = [
    "Light",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Light" => Light::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

/// A traffic light.
///
/// `#[non_exhaustive]`: build one with [`Light::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Light {
    /// What it shows now.
    pub color: LightColor,
    /// How it runs, when set.
    pub mode: Option<LightMode>,
    /// The colours it steps through.
    pub cycle: Vec<LightCycleItem>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Light {
    /// A `Light` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(color: LightColor) -> Self {
        Light {
            color,
            mode: None,
            cycle: Default::default(),
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut color = None;
        let mut mode = None;
        let mut cycle = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "color" => {
                    let at = &at.key("color");
                    color = Some(LightColor::parse_at(value, at)?);
                }
                "mode" => {
                    let at = &at.key("mode");
                    mode = Some(LightMode::parse_at(value, at)?);
                }
                "cycle" => {
                    let at = &at.key("cycle");
                    cycle = Some(wire::array(value, at, LightCycleItem::parse_at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Light {
            color: color.ok_or_else(|| wire::missing(at, "color"))?,
            mode,
            cycle: cycle.unwrap_or_default(),
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Light {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Light {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("color", &self.color)?;
        if self.mode.is_some() {
            map.serialize_entry("mode", &self.mode)?;
        }
        if !self.cycle.is_empty() {
            map.serialize_entry("cycle", &self.cycle)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Light {
    const NAME: &'static str = "Light";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Light {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// What it shows now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum LightColor {
    /// The wire value `red`.
    #[serde(rename = "red")]
    Red,
    /// The wire value `amber`.
    #[serde(rename = "amber")]
    Amber,
    /// The wire value `green`.
    #[serde(rename = "green")]
    Green,
}

impl LightColor {
    /// Every value, in schema order.
    pub const ALL: [Self; 3] = [Self::Red, Self::Amber, Self::Green];

    /// The wire value, such as `"red"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Red => "red",
            Self::Amber => "amber",
            Self::Green => "green",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for LightColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LightColor {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("LightColor"))
    }
}

impl PartialEq<str> for LightColor {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for LightColor {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<LightColor> for &str {
    fn eq(&self, other: &LightColor) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for LightColor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// How it runs, when set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum LightMode {
    /// The wire value `auto`.
    #[serde(rename = "auto")]
    Auto,
    /// The wire value `manual`.
    #[serde(rename = "manual")]
    Manual,
    /// The wire value `off-line`.
    #[serde(rename = "off-line")]
    OffLine,
}

impl LightMode {
    /// Every value, in schema order.
    pub const ALL: [Self; 3] = [Self::Auto, Self::Manual, Self::OffLine];

    /// The wire value, such as `"auto"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Manual => "manual",
            Self::OffLine => "off-line",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for LightMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LightMode {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("LightMode"))
    }
}

impl PartialEq<str> for LightMode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for LightMode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<LightMode> for &str {
    fn eq(&self, other: &LightMode) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for LightMode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The colours it steps through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum LightCycleItem {
    /// The wire value `red`.
    #[serde(rename = "red")]
    Red,
    /// The wire value `amber`.
    #[serde(rename = "amber")]
    Amber,
    /// The wire value `green`.
    #[serde(rename = "green")]
    Green,
}

impl LightCycleItem {
    /// Every value, in schema order.
    pub const ALL: [Self; 3] = [Self::Red, Self::Amber, Self::Green];

    /// The wire value, such as `"red"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Red => "red",
            Self::Amber => "amber",
            Self::Green => "green",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for LightCycleItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for LightCycleItem {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("LightCycleItem"))
    }
}

impl PartialEq<str> for LightCycleItem {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for LightCycleItem {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<LightCycleItem> for &str {
    fn eq(&self, other: &LightCycleItem) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for LightCycleItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
