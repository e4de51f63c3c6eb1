// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! Results kept whole: where a toolkit puts the output of a call it cut ([`ResultSpill`]: a
//! directory, [`DirectorySpill`], or the host's own store), what it applies after each run
//! (`ResultLimits`), and the built-in [`read_result`] tool a host may add to its toolkit so
//! that the model pages through a kept result.
//!
//! A kept result is bound to the scope of the turn that kept it, its principal and its
//! session: `read_result` in a turn of another principal or another session finds nothing
//! under the reference, as if none were kept (`idl/loop/README.md`, "The reference, the
//! spill and read_result").

use std::borrow::Cow;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::engine::{fit, fit_keeping, result_ref, surely_within};
use super::limit::{Limit, REF_PREFIX, Tokenizer};
use super::time::random_hex;
use super::tool::{Tool, ToolContext, define_tool};
use crate::ToolResult;
use crate::loop_data::{self as texts, READ_RESULT_LENGTH};

/// Who may read a kept result: the principal and the session of the turn that kept it
/// (both absent is a scope too).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ResultScope {
    /// The turn's principal.
    pub principal: Option<String>,
    /// The turn's session.
    pub session: Option<String>,
}

impl ResultScope {
    /// The scope as one string, for a table's key or a file's name: the JSON `[principal,
    /// session]` as the Python package writes it (`["user-1", "s1"]`, `[null, null]`), so
    /// a store shared by the languages keys it alike.
    pub fn key(&self) -> String {
        let one = |v: &Option<String>| v.as_deref().map_or(Value::Null, Value::from);
        format!("[{}, {}]", one(&self.principal), one(&self.session))
    }
}

/// Where a toolkit keeps the whole output of a call whose output it cut
/// ([`ToolkitBuilder::spill`](crate::ToolkitBuilder::spill)): `put` keeps `text` under
/// `reference` for `scope`, replacing what was there; `get` returns it, or `None` when
/// nothing is kept under `reference` for that scope (another scope's is never returned).
pub trait ResultSpill: Send + Sync {
    /// Keeps `text` under `reference` for `scope`.
    fn put(&self, scope: &ResultScope, reference: &str, text: &str) -> io::Result<()>;
    /// The text kept under `reference` for `scope`, if any.
    fn get(&self, scope: &ResultScope, reference: &str) -> io::Result<Option<String>>;
}

impl<S: ResultSpill + ?Sized> ResultSpill for Arc<S> {
    fn put(&self, scope: &ResultScope, reference: &str, text: &str) -> io::Result<()> {
        (**self).put(scope, reference, text)
    }

    fn get(&self, scope: &ResultScope, reference: &str) -> io::Result<Option<String>> {
        (**self).get(scope, reference)
    }
}

/// A [`ResultSpill`] in a directory (made when missing): one UTF-8 file a kept result,
/// named by a digest of its scope and reference (the Python package's `DirectorySpill`
/// names them alike), written whole before it is renamed into place.
#[derive(Debug, Clone)]
pub struct DirectorySpill {
    path: PathBuf,
}

impl DirectorySpill {
    /// The spill in `path`, made when missing.
    pub fn new(path: impl AsRef<Path>) -> io::Result<DirectorySpill> {
        let path = path.as_ref().to_path_buf();
        fs::create_dir_all(&path)?;
        Ok(DirectorySpill { path })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn file(&self, scope: &ResultScope, reference: &str) -> PathBuf {
        let digest = Sha256::digest(format!("{}\n{reference}", scope.key()).as_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        self.path.join(format!("{hex}.txt"))
    }
}

impl ResultSpill for DirectorySpill {
    fn put(&self, scope: &ResultScope, reference: &str, text: &str) -> io::Result<()> {
        let staged = self.path.join(format!(".staged-{}", random_hex(8)));
        let written = fs::File::create(&staged).and_then(|mut out| {
            out.write_all(text.as_bytes())?;
            out.sync_all()
        });
        let placed = written.and_then(|()| fs::rename(&staged, self.file(scope, reference)));
        if placed.is_err() {
            let _ = fs::remove_file(&staged); // nothing half-written is left behind
        }
        placed
    }

    fn get(&self, scope: &ResultScope, reference: &str) -> io::Result<Option<String>> {
        match fs::read_to_string(self.file(scope, reference)) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// What a toolkit applies after each run of a call: the tighter of the tool's limit and its
/// own, the cut ([`fit`](crate::engine::fit)), and the whole output kept in `spill` when it
/// was cut.
#[derive(Clone, Default)]
pub(crate) struct ResultLimits {
    pub(crate) limit: Option<Limit>,
    pub(crate) spill: Option<Arc<dyn ResultSpill>>,
    pub(crate) tokenizer: Option<Tokenizer>,
}

impl fmt::Debug for ResultLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResultLimits")
            .field("limit", &self.limit)
            .field("spill", &self.spill.as_ref().map(|_| "ResultSpill"))
            .field("tokenizer", &self.tokenizer.as_ref().map(|_| "Fn"))
            .finish()
    }
}

impl ResultLimits {
    /// The tool to run for a call to `tool`: `read_result` reads this toolkit's spill, for
    /// `scope`; any other tool is itself.
    pub(crate) fn bind<'a>(
        &self,
        tool: &'a Tool,
        scope: impl FnOnce() -> ResultScope,
    ) -> Cow<'a, Tool> {
        match (&self.spill, tool.reads_results()) {
            (Some(spill), true) => Cow::Owned(reading(tool, Arc::clone(spill), scope())),
            _ => Cow::Borrowed(tool),
        }
    }

