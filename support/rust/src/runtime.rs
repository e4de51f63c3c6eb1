// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The runtime: tools, the loop and the seal, behind the crate's feature `runtime` (on by
//! default; `default-features = false` leaves the wire types alone, without these modules
//! or their dependencies).
//!
//! - [`define_tool`] and [`Tool::call`]: a handler, its arguments checked against a JSON
//!   Schema, and every failure (bad arguments, an error, a panic, a timeout) an error
//!   result, as the Python runtime's `Tool.call` writes it;
//! - [`engine`]: the loop's rules as pure steps (`start`, `ran`, `answered`, `timed`,
//!   `lapsed`, `gate`, `match_answers`), decisions (`decided`, `reached`, `reach`,
//!   `policy_of`, `applicable`, `gated`, `by_policy`) and [`engine::drive`], a port of the
//!   Python package's `toolnexus/_engine/` with the same texts;
//! - [`Toolkit`]: a host of the engine: `run_calls`, `resume`, `expire`, keys by id with
//!   rotation, a clock, the replay memory and the idempotency keys, and the decisions that
//!   outlive a turn ([`Policy`], kept by a [`PolicyStore`]) and their log ([`DecisionLog`]);
//! - [`Limit`]: results that fit the model, cut after every run to the tighter of a tool's
//!   and its toolkit's limit ([`engine::fit`]), the whole output kept in a [`ResultSpill`]
//!   ([`DirectorySpill`]) for the built-in [`read_result`] tool to page through;
//! - [`seal`]: the seal of a pending run, version 4 of `docs/seal.md` (RFC 8785 and
//!   HMAC-SHA256), so a run sealed by any package of the contract resumes in any other.
//!
//! The errors are drawn in `runtime/errors.rs`: [`ResumeError`] (a run refused, with a
//! [`ResumeReason`]), [`RunError`] (a turn refused), [`ToolkitError`] (a toolkit that cannot
//! be built) and [`SchemaError`] (a tool's schema that is no JSON Schema). A tool's failure
//! is never one of them: it is an error result.

#[path = "runtime/book.rs"]
mod book;
#[path = "runtime/engine.rs"]
pub mod engine;
#[path = "runtime/errors.rs"]
mod errors;
#[path = "runtime/join.rs"]
mod join;
#[path = "runtime/limit.rs"]
mod limit;
#[path = "runtime/policies.rs"]
mod policies;
#[path = "runtime/schema.rs"]
mod schema;
#[path = "runtime/seal.rs"]
pub mod seal;
#[path = "runtime/spill.rs"]
mod spill;
#[path = "runtime/time.rs"]
mod time;
#[path = "runtime/tool.rs"]
mod tool;
#[path = "runtime/toolkit.rs"]
mod toolkit;

pub use book::{idempotency_key, turn_digest};
pub use engine::{Decision, DecisionKind, MESSAGE_LIMIT, Policy, PolicyScope};
pub use errors::{Error, ResumeError, ResumeReason, RunError, SchemaError, ToolkitError};
pub use join::BoxFuture;
pub use limit::{Limit, REF_PREFIX, Tokenizer, cut_floor, estimate_tokens, marker};
pub use policies::{DecisionLog, PolicyMemory, PolicyStore};
pub use spill::{DirectorySpill, ResultScope, ResultSpill, read_result};
pub use tool::{
    ApprovalRule, Handler, IntoToolResult, LogHook, LogLevel, LogLevelError, NeedsApproval,
    ProgressError, ProgressHook, Tool, ToolContext, define_supplied_tool, define_tool,
    normalize_tool_name, try_define_supplied_tool, try_define_tool,
};
pub use toolkit::{Clock, ResumeOptions, RunOptions, Toolkit, ToolkitBuilder};
