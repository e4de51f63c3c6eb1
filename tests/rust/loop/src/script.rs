//! The scripted tools of a loop vector (`idl/loop/README.md`, "Tools"), recording every
//! run of their handlers, and the host's clock that the steps move.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use toolnexus::serde_json::{Map, Value};
use toolnexus::{
    auth_required, define_supplied_tool, define_tool, pending, ContentPart, IntoToolResult, Limit,
    Request, Tool, ToolContext, ToolResult, Wire,
};

/// 2026-01-01T00:00:00Z: the instant a vector's turn runs (its steps' `at` count from it).
pub const EPOCH_MS: i64 = 1_767_225_600_000;

/// The host's clock: microseconds since the Unix epoch, moved by the steps.
#[derive(Clone)]
pub struct Clock(Arc<AtomicI64>);

impl Clock {
    /// A clock at `ms` milliseconds after the epoch.
    pub fn at_ms(ms: i64) -> Clock {
        Clock(Arc::new(AtomicI64::new(ms * 1000)))
    }

    /// The wall clock's time now.
    pub fn wall() -> Clock {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        Clock::at_ms(ms)
    }

    /// Moves the clock to `ms` milliseconds after the Unix epoch.
    pub fn set_ms(&self, ms: i64) {
        self.0.store(ms * 1000, Ordering::SeqCst);
    }

    /// Moves the clock to `seconds` after the vector's epoch.
    pub fn set_after_epoch(&self, seconds: f64) {
        let micros = EPOCH_MS * 1000 + (seconds * 1e6).round() as i64;
        self.0.store(micros, Ordering::SeqCst);
    }

    pub fn micros(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }

    pub fn now(&self) -> SystemTime {
        let micros = self.micros();
        if micros >= 0 {
            UNIX_EPOCH + Duration::from_micros(micros.unsigned_abs())
        } else {
            UNIX_EPOCH - Duration::from_micros(micros.unsigned_abs())
        }
    }
}

/// One handler run, as the scripted tool saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    pub id: String,
    pub arguments: Value,
    pub retry: bool,
    pub data: Value,
    pub key: String,
}

impl Ran {
    /// As the command line prints it: `{"id", "arguments", "retry", "data", "key"}`.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("id".into(), Value::from(self.id.clone()));
        out.insert("arguments".into(), self.arguments.clone());
        out.insert("retry".into(), Value::Bool(self.retry));
        out.insert("data".into(), self.data.clone());
        out.insert("key".into(), Value::from(self.key.clone()));
        Value::Object(out)
    }
}

pub type Log = Arc<Mutex<Vec<Ran>>>;

/// `value` as canonical JSON: keys sorted, compact (the format's `{args}` and `{data}`).
pub fn canonical(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&map[k])))
                        .collect(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(value).to_string()
}

