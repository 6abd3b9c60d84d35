//! Byte-class tables, generated at compile time from the grammar they
//! implement (never written out by hand).

/// Builds a 256-entry membership table from a list of member bytes.
const fn class(members: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < members.len() {
        t[members[i] as usize] = true;
        i += 1;
    }
    t
}

/// Adds the ASCII letters and digits to a table.
const fn with_alnum(mut t: [bool; 256]) -> [bool; 256] {
    let mut b = 0u8;
    while b < 128 {
        if b.is_ascii_alphanumeric() {
            t[b as usize] = true;
        }
        b += 1;
    }
    t
}

/// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" /
/// "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`.
/// Also WHATWG's "HTTP token code point" set (MIME Sniffing §2.1).
pub(crate) static TOKEN: [bool; 256] = with_alnum(class(b"!#$%&'*+-.^_`|~"));

/// Header name bytes with `allow_utf8_header_names` (MP-H-01): `tchar` and
/// bytes 80-FF.
pub(crate) static NAME_UTF8: [bool; 256] = {
    let mut t = TOKEN;
    let mut b = 0x80;
    while b < 256 {
        t[b] = true;
        b += 1;
    }
    t
};

/// Header line bytes that need no attention (MP-H-02): all but NUL, CR, LF.
pub(crate) static HEADER_PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    t[0] = false;
    t[b'\r' as usize] = false;
    t[b'\n' as usize] = false;
    t
};

/// WHATWG URL: the `application/x-www-form-urlencoded` percent-encode set's
/// complement, i.e. the bytes written as they are: ASCII alphanumeric,
/// `*`, `-`, `.`, `_`.
pub(crate) static URLENCODED_KEEP: [bool; 256] = with_alnum(class(b"*-._"));

/// RFC 2046 `bchars` (MP-S-09): `[0-9A-Za-z'()+_,-./:=? ]`.
pub(crate) static BCHARS: [bool; 256] = with_alnum(class(b"'()+_,-./:=? "));

/// Value of an ASCII hex digit, or 0xFF.
pub(crate) static HEX_VALUE: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut b = 0u8;
    while b < 128 {
        t[b as usize] = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => 0xFF,
        };
        b += 1;
    }
    t
};

/// Uppercase hex digits for percent-encoding (WHATWG URL §1.3).
pub(crate) static HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_matches_rfc9110() {
        let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        for b in 0..=255u8 {
            assert_eq!(TOKEN[b as usize], tchar(b), "byte {b:#x}");
        }
        assert_eq!(TOKEN.iter().filter(|&&x| x).count(), 77);
    }

    #[test]
    fn name_utf8_is_token_and_high_bytes() {
        for b in 0..=255u8 {
            assert_eq!(
                NAME_UTF8[b as usize],
                TOKEN[b as usize] || b >= 0x80,
                "byte {b:#x}"
            );
        }
    }

    #[test]
    fn other_tables() {
        assert_eq!(HEADER_PLAIN.iter().filter(|&&x| !x).count(), 3);
        assert_eq!(URLENCODED_KEEP.iter().filter(|&&x| x).count(), 66);
        assert_eq!(BCHARS.iter().filter(|&&x| x).count(), 62 + 13);
        assert_eq!(HEX_VALUE[b'f' as usize], 15);
        assert_eq!(HEX_VALUE[b'G' as usize], 0xFF);
        assert_eq!(HEX_VALUE[0xC6], 0xFF);
    }
}
