//! The helper vectors of `idl/helpers`: edge inputs of `from_path`, `from_url`,
//! `from_bytes`, `pending` and `auth_required`, run through the crate's helpers, one JSON
//! line per case (`{"case", "ok", "value"|"error", "message"?}`), each judged against the
//! part, result or error code the case names.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use toolnexus::serde_json::{self, Map, Value};
use toolnexus::{
    auth_required, pending, pending_of, BytesError, ContentPart, FileError, MimeTypeError, Request,
    UrlError, Wire,
};

fn bad(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// A directory of its own for one case, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(n: usize) -> io::Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("tn-helpers-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir)?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn bytes_of(b64: &str) -> io::Result<Vec<u8>> {
    let mut part = ContentPart::text("");
    part.data = b64.to_owned();
    part.raw().map_err(|e| bad(e.to_string()))
}

fn arg<'a>(args: &'a Map<String, Value>, key: &str) -> io::Result<&'a str> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(format!("the argument {key:?} is missing")))
}

/// The code of a file error, as idl/helpers names them (POSIX's).
fn file_code(e: &FileError) -> String {
    match e {
        FileError::NotFound { .. } => "ENOENT".into(),
        FileError::IsDirectory { .. } => "EISDIR".into(),
        FileError::NotRegularFile { .. } => "ENOTREG".into(),
        FileError::TooLarge { .. } => "EFBIG".into(),
        FileError::Empty { .. } => "empty-content".into(),
        FileError::Io { source, .. } => match source.kind() {
            io::ErrorKind::NotADirectory => "ENOTDIR".into(),
            io::ErrorKind::InvalidInput => "EINVAL".into(),
            other => format!("unexpected {other:?}"),
        },
        other => format!("unexpected {other:?}"),
    }
}

fn bytes_code(e: &BytesError) -> String {
    match e {
        BytesError::MimeType(e) => mime_code(e),
        BytesError::Empty => "empty-content".into(),
        other => format!("unexpected {other:?}"),
    }
}

fn mime_code(e: &MimeTypeError) -> String {
    match e {
        MimeTypeError::Missing => "missing-mime-type".into(),
        MimeTypeError::NotValid { .. } => "bad-mime-type".into(),
        other => format!("unexpected {other:?}"),
    }
}

fn url_code(e: &UrlError) -> String {
    match e {
        UrlError::Empty => "empty-url".into(),
        UrlError::MissingMimeType { .. } => "missing-mime-type".into(),
        UrlError::BadDataUrl { .. } => "bad-data-url".into(),
        UrlError::NotAllowed { .. } => "bad-url".into(),
        UrlError::MimeType(e) => mime_code(e),
        other => format!("unexpected {other:?}"),
    }
}

/// `Ok(value)` or `Err((code, message))`.
type Outcome = Result<Value, (String, String)>;

fn part(result: Result<ContentPart, (String, String)>) -> Outcome {
    result.map(|p| p.to_wire())
}

/// A suspension, or the error result `pending` gives in its place for a refused url (the
/// only way it gives none here): its output is the refusal.
fn suspension(result: toolnexus::ToolResult) -> Outcome {
    if pending_of(&result).is_some() {
        return Ok(result.to_wire());
    }
    let refused = result.is_error && result.output.contains("URL");
    let code = if refused { "bad-url" } else { "no suspension" };
    Err((code.to_owned(), result.output))
}

