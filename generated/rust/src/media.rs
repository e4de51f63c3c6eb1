// Generated from idl/ (toolnexus schema 3.0.0, sha256 6b91a38d4bedd1b463e5362fbb43569b4861fdfffae602b08124cf547ca26429).
// Regenerate with `make gen` (python -m codegen gen). DO NOT EDIT.
// Source: support/rust/src/media.rs (hand-written, copied verbatim).
// codegen: copy; requires ContentPart

//! Content parts from text, bytes, files and URLs: [`ContentPart::text`],
//! [`ContentPart::from_bytes`], [`ContentPart::from_path`], [`ContentPart::from_url`].

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::alphabet;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

use crate::wire::{JsonPath, WireError};
use crate::{ContentPart, ContentPartKind};

/// The default size limit of [`ContentPart::from_path`]: 20 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 20 * 1024 * 1024;

/// Bytes read from the head of a file to tell its type.
const SNIFF_BYTES: usize = 64;

/// Standard base64 (RFC 4648 section 4) with padding; decoding, like Python's
/// `binascii.a2b_base64(strict_mode=True)`, does not insist that unused bits are zero.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical)
        .with_decode_allow_trailing_bits(true),
);

/// A file could not be made into a [`ContentPart`]; the message names the file.
///
/// [`ContentPart::from_path`] returns it before any JSON is involved; a document that
/// is not a valid wire value is a [`WireError`](crate::WireError) instead.
#[derive(Debug)]
#[non_exhaustive]
pub enum FileError {
    /// Nothing exists at the path.
    NotFound {
        /// The path as given.
        path: PathBuf,
    },
    /// The path is a directory.
    IsDirectory {
        /// The path as given.
        path: PathBuf,
    },
    /// The path is a FIFO, a socket or a device, which is not read.
    NotRegularFile {
        /// The path as given.
        path: PathBuf,
    },
    /// The file is larger than the limit (or grew past it while being read).
    TooLarge {
        /// The path as given.
        path: PathBuf,
        /// Its size in bytes, as far as it was seen.
        size: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// The file is empty: a part carries its bytes, and an empty `data` is no content.
    Empty {
        /// The path as given.
        path: PathBuf,
    },
    /// Reading failed otherwise, such as for a missing permission.
    Io {
        /// The path as given.
        path: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
}

impl FileError {
    /// The path of the file that could not be read.
    pub fn path(&self) -> &Path {
        match self {
            FileError::NotFound { path }
            | FileError::IsDirectory { path }
            | FileError::NotRegularFile { path }
            | FileError::TooLarge { path, .. }
            | FileError::Empty { path }
            | FileError::Io { path, .. } => path,
        }
    }

    fn io(path: &Path, source: io::Error) -> FileError {
        let path = path.to_path_buf();
        if source.kind() == io::ErrorKind::NotFound {
            FileError::NotFound { path }
        } else {
            FileError::Io { path, source }
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read {:?}: ", self.path())?;
        match self {
            FileError::NotFound { .. } => f.write_str("no such file or directory"),
            FileError::IsDirectory { .. } => f.write_str("is a directory, not a file"),
            FileError::NotRegularFile { .. } => {
                f.write_str("not a regular file (a FIFO, socket or device)")
            }
            FileError::TooLarge { size, limit, .. } => {
                write!(f, "{size} bytes or more, over the limit of {limit} bytes")
            }
            FileError::Empty { .. } => f.write_str("the file is empty; a part carries content"),
            FileError::Io { source, .. } => write!(f, "{source}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A MIME type that [`ContentPart::from_bytes`] (and [`ContentPart::from_url`]) refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MimeTypeError {
    /// No MIME type was given: an empty string.
    Missing,
    /// The MIME type is only spaces, or holds a control character (U+0000 to U+001F,
    /// U+007F to U+009F) such as a line break, which could split a header line.
    NotValid {
        /// The MIME type as given.
        mime_type: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for MimeTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MimeTypeError::Missing => f.write_str("a part needs a MIME type such as \"image/png\""),
            MimeTypeError::NotValid { mime_type, reason } => {
                write!(f, "the MIME type {mime_type:?} {reason}")
            }
        }
    }
}

impl std::error::Error for MimeTypeError {}

/// Bytes that [`ContentPart::from_bytes`] refuses to make a part of.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BytesError {
    /// The MIME type is refused.
    MimeType(MimeTypeError),
    /// There are no bytes: an empty `data` is omitted from the wire, and a part that
    /// carries nothing is refused by every parser.
    Empty,
}

impl fmt::Display for BytesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BytesError::MimeType(e) => e.fmt(f),
            BytesError::Empty => f.write_str(
                "from_bytes needs at least one byte: a part that carries nothing is refused",
            ),
        }
    }
}

impl std::error::Error for BytesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BytesError::MimeType(e) => Some(e),
            BytesError::Empty => None,
        }
    }
}

