// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Tools: a name, a description, an input schema and a handler, called through
//! [`Tool::call`], with the rules of the Python package's `Tool.call`.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
#[cfg(feature = "tokio")]
use std::time::Duration;

use serde_json::{Map, Value};

use super::errors::SchemaError;
use super::join::{BoxFuture, CatchUnwind, panic_text};
use super::limit::Limit;
use super::schema::Schema;
#[cfg(feature = "tokio")]
use super::time::format_g;
use super::time::random_hex;
use crate::{Request, ToolResult, ToolSpec, Wire, pending};

#[path = "tool/context.rs"]
mod context;
#[path = "tool/log.rs"]
mod log;

pub use context::{IntoToolResult, ProgressError, ProgressHook, ToolContext};
pub use log::{LogHook, LogLevel, LogLevelError};

/// A tool's handler, as the crate holds it: the arguments and the context in, the result
/// out. [`define_tool`] builds one from an async closure.
pub type Handler = dyn Fn(Value, ToolContext) -> BoxFuture<'static, ToolResult> + Send + Sync;

/// A rule over a call's arguments: whether to ask a person before the handler runs.
pub type ApprovalRule = Arc<dyn Fn(&Map<String, Value>) -> bool + Send + Sync>;

/// Whether the toolkit asks a person before a tool's handler runs.
#[derive(Clone, Default)]
pub enum NeedsApproval {
    /// It never asks (the default).
    #[default]
    Never,
    /// It always asks.
    Always,
    /// It asks when the rule, given the arguments (once they satisfy the input schema),
    /// returns true; a rule that panics asks.
    Rule(ApprovalRule),
}

impl fmt::Debug for NeedsApproval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NeedsApproval::Never => "Never",
            NeedsApproval::Always => "Always",
            NeedsApproval::Rule(_) => "Rule(..)",
        })
    }
}

