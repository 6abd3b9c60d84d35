//! JavaScript strings: sequences of UTF-16 code units, lone surrogates allowed.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

/// A JavaScript string (WTF-16): any sequence of 16-bit code units, so lone surrogates survive.
///
/// One-byte strings stay raw: a `"` (Latin-1) payload is kept as its bytes, each byte one code unit,
/// and is written back the same way; short one-byte strings (up to 22 units, typical property names
/// and short values) are stored inline without a heap allocation. Equality, ordering and hashing look
/// at code units only, whatever the storage. The type is 24 bytes, so a [`Value`](crate::Value) is too.
#[derive(Clone)]
pub struct JsString(Repr);

/// Longest one-byte string stored inline.
pub(crate) const INLINE: usize = 22;

#[derive(Clone)]
enum Repr {
    /// `buf[len..]` is always zero, so two inline strings are equal exactly when their reprs are.
    Inline {
        len: u8,
        buf: [u8; INLINE],
    },
    Latin1(Box<[u8]>),
    Utf16(Box<[u16]>),
}

impl JsString {
    /// The empty string.
    pub const fn new() -> JsString {
        JsString(Repr::Inline {
            len: 0,
            buf: [0; INLINE],
        })
    }

    /// A string from Rust text (UTF-8 to UTF-16); kept one-byte when every code point is at most U+00FF.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(s: &str) -> JsString {
        if s.is_ascii() {
            return JsString::from_latin1_slice(s.as_bytes());
        }
        if s.chars().all(|c| (c as u32) <= 0xFF) {
            JsString::from_latin1(s.chars().map(|c| c as u32 as u8).collect())
        } else {
            JsString(Repr::Utf16(s.encode_utf16().collect()))
        }
    }

    /// A string from code units; kept as given (use [`JsString::compact`] for the one-byte form).
    pub fn from_utf16(units: Vec<u16>) -> JsString {
        JsString(Repr::Utf16(units.into_boxed_slice()))
    }

    /// A string from Latin-1 bytes (each byte one code unit).
    pub fn from_latin1(bytes: Vec<u8>) -> JsString {
        if bytes.len() <= INLINE {
            return JsString::from_latin1_slice(&bytes);
        }
        JsString(Repr::Latin1(bytes.into_boxed_slice()))
    }

    /// A string from Latin-1 bytes (each byte one code unit), copied.
    #[inline]
    pub fn from_latin1_slice(bytes: &[u8]) -> JsString {
        if bytes.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            buf[..bytes.len()].copy_from_slice(bytes);
            JsString(Repr::Inline {
                len: bytes.len() as u8,
                buf,
            })
        } else {
            JsString(Repr::Latin1(bytes.into()))
        }
    }

    /// The Latin-1 string `input[start..start + len]` (the caller checked the range).
    #[inline(always)]
    pub(crate) fn latin1_at(input: &[u8], start: usize, len: usize) -> JsString {
        let mut s = JsString::new();
        s.set_latin1_at(input, start, len);
        s
    }

    /// Makes this string the Latin-1 string `input[start..start + len]` (the caller checked the
    /// range), in place. A short one is copied as three 8-byte words masked to its length: no
    /// variable-length copy, and no temporary that would be moved afterwards (a value built on the
    /// stack and then moved into an arena slot stalls on store forwarding).
    #[inline(always)]
    pub(crate) fn set_latin1_at(&mut self, input: &[u8], start: usize, len: usize) {
        if len <= INLINE {
            if let (Some(w), Repr::Inline { len: l, buf }) =
                (input.get(start..start + 24), &mut self.0)
            {
                let word = |i: usize| u64::from_le_bytes(w[i..i + 8].try_into().unwrap_or([0; 8]));
                let keep = |from: usize| -> u64 {
                    if len <= from {
                        0
                    } else if len >= from + 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * (len - from))) - 1
                    }
                };
                let (w0, w1, w2) = (word(0) & keep(0), word(8) & keep(8), word(16) & keep(16));
                buf[..8].copy_from_slice(&w0.to_le_bytes());
                buf[8..16].copy_from_slice(&w1.to_le_bytes());
                buf[16..].copy_from_slice(&w2.to_le_bytes()[..INLINE - 16]);
                *l = len as u8;
                return;
            }
        }
        self.set_latin1_slice(&input[start..start + len]);
    }

    /// Makes this string the Latin-1 string `bytes`, in place (a short one is copied into the
    /// inline buffer this string already has, without a temporary).
    #[inline]
    pub(crate) fn set_latin1_slice(&mut self, bytes: &[u8]) {
        if let Repr::Inline { len, buf } = &mut self.0 {
            if let Some(head) = buf.get_mut(..bytes.len()) {
                head.copy_from_slice(bytes);
                buf[bytes.len()..].fill(0);
                *len = bytes.len() as u8;
                return;
            }
        }
        *self = JsString::from_latin1_slice(bytes);
    }

    /// The units as bytes when the string is stored one byte per unit (Latin-1).
    #[inline]
    pub fn as_latin1(&self) -> Option<&[u8]> {
        match &self.0 {
            Repr::Inline { len, buf } => Some(&buf[..*len as usize]),
            Repr::Latin1(b) => Some(b),
            Repr::Utf16(_) => None,
        }
    }

    /// A short one-byte string's length and whole (zero-padded) inline buffer.
    #[inline]
    pub(crate) fn inline_parts(&self) -> Option<(usize, &[u8; INLINE])> {
        match &self.0 {
            Repr::Inline { len, buf } => Some((*len as usize, buf)),
            _ => None,
        }
    }

    /// The units when the string is stored two bytes per unit.
    #[inline]
    pub fn as_utf16(&self) -> Option<&[u16]> {
        match &self.0 {
            Repr::Utf16(u) => Some(u),
            _ => None,
        }
    }

    /// The same string, one-byte when every unit is at most 0xFF.
    pub fn compact(self) -> JsString {
        match self.0 {
            Repr::Utf16(u) if u.iter().all(|&c| c <= 0xFF) => {
                JsString::from_latin1(u.iter().map(|&c| c as u8).collect())
            }
            r => JsString(r),
        }
    }

    /// Number of UTF-16 code units (JS `length`).
    #[inline]
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Inline { len, .. } => *len as usize,
            Repr::Latin1(b) => b.len(),
            Repr::Utf16(u) => u.len(),
        }
    }

    /// `true` for the empty string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code unit at `i`, if any.
    #[inline]
    pub fn unit(&self, i: usize) -> Option<u16> {
        match self.as_latin1() {
            Some(b) => b.get(i).map(|&x| x as u16),
            None => self.as_utf16().and_then(|u| u.get(i).copied()),
        }
    }

    /// Iterates the code units.
    pub fn units(&self) -> Units<'_> {
        Units { s: self, i: 0 }
    }

    /// The code units as a vector.
    pub fn to_utf16(&self) -> Vec<u16> {
        match self.as_latin1() {
            Some(b) => b.iter().map(|&x| x as u16).collect(),
            None => self.as_utf16().unwrap_or_default().to_vec(),
        }
    }

    /// `true` when every unit is at most 0xFF (the string can be written as `"` Latin-1).
    pub fn is_latin1(&self) -> bool {
        match self.as_utf16() {
            None => true,
            Some(u) => u.iter().all(|&c| c <= 0xFF),
        }
    }

    /// `true` when the string holds no lone surrogate (it is valid UTF-16 and maps to Rust text).
    pub fn is_well_formed(&self) -> bool {
        match self.as_utf16() {
            None => true,
            Some(u) => char::decode_utf16(u.iter().copied()).all(|r| r.is_ok()),
        }
    }

    /// The string as Rust text, or `None` when it holds a lone surrogate.
    pub fn to_rust_string(&self) -> Option<String> {
        match self.as_latin1() {
            Some(b) => Some(latin1_to_string(b)),
            None => String::from_utf16(self.as_utf16().unwrap_or_default()).ok(),
        }
    }

    /// The string as Rust text, lone surrogates replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> String {
        match self.as_latin1() {
            Some(b) => latin1_to_string(b),
            None => String::from_utf16_lossy(self.as_utf16().unwrap_or_default()),
        }
    }

    /// `true` when the units equal the ASCII bytes `s`.
    pub fn eq_ascii(&self, s: &[u8]) -> bool {
        match self.as_latin1() {
            Some(b) => b == s,
            None => {
                let u = self.as_utf16().unwrap_or_default();
                u.len() == s.len() && u.iter().zip(s).all(|(&a, &b)| a == b as u16)
            }
        }
    }

    /// If the string is an array index (the canonical decimal form of an integer 0..=2^32-2), that integer.
    #[inline]
    pub fn as_array_index(&self) -> Option<u32> {
        // Fast reject: most names do not start with a digit.
        let first = match &self.0 {
            Repr::Inline { len: 0, .. } => return None,
            Repr::Inline { buf, .. } => u16::from(buf[0]),
            Repr::Latin1(b) => u16::from(*b.first()?),
            Repr::Utf16(u) => *u.first()?,
        };
        if !(u16::from(b'0')..=u16::from(b'9')).contains(&first) {
            return None;
        }
        match self.as_latin1() {
            Some(b) => array_index(b.iter().map(|&x| u16::from(x)), b.len()),
            None => {
                let u = self.as_utf16().unwrap_or_default();
                array_index(u.iter().copied(), u.len())
            }
        }
    }
}

