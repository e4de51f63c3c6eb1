// codegen: package; requires ContentPart

//! The MIME type of a file, from its first bytes or else its extension.

use crate::loop_data::EXTENSIONS;

/// The MIME type of content starting with `head`, in a file whose extension
/// (with its dot) is `suffix`. The same table as the Python runtime's.
pub(super) fn sniff_mime(head: &[u8], suffix: &str) -> &'static str {
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