/// A URL could not be made into a [`ContentPart`] by [`ContentPart::from_url`], or a
/// [`Request`](crate::Request)'s url was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlError {
    /// The URL is empty.
    Empty,
    /// A URL other than `data:` came without a MIME type; nothing is fetched, so the
    /// type cannot be found out.
    MissingMimeType {
        /// The URL as given.
        url: String,
    },
    /// A `data:` URL without a comma, or whose base64 is not valid.
    BadDataUrl {
        /// What is wrong with it.
        reason: String,
    },
    /// Not an `http` or `https` URL (`javascript:`, `file:`, `data:` by reference and the
    /// rest are refused: a host shows such a URL as a link, or fetches it), or a URL
    /// holding a control or bidi formatting character.
    NotAllowed {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The MIME type given with the URL is refused.
    MimeType(MimeTypeError),
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Empty => f.write_str("from_url needs a non-empty URL"),
            UrlError::MissingMimeType { url } => write!(
                f,
                "a part by URL needs its MIME type, as nothing is fetched: \
                 from_url({url:?}, Some(\"image/png\"))"
            ),
            UrlError::BadDataUrl { reason } => write!(f, "not a valid data: URL: {reason}"),
            UrlError::NotAllowed { url, reason } => write!(f, "the URL {url:?} {reason}"),
            UrlError::MimeType(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for UrlError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UrlError::MimeType(e) => Some(e),
            _ => None,
        }
    }
}

// ------------------------------------------------------------------------ what is let in
//
// The same rules as the Python package's `toolnexus_wire._links` and the TypeScript
// package's `links.ts`, pinned for all three by the helper vectors in idl/helpers/. The
// wire itself carries any text in these fields; these rules apply where a URL, a MIME
// type or a name enters through a helper.

/// A control character: Unicode category Cc (U+0000 to U+001F, U+007F to U+009F).
fn is_control(c: char) -> bool {
    c.is_control()
}

/// A bidi formatting character (Bidi_Control): it reorders what a person sees.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// What is wrong with the first control or bidi formatting character of `text`.
fn hidden_character(text: &str) -> Option<String> {
    text.char_indices().find_map(|(i, c)| {
        let what = if is_control(c) {
            "a control character"
        } else if is_bidi_control(c) {
            "a bidi formatting character"
        } else {
            return None;
        };
        let at = text[..i].chars().count();
        Some(format!("holds {what} (U+{:04X}) at index {at}", c as u32))
    })
}

/// `Ok` when `url` is `http://` or `https://` (any case) and something after it, without
/// a control or bidi formatting character: a URL a part may carry by reference, and a
/// [`Request`](crate::Request) may send a person to.
pub(crate) fn check_url(url: &str) -> Result<(), UrlError> {
    let refuse = |reason: String| UrlError::NotAllowed {
        url: url.to_owned(),
        reason,
    };
    if let Some(reason) = hidden_character(url) {
        return Err(refuse(reason));
    }
    let scheme = url
        .get(..8)
        .filter(|h| h.eq_ignore_ascii_case("https://"))
        .map(|_| 8);
    let scheme = scheme.or(url
        .get(..7)
        .filter(|h| h.eq_ignore_ascii_case("http://"))
        .map(|_| 7));
    match scheme {
        Some(end) if url.len() > end => Ok(()),
        _ => Err(refuse(
            "is not an http or https URL (javascript:, file:, data: and others are refused)"
                .to_owned(),
        )),
    }
}

/// `Ok` when `mime_type` is not empty, not only spaces, and holds no control character.
fn check_mime_type(mime_type: &str) -> Result<(), MimeTypeError> {
    let refuse = |reason: String| MimeTypeError::NotValid {
        mime_type: mime_type.to_owned(),
        reason,
    };
    if mime_type.is_empty() {
        return Err(MimeTypeError::Missing);
    }
    if mime_type.chars().all(|c| c == ' ') {
        return Err(refuse("is blank".to_owned()));
    }
    match mime_type.char_indices().find(|(_, c)| is_control(*c)) {
        Some((i, c)) => Err(refuse(format!(
            "holds a control character (U+{:04X}) at index {}",
            c as u32,
            mime_type[..i].chars().count()
        ))),
        None => Ok(()),
    }
}