    /// `result` of a run of `tool`, fitted to its limit; a cut output kept whole under its
    /// reference (the call's idempotency key's, `key`), unless it is a page `read_result`
    /// read. A copy that cannot be kept leaves the cut without a reference, so the model is
    /// never sent to a copy that is not there.
    pub(crate) fn apply(
        &self,
        tool: Option<&Tool>,
        result: ToolResult,
        key: &str,
        scope: impl FnOnce() -> ResultScope,
    ) -> ToolResult {
        let own = tool.and_then(Tool::limit);
        let limit = match (own, &self.limit) {
            (Some(own), kit) => own.tighter(kit.as_ref()),
            (None, Some(kit)) => *kit,
            (None, None) => return result,
        };
        let tokenizer = self.tokenizer.as_ref();
        if result.structured_content.is_none() && surely_within(&result.output, &limit, tokenizer) {
            return result; // nothing to cut, by the output's length alone
        }
        let keeps = tool.is_none_or(|t| !t.reads_results());
        let Some(spill) = self.spill.as_ref().filter(|_| keeps) else {
            return fit(result, Some(&limit), None, tokenizer).0;
        };
        let reference = if key.is_empty() {
            [REF_PREFIX, &random_hex(8)].concat()
        } else {
            result_ref(key)
        };
        let original_meta = result.metadata.clone();
        let (fitted, whole) = fit_keeping(result, Some(&limit), Some(&reference), tokenizer);
        let Some(whole) = whole else { return fitted };
        if spill.put(&scope(), &reference, &whole).is_ok() {
            return fitted;
        }
        let again = ToolResult {
            output: whole,
            metadata: original_meta,
            ..fitted
        };
        fit(again, Some(&limit), None, tokenizer).0
    }
}

/// `read_result`'s JSON Schema: `{"ref", "offset"?, "length"?}`, no other key.
fn read_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "ref": {"type": "string", "description": "The reference the cut marker names (result-…)."},
            "offset": {"type": "integer", "minimum": 0, "description": "The first character to read, from 0."},
            "length": {"type": "integer", "minimum": 1, "description": "How many characters to read."}
        },
        "required": ["ref"],
        "additionalProperties": false
    })
}

/// The built-in tool that reads a kept result, a page at a time: add it to a toolkit that
/// keeps results (`Toolkit::builder().tool(read_result()).spill(...)`). In a toolkit's turn it
/// reads the toolkit's spill, for the turn's principal and session; called outside one (or
/// in a toolkit without a spill) it finds nothing. Its pages are cut to the toolkit's limit
/// like any output, and never kept again.
pub fn read_result() -> Tool {
    let tool = define_tool(
        "read_result",
        texts::read_result_description(),
        Some(read_schema()),
        |args: Value, _ctx: ToolContext| async move {
            let reference = args["ref"].as_str().unwrap_or_default();
            Ok::<_, std::convert::Infallible>(ToolResult::error(texts::read_result_unknown(
                reference,
            )))
        },
    );
    tool.reading_results()
}

/// `tool` (a `read_result`) reading `spill` for `scope`.
fn reading(tool: &Tool, spill: Arc<dyn ResultSpill>, scope: ResultScope) -> Tool {
    let scope = Arc::new(scope);
    tool.with_handler(Arc::new(move |args, _ctx| {
        let page = read(spill.as_ref(), &scope, &args);
        Box::pin(async move { page })
    }))
}

