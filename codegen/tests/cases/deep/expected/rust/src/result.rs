// Generated from idl/ (deep schema 0.3.0, sha256 4dc98f140ed7c0ffdcb8df9a9b23e58b0b4ab442c36ab15e0be5a35f0940376b).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: codegen/templates/rust/src/result.rs (hand-written, copied verbatim).

//! The helpers a tool builds its [`ToolResult`] with.

use serde_json::{Map, Value};

use crate::ToolResult;

impl ToolResult {
    /// A successful result with `output` for the model.
    pub fn ok(output: impl Into<String>) -> ToolResult {
        ToolResult {
            output: output.into(),
            ..ToolResult::default()
        }
    }

    /// A failed result: `message` is what the model reads. A failure is a result,
    /// never a panic or an error crossing the tool boundary.
    pub fn error(message: impl Into<String>) -> ToolResult {
        ToolResult {
            output: message.into(),
            is_error: true,
            ..ToolResult::default()
        }
    }

    /// This result with `meta`'s keys added to its metadata, replacing the values of
    /// keys it already has (which keep their place); its other metadata, such as a
    /// pending request, is kept.
    pub fn with_metadata(mut self, meta: Map<String, Value>) -> ToolResult {
        match &mut self.metadata {
            Some(existing) => existing.extend(meta),
            None => self.metadata = Some(meta),
        }
        self
    }
}
