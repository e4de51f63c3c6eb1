// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Building a toolkit: its tools, keys, clock, progress and log hooks, and decisions.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use super::{Clock, Toolkit, ToolkitLog, ToolkitProgress};
use crate::runtime::book::{RunBook, quoted};
use crate::runtime::errors::ToolkitError;
use crate::runtime::limit::Limit;
use crate::runtime::policies::{DecisionLog, Decisions, PolicyStore};
use crate::runtime::seal::SealKey;
use crate::runtime::spill::{ResultLimits, ResultSpill};
#[cfg(doc)]
use crate::runtime::tool::ToolContext;
use crate::runtime::tool::{LogLevel, Tool};

/// How long a policy decides unless the toolkit says otherwise: 8 hours.
const POLICY_LIFETIME: Duration = Duration::from_secs(8 * 3600);
/// The longest policy lifetime a toolkit takes: 100 years (its expiry has an RFC 3339 form).
const MAX_POLICY_LIFETIME: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// Builds a [`Toolkit`]: its tools, keys, clock, progress and log hooks, and decisions.
#[derive(Default)]
pub struct ToolkitBuilder {
    tools: Vec<Tool>,
    secrets: Vec<(String, Vec<u8>)>,
    active_key: Option<String>,
    clock: Option<Clock>,
    on_progress: Option<ToolkitProgress>,
    on_log: Option<ToolkitLog>,
    policy_store: Option<Arc<dyn PolicyStore>>,
    decision_log: Option<Arc<dyn DecisionLog>>,
    policy_lifetime: Option<Duration>,
    limits: ResultLimits,
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

    /// Hears what tools log through [`ToolContext::log`]: `(call_id, level, message, data)`.
    pub fn on_log(
        mut self,
        hook: impl Fn(&str, LogLevel, &str, &Map<String, Value>) + Send + Sync + 'static,
    ) -> ToolkitBuilder {
        self.on_log = Some(Arc::new(hook));
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

    /// Cuts every call's output to `limit` after each run of `run_calls` and `resume` (the
    /// tighter of it and the tool's own, unit by unit); `docs/guides/result-limits.md`.
    pub fn limit(mut self, limit: Limit) -> ToolkitBuilder {
        self.limits.limit = Some(limit);
        self
    }

    /// Keeps the whole output of every call it cut in `spill` (a
    /// [`DirectorySpill`](crate::DirectorySpill), or the host's store), under the reference
    /// the marker names, for the turn's principal and session: the built-in
    /// [`read_result`](crate::read_result) tool pages through it. Pass an `Arc` to keep a
    /// handle on it.
    pub fn spill(mut self, spill: impl ResultSpill + 'static) -> ToolkitBuilder {
        self.limits.spill = Some(Arc::new(spill));
        self
    }

    /// Counts a limit's `tokens` with `tokenizer` (the tokens a text takes) instead of the
    /// estimate, the UTF-8 bytes over four rounded up.
    pub fn tokenizer(
        mut self,
        tokenizer: impl Fn(&str) -> usize + Send + Sync + 'static,
    ) -> ToolkitBuilder {
        self.limits.tokenizer = Some(Arc::new(tokenizer));
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
                ToolkitError(if crate::runtime::seal::valid_key_id(key_id) {
                    format!(
                        "secret must be at least {} bytes (key {})",
                        crate::runtime::seal::MIN_SECRET_BYTES,
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
            on_log: self.on_log,
            decisions: Decisions::new(self.policy_store, self.decision_log, lifetime),
            limits: self.limits,
        };
        for tool in self.tools {
            kit.register(tool)?;
        }
        Ok(kit)
    }
}
