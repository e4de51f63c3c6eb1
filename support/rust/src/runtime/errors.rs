// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The runtime's errors, each documented against its nearest sibling. A tool's failure is
//! never one of them: [`Tool::call`](crate::Tool::call) and the toolkit turn it into an
//! error result.
//!
//! ```text
//! Error              the root: any error below, for a host that handles them in one place (`?`)
//! ├── WireError      (crate root) a document is not valid wire data (parsing; .path())
//! ├── ResumeError    resume/expire refused a run; .reason() names the check (the run is unchanged)
//! ├── RunError       run_calls refused the turn (Invalid) or wait_for answered another request (Resume)
//! ├── ToolkitError   a developer's mistake: a toolkit cannot be built as asked (a key, a key id, a name, a limit)
//! └── SchemaError    a developer's mistake: a tool's input schema is not a JSON Schema the crate checks
//! ```
//!
//! Each function returns its own error type, as before; [`Error`] takes any of them through
//! `From`, so `?` collects them, and [`std::error::Error::source`] gives the one inside. The
//! crate's file and media errors (`FileError`, `BytesError`, ...) stay apart: they are about
//! reading a file or building a part, not about the loop.

use std::fmt;

/// Why a run could not be resumed: [`ResumeError::reason`]. The wire names
/// ([`ResumeReason::as_str`]) are the Python package's `ResumeError.reason`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResumeReason {
    /// The answer's id is not the id of a request the run waits on.
    Mismatch,
    /// This toolkit already took an answer to that request (the same answer given twice,
    /// or an old copy of the run resumed again).
    Replayed,
    /// The run waits on nothing (`status` is `done`, or it has no pending request or no
    /// waiting call).
    NotPending,
    /// The seal is missing, altered or forged, names a key the toolkit does not have, is of
    /// a version this package does not check, or the run holds a value that cannot be
    /// sealed exactly; or the run is sealed and the toolkit has no key.
    Seal,
    /// The seal holds, and the time it allows for resuming has passed.
    Expired,
    /// The seal holds, and the run is bound to a principal other than the one given.
    Principal,
}

impl ResumeReason {
    /// Every reason, in the order the Python package lists them.
    pub const ALL: [ResumeReason; 6] = [
        ResumeReason::Mismatch,
        ResumeReason::Replayed,
        ResumeReason::NotPending,
        ResumeReason::Seal,
        ResumeReason::Expired,
        ResumeReason::Principal,
    ];

    /// The reason's name in every language: `mismatch`, `replayed`, `not_pending`, `seal`,
    /// `expired`, `principal`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResumeReason::Mismatch => "mismatch",
            ResumeReason::Replayed => "replayed",
            ResumeReason::NotPending => "not_pending",
            ResumeReason::Seal => "seal",
            ResumeReason::Expired => "expired",
            ResumeReason::Principal => "principal",
        }
    }
}

impl fmt::Display for ResumeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// [`Toolkit::resume`](crate::Toolkit::resume) or [`Toolkit::expire`](crate::Toolkit::expire)
/// refused a run; nothing ran, and the run is left as it was.
///
/// It differs from a [`WireError`](crate::WireError), which is raised while *parsing* a
/// document that is not valid wire data: a run that parses cleanly can still be refused
/// here. `reason` names the check that failed; the message says more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeError {
    reason: ResumeReason,
    message: String,
}

impl ResumeError {
    pub(crate) fn new(reason: ResumeReason, message: impl Into<String>) -> ResumeError {
        ResumeError {
            reason,
            message: message.into(),
        }
    }

    /// Which check refused the run.
    pub fn reason(&self) -> ResumeReason {
        self.reason
    }

    /// What is wrong, for a person.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.reason)
    }
}

impl std::error::Error for ResumeError {}

/// [`Toolkit::run_calls`](crate::Toolkit::run_calls) could not run a turn.
///
/// Unlike a tool's failure (an error result in the run), this stops the whole turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The turn cannot run as given: two calls share an id, the turn id is empty, or an
    /// expiry or a principal was asked of a toolkit without a key (they are sealed).
    Invalid(String),
    /// `wait_for` answered a request other than the one it was asked (reason `mismatch`).
    Resume(ResumeError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Invalid(message) => f.write_str(message),
            RunError::Resume(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

/// A [`Toolkit`](crate::Toolkit) cannot be built as asked: a key shorter than 16 bytes, a
/// key id outside `[A-Za-z0-9_-]{1,64}`, an active key that is not one of the keys, two
/// tools with one name, a result [`Limit`](crate::Limit) not above zero or below its marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolkitError(pub(crate) String);

impl fmt::Display for ToolkitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ToolkitError {}

/// A tool's input schema is not a valid JSON Schema ([`try_define_tool`](crate::try_define_tool);
/// [`define_tool`](crate::define_tool) panics with it). Bad *arguments* are never this
/// error: they are an error result of the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError(pub(crate) String);

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SchemaError {}

/// The root of the crate's errors: a [`WireError`](crate::WireError), a [`ResumeError`], a
/// [`RunError`], a [`ToolkitError`] or a [`SchemaError`], for a host that handles them in one
/// place. Every one converts into it (`?` in a function returning `Result<_, Error>`); match on
/// the variant for what went wrong, and `source()` is the error inside. New variants may come
/// (`#[non_exhaustive]`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A document is not valid wire data.
    Wire(crate::WireError),
    /// A run was refused.
    Resume(ResumeError),
    /// A turn could not run.
    Run(RunError),
    /// A toolkit cannot be built as asked.
    Toolkit(ToolkitError),
    /// A tool's input schema is not one the crate can check.
    Schema(SchemaError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Wire(e) => e.fmt(f),
            Error::Resume(e) => e.fmt(f),
            Error::Run(e) => e.fmt(f),
            Error::Toolkit(e) => e.fmt(f),
            Error::Schema(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Error::Wire(e) => e,
            Error::Resume(e) => e,
            Error::Run(e) => e,
            Error::Toolkit(e) => e,
            Error::Schema(e) => e,
        })
    }
}

impl From<crate::WireError> for Error {
    fn from(e: crate::WireError) -> Self {
        Error::Wire(e)
    }
}

impl From<ResumeError> for Error {
    fn from(e: ResumeError) -> Self {
        Error::Resume(e)
    }
}

impl From<RunError> for Error {
    fn from(e: RunError) -> Self {
        Error::Run(e)
    }
}

impl From<ToolkitError> for Error {
    fn from(e: ToolkitError) -> Self {
        Error::Toolkit(e)
    }
}

impl From<SchemaError> for Error {
    fn from(e: SchemaError) -> Self {
        Error::Schema(e)
    }
}
