// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! What a call knows besides its arguments ([`ToolContext`]), and what a handler may return
//! as its success ([`IntoToolResult`]).

use std::fmt;
use std::sync::Arc;
#[cfg(feature = "tokio")]
use std::time::Duration;

use serde_json::{Map, Value};

use super::log::{LogHook, LogLevel};
use crate::{Answer, MAX_DEPTH, Request, ToolResult};

/// Receives what a tool reports through [`ToolContext::progress`]: a fraction from 0 to 1
/// and a short message.
pub type ProgressHook = Arc<dyn Fn(f64, &str) + Send + Sync>;

/// What a call knows besides its arguments.
///
/// `answer` is set only when the call is a retry after a suspension, and `request` then
/// holds the [`Request`] it answers (as stored in the run, so it is there in any process
/// that resumes). `call_id` is the id of the `ToolCall` being run (empty when the tool is
/// called directly). `idempotency_key` stays the same for one call across its suspension,
/// its retry with an answer and any process (in any language) that resumes the run: a tool
/// with side effects passes it to the system it changes, so that a call run twice takes
/// effect once; it is empty when the tool is called directly. `on_progress` receives what
/// the tool reports through [`progress`](ToolContext::progress), and `on_log` the lines it
/// logs through [`log`](ToolContext::log).
///
/// `timeout` (with the feature `tokio`, on by default) bounds the call: an overrun is an
/// error result. To cancel a call, drop its future, as with any Rust future.
#[derive(Clone, Default)]
pub struct ToolContext {
    /// The answer of a retry.
    pub answer: Option<Answer>,
    /// The request `answer` answers.
    pub request: Option<Request>,
    /// The id of the call being run.
    pub call_id: String,
    /// The call's idempotency key (see above).
    pub idempotency_key: String,
    /// Where [`progress`](ToolContext::progress) reports go.
    pub on_progress: Option<ProgressHook>,
    /// Where the lines of [`log`](ToolContext::log) go.
    pub on_log: Option<LogHook>,
    /// The time the call may take, checking its arguments included (tokio's timer).
    #[cfg(feature = "tokio")]
    pub timeout: Option<Duration>,
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("ToolContext");
        d.field("answer", &self.answer)
            .field("request", &self.request)
            .field("call_id", &self.call_id)
            .field("idempotency_key", &self.idempotency_key)
            .field("on_progress", &self.on_progress.as_ref().map(|_| "Fn"))
            .field("on_log", &self.on_log.as_ref().map(|_| "Fn"));
        #[cfg(feature = "tokio")]
        d.field("timeout", &self.timeout);
        d.finish()
    }
}

/// A fraction outside 0..=1 given to [`ToolContext::progress`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProgressError(pub f64);

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "progress takes a fraction from 0 to 1, got {}", self.0)
    }
}

impl std::error::Error for ProgressError {}

impl ToolContext {
    /// Reports how far the call has got: `fraction` from 0 to 1, and a short message. It
    /// reaches the toolkit's progress hook; nothing happens when no one listens.
    pub fn progress(&self, fraction: f64, message: &str) -> Result<(), ProgressError> {
        if !(0.0..=1.0).contains(&fraction) {
            return Err(ProgressError(fraction));
        }
        if let Some(hook) = &self.on_progress {
            hook(fraction, message);
        }
        Ok(())
    }

    /// Logs a line of the call, for the people who run it (never the model): its `level`,
    /// a `message`, and `data` to go with it (empty for none). It reaches the toolkit's log
    /// hook ([`ToolkitBuilder::on_log`](crate::ToolkitBuilder::on_log)) under the call's id;
    /// nothing happens when no one listens (a tool called directly, or a toolkit without the
    /// hook). Python also writes it to its `logging`; a Rust host that wants the `log` or
    /// `tracing` crates forwards the hook's lines there.
    pub fn log(&self, level: LogLevel, message: &str, data: Map<String, Value>) {
        if let Some(hook) = &self.on_log {
            hook(level, message, &data);
        }
    }
}

/// What a handler may return as its success: text for the model (`String`, `&'static
/// str`), a whole [`ToolResult`] (a suspension, parts, metadata), nothing (`()`, or JSON
/// `null`: a success with an empty output, as Python's `None`), or any other JSON value,
/// which becomes its compact JSON text (a JSON string is the text itself).
pub trait IntoToolResult {
    /// The result for the model.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok(self)
    }
}

impl IntoToolResult for &'static str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok(self)
    }
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok("")
    }
}

impl IntoToolResult for Value {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Value::String(text) => ToolResult::ok(text),
            Value::Null => ToolResult::ok(""), // nothing returned: not the text `null`
            value if depth(&value) > MAX_DEPTH => ToolResult::error(format!(
                "the tool returned a value that is not JSON: nested more than {MAX_DEPTH} levels"
            )),
            value => ToolResult::ok(value.to_string()),
        }
    }
}

fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1usize)];
    while let Some((value, level)) = stack.pop() {
        match value {
            Value::Array(items) => {
                deepest = deepest.max(level);
                stack.extend(items.iter().map(|v| (v, level + 1)));
            }
            Value::Object(map) => {
                deepest = deepest.max(level);
                stack.extend(map.values().map(|v| (v, level + 1)));
            }
            _ => {}
        }
    }
    deepest
}
