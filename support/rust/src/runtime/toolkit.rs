// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! The toolkit: routes a model's tool calls to tools, and hosts the loop in process.
//!
//! What happens to each call (approval, edited arguments, questions, retries, refusals,
//! expiry) is the engine's ([`engine`](crate::engine)); the toolkit only supplies its
//! effects: it runs handlers, asks `wait_for`, and tells the time. A call that suspends is
//! either answered on the spot through `wait_for`, or stops the run: the [`RunResult`] is
//! plain data that a host stores and later continues with [`Toolkit::resume`], possibly in
//! another process or another language. Its decisions (policies, the decision log) are kept
//! by [`policies`](super::policies).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use super::book::{RunBook, quoted};
use super::engine::Policy;
use super::errors::ToolkitError;
use super::join::BoxFuture;
use super::policies::Decisions;
use super::spill::ResultLimits;
use super::tool::{LogLevel, Tool, ToolContext, normalize_tool_name};
#[cfg(doc)]
use crate::RunResult;
use crate::{Answer, Request, ToolResult};

#[path = "toolkit/builder.rs"]
mod builder;
#[path = "toolkit/effects.rs"]
mod effects;
#[path = "toolkit/turns.rs"]
mod turns;

pub use builder::ToolkitBuilder;

/// The time, for every expiry the loop reads (the wall clock by default).
pub type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;
/// Answers a request during [`Toolkit::run_calls`].
type WaitFor = Arc<dyn Fn(Request) -> BoxFuture<'static, Answer> + Send + Sync>;
/// Hears what tools report through [`ToolContext::progress`]: the call id, the fraction, the
/// message.
type ToolkitProgress = Arc<dyn Fn(&str, f64, &str) + Send + Sync>;
/// Hears what tools log through [`ToolContext::log`]: the call id, the level, the message, the
/// data.
type ToolkitLog = Arc<dyn Fn(&str, LogLevel, &str, &Map<String, Value>) + Send + Sync>;

/// How [`Toolkit::run_calls`] runs a turn (all optional).
#[derive(Clone, Default)]
pub struct RunOptions {
    turn_id: Option<String>,
    expires_in: Option<Duration>,
    principal: Option<String>,
    session: Option<String>,
    wait_for: Option<WaitFor>,
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("turn_id", &self.turn_id)
            .field("expires_in", &self.expires_in)
            .field("principal", &self.principal)
            .field("session", &self.session)
            .field("wait_for", &self.wait_for.as_ref().map(|_| "Fn"))
            .finish()
    }
}

impl RunOptions {
    /// Names the turn (a fresh random id when not given): with the call ids it makes each
    /// call's idempotency key, and a pending run keeps it (`RunResult.turn`), so the calls
    /// of two turns that reuse an id such as `call_0` never share a key or an answer.
    pub fn turn_id(mut self, turn_id: impl Into<String>) -> RunOptions {
        self.turn_id = Some(turn_id.into());
        self
    }

    /// Seals a time after which `resume` refuses the run (`expired`); needs a key. At most
    /// 100 years.
    pub fn expires_in(mut self, expires_in: Duration) -> RunOptions {
        self.expires_in = Some(expires_in);
        self
    }

    /// Binds the run to a principal (a user or tenant id): `resume` then needs the same one
    /// (`principal`); needs a key. Policies made for that principal decide the turn's
    /// approvals, and it is who decides in the decision log.
    pub fn principal(mut self, principal: impl Into<String>) -> RunOptions {
        self.principal = Some(principal.into());
        self
    }

    /// Names the host's session: policies made with the scope `session:<id>` decide its
    /// turns' approvals.
    pub fn session(mut self, session: impl Into<String>) -> RunOptions {
        self.session = Some(session.into());
        self
    }

    /// Answers each suspension on the spot, one question at a time: an `ok` answer runs the
    /// call once more with the answer, a refusal or an expired request settles it. The run
    /// is then `done`.
    pub fn wait_for<F, Fut>(mut self, wait_for: F) -> RunOptions
    where
        F: Fn(Request) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Answer> + Send + 'static,
    {
        self.wait_for = Some(Arc::new(move |request| Box::pin(wait_for(request))));
        self
    }
}

/// How [`Toolkit::resume_with`] continues a run (all optional).
#[derive(Debug, Clone, Default)]
pub struct ResumeOptions {
    principal: Option<String>,
    session: Option<String>,
}

impl ResumeOptions {
    /// The principal resuming the run: a run bound to one needs the same. It is who
    /// decides, in the decision log, and the key of the policies `principal` scopes make.
    pub fn principal(mut self, principal: impl Into<String>) -> ResumeOptions {
        self.principal = Some(principal.into());
        self
    }

