// Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the nest schema 2.0.0, one struct per IDL file.
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
use serde_json::{Map, Number, Value};

use crate::wire::{self, JsonPath, Nest, Nesting, StringRule, Wire, WireError};

/// The version of the schema these types were generated from.
pub const SCHEMA_VERSION: &str = "2.0.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 2] = [
    "Item",
    "Box",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Item" => Item::from_slice(json).and_then(|v| v.try_to_json()),
        "Box" => Box::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

static ITEM_CODE: StringRule = StringRule::new(0, Some("^[A-Z]+$"));

/// One item.
///
/// `#[non_exhaustive]`: build one with [`Item::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Item {
    /// Upper-case code.
    pub code: String,
    /// How big.
    pub size: ItemSize,
    /// How many.
    pub count: Option<Number>,
    /// Kilograms.
    pub weight: Option<Number>,
    /// Its part of the box, 0 to 1.
    pub share: Option<Number>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Item {
    /// An `Item` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(code: impl Into<String>, size: ItemSize) -> Self {
        Item {
            code: code.into(),
            size,
            count: None,
            weight: None,
            share: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut code = None;
        let mut size = None;
        let mut count = None;
        let mut weight = None;
        let mut share = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "code" => {
                    let at = &at.key("code");
                    code = Some(wire::checked_string(value, at, &ITEM_CODE)?);
                }
                "size" => {
                    let at = &at.key("size");
                    size = Some(ItemSize::parse_at(value, at)?);
                }
                "count" => {
                    let at = &at.key("count");
                    count = Some(wire::number_in(wire::integer(value, at)?, at, "an integer", Some(0.0_f64), None)?);
                }
                "weight" => {
                    let at = &at.key("weight");
                    weight = Some(wire::number(value, at)?);
                }
                "share" => {
                    let at = &at.key("share");
                    share = Some(wire::number_in(wire::number(value, at)?, at, "a number", Some(0.0_f64), Some(1.0_f64))?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Item {
            code: code.ok_or_else(|| wire::missing(at, "code"))?,
            size: size.ok_or_else(|| wire::missing(at, "size"))?,
            count,
            weight,
            share,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Item {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Item {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", &self.code)?;
        map.serialize_entry("size", &self.size)?;
        if self.count.is_some() {
            map.serialize_entry("count", &self.count)?;
        }
        if self.weight.is_some() {
            map.serialize_entry("weight", &self.weight)?;
        }
        if self.share.is_some() {
            map.serialize_entry("share", &self.share)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Item {
    const NAME: &'static str = "Item";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// Items and labels.
///
/// `#[non_exhaustive]`: build one with [`Box::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Box {
    /// The main item.
    pub main: Item,
    /// More items; omitted when empty.
    pub items: Vec<Item>,
    /// Free labels.
    pub tags: Vec<String>,
    /// Free-form JSON.
    pub labels: Option<Map<String, Value>>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Box {
    /// A `Box` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(main: Item, tags: Vec<String>) -> Self {
        Box {
            main,
            tags,
            items: Default::default(),
            labels: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut main = None;
        let mut items = None;
        let mut tags = None;
        let mut labels = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "main" => {
                    let at = &at.key("main");
                    main = Some(Item::parse_at(value, at)?);
                }
                "items" => {
                    let at = &at.key("items");
                    items = Some(wire::array(value, at, Item::parse_at)?);
                }
                "tags" => {
                    let at = &at.key("tags");
                    tags = Some(wire::array(value, at, wire::string)?);
                }
                "labels" => {
                    let at = &at.key("labels");
                    labels = Some(wire::object(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Box {
            main: main.ok_or_else(|| wire::missing(at, "main"))?,
            items: items.unwrap_or_default(),
            tags: tags.ok_or_else(|| wire::missing(at, "tags"))?,
            labels,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Box {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.main.nest(level + 1, nesting);
        self.items.nest(level + 1, nesting);
        self.labels.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Box {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("main", &self.main)?;
        if !self.items.is_empty() {
            map.serialize_entry("items", &self.items)?;
        }
        map.serialize_entry("tags", &self.tags)?;
        if self.labels.is_some() {
            map.serialize_entry("labels", &self.labels)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Box {
    const NAME: &'static str = "Box";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Box {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// How big.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ItemSize {
    /// The wire value `s`.
    #[serde(rename = "s")]
    S,
    /// The wire value `m`.
    #[serde(rename = "m")]
    M,
    /// The wire value `l`.
    #[serde(rename = "l")]
    L,
}

impl ItemSize {
    /// Every value, in schema order.
    pub const ALL: [Self; 3] = [Self::S, Self::M, Self::L];

    /// The wire value, such as `"s"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::S => "s",
            Self::M => "m",
            Self::L => "l",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for ItemSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ItemSize {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("ItemSize"))
    }
}

impl PartialEq<str> for ItemSize {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ItemSize {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ItemSize> for &str {
    fn eq(&self, other: &ItemSize) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for ItemSize {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn patterns_compile() {
        assert!(super::ITEM_CODE.regex().is_some());
    }
}