/// `text` with each control and bidi formatting character replaced with U+FFFD, so
/// that what a person sees is what is there (`invoice\u{202e}gpj.exe` would show as
/// `invoiceexe.jpg`).
fn displayable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if is_control(c) || is_bidi_control(c) {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect()
}

impl ContentPart {
    /// An empty part of kind `kind` (empty strings are omitted on the wire).
    fn with_kind(kind: ContentPartKind) -> ContentPart {
        // Through the generated `new`, so that a field a later schema adds needs no change here.
        ContentPart::new(kind)
    }

    /// A `text` part holding `text`.
    pub fn text(text: impl Into<String>) -> ContentPart {
        ContentPart {
            text: text.into(),
            ..ContentPart::with_kind(ContentPartKind::Text)
        }
    }

    /// A part holding the file at `path`, named after it, up to [`DEFAULT_MAX_BYTES`].
    ///
    /// The MIME type comes from the file's first bytes for common formats (PNG, JPEG,
    /// GIF, WebP, PDF, WAV, MP3, OGG, FLAC, MP4, WebM...), else from its extension,
    /// else `application/octet-stream`; `kind` follows the MIME family (`image`,
    /// `audio`, else `file`, video included). The part's `name` is the file name, with
    /// U+FFFD for bytes that are not UTF-8 and for control and bidi formatting
    /// characters. The path goes to the system as it is written: a file's path with a
    /// trailing slash is [`FileError::Io`] (not a directory), an empty path
    /// [`FileError::NotFound`].
    pub fn from_path(path: impl AsRef<Path>) -> Result<ContentPart, FileError> {
        ContentPart::from_path_with_limit(path, DEFAULT_MAX_BYTES)
    }

