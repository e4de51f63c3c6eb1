// Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The wire types of the toolnexus schema 3.0.0, one struct per IDL file.
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

use crate::wire::{self, JsonPath, Nest, Nesting, NonExhaustive, StringRule, Wire, WireError};

/// The version of the schema these types were generated from.
pub const SCHEMA_VERSION: &str = "3.0.0";

/// The names of the wire types, in the order of the IDL manifest.
pub const TYPE_NAMES: [&str; 12] = [
    "Annotations",
    "ContentPart",
    "Request",
    "Answer",
    "ToolResult",
    "ToolIcon",
    "ToolHints",
    "ToolSpec",
    "ToolCall",
    "ToolCallResult",
    "RunResult",
    "ToolEvent",
];

/// Parses `json` as the wire type named `type_name` and emits it again, as a
/// conformance run does; `None` when no wire type has that name.
pub fn roundtrip(type_name: &str, json: &[u8]) -> Option<Result<String, WireError>> {
    let emitted = match type_name {
        "Annotations" => Annotations::from_slice(json).and_then(|v| v.try_to_json()),
        "ContentPart" => ContentPart::from_slice(json).and_then(|v| v.try_to_json()),
        "Request" => Request::from_slice(json).and_then(|v| v.try_to_json()),
        "Answer" => Answer::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolResult" => ToolResult::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolIcon" => ToolIcon::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolHints" => ToolHints::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolSpec" => ToolSpec::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolCall" => ToolCall::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolCallResult" => ToolCallResult::from_slice(json).and_then(|v| v.try_to_json()),
        "RunResult" => RunResult::from_slice(json).and_then(|v| v.try_to_json()),
        "ToolEvent" => ToolEvent::from_slice(json).and_then(|v| v.try_to_json()),
        _ => return None,
    };
    Some(emitted)
}

static CONTENT_PART_DATA: StringRule = StringRule::new(
    0,
    Some("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"),
);

static REQUEST_KIND: StringRule = StringRule::new(1, None);

static ANSWER_MESSAGE: StringRule = StringRule::new(1, None);

static ANSWER_SCOPE: StringRule = StringRule::translated(
    0,
    "^(once|turn|tool|principal|session:\\S.*)$",
    "^(once|turn|tool|principal|session:[^\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}][^\\n\\r\\x{2028}\\x{2029}]*)$",
);

static TOOL_ICON_SRC: StringRule = StringRule::new(1, None);

static TOOL_SPEC_NAME: StringRule = StringRule::new(0, Some("^[A-Za-z0-9_-]+$"));