/// A callable tool. Build one with [`define_tool`]; run it with [`call`](Tool::call).
/// Cloning is cheap (the handler and the compiled schema are shared).
#[derive(Clone)]
pub struct Tool {
    name: String,
    description: String,
    input_schema: Map<String, Value>,
    schema: Option<Arc<Schema>>,
    output_schema: Option<Map<String, Value>>,
    handler: Arc<Handler>,
    needs_approval: NeedsApproval,
    limit: Option<Limit>,
    /// The built-in `read_result`: a toolkit binds it to its spill, and keeps no copy of
    /// its pages.
    reads_results: bool,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("needs_approval", &self.needs_approval)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// A tool from an async handler `|args, ctx| async move { ... }`: `schema` is the JSON
/// Schema of the arguments (`None` accepts any object), compiled here, once.
///
/// The handler returns `Ok` with text, a [`ToolResult`] or a JSON value
/// ([`IntoToolResult`]), or `Err` with anything [`Display`](fmt::Display): that text is
/// the error result the model reads (the error's type name when the text is empty). See
/// [`Tool::call`] for the rest of the rules.
///
/// # Panics
///
/// When `schema` is not a JSON object that is a valid JSON Schema;
/// [`try_define_tool`] returns that as an error instead.
pub fn define_tool<F, Fut, T, E>(
    name: impl Into<String>,
    description: impl Into<String>,
    schema: Option<Value>,
    handler: F,
) -> Tool
where
    F: Fn(Value, ToolContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, E>> + Send + 'static,
    T: IntoToolResult,
    E: fmt::Display,
{
    try_define_tool(name, description, schema, handler).unwrap_or_else(|e| panic!("{e}"))
}

/// [`define_tool`], with a [`SchemaError`] for a schema that is not a JSON object or not a
/// valid JSON Schema (a `pattern` that is no regular expression included).
pub fn try_define_tool<F, Fut, T, E>(
    name: impl Into<String>,
    description: impl Into<String>,
    schema: Option<Value>,
    handler: F,
) -> Result<Tool, SchemaError>
where
    F: Fn(Value, ToolContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, E>> + Send + 'static,
    T: IntoToolResult,
    E: fmt::Display,
{
    let name = name.into();
    let (input_schema, compiled) = match schema {
        None => {
            let mut any = Map::new();
            any.insert("type".to_owned(), Value::from("object"));
            (any, None)
        }
        Some(Value::Object(map)) => {
            let compiled = Schema::compile(&Value::Object(map.clone()))
                .map_err(|e| SchemaError(format!("define_tool {name:?}: {e}")))?;
            (map, Some(Arc::new(compiled)))
        }
        Some(other) => {
            return Err(SchemaError(format!(
                "define_tool {name:?}: input_schema must be a JSON object or None, got {other}"
            )));
        }
    };
    let handler: Arc<Handler> = Arc::new(move |args, ctx| {
        let future = handler(args, ctx);
        Box::pin(async move {
            match future.await {
                Ok(value) => value.into_tool_result(),
                Err(e) => {
                    let text = e.to_string();
                    ToolResult::error(if text.is_empty() {
                        short_type_name(std::any::type_name::<E>())
                    } else {
                        text
                    })
                }
            }
        })
    });
    Ok(Tool {
        name,
        description: description.into(),
        input_schema,
        schema: compiled,
        output_schema: None,
        handler,
        needs_approval: NeedsApproval::Never,
        limit: None,
        reads_results: false,
    })
}

/// A tool whose results a person supplies (the Python package's `define_tool(name,
/// description, schema, None)`): it has no handler. Each call suspends on a request of kind
/// `result` (id `res-…`, `data` `{"tool", "arguments"}`, and `"schema"`: the output schema,
/// when the tool has one), and the answer's `data` is the result, as a `ToolResult`'s wire
/// form (`{"output": ..., "isError"?, "parts"?, "structuredContent"?}`): checked as the
/// wire checks it, and its `structuredContent` against `output_schema`. A refusal is
/// `declined: …`, as for any question.
///
/// # Panics
///
/// When `schema` or `output_schema` is not a JSON object that is a valid JSON Schema;
/// [`try_define_supplied_tool`] returns that as an error instead.
pub fn define_supplied_tool(
    name: impl Into<String>,
    description: impl Into<String>,
    schema: Option<Value>,
    output_schema: Option<Value>,
) -> Tool {
    try_define_supplied_tool(name, description, schema, output_schema)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// [`define_supplied_tool`], with a [`SchemaError`] for a schema that is not a JSON object
/// or not a valid JSON Schema.
pub fn try_define_supplied_tool(
    name: impl Into<String>,
    description: impl Into<String>,
    schema: Option<Value>,
    output_schema: Option<Value>,
) -> Result<Tool, SchemaError> {
    let name = name.into();
    let output = match output_schema {
        None => None,
        Some(Value::Object(map)) => {
            let compiled = Schema::compile_as(&Value::Object(map.clone()), "output_schema")
                .map_err(|e| SchemaError(format!("define_tool {name:?}: {e}")))?;
            Some((map, Arc::new(compiled)))
        }
        Some(other) => {
            return Err(SchemaError(format!(
                "define_tool {name:?}: output_schema must be a JSON object or None, got {other}"
            )));
        }
    };
    let declared = output.as_ref().map(|(map, _)| map.clone());
    let supplied = Arc::new(Supplied {
        name: name.clone(),
        output,
    });
    let mut tool = try_define_tool(name, description, schema, move |args, ctx: ToolContext| {
        let result = supplied.result(args, ctx);
        async move { Ok::<_, Infallible>(result) }
    })?;
    tool.output_schema = declared;
    Ok(tool)
}

/// What a tool whose results a person supplies knows: its name as defined, and its output
/// schema (as given, and compiled).
struct Supplied {
    name: String,
    output: Option<(Map<String, Value>, Arc<Schema>)>,
}

impl Supplied {
    /// The request for the result (a first run), or the result supplied in the answer.
    fn result(&self, args: Value, ctx: ToolContext) -> ToolResult {
        let name = &self.name;
        let Some(answer) = ctx.answer else {
            let mut data = Map::new();
            data.insert("tool".to_owned(), Value::from(name.clone()));
            data.insert("arguments".to_owned(), args);
            if let Some((schema, _)) = &self.output {
                data.insert("schema".to_owned(), Value::Object(schema.clone()));
            }
            return pending(Request {
                id: format!("res-{}", random_hex(16)),
                kind: "result".to_owned(),
                prompt: format!("The result of {name}, called with these arguments"),
                data: Some(data),
                ..Request::default()
            });
        };
        let supplied = Value::Object(answer.data.unwrap_or_default());
        let result = match ToolResult::from_wire(supplied) {
            Ok(result) => result,
            Err(e) => {
                return ToolResult::error(format!(
                    "the result supplied for {name} is not a ToolResult: {e}"
                ));
            }
        };
        let (Some((_, schema)), Some(data)) = (&self.output, &result.structured_content) else {
            return result;
        };
        let problems = schema.problems_of(data);
        if problems.is_empty() {
            return result;
        }
        ToolResult::error(format!(
            "the tool's output does not match its output schema: {}",
            problems.join("; ")
        ))
    }
}

/// `alloc::string::String` as `String`, `Box<dyn core::error::Error>` as `Box<dyn Error>`.
fn short_type_name(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for c in full.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(&word));
            word.clear();
            out.push(c);
        }
    }
    out.pop();
    out
}

/// `name` with every character outside `[a-zA-Z0-9_-]` replaced by `_`, as a toolkit
/// registers it.
pub fn normalize_tool_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int",
        Value::Number(_) => "float",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

impl Tool {
    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tool's description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The JSON Schema of the arguments (`{"type": "object"}` when none was given).
    pub fn input_schema(&self) -> &Map<String, Value> {
        &self.input_schema
    }

    /// The JSON Schema of the structured results, when the tool declares one.
    pub fn output_schema(&self) -> Option<&Map<String, Value>> {
        self.output_schema.as_ref()
    }

