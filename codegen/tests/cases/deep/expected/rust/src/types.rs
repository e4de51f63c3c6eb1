// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the deep schema 0.3.0, one struct per IDL file.
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
pub const SCHEMA_VERSION: &str = "0.3.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 4] = [
    "Span",
    "Para",
    "Section",
    "Doc",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Span" => Span::from_slice(json).and_then(|v| v.try_to_json()),
        "Para" => Para::from_slice(json).and_then(|v| v.try_to_json()),
        "Section" => Section::from_slice(json).and_then(|v| v.try_to_json()),
        "Doc" => Doc::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

/// A run of text in one style.
///
/// `#[non_exhaustive]`: build one with [`Span::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Span {
    /// The text.
    pub text: String,
    /// How it is set.
    pub style: Option<SpanStyle>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Span {
    /// A `Span` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(text: impl Into<String>) -> Self {
        Span {
            text: text.into(),
            style: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut text = None;
        let mut style = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "text" => {
                    let at = &at.key("text");
                    text = Some(wire::string(value, at)?);
                }
                "style" => {
                    let at = &at.key("style");
                    style = Some(SpanStyle::parse_at(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Span {
            text: text.ok_or_else(|| wire::missing(at, "text"))?,
            style,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Span {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Span {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("text", &self.text)?;
        if self.style.is_some() {
            map.serialize_entry("style", &self.style)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Span {
    const NAME: &'static str = "Span";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Span {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// A paragraph of spans.
///
/// `#[non_exhaustive]`: build one with [`Para::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Para {
    /// The spans; always written.
    pub spans: Vec<Span>,
    /// Rows of spans: an array of arrays of references.
    pub grid: Vec<Vec<Span>>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Para {
    /// A `Para` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(spans: Vec<Span>) -> Self {
        Para {
            spans,
            grid: Default::default(),
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut spans = None;
        let mut grid = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "spans" => {
                    let at = &at.key("spans");
                    spans = Some(wire::array(value, at, Span::parse_at)?);
                }
                "grid" => {
                    let at = &at.key("grid");
                    grid = Some(wire::array(value, at, |value, at| wire::array(value, at, Span::parse_at))?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Para {
            spans: spans.ok_or_else(|| wire::missing(at, "spans"))?,
            grid: grid.unwrap_or_default(),
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Para {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.spans.nest(level + 1, nesting);
        self.grid.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Para {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("spans", &self.spans)?;
        if !self.grid.is_empty() {
            map.serialize_entry("grid", &self.grid)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Para {
    const NAME: &'static str = "Para";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Para {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// A section of paragraphs.
///
/// `#[non_exhaustive]`: build one with [`Section::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Section {
    /// The section heading.
    pub heading: String,
    /// The paragraphs; always written.
    pub paras: Vec<Para>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Section {
    /// A `Section` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(heading: impl Into<String>, paras: Vec<Para>) -> Self {
        Section {
            heading: heading.into(),
            paras,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut heading = None;
        let mut paras = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "heading" => {
                    let at = &at.key("heading");
                    heading = Some(wire::string(value, at)?);
                }
                "paras" => {
                    let at = &at.key("paras");
                    paras = Some(wire::array(value, at, Para::parse_at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Section {
            heading: heading.ok_or_else(|| wire::missing(at, "heading"))?,
            paras: paras.ok_or_else(|| wire::missing(at, "paras"))?,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Section {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.paras.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Section {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("heading", &self.heading)?;
        map.serialize_entry("paras", &self.paras)?;
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Section {
    const NAME: &'static str = "Section";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Section {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// A document of sections.
///
/// `#[non_exhaustive]`: build one with [`Doc::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Doc {
    /// The document's title.
    pub title: String,
    /// The sections, in order; omitted when empty.
    pub sections: Vec<Section>,
    /// An optional first section.
    pub lead: Option<Section>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Doc {
    /// A `Doc` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(title: impl Into<String>) -> Self {
        Doc {
            title: title.into(),
            sections: Default::default(),
            lead: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut title = None;
        let mut sections = None;
        let mut lead = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "title" => {
                    let at = &at.key("title");
                    title = Some(wire::string(value, at)?);
                }
                "sections" => {
                    let at = &at.key("sections");
                    sections = Some(wire::array(value, at, Section::parse_at)?);
                }
                "lead" => {
                    let at = &at.key("lead");
                    lead = Some(Section::parse_at(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Doc {
            title: title.ok_or_else(|| wire::missing(at, "title"))?,
            sections: sections.unwrap_or_default(),
            lead,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Doc {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.sections.nest(level + 1, nesting);
        self.lead.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Doc {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("title", &self.title)?;
        if !self.sections.is_empty() {
            map.serialize_entry("sections", &self.sections)?;
        }
        if self.lead.is_some() {
            map.serialize_entry("lead", &self.lead)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Doc {
    const NAME: &'static str = "Doc";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Doc {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// How it is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum SpanStyle {
    /// The wire value `plain`.
    #[serde(rename = "plain")]
    Plain,
    /// The wire value `bold`.
    #[serde(rename = "bold")]
    Bold,
    /// The wire value `code`.
    #[serde(rename = "code")]
    Code,
}

impl SpanStyle {
    /// Every value, in schema order.
    pub const ALL: [Self; 3] = [Self::Plain, Self::Bold, Self::Code];

    /// The wire value, such as `"plain"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Plain => "plain",
            Self::Bold => "bold",
            Self::Code => "code",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for SpanStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SpanStyle {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("SpanStyle"))
    }
}

impl PartialEq<str> for SpanStyle {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SpanStyle {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<SpanStyle> for &str {
    fn eq(&self, other: &SpanStyle) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for SpanStyle {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