fn latin1_to_string(b: &[u8]) -> String {
    match std::str::from_utf8(b) {
        Ok(s) if b.is_ascii() => s.to_string(),
        _ => b.iter().map(|&x| x as char).collect(),
    }
}

/// The decimal digits of `n`, right-aligned in 20 bytes, and their count.
pub(crate) fn digits(n: i64) -> ([u8; 20], usize) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut m = n.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    if n < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    (buf, 20 - i)
}

pub(crate) fn array_index(mut units: impl Iterator<Item = u16>, n: usize) -> Option<u32> {
    if n == 0 || n > 10 {
        return None;
    }
    let first = units.next()?;
    if !(u16::from(b'0')..=u16::from(b'9')).contains(&first) {
        return None;
    }
    if first == u16::from(b'0') {
        return if n == 1 { Some(0) } else { None };
    }
    let mut v: u64 = u64::from(first - u16::from(b'0'));
    for c in units {
        if !(u16::from(b'0')..=u16::from(b'9')).contains(&c) {
            return None;
        }
        v = v * 10 + u64::from(c - u16::from(b'0'));
    }
    if v <= 0xFFFF_FFFE {
        Some(v as u32)
    } else {
        None
    }
}

impl Default for JsString {
    fn default() -> Self {
        JsString::new()
    }
}