fn run_case(helper: &str, args: &Map<String, Value>, scratch: &Path) -> io::Result<Outcome> {
    Ok(match helper {
        "from_url" => {
            let mime = args.get("mimeType").and_then(Value::as_str);
            part(
                ContentPart::from_url(arg(args, "url")?, mime)
                    .map_err(|e| (url_code(&e), e.to_string())),
            )
        }
        "from_bytes" => {
            let raw = bytes_of(arg(args, "base64")?)?;
            part(
                ContentPart::from_bytes(&raw, arg(args, "mimeType")?)
                    .map_err(|e| (bytes_code(&e), e.to_string())),
            )
        }
        "from_path" => {
            let files = args.get("files").and_then(Value::as_object);
            for (name, content) in files.into_iter().flatten() {
                let at = scratch.join(name);
                if name.ends_with('/') {
                    fs::create_dir_all(&at)?;
                } else {
                    fs::write(&at, bytes_of(content.as_str().unwrap_or_default())?)?;
                }
            }
            let given = arg(args, "path")?;
            // A string join: Path::join would keep a trailing slash too, but not an empty path.
            let path = if given.is_empty() {
                PathBuf::new()
            } else {
                PathBuf::from(format!("{}/{given}", scratch.display()))
            };
            let limit = args.get("maxBytes").and_then(Value::as_u64);
            let made = match limit {
                Some(limit) => ContentPart::from_path_with_limit(&path, limit),
                None => ContentPart::from_path(&path),
            };
            part(made.map_err(|e| (file_code(&e), e.to_string())))
        }
        "pending" => {
            let request = args.get("request").cloned().unwrap_or(Value::Null);
            let request = Request::from_wire(request).map_err(|e| bad(e.to_string()))?;
            suspension(pending(request))
        }
        "auth_required" => suspension(auth_required(arg(args, "url")?, arg(args, "prompt")?)),
        other => return Err(bad(format!("no helper {other:?}"))),
    })
}

/// `value` with a pending request's fresh id (`pnd-` and 32 hex digits) written `<pnd>`.
fn with_fresh_ids(mut value: Value) -> Value {
    if let Some(Value::String(id)) = value.pointer_mut("/metadata/pending/id") {
        let hex = id.strip_prefix("pnd-").unwrap_or_default();
        if hex.len() == 32
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            *id = "<pnd>".to_owned();
        }
    }
    value
}

/// Runs every case of every file of `dir`, one JSON line each on stdout, and judges it:
/// `helpers: N passed, N failed` on stderr, and `false` when one failed.
pub fn run(dir: &Path) -> io::Result<bool> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<_>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let (mut passed, mut failed, mut n) = (0usize, 0usize, 0usize);
    for file in files {
        let doc: Value =
            serde_json::from_slice(&fs::read(&file)?).map_err(|e| bad(e.to_string()))?;
        let helper = doc
            .get("helper")
            .and_then(Value::as_str)
            .unwrap_or_default();
        for case in doc
            .get("cases")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            n += 1;
            let name = case.get("name").and_then(Value::as_str).unwrap_or_default();
            let args = case
                .get("args")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let scratch = Scratch::new(n)?;
            let outcome = run_case(helper, &args, &scratch.0)?;
            let id = format!("{helper}/{name}");
            let mut line = Map::new();
            line.insert("case".into(), Value::from(id.as_str()));
            let expected = case.get("part").or_else(|| case.get("result"));
            let want_error = case.get("error").and_then(Value::as_str);
            let why = match (&outcome, want_error) {
                (Ok(value), None) if Some(&with_fresh_ids(value.clone())) == expected => None,
                (Ok(value), None) => Some(format!("gave {value}")),
                (Ok(value), Some(code)) => Some(format!("gave {value}, not the error {code}")),
                (Err((code, _)), Some(want)) if code == want => None,
                (Err((code, message)), _) => Some(format!("error {code}: {message}")),
            };
            match outcome {
                Ok(value) => {
                    line.insert("ok".into(), Value::Bool(true));
                    line.insert("value".into(), with_fresh_ids(value));
                }
                Err((code, message)) => {
                    line.insert("ok".into(), Value::Bool(false));
                    line.insert("error".into(), Value::from(code));
                    line.insert("message".into(), Value::from(message));
                }
            }
            writeln!(out, "{}", Value::Object(line))?;
            match why {
                None => passed += 1,
                Some(why) => {
                    failed += 1;
                    eprintln!("FAIL {id}: {why}");
                }
            }
        }
    }
    out.flush()?;
    eprintln!("helpers: {passed} passed, {failed} failed");
    Ok(failed == 0)
}
