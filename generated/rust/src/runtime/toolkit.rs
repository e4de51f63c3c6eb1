// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/runtime/toolkit.rs (hand-written, copied verbatim).
// codegen: copy; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

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
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::book::{RunBook, idempotency_key, quoted};
use super::engine::{
    Ask, Asked, Circumstances, Effects, Gate, Outcome, Policy, Run, Step, answered, drive, lapsed,
    reached, start,
};
use super::errors::{ResumeError, ResumeReason, RunError, ToolkitError};
use super::join::{BoxFuture, TurnLock, try_join_all};
use super::policies::{DecisionLog, Decisions, PolicyStore};
use super::seal::SealKey;
use super::time::{micros, millis};
use super::tool::{ProgressHook, Tool, ToolContext, normalize_tool_name};
use crate::{
    Answer, Request, RunResult, RunResultStatus, ToolCall, ToolCallResult, ToolResult, pending,
};

/// The time, for every expiry the loop reads (the wall clock by default).
pub type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;
/// Answers a request during [`Toolkit::run_calls`].
type WaitFor = Arc<dyn Fn(Request) -> BoxFuture<'static, Answer> + Send + Sync>;
/// Hears what tools report through [`ToolContext::progress`]: the call id, the fraction, the
/// message.
type ToolkitProgress = Arc<dyn Fn(&str, f64, &str) + Send + Sync>;

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
    decisions: Decisions,
}

impl fmt::Debug for Toolkit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.tools.iter().map(Tool::name).collect();
        f.debug_struct("Toolkit")
            .field("tools", &names)
            .field("active_key", &self.book.active.as_ref().map(|k| k.key_id()))
            .finish_non_exhaustive()
    }
}

/// How long a policy decides unless the toolkit says otherwise: 8 hours.
const POLICY_LIFETIME: Duration = Duration::from_secs(8 * 3600);
/// The longest policy lifetime a toolkit takes: 100 years (its expiry has an RFC 3339 form).
const MAX_POLICY_LIFETIME: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// Builds a [`Toolkit`]: its tools, keys, clock, progress hook and decisions.
#[derive(Default)]
pub struct ToolkitBuilder {
    tools: Vec<Tool>,
    secrets: Vec<(String, Vec<u8>)>,
    active_key: Option<String>,
    clock: Option<Clock>,
    on_progress: Option<ToolkitProgress>,
    policy_store: Option<Arc<dyn PolicyStore>>,
    decision_log: Option<Arc<dyn DecisionLog>>,
    policy_lifetime: Option<Duration>,
}

impl ToolkitBuilder {
    /// Adds a tool (see [`Toolkit::new`] for names).
    pub fn tool(mut self, tool: Tool) -> ToolkitBuilder {
        self.tools.push(tool);
        self
    }

    /// Adds tools.
    pub fn tools(mut self, tools: impl IntoIterator<Item = Tool>) -> ToolkitBuilder {
        self.tools.extend(tools);
        self
    }

    /// Adds a key: `secret` (at least 16 bytes) under `key_id` (`[A-Za-z0-9_-]{1,64}`).
    /// With one key it is the active one; with several, name it with
    /// [`active_key`](ToolkitBuilder::active_key).
    pub fn secret(mut self, key_id: impl Into<String>, secret: impl AsRef<[u8]>) -> ToolkitBuilder {
        self.secrets.push((key_id.into(), secret.as_ref().to_vec()));
        self
    }

    /// The key that seals new runs (one of the keys).
    pub fn active_key(mut self, key_id: impl Into<String>) -> ToolkitBuilder {
        self.active_key = Some(key_id.into());
        self
    }

