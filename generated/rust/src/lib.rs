// Generated from idl/ (toolnexus schema 3.0.0, sha256 7c02d43fec5c2c9bfa10d6191917dc130547ddb2023763bf62894f137966e7a2).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The toolnexus wire contract in Rust: the envelope an LLM tool returns
//! ([`ToolResult`]), and the suspend-and-resume protocol built on it
//! ([`pending`], [`auth_required`], [`pending_of`], [`Request`], [`Answer`]).
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 3.0.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes:
//!
//! ```
//! use toolnexus::{ToolResult, Wire};
//!
//! let r = ToolResult::from_json(r#"{"output":"4","isError":false,"trace":"t-1"}"#)?;
//! assert_eq!(r.output, "4");
//! assert_eq!(r.to_json(), r#"{"output":"4","isError":false,"trace":"t-1"}"#);
//!
//! let bad = ToolResult::from_json(r#"{"output":"4","parts":[{"type":"video","url":"v.mp4"}]}"#);
//! let err = bad.unwrap_err();
//! assert_eq!(err.path(), "$.parts[0].type");
//! assert_eq!(err.message(), r#""video" is not one of "text", "image", "audio", "file""#);
//! # Ok::<(), toolnexus::WireError>(())
//! ```
//!
//! # Exact bytes: the `lossless` feature
//!
//! Free-form JSON (the schema's open objects, such as `metadata`, and the unknown keys a
//! type keeps) is held as [`serde_json::Map`] and [`serde_json::Value`]. The crate's
//! feature `lossless`, off by default, turns on serde_json's `preserve_order` and
//! `arbitrary_precision`: keys then keep the order they came or were inserted in, and
//! numbers their digits as written (only an exponent gets its sign: `1e2` comes back as
//! `1e+2`), so every document in the contract's canonical form comes back byte for byte.
//! It is opt-in because cargo turns a feature on for the whole build, and those two
//! change how other serde code behaves (an `f64` in an `#[serde(untagged)]` enum or a
//! `#[serde(flatten)]` struct no longer deserializes). Without it (unless another crate
//! turns them on):
//!
//! - the keys of a free-form object, and the unknown keys of a type, are written in sorted
//!   order, not in the order they came or were inserted ([`Wire::to_json`] writes a type's
//!   own keys in schema order either way);
//! - an integer outside the range of `i64` and `u64` is read as the nearest `f64`
//!   (`123456789012345678901234567890` comes back as `1.2345678901234568e+29`); a number
//!   beyond the range of `f64` (`1e400`) is rejected either way;
//! - a number written with a fraction or an exponent (or as `-0`) is written in
//!   serde_json's shortest form: `2.50` as `2.5`, `1e2` as `100.0`, `-0` as `-0.0`.
//!
//! # Limits
//!
//! Parsing rejects at `$`, before the schema's checks and as every language of the
//! contract does, text that is not RFC 8259 JSON (`NaN`, a lone surrogate escape), a
//! number beyond the range of a double, and a document nested more than [`MAX_DEPTH`]
//! levels. Emitting refuses a value nested more than [`MAX_DEPTH`] levels, checked
//! without recursing: [`Wire::try_to_json`] and every type's `Serialize` return an
//! error, [`Wire::to_json`] panics. A [`serde_json::Value`] built in code many thousands
//! of levels deep still overflows the stack when it is dropped (serde_json drops
//! recursively); [`drop_deep`] drops one without recursing.
#![warn(missing_docs)]

mod loop_data;
mod media;
mod result;
#[cfg(feature = "runtime")]
mod runtime;
mod suspend;
#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use media::{BytesError, DEFAULT_MAX_BYTES, FileError, MimeTypeError, UrlError};
#[cfg(feature = "runtime")]
pub use runtime::*;
pub use suspend::{DEFAULT_AUTH_PROMPT, auth_required, new_request_id, pending, pending_of};
pub use types::{
    Annotations, AnnotationsAudienceItem, Answer, AnswerReason, ContentPart, ContentPartKind,
    Request, RunResult, RunResultStatus, SCHEMA_VERSION, TYPE_NAMES, ToolCall, ToolCallResult,
    ToolEvent, ToolHints, ToolIcon, ToolIconTheme, ToolResult, ToolSpec, roundtrip,
};
pub use wire::{MAX_DEPTH, Wire, WireError, drop_deep, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
