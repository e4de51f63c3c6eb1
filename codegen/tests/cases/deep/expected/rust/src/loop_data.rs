// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.

//! The loop's data, from idl/loop.json (see codegen/loop_data.py).
// Each configuration of the crate (the wire types alone, the runtime) uses a part of it.
#![allow(dead_code)]

/// How deep a document may nest.
pub const MAX_DEPTH: usize = 100;
