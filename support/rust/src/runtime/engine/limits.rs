// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Results that fit the model: the cut of a call's output to its [`Limit`] that keeps its
//! head and tail, with the marker the model reads in the gap, and the reference the whole
//! output is kept under. Pure: the host keeps the whole output (the toolkit, in its
//! [`ResultSpill`](crate::ResultSpill)).
//!
//! The rule (the loop vectors covering `result limits` pin it, `idl/loop/README.md`):
//!
//! - A limit counts **chars** (code points, never UTF-16 units), **bytes** (UTF-8) and
//!   **tokens** (the estimate `ceil(bytes / 4)` unless the host passes a [`Tokenizer`], so a
//!   token limit `n` is a byte limit `4n`).
//! - An output within every unit is left as it is. A longer one becomes `head + marker +
//!   tail`: the budget is the limit less the marker written with N = the whole length; the
//!   head takes at most half of it (rounded down, in each unit), ended at its last line
//!   break when that keeps at least half of it; the tail the rest, started at a line start
//!   when that keeps at least half of it. Both are whole code points.
//! - `structured_content` is never cut; over the limit, `metadata["truncated"]
//!   ["structuredContent"]` gives the sizes of its JSON text.
//! - A suspension (a result holding `metadata["pending"]`) is never cut.

use serde_json::{Map, Value};

use crate::ToolResult;
use crate::runtime::limit::{Limit, REF_PREFIX, Tokenizer, marker};

/// The reference a call's whole output is kept under: `result-` and the first 16 hex digits
/// of its idempotency key after `idk-`, so every language names it alike.
pub fn result_ref(idempotency_key: &str) -> String {
    let hex = idempotency_key
        .strip_prefix("idk-")
        .unwrap_or(idempotency_key);
    let end = hex.char_indices().nth(16).map_or(hex.len(), |(at, _)| at);
    [REF_PREFIX, &hex[..end]].concat()
}

/// `text`'s size in every unit, as `metadata["truncated"]` writes it: `{"chars", "bytes",
/// "tokens"}` (tokens by `tokenizer`, else the estimate).
pub fn sizes(text: &str, tokenizer: Option<&Tokenizer>) -> Map<String, Value> {
    let tokens = tokenizer.map_or_else(|| text.len().div_ceil(4), |count| count(text));
    let mut out = Map::new();
    out.insert("chars".into(), Value::from(text.chars().count()));
    out.insert("bytes".into(), Value::from(text.len()));
    out.insert("tokens".into(), Value::from(tokens));
    out
}

/// `result` fitted to `limit`, and whether its output was cut (the host then keeps the whole
/// output under `reference`; `None`: nothing is kept, and the marker names no reference). A
/// result within the limit is returned as it is.
pub fn fit(
    result: ToolResult,
    limit: Option<&Limit>,
    reference: Option<&str>,
    tokenizer: Option<&Tokenizer>,
) -> (ToolResult, bool) {
    let (fitted, whole) = fit_keeping(result, limit, reference, tokenizer);
    (fitted, whole.is_some())
}

/// [`fit`], giving back the whole output when it was cut.
pub(crate) fn fit_keeping(
    result: ToolResult,
    limit: Option<&Limit>,
    reference: Option<&str>,
    tokenizer: Option<&Tokenizer>,
) -> (ToolResult, Option<String>) {
    let Some(limit) = limit else {
        return (result, None);
    };
    if result
        .metadata
        .as_ref()
        .is_some_and(|m| m.contains_key("pending"))
    {
        return (result, None);
    }
    let over_output = !surely_within(&result.output, limit, tokenizer)
        && !within(&result.output, limit, tokenizer);
    let shown = result
        .structured_content
        .as_ref()
        .map(|s| serde_json::to_string(s).unwrap_or_default());
    let over_structured = shown.as_ref().is_some_and(|s| !within(s, limit, tokenizer));
    if !over_output && !over_structured {
        return (result, None);
    }
    let mut truncated = Map::new();
    truncated.insert("limit".into(), Value::Object(limit.to_json()));
    let mut result = result;
    let mut whole = None;
    if over_output {
        let text = Counted::new(&result.output);
        let done = match (tokenizer, limit.tokens()) {
            (Some(count), Some(tokens)) => cut_to_tokens(&text, limit, tokens, reference, count),
            _ => cut(
                &text,
                limit.chars(),
                byte_cap(limit, false, None),
                reference,
            ),
        };
        truncated.insert("size".into(), Value::Object(sizes(text.text, tokenizer)));
        let kept = done.kept.map(|[a, b]| Value::from(vec![a, b]));
        truncated.insert("kept".into(), Value::from(kept.to_vec()));
        if let Some(reference) = reference {
            truncated.insert("ref".into(), Value::from(reference));
        }
        whole = Some(std::mem::replace(&mut result.output, done.output));
    }
    if let (Some(shown), true) = (&shown, over_structured) {
        let structured = sizes(shown, tokenizer);
        truncated.insert("structuredContent".into(), Value::Object(structured));
    }
    let mut meta = Map::new();
    meta.insert("truncated".into(), Value::Object(truncated));
    (result.with_metadata(meta), whole)
}