/// The page `args` asks for of the text kept under its `ref` for `scope`.
fn read(spill: &dyn ResultSpill, scope: &ResultScope, args: &Value) -> ToolResult {
    let reference = args["ref"].as_str().unwrap_or_default();
    let text = match spill.get(scope, reference) {
        Ok(Some(text)) => text,
        Ok(None) => return ToolResult::error(texts::read_result_unknown(reference)),
        Err(e) => return ToolResult::error(format!("{reference} could not be read: {e}")),
    };
    let start = args["offset"]
        .as_u64()
        .map_or(0, |v| usize::try_from(v).unwrap_or(usize::MAX));
    let length = args["length"].as_u64().map_or(READ_RESULT_LENGTH, |v| {
        usize::try_from(v).unwrap_or(usize::MAX)
    });
    let total = text.chars().count();
    if start > total {
        return ToolResult::error(texts::read_result_past_end(
            &start.to_string(),
            reference,
            &total.to_string(),
        ));
    }
    let end = start.saturating_add(length).min(total);
    let at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
    let (from, to) = (at(start), at(end));
    let head = texts::read_result_page(
        reference,
        &start.to_string(),
        &end.to_string(),
        &total.to_string(),
    );
    ToolResult::ok([&head, "\n", &text[from..to]].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_keyed_as_the_python_package_keys_them() {
        let scope = ResultScope {
            principal: Some("user-1".into()),
            session: Some("s\"1".into()),
        };
        assert_eq!(scope.key(), r#"["user-1", "s\"1"]"#);
        assert_eq!(ResultScope::default().key(), "[null, null]");
    }

    #[test]
    fn a_directory_keeps_each_scope_apart() {
        let dir = std::env::temp_dir().join(format!("toolnexus-spill-{}", random_hex(8)));
        let spill = DirectorySpill::new(&dir).unwrap();
        let mine = ResultScope {
            principal: None,
            session: Some("s1".into()),
        };
        spill.put(&mine, "result-1", "whole ½ text").unwrap();
        assert_eq!(
            spill.get(&mine, "result-1").unwrap().as_deref(),
            Some("whole ½ text")
        );
        assert_eq!(
            spill.get(&ResultScope::default(), "result-1").unwrap(),
            None
        );
        assert_eq!(spill.get(&mine, "result-2").unwrap(), None);
        let files = fs::read_dir(&dir).unwrap().count();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(files, 1, "no staged file is left");
    }

    /// A spill whose disk is full.
    struct Full;

    impl ResultSpill for Full {
        fn put(&self, _: &ResultScope, _: &str, _: &str) -> io::Result<()> {
            Err(io::Error::other("the disk is full"))
        }

        fn get(&self, _: &ResultScope, _: &str) -> io::Result<Option<String>> {
            Ok(None)
        }
    }

    fn limits(spill: Arc<dyn ResultSpill>) -> ResultLimits {
        ResultLimits {
            limit: Some(Limit::new(Some(200), None, None).unwrap()),
            spill: Some(spill),
            tokenizer: None,
        }
    }

    #[test]
    fn a_cut_output_is_kept_under_the_calls_reference() {
        let dir = std::env::temp_dir().join(format!("toolnexus-spill-{}", random_hex(8)));
        let spill = Arc::new(DirectorySpill::new(&dir).unwrap());
        let whole = "line\n".repeat(100);
        let key = "idk-0123456789abcdef0123456789abcdef";
        let cut = limits(spill.clone()).apply(
            None,
            ToolResult::ok(whole.clone()),
            key,
            ResultScope::default,
        );
        let kept = spill
            .get(&ResultScope::default(), "result-0123456789abcdef")
            .unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert!(
            cut.output.contains("kept as \"result-0123456789abcdef\""),
            "{}",
            cut.output
        );
        assert_eq!(kept, Some(whole));
    }

    #[test]
    fn a_copy_that_cannot_be_kept_is_not_named() {
        let whole = "line\n".repeat(100);
        let key = "idk-0123456789abcdef0123456789abcdef";
        let cut =
            limits(Arc::new(Full)).apply(None, ToolResult::ok(whole), key, ResultScope::default);
        assert!(cut.output.contains("characters cut …]") && !cut.output.contains("kept as"));
        assert!(cut.output.chars().count() <= 200);
        let truncated = &cut.metadata.unwrap()["truncated"];
        assert!(truncated.get("ref").is_none(), "{truncated}");
    }

    #[test]
    fn a_page_is_read_by_code_points() {
        let dir = std::env::temp_dir().join(format!("toolnexus-spill-{}", random_hex(8)));
        let spill = DirectorySpill::new(&dir).unwrap();
        spill
            .put(&ResultScope::default(), "result-a", "😀é😀é")
            .unwrap();
        let page = read(
            &spill,
            &ResultScope::default(),
            &json!({"ref": "result-a", "offset": 1, "length": 2}),
        );
        let past = read(
            &spill,
            &ResultScope::default(),
            &json!({"ref": "result-a", "offset": 5}),
        );
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(page.output, "[result-a: characters 1 to 3 of 4]\né😀");
        assert!(past.is_error);
    }
}