/// A behaviour's text with its placeholders filled: `{name}`, `{args}`, `{arg:NAME}`,
/// `{data}`.
pub fn fill(template: &str, tool: &str, args: &Map<String, Value>, data: Option<&Value>) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let field = after
            .find(['{', '}'])
            .filter(|&end| after.as_bytes()[end] == b'}');
        let replaced = field.and_then(|end| {
            let name = &after[..end];
            let text = match name {
                "name" => tool.to_owned(),
                "args" => canonical(&Value::Object(args.clone())),
                "data" => canonical(data.unwrap_or(&Value::Null)),
                _ => {
                    let arg = name.strip_prefix("arg:").filter(|a| !a.is_empty())?;
                    match args.get(arg) {
                        Some(Value::String(s)) => s.clone(),
                        Some(other) => canonical(other),
                        None => "null".to_owned(),
                    }
                }
            };
            Some((text, end))
        });
        match replaced {
            Some((text, end)) => {
                out.push_str(&text);
                rest = &after[end + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `micros` since the epoch as an RFC 3339 date-time in UTC (`2026-01-01T00:01:00Z`).
pub fn rfc3339(micros: i64) -> String {
    let seconds = micros.div_euclid(1_000_000);
    let fraction = micros.rem_euclid(1_000_000);
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let time = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    );
    if fraction == 0 {
        format!("{time}Z")
    } else {
        format!("{time}.{fraction:06}Z")
    }
}

/// A behaviour's `return` or `raise`: a TEMPLATE, or a list of pieces joined, each a
/// TEMPLATE or `{"repeat": TEMPLATE, "times": N, "start"?: S}` (`{i}` the repetition's
/// number).
pub fn text_of(
    pieces: &Value,
    tool: &str,
    args: &Map<String, Value>,
    data: Option<&Value>,
) -> String {
    let Some(pieces) = pieces.as_array() else {
        return fill(pieces.as_str().unwrap_or_default(), tool, args, data);
    };
    let mut out = String::new();
    for piece in pieces {
        if let Some(text) = piece.as_str() {
            out.push_str(&fill(text, tool, args, data));
            continue;
        }
        let template = fill(
            piece["repeat"].as_str().unwrap_or_default(),
            tool,
            args,
            data,
        );
        let start = piece["start"].as_u64().unwrap_or(1);
        for i in start..start + piece["times"].as_u64().unwrap_or(0) {
            out.push_str(&template.replace("{i}", &i.to_string()));
        }
    }
    out
}

/// The tools of a vector, each recording its runs in `log`; the message of a tool's limit
/// that is refused.
pub fn tools(vector: &Value, clock: &Clock, log: &Log) -> Result<Vec<Tool>, String> {
    let specs = vector["tools"].as_array().cloned().unwrap_or_default();
    specs
        .into_iter()
        .map(|spec| {
            let limit = spec.get("limit").map(Limit::from_json).transpose();
            let limit = limit.map_err(|e| e.to_string())?;
            let tool = tool(spec, clock.clone(), Arc::clone(log));
            Ok(match limit {
                Some(limit) => tool.with_limit(limit),
                None => tool,
            })
        })
        .collect()
}

fn tool(spec: Value, clock: Clock, log: Log) -> Tool {
    let name = spec["name"].as_str().unwrap_or_default().to_owned();
    let description = spec["description"].as_str().unwrap_or(&name).to_owned();
    let schema = spec.get("schema").cloned();
    if spec["external"] == true {
        // A person supplies its results: no handler.
        return define_supplied_tool(name, description, schema, spec.get("outputSchema").cloned());
    }
    let needs = spec
        .get("needsApproval")
        .cloned()
        .unwrap_or(Value::Bool(false));
    let script = Arc::new(spec);
    let tool_name = name.clone();
    let tool = define_tool(name, description, schema, move |args, ctx: ToolContext| {
        let script = Arc::clone(&script);
        let clock = clock.clone();
        let name = tool_name.clone();
        let data = ctx
            .answer
            .as_ref()
            .and_then(|a| a.data.clone())
            .map(Value::Object);
        log.lock().unwrap().push(Ran {
            id: ctx.call_id.clone(),
            arguments: args.clone(),
            retry: ctx.answer.is_some(),
            data: data.clone().unwrap_or(Value::Null),
            key: ctx.idempotency_key.clone(),
        });
        async move {
            let args = args.as_object().cloned().unwrap_or_default();
            let behaviour = match (&ctx.answer, script.get("retry")) {
                (Some(_), Some(retry)) => retry.clone(),
                _ => script["first"].clone(),
            };
            behave(&name, &behaviour, &args, data.as_ref(), &clock).await
        }
    });
    match needs {
        Value::Bool(always) => tool.with_needs_approval(always),
        Value::Object(rule) => {
            let argument = rule["argument"].as_str().unwrap_or_default().to_owned();
            let above = rule["above"].as_f64().unwrap_or(f64::INFINITY);
            tool.with_approval_rule(move |args| {
                args.get(&argument)
                    .and_then(Value::as_f64)
                    .is_some_and(|v| v > above)
            })
        }
        _ => tool,
    }
}

async fn behave(
    name: &str,
    b: &Value,
    args: &Map<String, Value>,
    data: Option<&Value>,
    clock: &Clock,
) -> Result<ToolResult, String> {
    if let Some(ms) = b.get("sleep").and_then(Value::as_u64) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    if let Some(message) = b.get("raise") {
        return Err(text_of(message, name, args, data));
    }
    if let Some(url) = b.get("authorize").and_then(Value::as_str) {
        return Ok(auth_required(url, ""));
    }
    if let Some(a) = b.get("ask") {
        let text = |key: &str| a.get(key).and_then(Value::as_str).map(str::to_owned);
        let mut expires_at = text("expiresAt");
        if let Some(seconds) = a.get("expiresIn").and_then(Value::as_f64) {
            expires_at = Some(rfc3339(clock.micros() + (seconds * 1e6).round() as i64));
        }
        return Ok(pending(Request {
            kind: text("kind").unwrap_or_default(),
            prompt: fill(&text("prompt").unwrap_or_default(), name, args, data),
            id: text("id").unwrap_or_default(),
            url: text("url"),
            data: a.get("data").and_then(Value::as_object).cloned(),
            expires_at,
            ..Request::default()
        }));
    }
    if b.get("return") == Some(&Value::Null) {
        return Ok(().into_tool_result()); // returns nothing
    }
    let output = text_of(&b["return"], name, args, data);
    if b.get("parts").is_none() && b.get("structuredContent").is_none() {
        return Ok(ToolResult::ok(output));
    }
    let mut result = ToolResult::ok(output);
    for part in b
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        result
            .parts
            .push(ContentPart::from_wire(part.clone()).map_err(|e| e.to_string())?);
    }
    result.structured_content = b.get("structuredContent").cloned();
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolnexus::serde_json::json;

    #[test]
    fn templates_fill_as_the_format_says() {
        let args = json!({"b": [1, {"d": 2, "c": 3}], "a": "x"});
        let args = args.as_object().unwrap();
        let filled = fill(
            "{name}: {args} {arg:a} {arg:b} {arg:z} {data} {other} {",
            "t",
            args,
            None,
        );
        assert_eq!(
            filled,
            r#"t: {"a":"x","b":[1,{"c":3,"d":2}]} x [1,{"c":3,"d":2}] null null {other} {"#
        );
    }

    #[test]
    fn times_are_written_in_rfc_3339() {
        assert_eq!(
            rfc3339(EPOCH_MS * 1000 + 60_000_000),
            "2026-01-01T00:01:00Z"
        );
        assert_eq!(rfc3339(-500_000), "1969-12-31T23:59:59.500000Z");
    }
}
