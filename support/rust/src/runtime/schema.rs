// codegen: package; requires Answer, ContentPart, Request, RunResult, ToolCall, ToolCallResult, ToolResult

//! A tool's input schema, compiled once with the `jsonschema` crate (draft 2020-12 unless
//! the schema names another), with `pattern` read as the Python package reads it
//! (`toolnexus/_schema.py`): ECMA-262's `$` (the end of the input, never before a final
//! newline) and ASCII classes (`\d` is `[0-9]`, `\w` is `[0-9A-Za-z_]`, `\s` the six ASCII
//! spaces, `\b` an ASCII word boundary), with lookaround and backreferences
//! (`fancy-regex`, the engine `jsonschema` itself uses).

use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{Keyword, ValidationError, Validator};
use serde_json::{Map, Value};

use super::book::quoted;
use super::errors::SchemaError;

/// A compiled input schema.
pub(crate) struct Schema {
    validator: Validator,
}

impl Schema {
    /// `schema` compiled, or why it is not a JSON Schema this crate can check.
    pub(crate) fn compile(schema: &Value) -> Result<Schema, SchemaError> {
        Schema::compile_as(schema, "input_schema")
    }

    /// `schema` compiled, or why it is not a JSON Schema this crate can check, naming it
    /// `what` (`input_schema`, `output_schema`).
    pub(crate) fn compile_as(schema: &Value, what: &str) -> Result<Schema, SchemaError> {
        let validator = jsonschema::options()
            .with_keyword("pattern", pattern_keyword)
            .build(schema)
            .map_err(|e| SchemaError(format!("{what} is not a valid JSON Schema: {e}")))?;
        Ok(Schema { validator })
    }

    /// The problems of `arguments`, each `<JSON path>: <message>`, in path order (none: valid).
    pub(crate) fn problems(&self, arguments: &Map<String, Value>) -> Vec<String> {
        self.problems_of(&Value::Object(arguments.clone()))
    }

    /// The problems of any JSON value (structured output, say), as [`Schema::problems`].
    pub(crate) fn problems_of(&self, instance: &Value) -> Vec<String> {
        if self.validator.is_valid(instance) {
            return Vec::new();
        }
        let mut found: Vec<(Vec<String>, String)> = self
            .validator
            .iter_errors(instance)
            .map(|e| {
                let path = e.instance_path();
                (segments(path), format!("{}: {e}", json_path(path)))
            })
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found.into_iter().map(|(_, text)| text).collect()
    }
}

fn segments(path: &Location) -> Vec<String> {
    path.iter()
        .map(|segment| match segment {
            LocationSegment::Property(name) => name.into_owned(),
            LocationSegment::Index(i) => i.to_string(),
        })
        .collect()
}

/// `path` as the Python `jsonschema` writes it: `$`, `$.name`, `$.items[0]`.
fn json_path(path: &Location) -> String {
    let mut out = String::from("$");
    for segment in path.iter() {
        match segment {
            LocationSegment::Property(name) => {
                out.push('.');
                out.push_str(&name);
            }
            LocationSegment::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

struct Pattern {
    source: String,
    regex: fancy_regex::Regex,
}

impl<'i> Keyword<'i> for Pattern {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        match instance {
            Value::String(text) if !self.regex.is_match(text).unwrap_or(false) => {
                Err(ValidationError::custom(format!(
                    "{} does not match {}",
                    quoted(text),
                    quoted(&self.source)
                )))
            }
            _ => Ok(()),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::String(text) => self.regex.is_match(text).unwrap_or(false),
            _ => true,
        }
    }
}

fn pattern_keyword<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    let Value::String(source) = value else {
        return Err(ValidationError::custom(format!(
            "pattern {value} is not a string"
        )));
    };
    let regex = fancy_regex::Regex::new(&python_pattern(source)).map_err(|e| {
        ValidationError::custom(format!(
            "pattern {} is not a regular expression: {e}",
            quoted(source)
        ))
    })?;
    Ok(Box::new(Pattern {
        source: source.clone(),
        regex,
    }))
}

const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = "\\t\\n\\x0B\\x0C\\r ";
/// `\b` and `\B` between ASCII word characters (the engine's own are Unicode's).
const ASCII_BOUNDARY: &str =
    "(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))";
const ASCII_INSIDE: &str =
    "(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))";

/// `pattern`, as Python's `re` reads it with `re.ASCII` after the Python package turns `$`
/// (outside a class) into `\Z`, in the syntax of `fancy-regex`: the ASCII classes spelled
/// out, `$` and `\Z` as `\z`, `\b` as an ASCII word boundary, a `{` that starts no
/// quantifier as a literal, and the characters that are literal in a Python class but
/// special in a Rust one (`[`, `&`, `~`) escaped.
pub(crate) fn python_pattern(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    let mut class_start = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at_start = class_start;
        class_start = false;
        if c == '\\' {
            let Some(&next) = chars.get(i + 1) else {
                out.push('\\'); // a trailing backslash: the engine reports it
                break;
            };
            i += 2;
            push_escape(&mut out, next, in_class);
            continue;
        }
        i += 1;
        if in_class {
            (in_class, class_start) = push_in_class(&mut out, c, at_start);
            continue;
        }
        match c {
            '[' => {
                in_class = true;
                class_start = true;
                out.push('[');
            }
            '$' => out.push_str("\\z"),
            '{' => {
                let rest: String = chars[i..].iter().collect();
                match quantifier(&rest) {
                    Some((text, used)) => {
                        out.push_str(&text);
                        i += used;
                    }
                    None => out.push_str("\\{"),
                }
            }
            '}' => out.push_str("\\}"),
            _ => out.push(c),
        }
    }
    out
}

