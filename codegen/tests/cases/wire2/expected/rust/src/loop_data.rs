// Generated from idl/ (wire2 schema 1.0.0, sha256 f6e9383411275297c30ab302ae6e2d5c71a68e0ad76b38167f649b072175702e).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The loop's data, from idl/loop.json (see codegen/loop_data.py).
// Each configuration of the crate (the wire types alone, the runtime) uses a part of it.
#![allow(dead_code)]

/// How deep a document may nest.
pub const MAX_DEPTH: usize = 100;