    /// [`ContentPart::from_path`] with a size limit of `max_bytes`.
    pub fn from_path_with_limit(
        path: impl AsRef<Path>,
        max_bytes: u64,
    ) -> Result<ContentPart, FileError> {
        let path = path.as_ref();
        // Follows links; fails for a missing file or a link loop.
        let meta = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?;
        regular(path, &meta)?;
        let too_large = |size| FileError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit: max_bytes,
        };
        if meta.len() > max_bytes {
            return Err(too_large(meta.len()));
        }
        let mut raw = Vec::new();
        open_regular(path)?
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut raw)
            .map_err(|e| FileError::io(path, e))?;
        let size = raw.len() as u64;
        if size > max_bytes {
            return Err(too_large(size));
        }
        let suffix = path
            .extension()
            .map(|ext| format!(".{}", ext.to_string_lossy()))
            .unwrap_or_default();
        if raw.is_empty() {
            // An empty `data` is omitted from the wire: the part would carry nothing.
            return Err(FileError::Empty {
                path: path.to_path_buf(),
            });
        }
        let head = &raw[..raw.len().min(SNIFF_BYTES)];
        let mut part = ContentPart::encoded(&raw, sniff_mime(head, &suffix).to_owned());
        part.name = path
            .file_name()
            .map(|n| displayable(&n.to_string_lossy()))
            .unwrap_or_default();
        Ok(part)
    }

    /// A part holding `raw`, base64-encoded, with `mime_type`; `kind` follows the MIME
    /// family (`image`, `audio`, else `file`, video included).
    ///
    /// [`BytesError::MimeType`] when `mime_type` is empty, only spaces, or holds a control
    /// character (such as a line break), as the Python and TypeScript helpers refuse it;
    /// [`BytesError::Empty`] when there are no bytes (the part would carry nothing).
    pub fn from_bytes(raw: &[u8], mime_type: impl Into<String>) -> Result<ContentPart, BytesError> {
        let mime_type = mime_type.into();
        check_mime_type(&mime_type).map_err(BytesError::MimeType)?;
        if raw.is_empty() {
            return Err(BytesError::Empty);
        }
        Ok(ContentPart::encoded(raw, mime_type))
    }

    /// A part holding `raw` with a MIME type known to be good.
    fn encoded(raw: &[u8], mime_type: String) -> ContentPart {
        let mut part = ContentPart::with_kind(ContentPartKind::of_mime(&mime_type));
        part.mime_type = mime_type;
        part.data = BASE64.encode(raw);
        part
    }

    /// The part with the file name `name` (never a path; an empty one is left off the
    /// wire; control and bidi formatting characters become U+FFFD, as every helper shows a
    /// name), for a part from [`ContentPart::from_bytes`] or [`ContentPart::from_url`]:
    /// `ContentPart::from_bytes(raw, "application/pdf")?.with_name("report.pdf")`, as
    /// Python's `from_bytes(raw, mime_type, name=...)` and TypeScript's
    /// `fromBytes(raw, mimeType, { name })` take it.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> ContentPart {
        self.name = displayable(&name.into());
        self
    }

    /// A part for the content at `url`.
    ///
    /// A `data:` URL (RFC 2397: `data:<mime>;base64,<base64>`, or percent-encoded bytes
    /// without `;base64`) is decoded: the part holds its bytes in `data`, with its media
    /// type (or `mime_type`, when given; `text/plain;charset=US-ASCII` when it names
    /// none). Any other URL is kept as `url`, by reference: it must be an `http` or
    /// `https` URL ([`UrlError::NotAllowed`] otherwise, also for a control or bidi
    /// formatting character anywhere in the URL), and needs `mime_type`, since nothing is
    /// fetched ([`UrlError::MissingMimeType`]). A MIME type that is only spaces or holds a
    /// control character is [`UrlError::MimeType`]. `kind` follows the MIME family.
    pub fn from_url(url: &str, mime_type: Option<&str>) -> Result<ContentPart, UrlError> {
        let mime_type = mime_type.filter(|m| !m.is_empty());
        if url.is_empty() {
            return Err(UrlError::Empty);
        }
        if let Some(reason) = hidden_character(url) {
            return Err(UrlError::NotAllowed {
                url: url.to_owned(),
                reason,
            });
        }
        if url.len() >= 5 && url.as_bytes()[..5].eq_ignore_ascii_case(b"data:") {
            let (own, raw) = data_url(&url[5..])?;
            return ContentPart::from_bytes(&raw, mime_type.unwrap_or(&own)).map_err(|e| match e {
                BytesError::MimeType(e) => UrlError::MimeType(e),
                other => UrlError::BadDataUrl {
                    reason: other.to_string(),
                },
            });
        }
        check_url(url)?;
        let Some(mime_type) = mime_type else {
            return Err(UrlError::MissingMimeType {
                url: url.to_owned(),
            });
        };
        check_mime_type(mime_type).map_err(UrlError::MimeType)?;
        let mut part = ContentPart::with_kind(ContentPartKind::of_mime(mime_type));
        part.mime_type = mime_type.to_owned();
        part.url = url.to_owned();
        Ok(part)
    }

    /// The decoded bytes of `data`; an error (at `$.data`) when it is not standard
    /// base64 with padding.
    pub fn raw(&self) -> Result<Vec<u8>, WireError> {
        BASE64.decode(&self.data).map_err(|e| {
            WireError::new(
                &JsonPath::Root.key("data"),
                format!("not standard base64: {e}"),
            )
            .in_type("ContentPart")
        })
    }
}

/// The media type and the bytes of a `data:` URL, given what follows `data:`.
fn data_url(rest: &str) -> Result<(String, Vec<u8>), UrlError> {
    let Some((meta, payload)) = rest.split_once(',') else {
        return Err(UrlError::BadDataUrl {
            reason: "it needs a comma between its media type and its data".to_owned(),
        });
    };
    let mut params: Vec<&str> = meta.split(';').map(str::trim).collect();
    let is_base64 = params.len() > 1 && params[params.len() - 1].eq_ignore_ascii_case("base64");
    if is_base64 {
        params.pop();
    }
    let mime_type = if params[0].is_empty() {
        "text/plain;charset=US-ASCII".to_owned()
    } else {
        params.join(";")
    };
    let raw = percent_decode(payload.as_bytes());
    if !is_base64 {
        return Ok((mime_type, raw));
    }
    let bytes = BASE64.decode(&raw).map_err(|e| UrlError::BadDataUrl {
        reason: format!("its base64 is not valid: {e}"),
    })?;
    Ok((mime_type, bytes))
}

