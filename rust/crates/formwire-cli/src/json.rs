//! Just enough JSON writing for the CLI's output (strings, escaped per
//! RFC 8259; everything else is written in place by the callers).

use std::fmt::Write;

/// `s` as a JSON string literal, quotes included.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_string(&mut out, s);
    out
}

/// Appends `s` as a JSON string literal.
pub fn push_string(out: &mut String, s: &str) {
    out.push('"');
    push_escaped(out, s);
    out.push('"');
}

/// Appends the inside of a JSON string literal (no quotes).
pub fn push_escaped(out: &mut String, s: &str) {
    let mut from = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.push_str(&s[from..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
        from = i + c.len_utf8();
    }
    out.push_str(&s[from..]);
}

/// Appends `[[n, v], ...]`: a list of string pairs (part headers, urlencoded pairs).
pub fn push_pairs<'a>(out: &mut String, pairs: impl IntoIterator<Item = (&'a str, &'a str)>) {
    out.push('[');
    for (i, (n, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        push_string(out, n);
        out.push(',');
        push_string(out, v);
        out.push(']');
    }
    out.push(']');
}

/// `Some(s)` as a string literal, `None` as `null`.
pub fn opt_string(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_owned(), string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            string("a\"b\\c\n\u{1}\u{7f}é😀"),
            "\"a\\\"b\\\\c\\n\\u0001\u{7f}é😀\""
        );
        assert_eq!(opt_string(None), "null");
    }
}
