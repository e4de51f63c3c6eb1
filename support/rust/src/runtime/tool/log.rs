// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The lines a tool logs through [`ToolContext::log`](super::ToolContext::log): their levels,
//! and where they go.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde_json::{Map, Value};

/// The level of a line a tool logs, lowest first: MCP's levels, which are RFC 5424's syslog
/// severities, the same eight as Python's `LOG_LEVELS` and TypeScript's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detail for whoever debugs the tool.
    Debug,
    /// What the tool is doing.
    Info,
    /// Normal but worth noting.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the system failed.
    Critical,
    /// Someone must act now.
    Alert,
    /// The system cannot be used.
    Emergency,
}

impl LogLevel {
    /// Every level, lowest first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level's name, as MCP's `notifications/message` and the other languages write it
    /// (`"debug"` … `"emergency"`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the [`LogLevel`]s, given to [`LogLevel::from_str`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLevelError(pub String);

impl fmt::Display for LogLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = LogLevel::ALL.iter().map(|level| level.as_str()).collect();
        write!(
            f,
            "log takes a level of {}; got {:?}",
            names.join(", "),
            self.0
        )
    }
}

impl std::error::Error for LogLevelError {}

impl FromStr for LogLevel {
    type Err = LogLevelError;

    /// A level from its name, exactly as [`as_str`](LogLevel::as_str) writes it.
    fn from_str(name: &str) -> Result<LogLevel, LogLevelError> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == name)
            .ok_or_else(|| LogLevelError(name.to_owned()))
    }
}

/// Receives the lines a tool logs through [`ToolContext::log`](super::ToolContext::log): the
/// level, the message and the data that goes with it.
pub type LogHook = Arc<dyn Fn(LogLevel, &str, &Map<String, Value>) + Send + Sync>;
