//! WHATWG MIME types: parse (MIME Sniffing §4.4), serialize (§4.5) and
//! Fetch's "extract a MIME type".
//!
//! The multipart parser uses this module twice: for the request
//! `Content-Type` (MP-B-01, MP-B-02) and for a file part's `type` (MP-F-03).
//!
//! # Example
//!
//! ```
//! use formwire::mime::MimeType;
//!
//! let m = MimeType::parse("Text/HTML ; Charset=\"utf-8\" ;;x=\"y\"").unwrap();
//! assert_eq!(m.essence(), "text/html");
//! assert_eq!(m.param("charset"), Some("utf-8"));
//! assert_eq!(m.to_string(), "text/html;charset=utf-8;x=y");
//! assert!(MimeType::parse("text").is_none());
//! ```

use core::fmt;

use crate::tables::TOKEN;

/// A parsed MIME type: lowercase type and subtype, and parameters in order
/// (names lowercase, first occurrence of a name wins, values as given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimeType {
    type_: String,
    subtype: String,
    params: Vec<(String, String)>,
}

/// HTTP whitespace: LF, CR, TAB, SP (Fetch §2.2).
fn is_http_ws(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t' | ' ')
}

/// HTTP token code point (MIME Sniffing §2.1): an RFC 9110 `tchar`.
fn is_token(c: char) -> bool {
    (c as u32) < 0x80 && TOKEN[c as usize]
}

/// HTTP quoted-string token code point: U+0009, U+0020..=U+007E, U+0080..=U+00FF.
fn is_quoted_token(c: char) -> bool {
    matches!(c as u32, 0x09 | 0x20..=0x7E | 0x80..=0xFF)
}

/// Fetch "collect an HTTP quoted string", starting at the `"` at `pos`.
/// Returns the value (extract-value) or the raw text, and the new position.
fn collect_quoted(input: &[char], mut pos: usize, extract: bool) -> (String, usize) {
    let start = pos;
    let mut value = String::new();
    debug_assert_eq!(input[pos], '"');
    pos += 1;
    loop {
        while pos < input.len() && input[pos] != '"' && input[pos] != '\\' {
            value.push(input[pos]);
            pos += 1;
        }
        if pos >= input.len() {
            break;
        }
        let quote_or_backslash = input[pos];
        pos += 1;
        if quote_or_backslash == '\\' {
            if pos >= input.len() {
                value.push('\\');
                break;
            }
            value.push(input[pos]);
            pos += 1;
        } else {
            break;
        }
    }
    if extract {
        (value, pos)
    } else {
        (input[start..pos].iter().collect(), pos)
    }
}

impl MimeType {
    /// Parses a MIME type from a string (MIME Sniffing §4.4). `None` is failure.
    pub fn parse(input: &str) -> Option<MimeType> {
        let chars: Vec<char> = input.chars().collect();
        Self::parse_chars(&chars)
    }

    /// Parses a MIME type from header bytes, isomorphic-decoded first (each
    /// byte is the code point of the same value), as Fetch does with header
    /// values.
    pub fn parse_bytes(input: &[u8]) -> Option<MimeType> {
        let chars: Vec<char> = input.iter().map(|&b| b as char).collect();
        Self::parse_chars(&chars)
    }