    /// The clock every expiry is read by (the wall clock by default).
    pub fn clock(
        mut self,
        clock: impl Fn() -> SystemTime + Send + Sync + 'static,
    ) -> ToolkitBuilder {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// Hears what tools report through [`ToolContext::progress`]: `(call_id, fraction,
    /// message)`.
    pub fn on_progress(
        mut self,
        hook: impl Fn(&str, f64, &str) + Send + Sync + 'static,
    ) -> ToolkitBuilder {
        self.on_progress = Some(Arc::new(hook));
        self
    }

    /// Where the policies that answers make are kept ([`PolicyMemory`](crate::PolicyMemory),
    /// in this process, by default). Pass an `Arc` to keep a handle on it.
    pub fn policy_store(mut self, store: impl PolicyStore + 'static) -> ToolkitBuilder {
        self.policy_store = Some(Arc::new(store));
        self
    }

    /// Takes every decision the loop makes (none is logged by default). Pass an `Arc` to
    /// keep a handle on it.
    pub fn decision_log(mut self, log: impl DecisionLog + 'static) -> ToolkitBuilder {
        self.decision_log = Some(Arc::new(log));
        self
    }

    /// How long a policy decides once made (8 hours by default; at most 100 years).
    pub fn policy_lifetime(mut self, lifetime: Duration) -> ToolkitBuilder {
        self.policy_lifetime = Some(lifetime);
        self
    }

    /// The toolkit; [`ToolkitError`] for keys, tools or a policy lifetime that do not make
    /// one.
    pub fn build(self) -> Result<Toolkit, ToolkitError> {
        let lifetime = self.policy_lifetime.unwrap_or(POLICY_LIFETIME);
        if lifetime.is_zero() || lifetime > MAX_POLICY_LIFETIME {
            return Err(ToolkitError(format!(
                "policy_lifetime must be a positive time, at most 100 years, got {lifetime:?}"
            )));
        }
        let mut keys = HashMap::new();
        for (key_id, secret) in &self.secrets {
            let key = SealKey::new(key_id, secret).ok_or_else(|| {
                ToolkitError(if super::seal::valid_key_id(key_id) {
                    format!(
                        "secret must be at least {} bytes (key {})",
                        super::seal::MIN_SECRET_BYTES,
                        quoted(key_id)
                    )
                } else {
                    format!(
                        "a key id must be 1 to 64 of [A-Za-z0-9_-], got {}",
                        quoted(key_id)
                    )
                })
            })?;
            if keys.insert(key_id.clone(), Arc::new(key)).is_some() {
                return Err(ToolkitError(format!(
                    "the key id {} is given twice",
                    quoted(key_id)
                )));
            }
        }
        let mut ids: Vec<&String> = keys.keys().collect();
        ids.sort();
        let active = match (&self.active_key, keys.len()) {
            (None, 0) => None,
            (None, 1) => keys.values().next().cloned(),
            (None, _) => {
                return Err(ToolkitError(format!(
                    "active_key must name the key that seals new runs, one of {ids:?}"
                )));
            }
            (Some(id), _) => Some(keys.get(id).cloned().ok_or_else(|| {
                ToolkitError(format!(
                    "active_key {} is not one of the keys {ids:?}",
                    quoted(id)
                ))
            })?),
        };
        let mut kit = Toolkit {
            tools: Vec::new(),
            by_name: HashMap::new(),
            book: RunBook::new(keys, active),
            clock: self.clock.unwrap_or_else(|| Arc::new(SystemTime::now)),
            on_progress: self.on_progress,
            decisions: Decisions::new(self.policy_store, self.decision_log, lifetime),
        };
        for tool in self.tools {
            kit.register(tool)?;
        }
        Ok(kit)
    }
}

/// The toolkit's effects for the engine's steps of one turn: handlers run in process, asks
/// go to `wait_for` one at a time (or leave the call waiting), the time is the toolkit's,
/// and decisions go to its log and policy store.
struct KitEffects<'a> {
    kit: &'a Toolkit,
    turn: [u8; 32],
    wait_for: Option<&'a WaitFor>,
    lock: TurnLock,
    session: Option<&'a str>,
    principal: Option<&'a str>,
    /// The turn's answers so far, for [`reached`].
    decided: Mutex<Vec<(Ask, Answer)>>,
}

