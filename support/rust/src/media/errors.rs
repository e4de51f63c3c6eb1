// codegen: package; requires ContentPart

//! What the helpers of [`ContentPart`] refuse: a file, bytes, a MIME type or a URL.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

#[cfg(doc)]
use crate::ContentPart;

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

    pub(super) fn io(path: &Path, source: io::Error) -> FileError {
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
