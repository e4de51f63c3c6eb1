// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/result.rs (hand-written, copied verbatim).
// codegen: copy; requires ToolResult

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
    /// keys it already has (which keep their place with the feature `lossless`; without
    /// it the keys are in sorted order); its other metadata, such as a pending request,
    /// is kept.
    pub fn with_metadata(mut self, meta: Map<String, Value>) -> ToolResult {
        match &mut self.metadata {
            Some(existing) => {
                for (key, value) in meta {
                    if let Some(replaced) = existing.insert(key, value) {
                        // However deeply it nests (see `drop_deep`).
                        crate::drop_deep(replaced);
                    }
                }
            }
            None => self.metadata = Some(meta),
        }
        self
    }
}
