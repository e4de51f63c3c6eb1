// Generated from idl/ (mini schema 0.1.0, sha256 48fd3a01ee3a8aeff58393457f1c5b3755201e6590414d3b8acb17333de67558).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The mini wire contract in Rust.
//!
//! One small type.
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 0.1.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes.
#![warn(missing_docs)]

#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use types::{Note, SCHEMA_VERSION, TYPE_NAMES, roundtrip};
pub use wire::{Wire, WireError, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