    /// The tool's declaration, for a model.
    pub fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            input_schema: self.input_schema.clone(),
            output_schema: self.output_schema.clone(),
            ..ToolSpec::default()
        }
    }

    /// Whether the toolkit asks a person before the handler runs.
    pub fn approval(&self) -> &NeedsApproval {
        &self.needs_approval
    }

    /// This tool, asking a person before every run (`true`) or never (`false`).
    pub fn with_needs_approval(mut self, always: bool) -> Tool {
        self.needs_approval = if always {
            NeedsApproval::Always
        } else {
            NeedsApproval::Never
        };
        self
    }

    /// This tool, asking a person before a run when `rule` says so of its arguments.
    pub fn with_approval_rule(
        mut self,
        rule: impl Fn(&Map<String, Value>) -> bool + Send + Sync + 'static,
    ) -> Tool {
        self.needs_approval = NeedsApproval::Rule(Arc::new(rule));
        self
    }

    /// This tool, its output cut to `limit` after every run in a toolkit (the tighter of it
    /// and the toolkit's own, unit by unit; `docs/guides/result-limits.md`).
    pub fn with_limit(mut self, limit: Limit) -> Tool {
        self.limit = Some(limit);
        self
    }

    /// The tool's own result limit, if any.
    pub fn limit(&self) -> Option<&Limit> {
        self.limit.as_ref()
    }

    /// Whether this is the built-in [`read_result`](crate::read_result).
    pub(crate) fn reads_results(&self) -> bool {
        self.reads_results
    }

    /// This tool as the built-in `read_result`.
    pub(crate) fn reading_results(mut self) -> Tool {
        self.reads_results = true;
        self
    }

    /// This tool with another handler (its schema, name and limit kept).
    pub(crate) fn with_handler(&self, handler: Arc<Handler>) -> Tool {
        Tool {
            handler,
            ..self.clone()
        }
    }

    /// This tool under another name (a toolkit registers a normalised one).
    pub(crate) fn renamed(&self, name: String) -> Tool {
        Tool {
            name,
            ..self.clone()
        }
    }

    /// `Ok` when `arguments` satisfy the input schema, else the text of the error result
    /// naming every violation: `invalid arguments for <name>: <path>: <message>; ...`.
    pub(crate) fn check_arguments(&self, arguments: &Map<String, Value>) -> Result<(), String> {
        let Some(schema) = &self.schema else {
            return Ok(());
        };
        let problems = schema.problems(arguments);
        if problems.is_empty() {
            return Ok(());
        }
        Err(format!(
            "invalid arguments for {}: {}",
            self.name,
            problems.join("; ")
        ))
    }

    /// Runs the tool. A failure is an error result, never a panic or an error crossing the
    /// call:
    ///
    /// - arguments that are not a JSON object (`null` is taken as `{}`), or that do not
    ///   satisfy the input schema, give `invalid arguments for <name>: ...` naming every
    ///   violation, and the handler does not run;
    /// - `Err(e)` from the handler gives an error result with `e`'s text;
    /// - a panic in the handler gives an error result with the panic's message;
    /// - with `ctx.timeout` (feature `tokio`), an overrun gives
    ///   `<name> timed out after <seconds> s` (a tokio runtime with its timer must run it).
    pub async fn call(&self, args: Value, ctx: ToolContext) -> ToolResult {
        let arguments = match args {
            Value::Null => Map::new(),
            Value::Object(map) => map,
            other => {
                return ToolResult::error(format!(
                    "invalid arguments for {}: $: expected a JSON object, got {}",
                    self.name,
                    json_kind(&other)
                ));
            }
        };
        #[cfg(feature = "tokio")]
        let timeout = ctx.timeout;
        let work = async move {
            if let Err(refused) = self.check_arguments(&arguments) {
                return ToolResult::error(refused);
            }
            (self.handler)(Value::Object(arguments), ctx).await
        };
        #[cfg(feature = "tokio")]
        let work = self.bounded(work, timeout);
        let guarded = CatchUnwind::new(work);
        match guarded.await {
            Ok(result) => result,
            Err(payload) => ToolResult::error(panic_text(payload.as_ref())),
        }
    }
}

#[cfg(feature = "tokio")]
impl Tool {
    /// `work` bounded by `timeout` (tokio's timer): an overrun is an error result.
    async fn bounded(
        &self,
        work: impl Future<Output = ToolResult>,
        timeout: Option<Duration>,
    ) -> ToolResult {
        let Some(limit) = timeout else {
            return work.await;
        };
        match tokio::time::timeout(limit, work).await {
            Ok(result) => result,
            Err(_) => ToolResult::error(format!(
                "{} timed out after {} s",
                self.name,
                format_g(limit.as_secs_f64())
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_are_short() {
        assert_eq!(short_type_name("alloc::string::String"), "String");
        assert_eq!(
            short_type_name("alloc::boxed::Box<dyn core::error::Error + core::marker::Send>"),
            "Box<dyn Error + Send>"
        );
    }

    #[test]
    fn names_are_normalised_per_character() {
        assert_eq!(
            normalize_tool_name("get weather.now/é"),
            "get_weather_now__"
        );
        assert_eq!(normalize_tool_name("ok-name_1"), "ok-name_1");
    }
}
