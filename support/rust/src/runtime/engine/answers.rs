// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Which waiting call an answer answers, the check of an approval's answer, and the form
//! a person answers an approval with.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{APPROVAL_DATA, Ask, is_approval};
use crate::runtime::book::quoted;
use crate::runtime::errors::{ResumeError, ResumeReason};
use crate::{Answer, Request};

/// Which waiting call each answer answers (their indices), or [`ResumeError`] for the
/// whole list: an answer goes to the first call, in call order, that waits on its request
/// id and has not taken an answer (two calls may ask under one fixed id: each takes one).
///
/// `candidates(request_id)` lists `(index, call id)` of the calls waiting on that id, in
/// call order; `answered(call_id, request_id)` says whether that call took an answer to it
/// before. An answer that finds no call is `replayed` when it, or another in the list with
/// its id, already took the call it would answer, and `mismatch` otherwise (`first` is the
/// id of the first request waited on, for the message).
pub fn match_answers(
    answers: &[Answer],
    candidates: impl Fn(&str) -> Vec<(usize, String)>,
    answered: impl Fn(&str, &str) -> bool,
    first: &str,
) -> Result<Vec<usize>, ResumeError> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut picks = Vec::with_capacity(answers.len());
    for answer in answers {
        let mut replayed = !seen.insert(answer.id.as_str());
        let mut found = None;
        for (index, call_id) in candidates(&answer.id) {
            if taken.contains(&call_id) {
                continue;
            }
            if answered(&call_id, &answer.id) {
                replayed = true;
                continue;
            }
            found = Some(index);
            taken.insert(call_id);
            break;
        }
        match found {
            Some(index) => picks.push(index),
            None if replayed => {
                return Err(ResumeError::new(
                    ResumeReason::Replayed,
                    format!("request {} was already answered", quoted(&answer.id)),
                ));
            }
            None => {
                return Err(ResumeError::new(
                    ResumeReason::Mismatch,
                    format!(
                        "answer {} does not answer the pending request {} nor any other \
                         request the run waits on",
                        quoted(&answer.id),
                        quoted(first)
                    ),
                ));
            }
        }
    }
    Ok(picks)
}

/// Refuse `answer` to `step` when its data holds what the request does not take: an
/// approving answer to the toolkit's approval holds only [`APPROVAL_DATA`] (`arguments`),
/// so a misspelled key (`args`) is not silently ignored while the call runs as first asked.
/// A `mismatch` naming the key; a host calls it with [`match_answers`], before it takes
/// any answer of the list, so nothing is taken and the call still waits.
pub fn check_answer(step: &Ask, answer: &Answer) -> Result<(), ResumeError> {
    let Some(data) = answer.data.as_ref().filter(|_| answer.ok) else {
        return Ok(());
    };
    if !step.approval() {
        return Ok(());
    }
    let extra: Vec<String> = data
        .keys()
        .filter(|k| !APPROVAL_DATA.contains(&k.as_str()))
        .map(|k| quoted(k))
        .collect();
    if extra.is_empty() {
        return Ok(());
    }
    Err(ResumeError::new(
        ResumeReason::Mismatch,
        format!(
            "answer {} approves the call to {} with data holding {}: an approval's data holds \
             only 'arguments' (the edited arguments); nothing was taken, the call still waits",
            quoted(&answer.id),
            step.call.name,
            extra.join(", ")
        ),
    ))
}

/// The form a person answers the toolkit's approval `request` with, as the JSON Schema of
/// an MCP elicitation's `requestedSchema` (an object of text, number and boolean fields),
/// or `None` for any other request. Its one field, `arguments`, is the arguments the call
/// runs with, as JSON text, the asked ones its default: a person edits them there, and an
/// answer that leaves them as they are approves the call as asked. (Without the feature
/// `lossless` its keys come out sorted, as every map of the crate's does.)
pub fn approval_form(request: &Request) -> Option<Map<String, Value>> {
    let data = request.data.as_ref()?;
    let tool = data.get("tool").and_then(Value::as_str)?;
    if !is_approval(tool, request) {
        return None;
    }
    let default = serde_json::to_string(&data["arguments"]).ok()?;
    let field = serde_json::json!({
        "type": "string",
        "title": "Arguments",
        "description": format!("The arguments {tool} runs with, as JSON: edit them to run it with others."),
        "default": default,
    });
    let mut properties = Map::new();
    properties.insert("arguments".to_owned(), field);
    let mut form = Map::new();
    form.insert("type".to_owned(), Value::from("object"));
    form.insert("properties".to_owned(), Value::Object(properties));
    Some(form)
}