/// Whether `text` fits `limit` by its length alone (a UTF-8 byte is at most a code point).
pub(crate) fn surely_within(text: &str, limit: &Limit, tokenizer: Option<&Tokenizer>) -> bool {
    text.len() <= limit.sure_bytes() && (tokenizer.is_none() || limit.tokens().is_none())
}

fn within(text: &str, limit: &Limit, tokenizer: Option<&Tokenizer>) -> bool {
    if let Some(cap) = byte_cap(limit, tokenizer.is_some(), None) {
        if text.len() > cap {
            return false;
        }
    }
    if let Some(chars) = limit.chars() {
        if text.len() > chars && text.chars().count() > chars {
            return false;
        }
    }
    match (tokenizer, limit.tokens()) {
        (Some(count), Some(tokens)) => count(text) <= tokens,
        _ => true,
    }
}

/// The bytes a cut may keep: the byte limit, four a token under the estimate (no host
/// tokenizer), and `budget`.
fn byte_cap(limit: &Limit, tokenizer: bool, budget: Option<usize>) -> Option<usize> {
    let by_tokens = if tokenizer {
        None
    } else {
        limit.tokens().map(|t| t.saturating_mul(4))
    };
    [limit.bytes(), by_tokens, budget]
        .into_iter()
        .flatten()
        .min()
}

/// A text and its length in code points, counted once.
struct Counted<'a> {
    text: &'a str,
    n: usize,
}

