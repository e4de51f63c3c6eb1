// Generated from idl/ (nest schema 2.0.0, sha256 9d9d9c3336abe30c1393e2927f3e7698f176b4ec0c3166ad1dd10ec4085a5ff4).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The loop's data, from idl/loop.json (see codegen/loop_data.py).
// Each configuration of the crate (the wire types alone, the runtime) uses a part of it.
#![allow(dead_code)]

/// How deep a document may nest.
pub const MAX_DEPTH: usize = 100;
