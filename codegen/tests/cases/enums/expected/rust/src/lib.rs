// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The enums wire contract in Rust.
//!
//! Closed sets of strings, required, optional and in arrays.
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 1.2.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes.
#![warn(missing_docs)]

#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use types::{
    Light, LightColor, LightCycleItem, LightMode, SCHEMA_VERSION, TYPE_NAMES, roundtrip,
};
pub use wire::{Wire, WireError, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
