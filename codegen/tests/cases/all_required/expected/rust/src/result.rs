// Generated from idl/ (strict schema 1.0.0, sha256 52b71e45b42915016b3bc2cf85db424c9e2687e0c6a4cf0fab8e7ed053c1291f).
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