/// `text` with each `%XX` decoded; a `%` not followed by two hex digits stays.
fn percent_decode(text: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'%' && i + 2 < text.len() {
            if let (Some(hi), Some(lo)) = (hex(text[i + 1]), hex(text[i + 2])) {
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(text[i]);
        i += 1;
    }
    out
}

impl ContentPartKind {
    /// `image` or `audio` from the family of `mime_type`; `file` for everything else,
    /// video included (the upstream ports have no video kind).
    pub fn of_mime(mime_type: &str) -> ContentPartKind {
        let family = mime_type
            .split('/')
            .next()
            .unwrap_or("")
            .trim()
            .to_lowercase();
        match family.as_str() {
            "image" => ContentPartKind::Image,
            "audio" => ContentPartKind::Audio,
            _ => ContentPartKind::File,
        }
    }
}

const EXTENSIONS: &[(&str, &str)] = &[
    (".png", "image/png"),
    (".jpg", "image/jpeg"),
    (".jpeg", "image/jpeg"),
    (".gif", "image/gif"),
    (".webp", "image/webp"),
    (".bmp", "image/bmp"),
    (".svg", "image/svg+xml"),
    (".tif", "image/tiff"),
    (".tiff", "image/tiff"),
    (".ico", "image/vnd.microsoft.icon"),
    (".pdf", "application/pdf"),
    (".wav", "audio/wav"),
    (".mp3", "audio/mpeg"),
    (".ogg", "audio/ogg"),
    (".oga", "audio/ogg"),
    (".opus", "audio/ogg"),
    (".flac", "audio/flac"),
    (".m4a", "audio/mp4"),
    (".aac", "audio/aac"),
    (".mp4", "video/mp4"),
    (".m4v", "video/mp4"),
    (".mov", "video/quicktime"),
    (".webm", "video/webm"),
    (".mkv", "video/x-matroska"),
    (".avi", "video/x-msvideo"),
    (".txt", "text/plain"),
    (".md", "text/markdown"),
    (".csv", "text/csv"),
    (".html", "text/html"),
    (".htm", "text/html"),
    (".json", "application/json"),
    (".xml", "application/xml"),
    (".zip", "application/zip"),
    (".gz", "application/gzip"),
];

/// The MIME type of content starting with `head`, in a file whose extension
/// (with its dot) is `suffix`. The same table as the Python runtime's.
fn sniff_mime(head: &[u8], suffix: &str) -> &'static str {
    if let Some(mime) = sniff_magic(head, suffix) {
        return mime;
    }
    let suffix = suffix.to_lowercase();
    EXTENSIONS
        .iter()
        .find(|(ext, _)| *ext == suffix)
        .map_or("application/octet-stream", |(_, mime)| mime)
}

fn sniff_magic(head: &[u8], suffix: &str) -> Option<&'static str> {
    let at = |range: std::ops::Range<usize>| head.get(range).unwrap_or(&[]);
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some("image/png");
    }
    if head.starts_with(b"\xff\xd8\xff") {
        return Some("image/jpeg");
    }
    if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        return Some("image/gif");
    }
    if head.starts_with(b"RIFF") {
        match at(8..12) {
            b"WEBP" => return Some("image/webp"),
            b"WAVE" => return Some("audio/wav"),
            b"AVI " => return Some("video/x-msvideo"),
            _ => {}
        }
    }
    if head.starts_with(b"%PDF-") {
        return Some("application/pdf");
    }
    if head.starts_with(b"OggS") {
        return Some("audio/ogg");
    }
    if head.starts_with(b"fLaC") {
        return Some("audio/flac");
    }
    // An ID3 tag, or an MPEG audio frame header (sync bits set, layer III).
    if head.starts_with(b"ID3") || (head.len() > 1 && head[0] == 0xFF && head[1] & 0xE6 == 0xE2) {
        return Some("audio/mpeg");
    }
    if at(4..8) == b"ftyp" {
        return Some(match at(8..12) {
            b"M4A " | b"M4B " => "audio/mp4",
            b"qt  " => "video/quicktime",
            _ => "video/mp4",
        });
    }
    if head.starts_with(b"\x1a\x45\xdf\xa3") {
        let webm = head.windows(4).any(|w| w == b"webm");
        return Some(if webm {
            "video/webm"
        } else {
            "video/x-matroska"
        });
    }
    if head.starts_with(b"II*\x00") || head.starts_with(b"MM\x00*") {
        return Some("image/tiff");
    }
    if head.starts_with(b"BM") && suffix == ".bmp" {
        return Some("image/bmp");
    }
    None
}