impl Effects for KitEffects<'_> {
    fn run<'a>(&'a self, step: &'a Run) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let key = idempotency_key(&self.turn, &step.call.id);
            let gate = step.gate.then_some((self.session, self.principal));
            self.kit
                .perform(
                    &step.call,
                    step.answer.clone(),
                    step.request.clone(),
                    gate,
                    key,
                )
                .await
        })
    }

    fn ask<'a>(&'a self, step: &'a Ask) -> BoxFuture<'a, Result<Asked, ResumeError>> {
        Box::pin(async move {
            let Some(wait_for) = self.wait_for else {
                return Ok(Asked::Stop);
            };
            let _turn = self.lock.lock().await; // one question at a time, in the order asked
            let earlier = {
                let decided = self.decided.lock().unwrap_or_else(PoisonError::into_inner);
                reached(decided.iter(), step) // decided already, with a scope beyond once
            };
            if let Some(answer) = earlier {
                return Ok(Asked::Answer(answer));
            }
            let answer = wait_for(step.request.clone()).await;
            if answer.id != step.request.id {
                return Err(ResumeError::new(
                    ResumeReason::Mismatch,
                    format!(
                        "wait_for answered {}, but the request is {}",
                        quoted(&answer.id),
                        quoted(&step.request.id)
                    ),
                ));
            }
            Ok(Asked::Answer(answer))
        })
    }

    fn now(&self) -> SystemTime {
        self.kit.now()
    }

    fn decide(&self, step: &Ask, answer: Option<&Answer>, after: &Step) {
        if let Some(answer) = answer {
            self.decided
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((step.clone(), answer.clone()));
        }
        let at = Circumstances {
            session: self.session,
            principal: self.principal,
            now: self.kit.now(),
        };
        self.kit.decisions.decide(step, answer, after, &at);
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
    /// This is the tool run itself: it asks for no approval and applies no loop rule.
    pub async fn execute(&self, name: &str, args: Value, ctx: ToolContext) -> ToolResult {
        match self.get(name) {
            None => ToolResult::error(format!("Unknown tool: {name}")),
            Some(tool) => tool.call(args, ctx).await,
        }
    }

    /// One run of `call`, as the loop asks a host for it: with `gate_first` (the turn's
    /// session and principal), a first run that suspends on the tool's approval instead when
    /// the tool needs one and no policy decides it (the handler does not run); else the
    /// handler, with `answer` to `request` on a retry.
    async fn perform(
        &self,
        call: &ToolCall,
        answer: Option<Answer>,
        request: Option<Request>,
        gate_first: Option<(Option<&str>, Option<&str>)>,
        idempotency_key: String,
    ) -> ToolResult {
        if let Some((session, principal)) = gate_first {
            let at = Circumstances {
                session,
                principal,
                now: self.now(),
            };
            match self.decisions.gate(self.get(&call.name), call, &at) {
                Gate::Open => {}
                Gate::Ask(request) => return pending(request),
                Gate::Settle(result) => return result,
            }
        }
        let on_progress: Option<ProgressHook> = self.on_progress.as_ref().map(|hook| {
            let hook = Arc::clone(hook);
            let call_id = call.id.clone();
            Arc::new(move |fraction: f64, message: &str| hook(&call_id, fraction, message))
                as ProgressHook
        });
        #[allow(clippy::needless_update)] // `timeout` is there with the feature `tokio`
        let ctx = ToolContext {
            answer,
            request,
            call_id: call.id.clone(),
            idempotency_key,
            on_progress,
            ..ToolContext::default()
        };
        self.execute(&call.name, Value::Object(call.arguments.clone()), ctx)
            .await
    }

    fn effects<'a>(
        &'a self,
        turn: [u8; 32],
        wait_for: Option<&'a WaitFor>,
        session: Option<&'a str>,
        principal: Option<&'a str>,
    ) -> KitEffects<'a> {
        KitEffects {
            kit: self,
            turn,
            wait_for,
            lock: TurnLock::default(),
            session,
            principal,
            decided: Mutex::new(Vec::new()),
        }
    }

    /// Runs one turn's calls concurrently under the loop's rules (see
    /// [`engine`](crate::engine)).
    ///
    /// A call to a tool that needs approval does not run: it suspends on a request of kind
    /// `approval` whose `data` is `{"tool": name, "arguments": args}` (its id begins
    /// `apr-`). Without `wait_for` the run stops when any call suspends: it is `pending` on
    /// the first suspension in call order, with every finished result in `results`, the
    /// suspended calls in `calls` and their requests in `requests` (call order). Continue it
    /// with [`resume`](Toolkit::resume). A call whose arguments or request could not be
    /// stored or sealed settles as an error saying so, so the run always can be.
    pub async fn run_calls(
        &self,
        calls: Vec<ToolCall>,
        options: RunOptions,
    ) -> Result<RunResult, RunError> {
        let expires_in_ms = options.expires_in.map(|d| d.as_nanos().div_ceil(1_000_000));
        let turn = self
            .book
            .begin(
                &calls,
                options.turn_id.as_deref(),
                expires_in_ms,
                options.principal.as_deref(),
                millis(self.now()),
            )
            .map_err(RunError::Invalid)?;
        let (session, principal) = (options.session.as_deref(), options.principal.as_deref());
        let first = self.effects(turn.digest, None, session, principal);
        let outcomes = try_join_all(
            calls
                .into_iter()
                .map(|call| drive(Step::Run(start(call)), &first))
                .collect(),
        )
        .await
        .map_err(RunError::Resume)?;
        let Some(wait_for) = &options.wait_for else {
            return Ok(self.book.close(turn, outcomes, Vec::new()));
        };
        let answering = self.effects(turn.digest, Some(wait_for), session, principal);
        let settled = try_join_all(
            outcomes
                .into_iter()
                .map(|outcome| drive(outcome.into(), &answering))
                .collect(),
        )
        .await
        .map_err(RunError::Resume)?;
        let results = settled
            .into_iter()
            .map(|outcome| match outcome {
                Outcome::Settle(s) => ToolCallResult::new(s.call.id, s.call.name, s.result),
                Outcome::Ask(_) => unreachable!("with wait_for every call settles"),
            })
            .collect();
        Ok(RunResult::new(RunResultStatus::Done, results))
    }

    /// Continues a pending run with answers to any of the requests it waits on, in any
    /// order; each answers the waiting call whose request has its id (two calls asked under
    /// one fixed id take one answer each, in call order). The answered calls go on under the
    /// loop's rules, concurrently; the others keep waiting without running again. The run
    /// returned is `pending` on the first call still waiting, or `done`; results stay in
    /// call order.
    ///
    /// Every run is read and checked in full: its seal (with keys), its expiry and its
    /// principal (`principal` must be the one it is bound to). [`ResumeError`], with nothing
    /// run, when an answer does not belong to the run (or none is given: `mismatch`) or was
    /// already given to this toolkit (it remembers the last 10,000 answers, by turn, call
    /// and request), the seal does not
    /// hold, the run has expired, or the principal is not the one bound. Two processes each
    /// resuming their own copy of one stored run are not caught here: the host's store
    /// must hand a pending run out once, and a tool with side effects passes
    /// `ctx.idempotency_key` to the system it changes.
    ///
    /// `resume(run, answers, principal)` is [`resume_with`](Toolkit::resume_with) with
    /// only a principal.
    pub async fn resume(
        &self,
        run: RunResult,
        answers: Vec<Answer>,
        principal: Option<&str>,
    ) -> Result<RunResult, ResumeError> {
        let options = ResumeOptions {
            principal: principal.map(str::to_owned),
            session: None,
        };
        self.resume_with(run, answers, options).await
    }

    /// [`resume`](Toolkit::resume), with the host's session (for policies) as well as the
    /// principal.
    ///
    /// An approval's [`Answer::scope`] may reach beyond its call: `turn` decides the run's
    /// other approvals of the same tool alike (each with an answer of its own, scope
    /// `turn`); `session:<id>`, `principal` and `tool` also keep a [`Policy`] deciding
    /// later calls unasked. Every decision goes to the decision log, with `principal` as
    /// who made it.
    pub async fn resume_with(
        &self,
        run: RunResult,
        answers: Vec<Answer>,
        options: ResumeOptions,
    ) -> Result<RunResult, ResumeError> {
        let principal = options.principal.as_deref();
        let session = options.session.as_deref();
        let opening = self
            .book
            .open(run, answers, principal, millis(self.now()))?;
        let now = self.now();
        let at = Circumstances {
            session,
            principal,
            now,
        };
        let mut steps: Vec<Step> = Vec::with_capacity(opening.picks.len());
        for p in &opening.picks {
            let ask = Ask {
                call: p.call.clone(),
                request: p.request.clone(),
            };
            let step = answered(ask.clone(), p.answer.clone(), now);
            self.decisions.decide(&ask, p.answer.as_ref(), &step, &at);
            steps.push(step);
        }
        steps.extend(opening.restart.iter().cloned().map(|c| Step::Run(start(c))));
        let effects = self.effects(opening.turn.digest, None, session, principal);
        let outcomes =
            try_join_all(steps.into_iter().map(|s| drive(s, &effects)).collect()).await?;
        Ok(self.book.advance(opening, outcomes))
    }

    /// `run` with every waiting call whose time ran out by `now` (this toolkit's clock when
    /// `None`) settled as the loop settles an expiry (`declined/expired: <prompt>`, or
    /// `declined: the call to <tool> was not approved (expired)`, marked
    /// `metadata["declined"]` with reason `expired`): each call whose request's `expiresAt`
    /// has passed, and every call once the run's sealed expiry has. No tool runs. Returns
    /// `run` itself when nothing has expired.
    ///
    /// The seal must hold (`seal`); the sealed expiry and principal do not stop it, and a
    /// bound run stays bound (`principal` is needed only to re-seal a bound run made under
    /// a key that is no longer the active one).
    pub async fn expire(
        &self,
        run: RunResult,
        now: Option<SystemTime>,
        principal: Option<&str>,
    ) -> Result<RunResult, ResumeError> {
        let now = now.unwrap_or_else(|| self.now());
        let Some(opening) =
            self.book
                .open_lapsed(&run, micros(now), principal, millis(self.now()))?
        else {
            return Ok(run);
        };
        let at = Circumstances {
            session: None,
            principal: None,
            now,
        };
        let outcomes = opening
            .picks
            .iter()
            .map(|p| {
                let ask = Ask {
                    call: p.call.clone(),
                    request: p.request.clone(),
                };
                let settled = Step::Settle(lapsed(ask.clone(), now));
                self.decisions.decide(&ask, None, &settled, &at);
                let Step::Settle(settled) = settled else {
                    unreachable!("settled above")
                };
                Outcome::Settle(settled)
            })
            .collect();
        Ok(self.book.advance(opening, outcomes))
    }
}
