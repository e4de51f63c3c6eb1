// codegen: package; requires ContentPart

//! Content parts from text, bytes, files and URLs: [`ContentPart::text`],
//! [`ContentPart::from_bytes`], [`ContentPart::from_path`], [`ContentPart::from_url`].

use crate::loop_data::SNIFF_BYTES;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use base64::Engine;
use base64::alphabet;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

use crate::wire::{JsonPath, WireError};
use crate::{ContentPart, ContentPartKind};

mod errors;
mod links;
mod sniff;

pub use errors::{BytesError, FileError, MimeTypeError, UrlError};
pub(crate) use links::check_url;
use links::{check_mime_type, displayable, hidden_character};
use sniff::sniff_mime;

/// The default size limit of [`ContentPart::from_path`]: 20 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 20 * 1024 * 1024;

/// Standard base64 (RFC 4648 section 4) with padding; decoding, like Python's
/// `binascii.a2b_base64(strict_mode=True)`, does not insist that unused bits are zero.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical)
        .with_decode_allow_trailing_bits(true),
);

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
