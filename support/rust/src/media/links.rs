// codegen: package; requires ContentPart

//! What is let in: the URLs, MIME types and names a helper takes.

use super::{MimeTypeError, UrlError};

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
pub(super) fn hidden_character(text: &str) -> Option<String> {
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
pub(super) fn check_mime_type(mime_type: &str) -> Result<(), MimeTypeError> {
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
pub(super) fn displayable(text: &str) -> String {
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
