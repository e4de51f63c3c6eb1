// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The deep wire contract in Rust: the envelope an LLM tool returns
//! ([`ToolResult`]), and the suspend-and-resume protocol built on it
//! ([`pending`], [`auth_required`], [`pending_of`], [`Request`], [`Answer`]).
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 0.3.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes:
//!
//! ```
//! use toolnexus::{ToolResult, Wire};
//!
//! let r = ToolResult::from_json(r#"{"output":"4","isError":false,"trace":"t-1"}"#)?;
//! assert_eq!(r.output, "4");
//! assert_eq!(r.to_json(), r#"{"output":"4","isError":false,"trace":"t-1"}"#);
//!
//! let bad = ToolResult::from_json(r#"{"output":"4","parts":[{"kind":"image","mimeType":""}]}"#);
//! let err = bad.unwrap_err();
//! assert_eq!(err.path(), "$.parts[0].mimeType");
//! assert_eq!(err.message(), "shorter than the minimum length 1");
//! # Ok::<(), toolnexus::WireError>(())
//! ```
#![warn(missing_docs)]

mod media;
mod result;
mod suspend;
#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use media::{DEFAULT_MAX_BYTES, FileError};
pub use suspend::{DEFAULT_AUTH_PROMPT, auth_required, new_request_id, pending, pending_of};
pub use types::{Doc, Para, SCHEMA_VERSION, Section, Span, SpanStyle, TYPE_NAMES, roundtrip};
pub use wire::{Wire, WireError, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
