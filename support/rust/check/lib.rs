//! The crate `toolnexus` as generated/rust/src/lib.rs lays it out, with the hand-written
//! modules read from support/rust/src/ (where they are edited) and the wire types from
//! generated/rust/src/types.rs (written by `make gen` from idl/). Only for compiling,
//! linting and testing the support files in place; not copied into the crate.
#![warn(missing_docs)]

#[path = "../src/media.rs"]
mod media;
#[path = "../src/result.rs"]
mod result;
#[cfg(feature = "runtime")]
#[path = "../src/runtime.rs"]
mod runtime;
#[path = "../src/suspend.rs"]
mod suspend;
#[path = "../../../generated/rust/src/types.rs"]
#[rustfmt::skip] // generated, laid out by its template
mod types;
#[path = "../src/wire.rs"]
mod wire;

pub use media::{BytesError, DEFAULT_MAX_BYTES, FileError, MimeTypeError, UrlError};
#[cfg(feature = "runtime")]
pub use runtime::*;
pub use suspend::{DEFAULT_AUTH_PROMPT, auth_required, new_request_id, pending, pending_of};
pub use types::{
    Annotations, AnnotationsAudienceItem, Answer, AnswerReason, ContentPart, ContentPartKind,
    Request, RunResult, RunResultStatus, SCHEMA_VERSION, TYPE_NAMES, ToolCall, ToolCallResult,
    ToolEvent, ToolHints, ToolIcon, ToolIconTheme, ToolResult, ToolSpec, roundtrip,
};
pub use wire::{MAX_DEPTH, Wire, WireError, drop_deep, parse};

/// The `serde_json` the crate is built with (`Map` and `Value` are in its API).
pub use serde_json;