/// Hints about a content part for the host that shows it (MCP's `Annotations` of a content
/// block): who it is for, how much it matters, and when it last changed. Advisory: a part is
/// valid without them, and they never change what the part holds.
///
/// `#[non_exhaustive]`: build one with [`Annotations::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Annotations {
    /// Who the part is meant for: `user` (the person using the host), `assistant` (the model),
    /// or both. Absent means both. Empty is omitted (and reads as absent). A provider adapter
    /// leaves a part whose audience is `user` alone out of the model's message.
    pub audience: Vec<AnnotationsAudienceItem>,
    /// How much the part matters, from 0 (entirely optional) to 1 (required), as MCP has it.
    /// The number keeps its text, as every JSON number here does: `1` is written back `1`,
    /// `1.0` as `1.0`.
    pub priority: Option<Number>,
    /// When the content last changed, as an ISO 8601 date-time; kept as sent, not checked (MCP
    /// does not check it either).
    pub last_modified: Option<String>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Annotations {
    /// An `Annotations` of no field; every other field is absent, empty or
    /// its schema default.
    pub fn new() -> Self {
        Annotations {
            audience: Default::default(),
            priority: None,
            last_modified: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut audience = None;
        let mut priority = None;
        let mut last_modified = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "audience" => {
                    let at = &at.key("audience");
                    audience = Some(wire::array(value, at, AnnotationsAudienceItem::parse_at)?);
                }
                "priority" => {
                    let at = &at.key("priority");
                    priority = Some(wire::number_in(wire::number(value, at)?, at, "a number", Some(0.0_f64), Some(1.0_f64))?);
                }
                "lastModified" => {
                    let at = &at.key("lastModified");
                    last_modified = Some(wire::string(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Annotations {
            audience: audience.unwrap_or_default(),
            priority,
            last_modified,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Annotations {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Annotations {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        if !self.audience.is_empty() {
            map.serialize_entry("audience", &self.audience)?;
        }
        if self.priority.is_some() {
            map.serialize_entry("priority", &self.priority)?;
        }
        if self.last_modified.is_some() {
            map.serialize_entry("lastModified", &self.last_modified)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Annotations {
    const NAME: &'static str = "Annotations";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Annotations {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// One part of a tool result beyond its `output`, as every upstream toolnexus port writes it:
/// text, an image, audio or any other file, carried inline as base64 `data` or by reference as
/// a `url`. A part is built to carry something: a `text` part its `text`, any other part its
/// `data`, its `url` or both (then `data` is the content and `url` where it came from; adapters
/// send `data`). A part that carries nothing (upstream's `ContentPart::text("")` writes
/// `{"type":"text"}`) is read and kept through a round trip, but never built here, and adapters
/// send a note in its place. An empty string field is omitted from the wire, and an absent one
/// reads as empty. `title`, `description` and `annotations` describe the part for the host and
/// change nothing it carries.
///
/// `#[non_exhaustive]`: build one with [`ContentPart::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContentPart {
    /// What the part holds: `text` (in `text`), `image`, `audio`, or `file` for anything else,
    /// video included. The APIs name this field `kind`.
    pub kind: ContentPartKind,
    /// The text of a `text` part.
    pub text: String,
    /// The IANA media type of the content, such as `image/png` or `application/pdf`; a part
    /// with `data` needs one, and so does a part by `url` in the helpers.
    pub mime_type: String,
    /// The content's bytes, standard base64 (RFC 4648 section 4) with padding.
    pub data: String,
    /// Where the content is, when it is carried by reference instead of as `data` (an MCP
    /// resource link).
    pub url: String,
    /// A file name for the content, when it has one; never a path.
    pub name: String,
    /// A name for people to read, which a host shows in place of `name` (MCP's `title` of a
    /// resource link); a provider adapter sends it only where the provider has a title field
    /// (an Anthropic document's).
    pub title: String,
    /// What the content is, in a sentence (MCP's `description` of a resource link), for the
    /// host to show with the part; a provider adapter sends it only where the provider has a
    /// field for it (an Anthropic document's `context`).
    pub description: String,
    /// Hints for the host about this part: who it is for, how much it matters, when it last
    /// changed (MCP's content `annotations`).
    pub annotations: Option<Annotations>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ContentPart {
    /// A `ContentPart` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(kind: ContentPartKind) -> Self {
        ContentPart {
            kind,
            text: Default::default(),
            mime_type: Default::default(),
            data: Default::default(),
            url: Default::default(),
            name: Default::default(),
            title: Default::default(),
            description: Default::default(),
            annotations: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut kind = None;
        let mut text = None;
        let mut mime_type = None;
        let mut data = None;
        let mut url = None;
        let mut name = None;
        let mut title = None;
        let mut description = None;
        let mut annotations = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "type" => {
                    let at = &at.key("type");
                    kind = Some(ContentPartKind::parse_at(value, at)?);
                }
                "text" => {
                    let at = &at.key("text");
                    text = Some(wire::string(value, at)?);
                }
                "mimeType" => {
                    let at = &at.key("mimeType");
                    mime_type = Some(wire::string(value, at)?);
                }
                "data" => {
                    let at = &at.key("data");
                    data = Some(wire::checked_string(value, at, &CONTENT_PART_DATA)?);
                }
                "url" => {
                    let at = &at.key("url");
                    url = Some(wire::string(value, at)?);
                }
                "name" => {
                    let at = &at.key("name");
                    name = Some(wire::string(value, at)?);
                }
                "title" => {
                    let at = &at.key("title");
                    title = Some(wire::string(value, at)?);
                }
                "description" => {
                    let at = &at.key("description");
                    description = Some(wire::string(value, at)?);
                }
                "annotations" => {
                    let at = &at.key("annotations");
                    annotations = Some(Annotations::parse_at(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ContentPart {
            kind: kind.ok_or_else(|| wire::missing(at, "type"))?,
            text: text.unwrap_or_default(),
            mime_type: mime_type.unwrap_or_default(),
            data: data.unwrap_or_default(),
            url: url.unwrap_or_default(),
            name: name.unwrap_or_default(),
            title: title.unwrap_or_default(),
            description: description.unwrap_or_default(),
            annotations,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ContentPart {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.annotations.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ContentPart {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", &self.kind)?;
        if !self.text.is_empty() {
            map.serialize_entry("text", &self.text)?;
        }
        if !self.mime_type.is_empty() {
            map.serialize_entry("mimeType", &self.mime_type)?;
        }
        if !self.data.is_empty() {
            map.serialize_entry("data", &self.data)?;
        }
        if !self.url.is_empty() {
            map.serialize_entry("url", &self.url)?;
        }
        if !self.name.is_empty() {
            map.serialize_entry("name", &self.name)?;
        }
        if !self.title.is_empty() {
            map.serialize_entry("title", &self.title)?;
        }
        if !self.description.is_empty() {
            map.serialize_entry("description", &self.description)?;
        }
        if self.annotations.is_some() {
            map.serialize_entry("annotations", &self.annotations)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ContentPart {
    const NAME: &'static str = "ContentPart";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ContentPart {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// What a suspended tool asks of the host before it can finish: an approval, an authorization,
/// input or an answer to a question. It travels in `ToolResult.metadata["pending"]`.
///
/// Build one with a struct literal that ends in `..Default::default()`, or with
/// [`Request::new`]; a literal or a pattern must not list every field, so that a
/// field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Identifies the request; the `Answer` carries the same id. Generated as `pnd-` followed
    /// by random hex when a tool leaves it empty.
    pub id: String,
    /// What is asked: `approval`, `authorization` (with a `url`; the only kind through which
    /// secrets may travel), `input` or `question`.
    pub kind: String,
    /// The text shown to the person who answers.
    pub prompt: String,
    /// Where the person goes to answer, such as a login page for an `authorization` request.
    pub url: Option<String>,
    /// Structured detail for the host, such as a JSON Schema for the input asked for.
    pub data: Option<Map<String, Value>>,
    /// When the request stops being answerable, as an RFC 3339 date-time; an answer after it
    /// counts as `expired`. Any other string is kept as sent (upstream ports do not check it):
    /// the loop counts an unreadable time as already passed, and an empty string as no expiry.
    pub expires_at: Option<String>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
    /// Not on the wire: a field no code outside the crate can fill in, so that a struct
    /// literal ends in `..Default::default()`. Never name it.
    #[doc(hidden)]
    pub __non_exhaustive: NonExhaustive,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            id: Default::default(),
            kind: Default::default(),
            prompt: Default::default(),
            url: Default::default(),
            data: Default::default(),
            expires_at: Default::default(),
            extra: Map::new(),
            __non_exhaustive: NonExhaustive::new(),
        }
    }
}

impl Request {
    /// A `Request` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(id: impl Into<String>, kind: impl Into<String>, prompt: impl Into<String>) -> Self {
        Request {
            id: id.into(),
            kind: kind.into(),
            prompt: prompt.into(),
            url: None,
            data: None,
            expires_at: None,
            extra: Map::new(),
            __non_exhaustive: NonExhaustive::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut id = None;
        let mut kind = None;
        let mut prompt = None;
        let mut url = None;
        let mut data = None;
        let mut expires_at = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "id" => {
                    let at = &at.key("id");
                    id = Some(wire::string(value, at)?);
                }
                "kind" => {
                    let at = &at.key("kind");
                    kind = Some(wire::checked_string(value, at, &REQUEST_KIND)?);
                }
                "prompt" => {
                    let at = &at.key("prompt");
                    prompt = Some(wire::string(value, at)?);
                }
                "url" => {
                    let at = &at.key("url");
                    url = Some(wire::string(value, at)?);
                }
                "data" => {
                    let at = &at.key("data");
                    data = Some(wire::object(value, at)?);
                }
                "expiresAt" => {
                    let at = &at.key("expiresAt");
                    expires_at = Some(wire::string(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Request {
            id: id.ok_or_else(|| wire::missing(at, "id"))?,
            kind: kind.ok_or_else(|| wire::missing(at, "kind"))?,
            prompt: prompt.ok_or_else(|| wire::missing(at, "prompt"))?,
            url,
            data,
            expires_at,
            extra,
            __non_exhaustive: NonExhaustive::new(),
        };
        Ok(parsed)
    }
}

impl Nest for Request {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.data.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Request {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("kind", &self.kind)?;
        map.serialize_entry("prompt", &self.prompt)?;
        if self.url.is_some() {
            map.serialize_entry("url", &self.url)?;
        }
        if self.data.is_some() {
            map.serialize_entry("data", &self.data)?;
        }
        if self.expires_at.is_some() {
            map.serialize_entry("expiresAt", &self.expires_at)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Request {
    const NAME: &'static str = "Request";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Request {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// The host's reply to a `Request`: the tool is run once more with it in its context.
///
/// `#[non_exhaustive]`: build one with [`Answer::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Answer {
    /// The id of the `Request` this answers.
    pub id: String,
    /// True when the request was granted or answered; false when it was declined, cancelled or
    /// expired.
    pub ok: bool,
    /// What the person supplied, such as the input asked for.
    pub data: Option<Map<String, Value>>,
    /// Why the answer is not ok: `declined`, `cancelled` or `expired`. The upstream ports take
    /// any text here; this contract refuses any other value (send `declined`, and the text in
    /// `data`).
    pub reason: Option<AnswerReason>,
    /// Why the answer refuses, in words for the model: the call's result then reads `declined:
    /// <message>` (its first 1,000 characters, then `…`, when it is longer). Ignored on an
    /// answer that is `ok`.
    pub message: Option<String>,
    /// How far the decision reaches: `once` (this call; the default), `turn` (every call to the
    /// same tool that waits on an approval in this turn), `session:<id>` (every call to the
    /// same tool in the host's session `<id>`), `principal` (every call to the same tool made
    /// for the same principal), `tool` (every call to the same tool). A decision beyond the
    /// turn is kept by the host as a policy, which expires, and which the host can list and
    /// revoke.
    pub scope: Option<String>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl Answer {
    /// An `Answer` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(id: impl Into<String>, ok: bool) -> Self {
        Answer {
            id: id.into(),
            ok,
            data: None,
            reason: None,
            message: None,
            scope: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut id = None;
        let mut ok = None;
        let mut data = None;
        let mut reason = None;
        let mut message = None;
        let mut scope = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "id" => {
                    let at = &at.key("id");
                    id = Some(wire::string(value, at)?);
                }
                "ok" => {
                    let at = &at.key("ok");
                    ok = Some(wire::boolean(value, at)?);
                }
                "data" => {
                    let at = &at.key("data");
                    data = Some(wire::object(value, at)?);
                }
                "reason" => {
                    let at = &at.key("reason");
                    reason = Some(AnswerReason::parse_at(value, at)?);
                }
                "message" => {
                    let at = &at.key("message");
                    message = Some(wire::checked_string(value, at, &ANSWER_MESSAGE)?);
                }
                "scope" => {
                    let at = &at.key("scope");
                    scope = Some(wire::checked_string(value, at, &ANSWER_SCOPE)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = Answer {
            id: id.ok_or_else(|| wire::missing(at, "id"))?,
            ok: ok.ok_or_else(|| wire::missing(at, "ok"))?,
            data,
            reason,
            message,
            scope,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for Answer {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.data.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for Answer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("ok", &self.ok)?;
        if self.data.is_some() {
            map.serialize_entry("data", &self.data)?;
        }
        if self.reason.is_some() {
            map.serialize_entry("reason", &self.reason)?;
        }
        if self.message.is_some() {
            map.serialize_entry("message", &self.message)?;
        }
        if self.scope.is_some() {
            map.serialize_entry("scope", &self.scope)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for Answer {
    const NAME: &'static str = "Answer";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// The envelope every tool returns: text for the model, an error flag, non-text parts, and
/// host-only metadata that never reaches the model.
///
/// `#[non_exhaustive]`: build one with [`ToolResult::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolResult {
    /// The text the model reads; structured data goes in as JSON text.
    pub output: String,
    /// True when the tool failed; the failure is a result the model can read, never an
    /// exception crossing the tool boundary.
    pub is_error: bool,
    /// Output beyond `output`, such as images, files, text and links, in order; omitted from
    /// the wire when empty.
    pub parts: Vec<ContentPart>,
    /// The result as structured data (an object, array, string, number or boolean), matching
    /// the tool's `outputSchema` when it declares one; `output` then carries the same value as
    /// JSON text, for models that read only text. Named as MCP's `CallToolResult` names it.
    pub structured_content: Option<Value>,
    /// Free-form JSON for the host only (exit codes, diffs, timings); never sent to a model.
    /// The key `pending` is reserved: it holds a `Request` when the result is a suspension. The
    /// key `declined` is reserved too: on the error result the loop writes for a request that
    /// was refused or expired (an approval asked before a tool runs, or a tool's own question),
    /// it holds `{"request": <that request's id>, "reason": "declined" | "cancelled" |
    /// "expired"}`, so a host tells a denial from a tool failure; such a result's `output`
    /// starts with `declined`.
    pub metadata: Option<Map<String, Value>>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolResult {
    /// A `ToolResult` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(output: impl Into<String>) -> Self {
        ToolResult {
            output: output.into(),
            is_error: false,
            parts: Default::default(),
            structured_content: None,
            metadata: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut output = None;
        let mut is_error = None;
        let mut parts = None;
        let mut structured_content = None;
        let mut metadata = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "output" => {
                    let at = &at.key("output");
                    output = Some(wire::string(value, at)?);
                }
                "isError" => {
                    let at = &at.key("isError");
                    is_error = Some(wire::boolean(value, at)?);
                }
                "parts" => {
                    let at = &at.key("parts");
                    parts = Some(wire::array(value, at, ContentPart::parse_at)?);
                }
                "structuredContent" => {
                    let at = &at.key("structuredContent");
                    structured_content = Some(wire::any(value, at)?);
                }
                "metadata" => {
                    let at = &at.key("metadata");
                    metadata = Some(wire::object(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolResult {
            output: output.ok_or_else(|| wire::missing(at, "output"))?,
            is_error: is_error.unwrap_or_default(),
            parts: parts.unwrap_or_default(),
            structured_content,
            metadata,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolResult {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.parts.nest(level + 1, nesting);
        self.structured_content.nest(level + 1, nesting);
        self.metadata.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("output", &self.output)?;
        map.serialize_entry("isError", &self.is_error)?;
        if !self.parts.is_empty() {
            map.serialize_entry("parts", &self.parts)?;
        }
        if self.structured_content.is_some() {
            map.serialize_entry("structuredContent", &self.structured_content)?;
        }
        if self.metadata.is_some() {
            map.serialize_entry("metadata", &self.metadata)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolResult {
    const NAME: &'static str = "ToolResult";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// An icon a host may show for a tool (MCP's `Icon`); never sent to a model.
///
/// `#[non_exhaustive]`: build one with [`ToolIcon::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolIcon {
    /// Where the icon is: an `https` URL or a `data:` URI.
    pub src: String,
    /// The icon's media type, when the URL does not say it.
    pub mime_type: Option<String>,
    /// The sizes it comes in, as HTML writes them (`48x48`, `any`). Empty is omitted.
    pub sizes: Vec<String>,
    /// The background it is drawn for.
    pub theme: Option<ToolIconTheme>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolIcon {
    /// A `ToolIcon` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(src: impl Into<String>) -> Self {
        ToolIcon {
            src: src.into(),
            mime_type: None,
            sizes: Default::default(),
            theme: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut src = None;
        let mut mime_type = None;
        let mut sizes = None;
        let mut theme = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "src" => {
                    let at = &at.key("src");
                    src = Some(wire::checked_string(value, at, &TOOL_ICON_SRC)?);
                }
                "mimeType" => {
                    let at = &at.key("mimeType");
                    mime_type = Some(wire::string(value, at)?);
                }
                "sizes" => {
                    let at = &at.key("sizes");
                    sizes = Some(wire::array(value, at, wire::string)?);
                }
                "theme" => {
                    let at = &at.key("theme");
                    theme = Some(ToolIconTheme::parse_at(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolIcon {
            src: src.ok_or_else(|| wire::missing(at, "src"))?,
            mime_type,
            sizes: sizes.unwrap_or_default(),
            theme,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolIcon {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolIcon {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("src", &self.src)?;
        if self.mime_type.is_some() {
            map.serialize_entry("mimeType", &self.mime_type)?;
        }
        if !self.sizes.is_empty() {
            map.serialize_entry("sizes", &self.sizes)?;
        }
        if self.theme.is_some() {
            map.serialize_entry("theme", &self.theme)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolIcon {
    const NAME: &'static str = "ToolIcon";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolIcon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// Advisory hints about how a tool behaves, for the host (an approval policy, MCP tool
/// annotations, whether an MCP server runs its calls as tasks); never sent to a model. Upstream
/// toolnexus 0.22 writes the first three.
///
/// `#[non_exhaustive]`: build one with [`ToolHints::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolHints {
    /// The tool does not change its environment.
    pub read_only: bool,
    /// The tool may delete or overwrite; meaningful only when it is not read-only.
    pub destructive: bool,
    /// The tool reaches entities outside a closed domain, such as the web.
    pub open_world: bool,
    /// Calling the tool again with the same arguments has no further effect; meaningful only
    /// when it is not read-only (MCP's `idempotentHint`).
    pub idempotent: Option<bool>,
    /// A name for people to read (MCP's `title` of a tool); the model still sees the tool's
    /// `name`.
    pub title: Option<String>,
    /// A call may take long (minutes, or a person's answer): an MCP server runs it as a task
    /// (the `io.modelcontextprotocol/tasks` extension) for a client that supports tasks.
    pub long_running: Option<bool>,
    /// Icons a host may show for the tool (MCP's `icons`). Empty is omitted.
    pub icons: Vec<ToolIcon>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolHints {
    /// A `ToolHints` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(read_only: bool, destructive: bool, open_world: bool) -> Self {
        ToolHints {
            read_only,
            destructive,
            open_world,
            idempotent: None,
            title: None,
            long_running: None,
            icons: Default::default(),
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut read_only = None;
        let mut destructive = None;
        let mut open_world = None;
        let mut idempotent = None;
        let mut title = None;
        let mut long_running = None;
        let mut icons = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "readOnly" => {
                    let at = &at.key("readOnly");
                    read_only = Some(wire::boolean(value, at)?);
                }
                "destructive" => {
                    let at = &at.key("destructive");
                    destructive = Some(wire::boolean(value, at)?);
                }
                "openWorld" => {
                    let at = &at.key("openWorld");
                    open_world = Some(wire::boolean(value, at)?);
                }
                "idempotent" => {
                    let at = &at.key("idempotent");
                    idempotent = Some(wire::boolean(value, at)?);
                }
                "title" => {
                    let at = &at.key("title");
                    title = Some(wire::string(value, at)?);
                }
                "longRunning" => {
                    let at = &at.key("longRunning");
                    long_running = Some(wire::boolean(value, at)?);
                }
                "icons" => {
                    let at = &at.key("icons");
                    icons = Some(wire::array(value, at, ToolIcon::parse_at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolHints {
            read_only: read_only.ok_or_else(|| wire::missing(at, "readOnly"))?,
            destructive: destructive.ok_or_else(|| wire::missing(at, "destructive"))?,
            open_world: open_world.ok_or_else(|| wire::missing(at, "openWorld"))?,
            idempotent,
            title,
            long_running,
            icons: icons.unwrap_or_default(),
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolHints {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.icons.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolHints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("readOnly", &self.read_only)?;
        map.serialize_entry("destructive", &self.destructive)?;
        map.serialize_entry("openWorld", &self.open_world)?;
        if self.idempotent.is_some() {
            map.serialize_entry("idempotent", &self.idempotent)?;
        }
        if self.title.is_some() {
            map.serialize_entry("title", &self.title)?;
        }
        if self.long_running.is_some() {
            map.serialize_entry("longRunning", &self.long_running)?;
        }
        if !self.icons.is_empty() {
            map.serialize_entry("icons", &self.icons)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolHints {
    const NAME: &'static str = "ToolHints";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolHints {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// How a tool is declared to a model: its name, what it does, and the JSON Schemas of its
/// arguments and, when it has one, of its structured output.
///
/// `#[non_exhaustive]`: build one with [`ToolSpec::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolSpec {
    /// The tool's name, made of ASCII letters, digits, `_` and `-`.
    pub name: String,
    /// What the tool does, written for the model.
    pub description: String,
    /// The JSON Schema that the tool's arguments satisfy; an object schema.
    pub input_schema: Map<String, Value>,
    /// Where the tool comes from, such as `python:package.module.function` or
    /// `mcp:server-name`.
    pub source: Option<String>,
    /// Advisory hints about how the tool behaves, when it declares them; host-only: an adapter
    /// sends them to MCP as tool annotations and to no model.
    pub hints: Option<ToolHints>,
    /// The JSON Schema that the tool's `structuredContent` satisfies, when the tool returns
    /// structured data; an object schema. Named as MCP names it.
    pub output_schema: Option<Map<String, Value>>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolSpec {
    /// A `ToolSpec` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(name: impl Into<String>, description: impl Into<String>, input_schema: Map<String, Value>) -> Self {
        ToolSpec {
            name: name.into(),
            description: description.into(),
            input_schema,
            source: None,
            hints: None,
            output_schema: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut name = None;
        let mut description = None;
        let mut input_schema = None;
        let mut source = None;
        let mut hints = None;
        let mut output_schema = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "name" => {
                    let at = &at.key("name");
                    name = Some(wire::checked_string(value, at, &TOOL_SPEC_NAME)?);
                }
                "description" => {
                    let at = &at.key("description");
                    description = Some(wire::string(value, at)?);
                }
                "inputSchema" => {
                    let at = &at.key("inputSchema");
                    input_schema = Some(wire::object(value, at)?);
                }
                "source" => {
                    let at = &at.key("source");
                    source = Some(wire::string(value, at)?);
                }
                "hints" => {
                    let at = &at.key("hints");
                    hints = Some(ToolHints::parse_at(value, at)?);
                }
                "outputSchema" => {
                    let at = &at.key("outputSchema");
                    output_schema = Some(wire::object(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolSpec {
            name: name.ok_or_else(|| wire::missing(at, "name"))?,
            description: description.ok_or_else(|| wire::missing(at, "description"))?,
            input_schema: input_schema.ok_or_else(|| wire::missing(at, "inputSchema"))?,
            source,
            hints,
            output_schema,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolSpec {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.input_schema.nest(level + 1, nesting);
        self.hints.nest(level + 1, nesting);
        self.output_schema.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("description", &self.description)?;
        map.serialize_entry("inputSchema", &self.input_schema)?;
        if self.source.is_some() {
            map.serialize_entry("source", &self.source)?;
        }
        if self.hints.is_some() {
            map.serialize_entry("hints", &self.hints)?;
        }
        if self.output_schema.is_some() {
            map.serialize_entry("outputSchema", &self.output_schema)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolSpec {
    const NAME: &'static str = "ToolSpec";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// One tool call that a model asked for in a turn.
///
/// `#[non_exhaustive]`: build one with [`ToolCall::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolCall {
    /// The provider's id for the call; the result goes back under the same id.
    pub id: String,
    /// The name of the tool to call.
    pub name: String,
    /// The arguments, already parsed from the model's JSON text.
    pub arguments: Map<String, Value>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolCall {
    /// A `ToolCall` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Map<String, Value>) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut id = None;
        let mut name = None;
        let mut arguments = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "id" => {
                    let at = &at.key("id");
                    id = Some(wire::string(value, at)?);
                }
                "name" => {
                    let at = &at.key("name");
                    name = Some(wire::string(value, at)?);
                }
                "arguments" => {
                    let at = &at.key("arguments");
                    arguments = Some(wire::object(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolCall {
            id: id.ok_or_else(|| wire::missing(at, "id"))?,
            name: name.ok_or_else(|| wire::missing(at, "name"))?,
            arguments: arguments.ok_or_else(|| wire::missing(at, "arguments"))?,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolCall {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.arguments.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolCall {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("arguments", &self.arguments)?;
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolCall {
    const NAME: &'static str = "ToolCall";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolCall {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// The result of one `ToolCall`, under the call's id and tool name.
///
/// `#[non_exhaustive]`: build one with [`ToolCallResult::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolCallResult {
    /// The id of the `ToolCall` this answers.
    pub id: String,
    /// The name of the tool that ran.
    pub name: String,
    /// What the tool returned.
    pub result: ToolResult,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolCallResult {
    /// A `ToolCallResult` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(id: impl Into<String>, name: impl Into<String>, result: ToolResult) -> Self {
        ToolCallResult {
            id: id.into(),
            name: name.into(),
            result,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut id = None;
        let mut name = None;
        let mut result = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "id" => {
                    let at = &at.key("id");
                    id = Some(wire::string(value, at)?);
                }
                "name" => {
                    let at = &at.key("name");
                    name = Some(wire::string(value, at)?);
                }
                "result" => {
                    let at = &at.key("result");
                    result = Some(ToolResult::parse_at(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolCallResult {
            id: id.ok_or_else(|| wire::missing(at, "id"))?,
            name: name.ok_or_else(|| wire::missing(at, "name"))?,
            result: result.ok_or_else(|| wire::missing(at, "result"))?,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolCallResult {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.result.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolCallResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("result", &self.result)?;
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolCallResult {
    const NAME: &'static str = "ToolCallResult";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolCallResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// The outcome of running one turn of tool calls: every result, or a stop on a suspension that
/// a host can store and resume from later, in another process.
///
/// `#[non_exhaustive]`: build one with [`RunResult::new`], then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunResult {
    /// `done` when every call has its result; `pending` when the run stopped on a suspension
    /// and waits for an `Answer`.
    pub status: RunResultStatus,
    /// The finished results, in call order.
    pub results: Vec<ToolCallResult>,
    /// The request the run waits on; present exactly when `status` is `pending`.
    pub pending: Option<Request>,
    /// The calls that have no result yet, in call order; the first is the one whose suspension
    /// is `pending`. Omitted when empty.
    pub calls: Vec<ToolCall>,
    /// The suspensions of the calls in `calls`: one `Request` per call, in the same order, the
    /// first being `pending`. `resume` asks each waiting call's own request in turn rather than
    /// running the call again. Omitted when empty.
    pub requests: Vec<Request>,
    /// The ids of the turn's calls, in call order, kept by a `pending` run so that the results
    /// come back in call order after a `resume`. Omitted when empty.
    pub order: Vec<String>,
    /// Identifies the turn, together with `order`: a random id `run_calls` writes on a pending
    /// run (or the host's own `turn_id`), so that calls of two turns that reuse an id
    /// (`call_0`) get different idempotency keys and answers. Omitted when empty.
    pub turn: String,
    /// A tamper-evident seal over `results`, `pending`, `calls`, `requests`, `order` and
    /// `turn`, present when the host runs with a secret; `resume` rejects a run whose seal does
    /// not match.
    pub seal: Option<String>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
    /// Not on the wire: where the text it was read from held an integer beyond 64 bits
    /// (see `wire::WideIntegers`).
    pub(crate) wide_integers: wire::WideIntegers,
}

impl RunResult {
    /// A `RunResult` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(status: RunResultStatus, results: Vec<ToolCallResult>) -> Self {
        RunResult {
            status,
            results,
            pending: None,
            calls: Default::default(),
            requests: Default::default(),
            order: Default::default(),
            turn: Default::default(),
            seal: None,
            extra: Map::new(),
            wide_integers: Default::default(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut status = None;
        let mut results = None;
        let mut pending = None;
        let mut calls = None;
        let mut requests = None;
        let mut order = None;
        let mut turn = None;
        let mut seal = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "status" => {
                    let at = &at.key("status");
                    status = Some(RunResultStatus::parse_at(value, at)?);
                }
                "results" => {
                    let at = &at.key("results");
                    results = Some(wire::array(value, at, ToolCallResult::parse_at)?);
                }
                "pending" => {
                    let at = &at.key("pending");
                    pending = Some(Request::parse_at(value, at)?);
                }
                "calls" => {
                    let at = &at.key("calls");
                    calls = Some(wire::array(value, at, ToolCall::parse_at)?);
                }
                "requests" => {
                    let at = &at.key("requests");
                    requests = Some(wire::array(value, at, Request::parse_at)?);
                }
                "order" => {
                    let at = &at.key("order");
                    order = Some(wire::array(value, at, wire::string)?);
                }
                "turn" => {
                    let at = &at.key("turn");
                    turn = Some(wire::string(value, at)?);
                }
                "seal" => {
                    let at = &at.key("seal");
                    seal = Some(wire::string(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = RunResult {
            status: status.ok_or_else(|| wire::missing(at, "status"))?,
            results: results.ok_or_else(|| wire::missing(at, "results"))?,
            pending,
            calls: calls.unwrap_or_default(),
            requests: requests.unwrap_or_default(),
            order: order.unwrap_or_default(),
            turn: turn.unwrap_or_default(),
            seal,
            extra,
            wide_integers: Default::default(),
        };
        Ok(parsed)
    }
}

impl Nest for RunResult {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.results.nest(level + 1, nesting);
        self.pending.nest(level + 1, nesting);
        self.calls.nest(level + 1, nesting);
        self.requests.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for RunResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("status", &self.status)?;
        map.serialize_entry("results", &self.results)?;
        if self.pending.is_some() {
            map.serialize_entry("pending", &self.pending)?;
        }
        if !self.calls.is_empty() {
            map.serialize_entry("calls", &self.calls)?;
        }
        if !self.requests.is_empty() {
            map.serialize_entry("requests", &self.requests)?;
        }
        if !self.order.is_empty() {
            map.serialize_entry("order", &self.order)?;
        }
        if !self.turn.is_empty() {
            map.serialize_entry("turn", &self.turn)?;
        }
        if self.seal.is_some() {
            map.serialize_entry("seal", &self.seal)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for RunResult {
    const NAME: &'static str = "RunResult";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }

    /// Parses JSON text, noting where it held an integer beyond 64 bits that serde_json
    /// read as a double (without the feature `lossless`), so that a seal over it is refused.
    fn from_json(text: &str) -> Result<Self, WireError> {
        let mut parsed: Self = wire::from_text(text)?;
        parsed.wide_integers = wire::WideIntegers::scan(text);
        Ok(parsed)
    }
}

impl<'de> Deserialize<'de> for RunResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// What a running call reports before its result: how far it has got, in words, and a partial
/// result. A host relays it (to a UI, as MCP progress, as Temporal heartbeat details); it never
/// reaches the model, and the call's result replaces every partial.
///
/// `#[non_exhaustive]`: build one with [`ToolEvent::new`] or `Default`, then set
/// its public fields; a field added in a minor version breaks no code.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct ToolEvent {
    /// The id of the `ToolCall` that is running.
    pub call_id: String,
    /// How far the call has got, in whole percent (0 to 100; a tool reports a fraction, which
    /// is rounded).
    pub percent: Option<Number>,
    /// What the call is doing, in a few words.
    pub message: Option<String>,
    /// The result so far, as the tool yields it; the call's last value is its result.
    pub partial: Option<ToolResult>,
    /// Keys this version of the schema does not know, kept from parsing and written
    /// after the known keys: in the order they came with the feature `lossless`, else
    /// in sorted order. Must not repeat a known key.
    pub extra: Map<String, Value>,
}

impl ToolEvent {
    /// A `ToolEvent` of these required fields; every other field is absent, empty or
    /// its schema default.
    pub fn new(call_id: impl Into<String>) -> Self {
        ToolEvent {
            call_id: call_id.into(),
            percent: None,
            message: None,
            partial: None,
            extra: Map::new(),
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        let mut call_id = None;
        let mut percent = None;
        let mut message = None;
        let mut partial = None;
        let mut extra = Map::new();
        for (key, value) in wire::object(value, at)? {
            match key.as_str() {
                "callId" => {
                    let at = &at.key("callId");
                    call_id = Some(wire::string(value, at)?);
                }
                "percent" => {
                    let at = &at.key("percent");
                    percent = Some(wire::integer(value, at)?);
                }
                "message" => {
                    let at = &at.key("message");
                    message = Some(wire::string(value, at)?);
                }
                "partial" => {
                    let at = &at.key("partial");
                    partial = Some(ToolResult::parse_at(value, at)?);
                }
                _ => {
                    extra.insert(key, value);
                }
            }
        }
        let parsed = ToolEvent {
            call_id: call_id.ok_or_else(|| wire::missing(at, "callId"))?,
            percent,
            message,
            partial,
            extra,
        };
        Ok(parsed)
    }
}

impl Nest for ToolEvent {
    fn nest<'a>(&'a self, level: usize, nesting: &mut Nesting<'a>) {
        nesting.container(level);
        self.partial.nest(level + 1, nesting);
        nesting.members(&self.extra, level + 1);
    }
}

/// Refuses a value nested more than `MAX_DEPTH` levels (checked first, without recursing),
/// then writes the keys in schema order, the unknown keys last.
impl Serialize for ToolEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        wire::emittable(self).map_err(|e| S::Error::custom(e.message()))?;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("callId", &self.call_id)?;
        if self.percent.is_some() {
            map.serialize_entry("percent", &self.percent)?;
        }
        if self.message.is_some() {
            map.serialize_entry("message", &self.message)?;
        }
        if self.partial.is_some() {
            map.serialize_entry("partial", &self.partial)?;
        }
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl Wire for ToolEvent {
    const NAME: &'static str = "ToolEvent";

    fn from_wire(value: Value) -> Result<Self, WireError> {
        let value = wire::document(value).map_err(|e| e.in_type(Self::NAME))?;
        Self::parse_at(value, &JsonPath::Root).map_err(|e| e.in_type(Self::NAME))
    }
}

impl<'de> Deserialize<'de> for ToolEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        wire::deserialize(deserializer)
    }
}

/// Who the part is meant for: `user` (the person using the host), `assistant` (the model), or
/// both. Absent means both. Empty is omitted (and reads as absent). A provider adapter leaves a
/// part whose audience is `user` alone out of the model's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum AnnotationsAudienceItem {
    /// The wire value `user`.
    #[serde(rename = "user")]
    User,
    /// The wire value `assistant`.
    #[serde(rename = "assistant")]
    Assistant,
}

impl AnnotationsAudienceItem {
    /// Every value, in schema order.
    pub const ALL: [Self; 2] = [Self::User, Self::Assistant];

    /// The wire value, such as `"user"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Assistant => "assistant",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for AnnotationsAudienceItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for AnnotationsAudienceItem {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("AnnotationsAudienceItem"))
    }
}

impl PartialEq<str> for AnnotationsAudienceItem {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for AnnotationsAudienceItem {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<AnnotationsAudienceItem> for &str {
    fn eq(&self, other: &AnnotationsAudienceItem) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for AnnotationsAudienceItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What the part holds: `text` (in `text`), `image`, `audio`, or `file` for anything else,
/// video included. The APIs name this field `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ContentPartKind {
    /// The wire value `text`.
    #[serde(rename = "text")]
    Text,
    /// The wire value `image`.
    #[serde(rename = "image")]
    Image,
    /// The wire value `audio`.
    #[serde(rename = "audio")]
    Audio,
    /// The wire value `file`.
    #[serde(rename = "file")]
    File,
}

impl ContentPartKind {
    /// Every value, in schema order.
    pub const ALL: [Self; 4] = [Self::Text, Self::Image, Self::Audio, Self::File];

    /// The wire value, such as `"text"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Image => "image",
            Self::Audio => "audio",
            Self::File => "file",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for ContentPartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ContentPartKind {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("ContentPartKind"))
    }
}

impl PartialEq<str> for ContentPartKind {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ContentPartKind {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ContentPartKind> for &str {
    fn eq(&self, other: &ContentPartKind) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for ContentPartKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Why the answer is not ok: `declined`, `cancelled` or `expired`. The upstream ports take any
/// text here; this contract refuses any other value (send `declined`, and the text in `data`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum AnswerReason {
    /// The wire value `declined`.
    #[serde(rename = "declined")]
    Declined,
    /// The wire value `cancelled`.
    #[serde(rename = "cancelled")]
    Cancelled,
    /// The wire value `expired`.
    #[serde(rename = "expired")]
    Expired,
}

impl AnswerReason {
    /// Every value, in schema order.
    pub const ALL: [Self; 3] = [Self::Declined, Self::Cancelled, Self::Expired];

    /// The wire value, such as `"declined"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Declined => "declined",
            Self::Cancelled => "cancelled",
            Self::Expired => "expired",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for AnswerReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for AnswerReason {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("AnswerReason"))
    }
}

impl PartialEq<str> for AnswerReason {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for AnswerReason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<AnswerReason> for &str {
    fn eq(&self, other: &AnswerReason) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for AnswerReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The background it is drawn for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ToolIconTheme {
    /// The wire value `light`.
    #[serde(rename = "light")]
    Light,
    /// The wire value `dark`.
    #[serde(rename = "dark")]
    Dark,
}

impl ToolIconTheme {
    /// Every value, in schema order.
    pub const ALL: [Self; 2] = [Self::Light, Self::Dark];

    /// The wire value, such as `"light"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for ToolIconTheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ToolIconTheme {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("ToolIconTheme"))
    }
}

impl PartialEq<str> for ToolIconTheme {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ToolIconTheme {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ToolIconTheme> for &str {
    fn eq(&self, other: &ToolIconTheme) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for ToolIconTheme {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// `done` when every call has its result; `pending` when the run stopped on a suspension and
/// waits for an `Answer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum RunResultStatus {
    /// The wire value `done`.
    #[serde(rename = "done")]
    Done,
    /// The wire value `pending`.
    #[serde(rename = "pending")]
    Pending,
}

impl RunResultStatus {
    /// Every value, in schema order.
    pub const ALL: [Self; 2] = [Self::Done, Self::Pending];

    /// The wire value, such as `"done"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Done => "done",
            Self::Pending => "pending",
        }
    }

    pub(crate) fn parse_at(value: Value, at: &JsonPath<'_>) -> Result<Self, WireError> {
        wire::enum_value(value, at, &Self::ALL.map(|v| (v.as_str(), v)))
    }
}

impl fmt::Display for RunResultStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RunResultStatus {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Self, WireError> {
        Self::parse_at(Value::from(s), &JsonPath::Root).map_err(|e| e.in_type("RunResultStatus"))
    }
}

impl PartialEq<str> for RunResultStatus {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RunResultStatus {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<RunResultStatus> for &str {
    fn eq(&self, other: &RunResultStatus) -> bool {
        *self == other.as_str()
    }
}

impl<'de> Deserialize<'de> for RunResultStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn patterns_compile() {
        assert!(super::CONTENT_PART_DATA.regex().is_some());
        assert!(super::ANSWER_SCOPE.regex().is_some());
        assert!(super::TOOL_SPEC_NAME.regex().is_some());
    }
}
