// Generated from idl/ (nest schema 2.0.0, sha256 97126eb81160e4cbc9fbb0e6ef8c8b197963ea825c0f6c9aadd45fd2706b192f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The nest wire contract in Rust.
//!
//! A type that holds another.
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 2.0.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes.
#![warn(missing_docs)]

#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use types::{Box, Item, ItemSize, SCHEMA_VERSION, TYPE_NAMES, roundtrip};
pub use wire::{Wire, WireError, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
