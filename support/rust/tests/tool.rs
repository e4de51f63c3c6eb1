// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! `define_tool` and `Tool::call`: the rules of the Python package's `Tool.call`, with
//! the same texts. (With the feature `tokio`, on by default.)
#![cfg(feature = "tokio")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Map, Value, json};
use toolnexus::{
    IntoToolResult, LogHook, LogLevel, Request, ToolContext, ToolResult, define_tool, pending,
    pending_of, try_define_tool,
};

fn ctx() -> ToolContext {
    ToolContext::default()
}

#[tokio::test]
async fn arguments_that_fail_the_schema_are_an_error_result_and_the_handler_does_not_run() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    });
    let add = define_tool(
        "add",
        "Add two integers",
        Some(schema),
        move |args, _ctx| {
            counted.fetch_add(1, Ordering::SeqCst);
            async move {
                let sum = args["a"].as_i64().unwrap_or(0) + args["b"].as_i64().unwrap_or(0);
                Ok::<_, String>(sum.to_string())
            }
        },
    );
    let ok = add.call(json!({"a": 2, "b": 3}), ctx()).await;
    assert_eq!((ok.is_error, ok.output.as_str()), (false, "5"));

    let bad = add.call(json!({"a": "two", "b": 3}), ctx()).await;
    assert!(bad.is_error);
    assert!(
        bad.output.starts_with("invalid arguments for add: $.a: "),
        "{}",
        bad.output
    );
    let missing = add.call(json!({"a": 1}), ctx()).await;
    assert!(
        missing.output.starts_with("invalid arguments for add: $: "),
        "{}",
        missing.output
    );
    assert!(missing.output.contains("\"b\""), "{}", missing.output);
    // Every violation is named, in path order.
    let both = add.call(json!({"b": "x", "a": "y"}), ctx()).await;
    let a = both.output.find("$.a: ").expect("a is named");
    let b = both.output.find("; $.b: ").expect("b is named");
    assert!(a < b, "{}", both.output);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_refused_and_null_is_no_arguments() {
    let echo = define_tool("echo", "", None, |args, _ctx| async move {
        Ok::<_, String>(args.to_string())
    });
    for (args, kind) in [
        (json!([1]), "list"),
        (json!("x"), "str"),
        (json!(1), "int"),
        (json!(1.5), "float"),
        (json!(true), "bool"),
    ] {
        let r = echo.call(args, ctx()).await;
        assert!(r.is_error);
        assert_eq!(
            r.output,
            format!("invalid arguments for echo: $: expected a JSON object, got {kind}")
        );
    }
    assert_eq!(echo.call(Value::Null, ctx()).await.output, "{}");
}

#[tokio::test]
async fn patterns_are_read_as_the_python_package_reads_them() {
    let schema = json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}, "n": {"type": "string", "pattern": "^\\d+$"}}});
    let tool = define_tool("code", "", Some(schema), |_args, _ctx| async move {
        Ok::<_, String>("ok".to_owned())
    });
    assert!(
        !tool
            .call(json!({"code": "ABC", "n": "42"}), ctx())
            .await
            .is_error
    );
    // `$` is the end of the input, never before a final newline; `\d` is ASCII.
    let trailing = tool.call(json!({"code": "ABC\n"}), ctx()).await;
    assert!(
        trailing
            .output
            .starts_with("invalid arguments for code: $.code: "),
        "{}",
        trailing.output
    );
    let arabic = tool.call(json!({"n": "٤٢"}), ctx()).await;
    assert!(
        arabic
            .output
            .starts_with("invalid arguments for code: $.n: "),
        "{}",
        arabic.output
    );
}

#[test]
fn a_schema_that_is_no_json_schema_is_refused_when_the_tool_is_defined() {
    let handler = |_args: Value, _ctx: ToolContext| async move { Ok::<_, String>(String::new()) };
    let err = try_define_tool("t", "", Some(json!({"type": "no-such-type"})), handler).unwrap_err();
    assert!(err.to_string().contains("not a valid JSON Schema"), "{err}");
    let err = try_define_tool(
        "t",
        "",
        Some(json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}})),
        handler,
    )
    .unwrap_err();
    assert!(err.to_string().contains("pattern"), "{err}");
    let err = try_define_tool("t", "", Some(json!([1])), handler).unwrap_err();
    assert!(err.to_string().contains("must be a JSON object"), "{err}");
}

#[test]
#[should_panic(expected = "not a valid JSON Schema")]
fn define_tool_panics_on_a_schema_that_is_no_json_schema() {
    define_tool(
        "t",
        "",
        Some(json!({"minimum": "x"})),
        |_args, _ctx| async move { Ok::<_, String>(String::new()) },
    );
}

#[derive(Debug)]
struct Silent;