impl<'a> Counted<'a> {
    fn new(text: &'a str) -> Counted<'a> {
        Counted {
            text,
            n: text.chars().count(),
        }
    }
}

/// A cut output, and the code-point ranges of the whole output it kept (end excluded).
struct Cut {
    output: String,
    kept: [[usize; 2]; 2],
}

/// `t` cut to `chars` code points and `byte_cap` bytes (`None`: no bound), marker included.
fn cut(
    t: &Counted<'_>,
    chars: Option<usize>,
    byte_cap: Option<usize>,
    reference: Option<&str>,
) -> Cut {
    let widest = marker(t.n, reference);
    let room_c = chars.map(|c| c.saturating_sub(widest.chars().count()));
    let room_b = byte_cap.map(|b| b.saturating_sub(widest.len()));
    let (head_n, head_end) = head(t.text, room_c.map(|c| c / 2), room_b.map(|b| b / 2));
    let tail_chars = room_c.map(|c| c - head_n);
    let tail_bytes = room_b.map(|b| b - head_end);
    let (tail_n, tail_start) = tail(t, tail_chars, tail_bytes, head_n);
    let count = t.n - head_n - tail_n;
    let output = [
        &t.text[..head_end],
        &marker(count, reference),
        &t.text[tail_start..],
    ]
    .concat();
    Cut {
        output,
        kept: [[0, head_n], [t.n - tail_n, t.n]],
    }
}

/// The longest prefix of `text` within both bounds, ended at its last line break when that
/// keeps at least half of it: its length in code points, and its end in bytes.
fn head(text: &str, chars: Option<usize>, bytes: Option<usize>) -> (usize, usize) {
    let (mut n, mut end) = (0, 0);
    for c in text.chars() {
        let next = end + c.len_utf8();
        if chars.is_some_and(|most| n >= most) || bytes.is_some_and(|most| next > most) {
            break;
        }
        n += 1;
        end = next;
    }
    let Some(line) = text[..end].rfind('\n') else {
        return if n == 0 { (0, 0) } else { (n, end) };
    };
    let line_n = n - text[line + 1..end].chars().count();
    if 2 * line_n >= n {
        (line_n, line + 1)
    } else {
        (n, end)
    }
}

/// The longest suffix of `t` within both bounds, after the head (its first `floor` code
/// points), started at a line start when that keeps at least half of it: its length in
/// code points, and its start in bytes.
fn tail(
    t: &Counted<'_>,
    chars: Option<usize>,
    bytes: Option<usize>,
    floor: usize,
) -> (usize, usize) {
    let most = chars.map_or(t.n - floor, |c| c.min(t.n - floor));
    let text = t.text;
    let (mut n, mut start) = (0, text.len());
    for c in text.chars().rev() {
        let next = start - c.len_utf8();
        if n >= most || bytes.is_some_and(|b| text.len() - next > b) {
            break;
        }
        n += 1;
        start = next;
    }
    if start == 0 || text[..start].ends_with('\n') {
        return (n, start);
    }
    let Some(found) = text[start..].find('\n') else {
        return (n, start);
    };
    let line = start + found + 1;
    let line_n = text[line..].chars().count();
    if 2 * line_n >= n {
        (line_n, line)
    } else {
        (n, start)
    }
}

/// The cut under a host's tokenizer: a byte budget from the text's own bytes per token,
/// narrowed until the tokenizer counts the result within the limit.
fn cut_to_tokens(
    t: &Counted<'_>,
    limit: &Limit,
    tokens: usize,
    reference: Option<&str>,
    count: &Tokenizer,
) -> Cut {
    let whole = count(t.text).max(1);
    let mut budget = (tokens.saturating_mul(t.text.len()) / whole).max(1);
    let mut done = cut(
        t,
        limit.chars(),
        byte_cap(limit, true, Some(budget)),
        reference,
    );
    for _ in 0..15 {
        let counted = count(&done.output);
        if counted <= tokens || budget <= 1 {
            break;
        }
        budget = (budget.saturating_mul(tokens) / counted)
            .saturating_sub(1)
            .max(1);
        done = cut(
            t,
            limit.chars(),
            byte_cap(limit, true, Some(budget)),
            reference,
        );
    }
    done
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use serde_json::json;

    fn limit(value: Value) -> Limit {
        Limit::from_json(&value).unwrap()
    }

    #[test]
    fn a_result_within_its_limit_is_untouched() {
        let result = ToolResult::ok("short");
        let (fitted, cut) = fit(
            result.clone(),
            Some(&limit(json!({"chars": 100}))),
            None,
            None,
        );
        assert_eq!((fitted, cut), (result, false));
    }

    #[test]
    fn chars_are_code_points_and_bytes_utf_8() {
        // 150 emoji: 150 code points (300 UTF-16 units), 600 bytes.
        let text = "😀".repeat(150);
        let (fitted, cut) = fit(
            ToolResult::ok(text.clone()),
            Some(&limit(json!({"chars": 150}))),
            None,
            None,
        );
        assert!(!cut, "150 code points fit 150 chars");
        assert_eq!(fitted.output, text);
        let (fitted, cut) = fit(
            ToolResult::ok(text),
            Some(&limit(json!({"chars": 140}))),
            None,
            None,
        );
        assert!(cut);
        // Room 140 - 26 (the marker with N = 150): a head of 57 and a tail of 57, none split.
        let marker = "\n[… 36 characters cut …]\n";
        assert_eq!(
            fitted.output,
            ["😀".repeat(57), marker.into(), "😀".repeat(57)].concat()
        );
        assert_eq!(fitted.output.chars().count(), 139);
        let truncated = &fitted.metadata.unwrap()["truncated"];
        assert_eq!(truncated["kept"], json!([[0, 57], [93, 150]]));
        assert_eq!(
            truncated["size"],
            json!({"chars": 150, "bytes": 600, "tokens": 150})
        );
    }

    #[test]
    fn a_byte_cut_never_splits_a_code_point() {
        let text = "é".repeat(200); // two bytes each
        let (fitted, _) = fit(
            ToolResult::ok(text),
            Some(&limit(json!({"bytes": 151}))),
            None,
            None,
        );
        assert!(fitted.output.len() <= 151);
        // Room 151 - 30 (the marker's bytes with N = 200): a head of 60 bytes, a tail of 60.
        let marker = "\n[… 140 characters cut …]\n";
        assert_eq!(
            fitted.output,
            ["é".repeat(30), marker.into(), "é".repeat(30)].concat()
        );
    }

    #[test]
    fn a_suspension_is_never_cut() {
        let mut result = ToolResult::ok("x".repeat(500));
        result.metadata = Some(json!({"pending": {}}).as_object().unwrap().clone());
        let (fitted, cut) = fit(
            result.clone(),
            Some(&limit(json!({"chars": 100}))),
            None,
            None,
        );
        assert_eq!((fitted, cut), (result, false));
    }

    #[test]
    fn a_tokenizer_counts_the_tokens() {
        // One token a word of "w ": 400 tokens, cut to at most 100.
        let count: Tokenizer = Arc::new(|text: &str| text.split_whitespace().count());
        let text = "w ".repeat(400);
        let (fitted, cut) = fit(
            ToolResult::ok(text),
            Some(&limit(json!({"tokens": 100}))),
            None,
            Some(&count),
        );
        assert!(cut);
        assert!(count(&fitted.output) <= 100, "{}", fitted.output);
        assert_eq!(fitted.metadata.unwrap()["truncated"]["size"]["tokens"], 400);
    }

    #[test]
    fn the_reference_is_the_keys_first_hex_digits() {
        assert_eq!(
            result_ref("idk-0123456789abcdef0123456789abcdef"),
            "result-0123456789abcdef"
        );
    }
}
