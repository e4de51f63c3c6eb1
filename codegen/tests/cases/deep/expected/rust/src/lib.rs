// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The deep wire contract in Rust.
//!
//! References nested three deep, and arrays of references.
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 0.3.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes.
#![warn(missing_docs)]

#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use types::{Doc, Para, SCHEMA_VERSION, Section, Span, SpanStyle, TYPE_NAMES, roundtrip};
pub use wire::{Wire, WireError, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