    /// The host's session, for policies (a `session:<id>` scope names its own).
    pub fn session(mut self, session: impl Into<String>) -> ResumeOptions {
        self.session = Some(session.into());
        self
    }
}

/// A set of tools, addressed by name, and the loop that runs a model's calls to them.
///
/// With keys ([`ToolkitBuilder::secret`], each at least 16 bytes), every pending
/// [`RunResult`] carries `seal` (version 4, `docs/seal.md`) under the active key, naming
/// it, with the expiry and principal `run_calls` may bind it to; `resume` refuses a run
/// whose seal does not hold, or names a key the toolkit no longer has (`seal`). To rotate,
/// add a new key and make it active: runs sealed under the old one still resume (and come
/// back sealed under the new one) until the old key is removed. Without a key, no seal is
/// written, and a sealed run is refused.
///
/// An approval's [`Answer::scope`] may reach beyond its call: `turn` decides the turn's
/// other approvals of the same tool alike; `session:<id>`, `principal` and `tool` also keep
/// a [`Policy`] ([`policies`](Toolkit::policies)) that decides later calls unasked, for the
/// policy lifetime (8 hours unless [`ToolkitBuilder::policy_lifetime`] says otherwise).
/// Every decision goes to the decision log ([`ToolkitBuilder::decision_log`]).
pub struct Toolkit {
    tools: Vec<Tool>,
    by_name: HashMap<String, usize>,
    book: RunBook,
    clock: Clock,
    on_progress: Option<ToolkitProgress>,
    on_log: Option<ToolkitLog>,
    decisions: Decisions,
    limits: ResultLimits,
}

impl fmt::Debug for Toolkit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.tools.iter().map(Tool::name).collect();
        f.debug_struct("Toolkit")
            .field("tools", &names)
            .field("active_key", &self.book.active.as_ref().map(|k| k.key_id()))
            .field("limit", &self.limits.limit)
            .finish_non_exhaustive()
    }
}

impl Toolkit {
    /// A toolkit of `tools`, without keys. A name with characters outside
    /// `[a-zA-Z0-9_-]` is registered with those characters replaced by `_`;
    /// [`ToolkitError`] when a name is empty or two tools have one (normalised) name.
    pub fn new(tools: impl IntoIterator<Item = Tool>) -> Result<Toolkit, ToolkitError> {
        Toolkit::builder().tools(tools).build()
    }

    /// A builder, for keys, a clock or a progress hook.
    pub fn builder() -> ToolkitBuilder {
        ToolkitBuilder::default()
    }

    fn register(&mut self, tool: Tool) -> Result<(), ToolkitError> {
        let name = normalize_tool_name(tool.name());
        if name.is_empty() {
            return Err(ToolkitError("a tool needs a non-empty name".to_owned()));
        }
        if self.by_name.contains_key(&name) {
            let was = if name == tool.name() {
                String::new()
            } else {
                format!(" (normalised from {})", quoted(tool.name()))
            };
            return Err(ToolkitError(format!(
                "a tool named {}{was} is already registered",
                quoted(&name)
            )));
        }
        let tool = if name == tool.name() {
            tool
        } else {
            tool.renamed(name.clone())
        };
        self.by_name.insert(name, self.tools.len());
        self.tools.push(tool);
        Ok(())
    }

    /// The tools, in registration order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The tool registered under `name` (normalised first).
    pub fn get(&self, name: &str) -> Option<&Tool> {
        let index = self
            .by_name
            .get(name)
            .or_else(|| self.by_name.get(&normalize_tool_name(name)))?;
        Some(&self.tools[*index])
    }

    /// The time by this toolkit's clock.
    pub fn now(&self) -> SystemTime {
        (self.clock)()
    }

    /// The decisions kept beyond their turn ([`Answer::scope`]), of `tool` when given,
    /// expired ones too; each approves or refuses the later calls it covers without asking.
    pub fn policies(&self, tool: Option<&str>) -> Vec<Policy> {
        self.decisions.store.policies(tool)
    }

    /// Revokes a policy by its id ([`Policy::id`]); `false` when there is none.
    pub fn revoke_policy(&self, policy_id: &str) -> bool {
        self.decisions.store.revoke(policy_id)
    }

    /// Runs the tool `name` (an unknown name is the error result `Unknown tool: <name>`).
    /// This is the tool run itself: it asks for no approval and applies no loop rule (nor a
    /// result limit: the loop cuts what `run_calls` and `resume` run).
    pub async fn execute(&self, name: &str, args: Value, ctx: ToolContext) -> ToolResult {
        match self.get(name) {
            None => ToolResult::error(format!("Unknown tool: {name}")),
            Some(tool) => tool.call(args, ctx).await,
        }
    }
}