    fn parse_chars(input: &[char]) -> Option<MimeType> {
        // 1. Remove leading and trailing HTTP whitespace.
        let mut lo = 0;
        let mut hi = input.len();
        while lo < hi && is_http_ws(input[lo]) {
            lo += 1;
        }
        while hi > lo && is_http_ws(input[hi - 1]) {
            hi -= 1;
        }
        let input = &input[lo..hi];
        let mut pos = 0;
        // 3-4. type: up to "/", non-empty, token code points only.
        let start = pos;
        while pos < input.len() && input[pos] != '/' {
            pos += 1;
        }
        let type_ = &input[start..pos];
        if type_.is_empty() || !type_.iter().all(|&c| is_token(c)) {
            return None;
        }
        // 5-6. Past the end: failure; else skip "/".
        if pos >= input.len() {
            return None;
        }
        pos += 1;
        // 7-9. subtype: up to ";", trailing whitespace removed.
        let start = pos;
        while pos < input.len() && input[pos] != ';' {
            pos += 1;
        }
        let mut sub = &input[start..pos];
        while let [rest @ .., last] = sub {
            if is_http_ws(*last) {
                sub = rest;
            } else {
                break;
            }
        }
        if sub.is_empty() || !sub.iter().all(|&c| is_token(c)) {
            return None;
        }
        let mut mime = MimeType {
            type_: type_.iter().map(|c| c.to_ascii_lowercase()).collect(),
            subtype: sub.iter().map(|c| c.to_ascii_lowercase()).collect(),
            params: Vec::new(),
        };
        // 11. Parameters.
        while pos < input.len() {
            // 11.1 Skip ";". 11.2 Skip whitespace.
            pos += 1;
            while pos < input.len() && is_http_ws(input[pos]) {
                pos += 1;
            }
            // 11.3-4 name, lowercased.
            let start = pos;
            while pos < input.len() && input[pos] != ';' && input[pos] != '=' {
                pos += 1;
            }
            let name: String = input[start..pos]
                .iter()
                .map(|c| c.to_ascii_lowercase())
                .collect();
            // 11.5
            if pos < input.len() {
                if input[pos] == ';' {
                    continue;
                }
                pos += 1;
            }
            // 11.6
            if pos >= input.len() {
                break;
            }
            // 11.7-9 value.
            let value: String;
            if input[pos] == '"' {
                let (v, p) = collect_quoted(input, pos, true);
                value = v;
                pos = p;
                while pos < input.len() && input[pos] != ';' {
                    pos += 1;
                }
            } else {
                let start = pos;
                while pos < input.len() && input[pos] != ';' {
                    pos += 1;
                }
                let mut v = &input[start..pos];
                while let [rest @ .., last] = v {
                    if is_http_ws(*last) {
                        v = rest;
                    } else {
                        break;
                    }
                }
                if v.is_empty() {
                    continue;
                }
                value = v.iter().collect();
            }
            // 11.10
            if !name.is_empty()
                && name.chars().all(is_token)
                && value.chars().all(is_quoted_token)
                && mime.param(&name).is_none()
            {
                mime.params.push((name, value));
            }
        }
        Some(mime)
    }

    /// The type, lowercase (`text` in `text/html`).
    pub fn type_(&self) -> &str {
        &self.type_
    }

    /// The subtype, lowercase (`html` in `text/html`).
    pub fn subtype(&self) -> &str {
        &self.subtype
    }

    /// `type/subtype`.
    pub fn essence(&self) -> String {
        format!("{}/{}", self.type_, self.subtype)
    }

    /// The value of a parameter; `name` must be lowercase.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Parameters in order, as `(lowercase name, value)`.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.params.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    fn set_param(&mut self, name: &str, value: String) {
        match self.params.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.params.push((name.to_owned(), value)),
        }
    }
}

/// MIME Sniffing §4.5 "serialize a MIME type".
impl fmt::Display for MimeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.type_, self.subtype)?;
        for (name, value) in &self.params {
            write!(f, ";{name}=")?;
            if value.is_empty() || !value.chars().all(is_token) {
                f.write_str("\"")?;
                for c in value.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            } else {
                f.write_str(value)?;
            }
        }
        Ok(())
    }
}

/// Fetch "get, decode, and split": the values joined with `", "`,
/// isomorphic-decoded, split on commas outside quoted strings, each piece
/// trimmed of SP/HT.
fn get_decode_split<'a>(values: impl IntoIterator<Item = &'a [u8]>) -> Vec<Vec<char>> {
    let mut input: Vec<char> = Vec::new();
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            input.extend([',', ' ']);
        }
        input.extend(v.iter().map(|&b| b as char));
    }
    let mut out = Vec::new();
    let mut pos = 0;
    let mut temp: Vec<char> = Vec::new();
    loop {
        while pos < input.len() && input[pos] != '"' && input[pos] != ',' {
            temp.push(input[pos]);
            pos += 1;
        }
        if pos < input.len() && input[pos] == '"' {
            let (raw, p) = collect_quoted(&input, pos, false);
            temp.extend(raw.chars());
            pos = p;
            if pos < input.len() {
                continue;
            }
        }
        let mut lo = 0;
        let mut hi = temp.len();
        while lo < hi && matches!(temp[lo], ' ' | '\t') {
            lo += 1;
        }
        while hi > lo && matches!(temp[hi - 1], ' ' | '\t') {
            hi -= 1;
        }
        out.push(temp[lo..hi].to_vec());
        temp.clear();
        if pos >= input.len() {
            return out;
        }
        debug_assert_eq!(input[pos], ',');
        pos += 1;
    }
}

