// Generated from idl/ (enums schema 1.2.0, sha256 1b3351d4174578732efb74c03e93d6509b883db9b5a81ef4d561b8dcdffd2475).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The enums wire contract in Rust.
//!
//! Closed sets of strings, required, optional and in arrays.
//!
//! The types are generated from the JSON Schema files in `idl/` (schema
//! 1.2.0), the same source as the Python and TypeScript packages, and
//! they read and write the same bytes.
//!
//! # Exact bytes: the `lossless` feature
//!
//! Free-form JSON (the schema's open objects and the unknown keys a
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
#[rustfmt::skip] // laid out by its template
mod types;
mod wire;

pub use types::{
    Light, LightColor, LightCycleItem, LightMode, SCHEMA_VERSION, TYPE_NAMES, roundtrip,
};
pub use wire::{MAX_DEPTH, Wire, WireError, drop_deep, parse};

/// The `serde_json` this crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