/// Iterator over the code units of a [`JsString`].
pub struct Units<'a> {
    s: &'a JsString,
    i: usize,
}

impl Iterator for Units<'_> {
    type Item = u16;
    fn next(&mut self) -> Option<u16> {
        let u = self.s.unit(self.i)?;
        self.i += 1;
        Some(u)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.s.len() - self.i;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Units<'_> {}

impl PartialEq for JsString {
    #[inline]
    fn eq(&self, other: &JsString) -> bool {
        // Inline strings are zero-padded: comparing the fixed-size buffers is exact and needs no
        // variable-length compare.
        if let (Repr::Inline { len: la, buf: ba }, Repr::Inline { len: lb, buf: bb }) =
            (&self.0, &other.0)
        {
            return la == lb && ba == bb;
        }
        match (self.as_latin1(), other.as_latin1()) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.as_utf16() == other.as_utf16(),
            _ => self.len() == other.len() && self.units().eq(other.units()),
        }
    }
}

impl Eq for JsString {}

impl PartialOrd for JsString {
    fn partial_cmp(&self, other: &JsString) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for JsString {
    /// Code-unit order, as JS `<` compares strings.
    fn cmp(&self, other: &JsString) -> Ordering {
        self.units().cmp(other.units())
    }
}

impl Hash for JsString {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for u in self.units() {
            state.write_u16(u);
        }
    }
}

impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())?;
        if !self.is_well_formed() {
            f.write_str("(lone surrogate)")?;
        }
        Ok(())
    }
}

impl fmt::Display for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl From<&str> for JsString {
    fn from(s: &str) -> JsString {
        JsString::from_str(s)
    }
}

impl From<String> for JsString {
    fn from(s: String) -> JsString {
        if s.is_ascii() {
            JsString::from_latin1(s.into_bytes())
        } else {
            JsString::from_str(&s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_across_representations() {
        assert_eq!(
            JsString::from_latin1(b"h\xe9".to_vec()),
            JsString::from_utf16(vec![0x68, 0xE9])
        );
        assert_ne!(JsString::from("a"), JsString::from("b"));
        assert_eq!(
            JsString::from("hé"),
            JsString::from_latin1(vec![0x68, 0xE9])
        );
        assert!(JsString::from("h€").as_utf16().is_some());
        assert_eq!(
            JsString::from("x".repeat(31).as_str())
                .as_latin1()
                .map(<[u8]>::len),
            Some(31)
        );
        assert_eq!(
            JsString::from_latin1(vec![b'a'; 40]),
            JsString::from_latin1_slice(&[b'a'; 40])
        );
    }

    #[test]
    fn latin1_at_masks_the_tail() {
        let input: Vec<u8> = (1..=64).collect();
        for start in [0usize, 3, 30] {
            for len in 0..=30 {
                let s = JsString::latin1_at(&input, start, len);
                assert_eq!(s.as_latin1(), Some(&input[start..start + len]));
                // Equal to the same text built any other way (inline buffers are zero-padded).
                assert_eq!(s, JsString::from_latin1_slice(&input[start..start + len]));
                assert_eq!(s, JsString::from_latin1(input[start..start + len].to_vec()));
            }
        }
        // Near the end of the input, where no fixed-size window fits.
        let s = JsString::latin1_at(&input, 60, 4);
        assert_eq!(s.as_latin1(), Some(&input[60..64]));
        assert_ne!(
            JsString::latin1_at(&input, 0, 5),
            JsString::latin1_at(&input, 0, 6)
        );
    }

    #[test]
    fn lone_surrogates() {
        let s = JsString::from_utf16(vec![0x61, 0xD800, 0x62]);
        assert!(!s.is_well_formed());
        assert_eq!(s.to_rust_string(), None);
        assert_eq!(s.to_string_lossy(), "a\u{FFFD}b");
        assert!(JsString::from("😀").is_well_formed());
    }

    #[test]
    fn array_index() {
        assert_eq!(JsString::from("0").as_array_index(), Some(0));
        assert_eq!(
            JsString::from("4294967294").as_array_index(),
            Some(4294967294)
        );
        assert_eq!(JsString::from("4294967295").as_array_index(), None);
        assert_eq!(JsString::from("01").as_array_index(), None);
        assert_eq!(JsString::from("-1").as_array_index(), None);
        assert_eq!(JsString::from("").as_array_index(), None);
        assert_eq!(JsString::from("1a").as_array_index(), None);
    }

    #[test]
    fn compact_and_order() {
        assert!(
            JsString::from_utf16(vec![0x41, 0xFF])
                .compact()
                .as_latin1()
                .is_some()
        );
        assert!(JsString::from("a") < JsString::from("b"));
        assert!(JsString::from_utf16(vec![0xD800]) < JsString::from_utf16(vec![0xE000]));
    }
}
