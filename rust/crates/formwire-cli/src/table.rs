//! Plain-text tables for a terminal: columns padded by display width (wide
//! East Asian characters and emoji take two cells), and every control
//! character of the input shown escaped so that a field name cannot move
//! the cursor or change the terminal's state.

/// `s` with C0/C1 controls and DEL written as `\xNN` (`\n`, `\r`, `\t` as
/// such), and bidirectional overrides as `\u{...}`.
pub fn safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            // Bidi embeddings, overrides and isolates (Trojan Source).
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Terminal cells taken by `c`: 2 for wide and fullwidth characters
/// (Unicode East Asian Width W/F, the common ranges) and emoji, 0 for
/// combining marks and zero-width characters, else 1.
fn cells(c: char) -> usize {
    let u = c as u32;
    match u {
        0x0300..=0x036f | 0x200b..=0x200f | 0xfe00..=0xfe0f | 0x20d0..=0x20ff => 0,
        0x1100..=0x115f
        | 0x2e80..=0x303e
        | 0x3041..=0x33ff
        | 0x3400..=0x4dbf
        | 0x4e00..=0x9fff
        | 0xa000..=0xa4cf
        | 0xac00..=0xd7a3
        | 0xf900..=0xfaff
        | 0xfe30..=0xfe4f
        | 0xff00..=0xff60
        | 0xffe0..=0xffe6
        | 0x1f300..=0x1f64f
        | 0x1f900..=0x1f9ff
        | 0x20000..=0x2fffd
        | 0x30000..=0x3fffd => 2,
        _ => 1,
    }
}

/// Display width of `s` in terminal cells.
pub fn width(s: &str) -> usize {
    s.chars().map(cells).sum()
}

/// Renders rows under a header, columns separated by two spaces. Cells
/// must already be [`safe`]. Columns listed in `right` are right-aligned.
pub fn render(header: &[&str], rows: &[Vec<String>], right: &[usize]) -> String {
    let n = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| width(h)).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(n) {
            widths[i] = widths[i].max(width(cell));
        }
    }
    let mut out = String::new();
    let mut line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut l = String::new();
        for (i, cell) in cells.enumerate() {
            let pad = widths[i].saturating_sub(width(cell));
            if i > 0 {
                l.push_str("  ");
            }
            if right.contains(&i) {
                l.extend(std::iter::repeat_n(' ', pad));
                l.push_str(cell);
            } else {
                l.push_str(cell);
                if i + 1 < n {
                    l.extend(std::iter::repeat_n(' ', pad));
                }
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&mut header.iter().copied());
    for row in rows {
        line(&mut row.iter().map(String::as_str));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths() {
        assert_eq!(width("abc"), 3);
        assert_eq!(width("名前"), 4);
        assert_eq!(width("emoji😀"), 7);
        assert_eq!(width("e\u{301}"), 1);
    }

    #[test]
    fn escapes_controls() {
        assert_eq!(safe("a\u{1b}[31mb\n"), "a\\x1b[31mb\\n");
        assert_eq!(safe("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(safe("\u{85}"), "\\x85");
    }

    #[test]
    fn aligns_by_cells() {
        let t = render(
            &["name", "size"],
            &[
                vec!["名前".into(), "5".into()],
                vec!["a".into(), "123".into()],
            ],
            &[1],
        );
        assert_eq!(t, "name  size\n名前     5\na      123\n");
    }
}
