// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The strict wire contract in Rust.
//!
//! A closed type whose every field is required.
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 1.0.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes.
#![warn(missing_docs)]

#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use types::{Point, SCHEMA_VERSION, TYPE_NAMES, roundtrip};
pub use wire::{Wire, WireError, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