/// `path` opened for reading, when it is a regular file once open. The check before the
/// open looks at the path, which another process may swap (a symlink flipped to a FIFO)
/// before the open; an ordinary open of a FIFO then waits for a writer that never comes.
/// On Unix the open does not wait (`O_NONBLOCK`, which changes nothing for a regular
/// file), and the open file itself is checked.
fn open_regular(path: &Path) -> Result<File, FileError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| FileError::io(path, e))?;
    regular(path, &file.metadata().map_err(|e| FileError::io(path, e))?)?;
    Ok(file)
}

/// `Ok` when `meta` (of `path`) is a regular file's.
fn regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), FileError> {
    if meta.is_file() {
        return Ok(());
    }
    let path = path.to_path_buf();
    Err(if meta.is_dir() {
        FileError::IsDirectory { path }
    } else {
        FileError::NotRegularFile { path }
    })
}

#[cfg(test)]
mod tests {
    use super::{ContentPartKind, sniff_mime};

    #[test]
    fn magic_bytes_win_over_the_extension() {
        let cases: &[(&[u8], &str, &str)] = &[
            (b"\x89PNG\r\n\x1a\n....", ".txt", "image/png"),
            (b"\xff\xd8\xff\xe0", "", "image/jpeg"),
            (b"GIF89a", "", "image/gif"),
            (b"RIFF\0\0\0\0WEBPVP8 ", "", "image/webp"),
            (b"RIFF\0\0\0\0WAVEfmt ", "", "audio/wav"),
            (b"RIFF\0\0\0\0AVI LIST", "", "video/x-msvideo"),
            (b"%PDF-1.7", "", "application/pdf"),
            (b"OggS\0", "", "audio/ogg"),
            (b"fLaC", "", "audio/flac"),
            (b"ID3\x04", "", "audio/mpeg"),
            (b"\xff\xfb\x90", "", "audio/mpeg"),
            (b"\0\0\0\x20ftypisom", "", "video/mp4"),
            (b"\0\0\0\x20ftypM4A ", "", "audio/mp4"),
            (b"\0\0\0\x14ftypqt  ", "", "video/quicktime"),
            (b"\x1a\x45\xdf\xa3\x9fB\x82\x84webm", "", "video/webm"),
            (
                b"\x1a\x45\xdf\xa3\x9fB\x82\x88matroska",
                "",
                "video/x-matroska",
            ),
            (b"II*\0", "", "image/tiff"),
            (b"BM....", ".bmp", "image/bmp"),
            (b"BM....", ".BMP", "image/bmp"),
        ];
        for (head, suffix, want) in cases {
            assert_eq!(sniff_mime(head, suffix), *want, "{head:?} {suffix}");
        }
    }

    #[test]
    fn the_extension_then_octet_stream() {
        assert_eq!(sniff_mime(b"hello", ".TXT"), "text/plain");
        assert_eq!(sniff_mime(b"{}", ".json"), "application/json");
        assert_eq!(sniff_mime(b"RIFF\0\0\0\0XXXX", ".wav"), "audio/wav");
        assert_eq!(sniff_mime(b"", ""), "application/octet-stream");
        assert_eq!(sniff_mime(b"\x00\x01", ".bin"), "application/octet-stream");
    }

    #[test]
    fn kind_follows_the_mime_family() {
        assert_eq!(
            ContentPartKind::of_mime("image/png"),
            ContentPartKind::Image
        );
        assert_eq!(
            ContentPartKind::of_mime(" Audio/ogg"),
            ContentPartKind::Audio
        );
        assert_eq!(ContentPartKind::of_mime("video/mp4"), ContentPartKind::File);
        assert_eq!(
            ContentPartKind::of_mime("application/pdf"),
            ContentPartKind::File
        );
        assert_eq!(ContentPartKind::of_mime(""), ContentPartKind::File);
    }

    #[cfg(unix)]
    #[test]
    fn opening_a_fifo_neither_waits_nor_reads() {
        // What a path swapped for a FIFO after the check meets: the open itself.
        let dir = std::env::temp_dir().join(format!("toolnexus-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = super::open_regular(&fifo).unwrap_err();
            assert!(
                matches!(err, super::FileError::NotRegularFile { .. }),
                "{err}"
            );
        }
        assert!(matches!(
            super::open_regular(&dir).unwrap_err(),
            super::FileError::IsDirectory { .. }
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