/// A backslash and `next` of a Python pattern, in Rust's syntax, onto `out` (`in_class`:
/// inside a class).
fn push_escape(out: &mut String, next: char, in_class: bool) {
    let class = match next {
        'd' => Some((DIGIT, false)),
        'D' => Some((DIGIT, true)),
        'w' => Some((WORD, false)),
        'W' => Some((WORD, true)),
        's' => Some((SPACE, false)),
        'S' => Some((SPACE, true)),
        _ => None,
    };
    if let Some((set, negated)) = class {
        match (in_class, negated) {
            (true, false) => out.push_str(set),
            (_, true) => out.push_str(&format!("[^{set}]")),
            (false, false) => out.push_str(&format!("[{set}]")),
        }
        return;
    }
    match (in_class, next) {
        (false, 'b') => out.push_str(ASCII_BOUNDARY),
        (false, 'B') => out.push_str(ASCII_INSIDE),
        (false, 'Z') => out.push_str("\\z"),
        (_, '<' | '>') => out.push(next), // word boundaries in Rust, literals in Python
        (_, other) => {
            out.push('\\');
            out.push(other);
        }
    }
}

/// The character `c` of a class (`at_start`: right after its `[` or `[^`), in Rust's
/// syntax, onto `out`; whether the class goes on after it, and whether the next character
/// is still at its start.
fn push_in_class(out: &mut String, c: char, at_start: bool) -> (bool, bool) {
    match c {
        ']' if !at_start => {
            out.push(']');
            return (false, false);
        }
        '[' | '&' | '~' => {
            out.push('\\');
            out.push(c);
        }
        '^' if at_start => {
            out.push('^');
            return (true, true); // `[^]...]`: the `]` after `^` is a literal too
        }
        _ => out.push(c),
    }
    (true, false)
}

/// The quantifier `{m}`, `{m,}`, `{m,n}` or `{,n}` at the start of `rest` (after its `{`),
/// in Rust's syntax, and how many characters it takes; `None` when `{` is a literal there.
fn quantifier(rest: &str) -> Option<(String, usize)> {
    let end = rest.find('}')?;
    let body = &rest[..end];
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let text = match body.split_once(',') {
        None if !body.is_empty() && digits(body) => format!("{{{body}}}"),
        Some(("", "")) => return None,
        Some((lo, hi)) if digits(lo) && digits(hi) => {
            format!("{{{},{hi}}}", if lo.is_empty() { "0" } else { lo })
        }
        _ => return None,
    };
    Some((text, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        fancy_regex::Regex::new(&python_pattern(pattern))
            .unwrap()
            .is_match(text)
            .unwrap()
    }

    #[test]
    fn patterns_read_as_the_python_package_reads_them() {
        // `$` is the end of the input, never before a final newline.
        assert!(matches("^a$", "a") && !matches("^a$", "a\n"));
        // ASCII classes.
        assert!(matches(r"^\d+$", "123") && !matches(r"^\d$", "٣"));
        assert!(matches(r"^\w+$", "a_1") && !matches(r"^\w$", "é"));
        assert!(matches(r"^\s$", "\u{0B}") && !matches(r"^\s$", "\u{A0}"));
        assert!(matches(r"^[\d\s]+$", "1 2") && !matches(r"^[\w]$", "é"));
        assert!(matches(r"^\S$", "\u{A0}") && matches(r"^[^\d]$", "x"));
        assert!(matches(r"\bcat\b", "a cat!") && matches(r"\bcat\b", "écaté"));
        // Python's literals that Rust's syntax reads otherwise.
        assert!(
            matches("^a{x}$", "a{x}") && matches("^a{,2}$", "aa") && !matches("^a{,2}$", "aaa")
        );
        assert!(matches("^[[]$", "[") && matches("^[a&&b]$", "&") && matches(r"^\<$", "<"));
        assert!(matches("^[]a]+$", "]a") && matches("^[^]a]$", "b"));
        // What only a backtracking engine does.
        assert!(
            matches(r"^(a)\1$", "aa") && matches("^(?!x).*$", "ab") && !matches("^(?!x).*$", "xb")
        );
        // `.` stops at a newline only, as in Python.
        assert!(matches("^.$", "\r") && !matches("^.$", "\n"));
    }
}