/// Fetch "extract a MIME type" over the values of every `Content-Type`
/// header, in order. `None` is failure (no value parses).
///
/// MP-F-03: header bytes are isomorphic-decoded first, and a piece holding a
/// byte 80–FF is treated as invalid (skipped), as a File type must be ASCII.
pub fn extract<'a>(values: impl IntoIterator<Item = &'a [u8]>) -> Option<MimeType> {
    let mut charset: Option<String> = None;
    let mut essence: Option<String> = None;
    let mut mime: Option<MimeType> = None;
    for piece in get_decode_split(values) {
        if piece.iter().any(|&c| c as u32 >= 0x80) {
            continue;
        }
        let Some(mut temp) = MimeType::parse_chars(&piece) else {
            continue;
        };
        let temp_essence = temp.essence();
        if temp_essence == "*/*" {
            continue;
        }
        if essence.as_deref() != Some(temp_essence.as_str()) {
            charset = temp.param("charset").map(str::to_owned);
            essence = Some(temp_essence);
        } else if temp.param("charset").is_none() {
            if let Some(c) = &charset {
                temp.set_param("charset", c.clone());
            }
        }
        mime = Some(temp);
    }
    mime
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ser(s: &str) -> Option<String> {
        MimeType::parse(s).map(|m| m.to_string())
    }

    #[test]
    fn parse_and_serialize() {
        assert_eq!(ser("TEXT/HTML").as_deref(), Some("text/html"));
        assert_eq!(ser("text/html;;x=\"y\"").as_deref(), Some("text/html;x=y"));
        assert_eq!(
            ser(" text/html ; a=b ; a=c").as_deref(),
            Some("text/html;a=b")
        );
        assert_eq!(
            ser("text/html;a=\"b\\\"c\"").as_deref(),
            Some("text/html;a=\"b\\\"c\"")
        );
        assert_eq!(ser("text/html;a=\"\"").as_deref(), Some("text/html;a=\"\""));
        assert_eq!(ser("text/html;a=").as_deref(), Some("text/html"));
        assert_eq!(ser("text/html;a").as_deref(), Some("text/html"));
        assert_eq!(
            ser("text/html;a=b c").as_deref(),
            Some("text/html;a=\"b c\"")
        );
        assert_eq!(
            ser("text/html;a=\"x\" junk;b=c").as_deref(),
            Some("text/html;a=x;b=c")
        );
        assert_eq!(
            ser("text/html;a=\"unterminated").as_deref(),
            Some("text/html;a=unterminated")
        );
        assert_eq!(
            ser("text/html;a=\"x\\").as_deref(),
            Some("text/html;a=\"x\\\\\"")
        );
        assert_eq!(ser("text/html;\u{e9}=x").as_deref(), Some("text/html"));
        assert_eq!(ser("text/html;a=\u{20ac}").as_deref(), Some("text/html"));
        assert_eq!(
            ser("text/html;a=\u{e9}").as_deref(),
            Some("text/html;a=\"\u{e9}\"")
        );
    }

    #[test]
    fn parse_failures() {
        for bad in [
            "",
            "text",
            "text/",
            "/html",
            "te xt/html",
            "text/ht ml",
            "text/\u{e9}",
            "text/html\u{1}",
            ";a=b",
        ] {
            assert!(MimeType::parse(bad).is_none(), "{bad:?}");
        }
    }

    fn ext(values: &[&[u8]]) -> Option<String> {
        extract(values.iter().copied()).map(|m| m.to_string())
    }

    #[test]
    fn extract_mime_type() {
        assert_eq!(
            ext(&[b"text/html, text/plain"]).as_deref(),
            Some("text/plain")
        );
        assert_eq!(
            ext(&[b"text/html", b"text/plain"]).as_deref(),
            Some("text/plain")
        );
        assert_eq!(
            ext(&[b"text/plain", b"bogus"]).as_deref(),
            Some("text/plain")
        );
        assert_eq!(
            ext(&[b"text/html;a=\"b,c\", x"]).as_deref(),
            Some("text/html;a=\"b,c\"")
        );
        assert_eq!(ext(&[b"*/*"]), None);
        assert_eq!(ext(&[b""]), None);
        assert_eq!(ext(&[b"text/\xc3\xa9"]), None);
        assert_eq!(
            ext(&[b"text/html;charset=gbk, text/html"]).as_deref(),
            Some("text/html;charset=gbk")
        );
        assert_eq!(
            ext(&[b"text/html;charset=gbk, text/plain"]).as_deref(),
            Some("text/plain")
        );
        assert_eq!(
            ext(&[b"text/html;x=\"\xe9\"", b"text/plain"]).as_deref(),
            Some("text/plain")
        );
    }
}
