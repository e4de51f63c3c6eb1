// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/suspend.rs (hand-written, copied verbatim).
// codegen: copy; requires ContentPart, Request, ToolResult

//! Suspensions: a [`ToolResult`] whose `metadata["pending"]` is a [`Request`].

use serde_json::{Map, Value};

use crate::media::check_url;
use crate::{Request, ToolResult, Wire};

/// The prompt of [`auth_required`] when it is given an empty one.
pub const DEFAULT_AUTH_PROMPT: &str = "Authorization required to continue";

/// A fresh request id: `pnd-` and 128 bits from the operating system's random
/// source, in lowercase hex, so ids are unique across processes without coordination.
///
/// # Panics
///
/// When the operating system has no random source to read (it always has one on
/// the platforms Rust's standard library supports, once booted).
pub fn new_request_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source is readable");
    let mut id = String::with_capacity(4 + 2 * bytes.len());
    id.push_str("pnd-");
    for b in bytes {
        id.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        id.push(char::from(b"0123456789abcdef"[usize::from(b & 0x0f)]));
    }
    id
}

/// A suspension asking `request` of the host.
///
/// The result is an error (`is_error` true) whose output is the prompt, followed by
/// the url on a line of its own when there is one, so a host that knows nothing of
/// suspensions still shows something sensible; `metadata["pending"]` holds the
/// request's wire form. An empty id is replaced with [`new_request_id`].
///
/// A url, which a host shows a person as the link to follow, must be an `http` or
/// `https` URL without control or bidi formatting characters (`javascript:`, `file:`,
/// `data:`... are refused; an empty url is no url). A refused url gives no suspension:
/// the result is [`ToolResult::error`] saying why (where the Python and TypeScript
/// `pending` raise it), so [`pending_of`] finds no request in it.
pub fn pending(mut request: Request) -> ToolResult {
    if let Some(url) = request.url.as_deref().filter(|u| !u.is_empty()) {
        if let Err(e) = check_url(url) {
            return ToolResult::error(format!(
                "cannot ask {:?}: the request's url is refused: {e}",
                request.kind
            ));
        }
    }
    if request.id.is_empty() {
        request.id = new_request_id();
    }
    let output = match request.url.as_deref() {
        Some(url) if !url.is_empty() => format!("{}\n{}", request.prompt, url),
        _ => request.prompt.clone(),
    };
    let wire = match request.try_to_wire() {
        Ok(wire) => wire,
        // Its free-form JSON nests past MAX_DEPTH: moved in as it is (after the other
        // keys), never serialized, so nothing recurses; the result cannot be emitted
        // (`try_to_json` says so) and `pending_of` finds no request in it.
        Err(_) => {
            let data = request.data.take();
            let extra = std::mem::take(&mut request.extra);
            let mut wire = request.to_wire();
            if let Value::Object(map) = &mut wire {
                if let Some(data) = data {
                    map.insert("data".to_owned(), Value::Object(data));
                }
                map.extend(extra);
            }
            wire
        }
    };
    let mut metadata = Map::new();
    metadata.insert("pending".to_owned(), wire);
    ToolResult {
        output,
        is_error: true,
        metadata: Some(metadata),
        ..ToolResult::default()
    }
}

/// A suspension asking the person to authorize at `url`; an empty `prompt` becomes
/// [`DEFAULT_AUTH_PROMPT`]. A `url` that is not an `http` or `https` URL (an empty one
/// included) gives an error result instead, as [`pending`] says.
pub fn auth_required(url: impl Into<String>, prompt: impl Into<String>) -> ToolResult {
    let url = url.into();
    if url.is_empty() {
        return ToolResult::error(
            "auth_required needs the http or https URL to authorize at, got \"\"",
        );
    }
    let prompt = prompt.into();
    pending(Request {
        kind: "authorization".to_owned(),
        prompt: if prompt.is_empty() {
            DEFAULT_AUTH_PROMPT.to_owned()
        } else {
            prompt
        },
        url: Some(url),
        ..Request::default()
    })
}

/// The [`Request`] a suspension carries, or `None` for any other result, including
/// one whose `metadata["pending"]` is not a valid request.
pub fn pending_of(result: &ToolResult) -> Option<Request> {
    let value = result.metadata.as_ref()?.get("pending")?;
    // Checked before the clone, which would recurse through a deep value.
    Request::from_wire(crate::wire::acceptable(value)?.clone()).ok()
}