impl std::fmt::Display for Silent {
    fn fmt(&self, _f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

#[tokio::test]
async fn a_handler_error_a_panic_and_an_overrun_are_error_results() {
    let fails = define_tool("fails", "", None, |_args, _ctx| async move {
        Err::<String, _>("the disk is full")
    });
    let r = fails.call(json!({}), ctx()).await;
    assert_eq!((r.is_error, r.output.as_str()), (true, "the disk is full"));

    // An error with no text is named by its type, as Python names an exception's class.
    let silent = define_tool("silent", "", None, |_args, _ctx| async move {
        Err::<String, _>(Silent)
    });
    assert_eq!(silent.call(json!({}), ctx()).await.output, "Silent");

    let panics = define_tool("panics", "", None, |args, _ctx| async move {
        let items: Vec<i64> = Vec::new();
        let at = args["at"].as_u64().unwrap_or(0) as usize;
        Ok::<_, String>(items[at].to_string())
    });
    let r = panics.call(json!({"at": 5}), ctx()).await;
    assert!(r.is_error);
    assert!(r.output.contains("index out of bounds"), "{}", r.output);

    let slow = define_tool("slow", "", None, |_args, _ctx| async move {
        tokio::time::sleep(Duration::from_secs(5)).await;
        Ok::<_, String>("late".to_owned())
    });
    let limited = ToolContext {
        timeout: Some(Duration::from_millis(50)),
        ..ToolContext::default()
    };
    let r = slow.call(json!({}), limited).await;
    assert_eq!(
        (r.is_error, r.output.as_str()),
        (true, "slow timed out after 0.05 s")
    );
}

#[tokio::test]
async fn what_a_handler_returns_becomes_the_result() {
    let tool = define_tool("kinds", "", None, |args, _ctx| async move {
        let result: ToolResult = match args["kind"].as_str() {
            Some("text") => "plain".into_tool_result(),
            Some("json") => json!({"b": [1, 2], "a": null}).into_tool_result(),
            Some("string") => json!("just text").into_tool_result(),
            Some("suspend") => pending(Request {
                kind: "input".into(),
                prompt: "Which colour?".into(),
                ..Request::default()
            }),
            _ => ToolResult::error("no kind"),
        };
        Ok::<_, String>(result)
    });
    let get = |kind: &'static str| {
        let tool = tool.clone();
        async move {
            tool.call(json!({"kind": kind}), ToolContext::default())
                .await
        }
    };
    assert_eq!(get("text").await.output, "plain");
    let json_text: Value = serde_json::from_str(&get("json").await.output).unwrap();
    assert_eq!(json_text, json!({"a": null, "b": [1, 2]}));
    assert_eq!(get("string").await.output, "just text");
    let asked = get("suspend").await;
    assert_eq!(pending_of(&asked).unwrap().prompt, "Which colour?");
    assert_eq!(get("other").await.output, "no kind");
}

#[tokio::test]
async fn progress_reaches_the_hook_and_a_fraction_outside_0_to_1_is_refused() {
    let heard = Arc::new(std::sync::Mutex::new(Vec::new()));
    let into = Arc::clone(&heard);
    let tool = define_tool("steps", "", None, |_args, ctx: ToolContext| async move {
        ctx.progress(0.5, "half way").map_err(|e| e.to_string())?;
        let refused = ctx.progress(1.5, "too far").unwrap_err();
        Ok::<_, String>(refused.to_string())
    });
    let hook: toolnexus::ProgressHook =
        Arc::new(move |f: f64, m: &str| into.lock().unwrap().push((f, m.to_owned())));
    let r = tool
        .call(
            json!({}),
            ToolContext {
                on_progress: Some(hook),
                ..ToolContext::default()
            },
        )
        .await;
    assert_eq!(r.output, "progress takes a fraction from 0 to 1, got 1.5");
    assert_eq!(*heard.lock().unwrap(), vec![(0.5, "half way".to_owned())]);
}

#[tokio::test]
async fn log_reaches_the_hook_with_its_level_and_data() {
    let heard = Arc::new(std::sync::Mutex::new(Vec::new()));
    let into = Arc::clone(&heard);
    let tool = define_tool("fetch", "", None, |_args, ctx: ToolContext| async move {
        ctx.log(LogLevel::Info, "fetching", Map::new());
        let mut data = Map::new();
        data.insert("status".to_owned(), json!(503));
        ctx.log(LogLevel::Warning, "retrying", data);
        Ok::<_, String>("fetched")
    });
    let hook: LogHook = Arc::new(move |level, message: &str, data: &Map<String, Value>| {
        into.lock()
            .unwrap()
            .push((level, message.to_owned(), Value::Object(data.clone())))
    });
    let listening = ToolContext {
        on_log: Some(hook),
        ..ToolContext::default()
    };
    assert_eq!(tool.call(json!({}), listening).await.output, "fetched");
    assert_eq!(
        *heard.lock().unwrap(),
        vec![
            (LogLevel::Info, "fetching".to_owned(), json!({})),
            (
                LogLevel::Warning,
                "retrying".to_owned(),
                json!({"status": 503})
            ),
        ]
    );
    // with no one listening, a line goes nowhere and the call is unchanged
    assert_eq!(tool.call(json!({}), ctx()).await.output, "fetched");
}

#[test]
fn a_log_level_reads_from_its_name_and_an_unknown_name_lists_the_levels() {
    let names: Vec<&str> = LogLevel::ALL.iter().map(|l| l.as_str()).collect();
    assert_eq!(
        names,
        [
            "debug",
            "info",
            "notice",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency"
        ]
    );
    for level in LogLevel::ALL {
        assert_eq!(level.to_string().parse::<LogLevel>(), Ok(level));
    }
    assert!(LogLevel::Debug < LogLevel::Emergency);
    let refused = "warn".parse::<LogLevel>().unwrap_err();
    assert_eq!(
        refused.to_string(),
        "log takes a level of debug, info, notice, warning, error, critical, alert, emergency; got \"warn\""
    );
    assert!("Info".parse::<LogLevel>().is_err());
}

#[tokio::test]
async fn a_handler_that_returns_nothing_succeeds_with_an_empty_output() {
    let touch = define_tool("touch", "", None, |_args, _ctx| async move {
        Ok::<_, String>(())
    });
    let null = define_tool("touch", "", None, |_args, _ctx| async move {
        Ok::<_, String>(Value::Null)
    });
    for tool in [touch, null] {
        let result = tool.call(json!({}), ctx()).await;
        assert_eq!(result, ToolResult::ok(""));
    }
    assert_eq!(().into_tool_result().output, "");
}
