//! `application/x-www-form-urlencoded`, exactly as WHATWG URL §5 says.
//!
//! Parsing splits on `&` only, skips empty sequences, splits each at its
//! first `=`, turns `+` into a space **before** percent-decoding, keeps an
//! invalid `%` sequence as it is, and decodes UTF-8 with U+FFFD for bad
//! bytes (keeping a BOM). It never fails on content: only the limits of
//! `spec/limits.md` (`max_pairs`, `max_bytes`) are errors.
//!
//! Names and values borrow the input when it needs no decoding (no `+`, no
//! `%`, valid UTF-8). [`parse_owned_with`] gives the same pairs as owned
//! `String`s in one pass (faster than `parse_with` then `into_owned`).
//! [`Parser`] is the streaming form: the same pairs for any chunking, with
//! `%`, `%X` and UTF-8 sequences split across chunks.
//!
//! # Example
//!
//! ```
//! use formwire::urlencoded;
//!
//! let pairs = urlencoded::parse(b"a=1&b=%C3%A9+x&&c&=d&e=%zz")?;
//! let pairs: Vec<(&str, &str)> = pairs.iter().map(|(n, v)| (&**n, &**v)).collect();
//! assert_eq!(pairs, [("a", "1"), ("b", "\u{e9} x"), ("c", ""), ("", "d"), ("e", "%zz")]);
//!
//! assert_eq!(urlencoded::serialize([("a b", "\u{e9}&=*")]), "a+b=%C3%A9%26%3D*");
//! # Ok::<(), formwire::Error>(())
//! ```

use std::borrow::Cow;

use memchr::{memchr, memchr2};

use crate::error::{Error, ErrorCode};
use crate::tables::{HEX_UPPER, HEX_VALUE, URLENCODED_KEEP};

mod owned;

/// One name-value pair.
pub type Pair<'a> = (Cow<'a, str>, Cow<'a, str>);

/// The value of a limit that is off.
pub use crate::registry::UNLIMITED;
/// The urlencoded limits of `spec/limits.md`, generated from `spec/registry.json`.
pub use crate::registry::urlencoded::Options;

/// Decodes one name or value: `+` to space (UE-P-06), then percent-decoding
/// (UE-P-07), then UTF-8 with U+FFFD, BOM kept (UE-P-08). Borrows when
/// nothing needs decoding.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if memchr2(b'+', b'%', bytes).is_none() {
        return utf8(bytes);
    }
    unescape(bytes, PCT)
}

/// UTF-8 with U+FFFD for invalid sequences, borrowing when valid.
#[inline]
fn utf8(bytes: &[u8]) -> Cow<'_, str> {
    match core::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// `+` and `%XX` decoding, then UTF-8 (the input holds `+` or `%`).
fn unescape(bytes: &[u8], flags: u8) -> Cow<'_, str> {
    let mut out = Vec::with_capacity(bytes.len());
    unescape_hinted(bytes, &mut out, flags);
    Cow::Owned(match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Appends the `+`/`%XX`-decoded bytes (UE-P-06, UE-P-07) to `out`: one
/// pass, each byte (or `%XX` triple) written by index into room made
/// beforehand (the output is never longer than the input).
fn unescape_into(bytes: &[u8], out: &mut Vec<u8>) {
    let base = out.len();
    let n = bytes.len();
    out.resize(base + n, 0);
    let dst = &mut out[base..];
    let (mut r, mut w) = (0, 0);
    while r < n {
        let b = bytes[r];
        // UE-P-06 before UE-P-07: a `%2B` still decodes to `+`.
        let mut v = if b == b'+' { b' ' } else { b };
        let mut step = 1;
        // UE-P-07: `%` followed by two hex digits, else the `%` stays as it is.
        if b == b'%' && r + 2 < n {
            let (h, l) = (
                HEX_VALUE[bytes[r + 1] as usize],
                HEX_VALUE[bytes[r + 2] as usize],
            );
            if h != 0xFF && l != 0xFF {
                v = h << 4 | l;
                step = 3;
            }
        }
        dst[w] = v;
        w += 1;
        r += step;
    }
    out.truncate(base + w);
}

/// [`unescape_into`], given the scanner's flags for the half: when the
/// first escape it saw was a `+` (no `PCT` flag), the half often has no `%`
/// at all, and then eight bytes at a time become `+`-to-space swaps (SWAR);
/// a `%` met on the way sends the half to the general path.
#[inline]
fn unescape_hinted(bytes: &[u8], out: &mut Vec<u8>, flags: u8) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // 0x80 in every byte of `w` equal to `c`, and nowhere else.
    let exact = |w: u64, c: u8| {
        let x = w ^ (ONES * c as u64);
        !((x & LOW7).wrapping_add(LOW7) | x | LOW7)
    };
    if flags & PCT != 0 {
        return unescape_into(bytes, out);
    }
    let base = out.len();
    let n = bytes.len();
    out.resize(base + n, 0);
    let dst = &mut out[base..];
    let mut i = 0;
    while let Some(c8) = bytes.get(i..i + 8) {
        let w = u64::from_le_bytes(c8.try_into().unwrap_or_default());
        if exact(w, b'%') != 0 {
            out.truncate(base);
            return unescape_into(bytes, out);
        }
        // UE-P-06: `+` ^ 0x0B is a space.
        let v = w ^ ((exact(w, b'+') >> 7) * 0x0B);
        dst[i..i + 8].copy_from_slice(&v.to_le_bytes());
        i += 8;
    }
    while i < n {
        let b = bytes[i];
        if b == b'%' {
            out.truncate(base);
            return unescape_into(bytes, out);
        }
        dst[i] = if b == b'+' { b' ' } else { b };
        i += 1;
    }
}

/// Byte classes for the one-pass pair scanner.
const PLAIN: u8 = 0;
const AMP: u8 = 1;
const EQ: u8 = 2;
/// `+`: the half needs unescaping.
const PLUS: u8 = 4;
/// 80..FF: the half needs UTF-8 validation.
const HIGH: u8 = 8;
/// `%`: the half needs unescaping.
const PCT: u8 = 16;
/// Either escape (a mask).
const ESC: u8 = PLUS | PCT;

static CLASS: [u8; 256] = {
    let mut t = [PLAIN; 256];
    let mut b = 0x80;
    while b < 256 {
        t[b] = HIGH;
        b += 1;
    }
    t[b'&' as usize] = AMP;
    t[b'=' as usize] = EQ;
    t[b'+' as usize] = PLUS;
    t[b'%' as usize] = PCT;
    t
};

/// The index of a byte at or after `i` that may not be `PLAIN`, eight bytes
/// at a time (SWAR), no later than the first one that is not: the first
/// byte below `0x30` (`&`, `+`, `%` and a few plain ones such as `-` and
/// `.`), `=`, or `0x80` and up. The caller looks the byte up in `CLASS`.
#[inline]
fn plain_run(input: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    while let Some(bytes) = input.get(i..i + 8) {
        let w = u64::from_le_bytes(bytes.try_into().unwrap_or_default());
        // Bytes below 0x30 (among those below 0x80), `=` (a zero byte of
        // `w ^ "="`), and high bytes. The lowest marked byte is exact:
        // borrows only run upwards.
        let below = w.wrapping_sub(ONES * 0x30) & !w & HIGHS;
        let x = w ^ (ONES * b'=' as u64);
        let eq = x.wrapping_sub(ONES) & !x & HIGHS;
        let m = below | eq | (w & HIGHS);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < input.len() && CLASS[input[i] as usize] == PLAIN {
        i += 1;
    }
    i
}

/// Decodes `input[a..b]` given what the scanner saw in it. `text` is the
/// whole input when it is valid UTF-8: then a half without escapes is a
/// slice of it (`a` and `b` sit next to ASCII bytes, so on char
/// boundaries) and needs no validation of its own.
#[inline]
fn half<'a>(input: &'a [u8], text: Option<&'a str>, a: usize, b: usize, flags: u8) -> Cow<'a, str> {
    if flags & ESC != 0 {
        return unescape(&input[a..b], flags);
    }
    match text.and_then(|t| t.get(a..b)) {
        Some(s) => Cow::Borrowed(s),
        None => utf8(&input[a..b]),
    }
}

/// One sequence as the scanner saw it.
struct Seq {
    /// Index of the `&` that ends it, or the input length.
    end: usize,
    /// Index of its first `=`, or `usize::MAX`.
    eq: usize,
    name_flags: u8,
    value_flags: u8,
}

/// Scans the sequence starting at `input[start]` up to its `&` (or the end)
/// in one pass: where its first `=` is (UE-P-04) and which half needs
/// decoding. Returns the sequence end and the pair (`None` when empty).
#[inline]
fn scan_pair<'a>(
    input: &'a [u8],
    text: Option<&'a str>,
    start: usize,
) -> (usize, Option<Pair<'a>>) {
    let q = scan(input, start);
    if q.end == start {
        return (q.end, None);
    }
    let pair = if q.eq == usize::MAX {
        (
            half(input, text, start, q.end, q.value_flags),
            Cow::Borrowed(""),
        )
    } else {
        (
            half(input, text, start, q.eq, q.name_flags),
            half(input, text, q.eq + 1, q.end, q.value_flags),
        )
    };
    (q.end, Some(pair))
}

#[inline(always)]
fn scan(input: &[u8], start: usize) -> Seq {
    let len = input.len();
    let mut i = start;
    let mut eq = usize::MAX;
    let mut name_flags = 0u8;
    let mut flags = 0u8;
    loop {
        i = plain_run(input, i);
        if i >= len {
            break;
        }
        let c = CLASS[input[i] as usize];
        if c == AMP {
            break;
        }
        if c == EQ && eq == usize::MAX {
            eq = i;
            name_flags = flags;
            flags = 0;
            i += 1;
            continue;
        }
        flags |= c;
        i += 1;
        if flags & ESC != 0 {
            // This half is decoded in full anyway: only its end matters now
            // (`=` or `&` in a name, `&` in a value), found with memchr.
            if eq == usize::MAX {
                match memchr2(b'=', b'&', &input[i..]) {
                    Some(k) => i += k,
                    None => i = len,
                }
            } else {
                i = memchr(b'&', &input[i..]).map_or(len, |k| i + k);
                break;
            }
        }
    }
    if eq == usize::MAX {
        name_flags = flags;
    }
    Seq {
        end: i,
        eq,
        name_flags,
        value_flags: flags,
    }
}

/// Splits one non-empty `&`-free sequence at its first `=` and decodes both
/// halves (UE-P-04, UE-P-05).
fn pair(seq: &[u8]) -> Pair<'_> {
    match scan_pair(seq, None, 0) {
        (_, Some(p)) => p,
        (_, None) => (Cow::Borrowed(""), Cow::Borrowed("")),
    }
}

/// The pairs of a whole input, lazily and **without limits** (for trusted
/// input, or when the caller counts). See [`parse`] for the limited form.
pub fn pairs(input: &[u8]) -> Pairs<'_> {
    Pairs { rest: input }
}

/// Iterator returned by [`pairs`].
#[derive(Clone, Debug)]
pub struct Pairs<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Pair<'a>;

    fn next(&mut self) -> Option<Pair<'a>> {
        while !self.rest.is_empty() {
            let rest = self.rest;
            let (end, pair) = scan_pair(rest, None, 0);
            self.rest = &rest[(end + 1).min(rest.len())..];
            // UE-P-03: empty sequences are skipped.
            if pair.is_some() {
                return pair;
            }
        }
        None
    }
}

/// Parses a whole input with the default limits.
pub fn parse(input: &[u8]) -> Result<Vec<Pair<'_>>, Error> {
    parse_with(input, &Options::default())
}

/// Parses a whole input. Errors: `UE_LIMIT_PAIRS` at the first byte of pair
/// number `max_pairs + 1` (UE-L-02); `UE_LIMIT_BYTES` at `max_bytes` when the
/// input is longer (UE-L-01). Bytes before `max_bytes` are processed first,
/// so an earlier `UE_LIMIT_PAIRS` wins, as in the streaming parser (UE-L-03).
pub fn parse_with<'a>(input: &'a [u8], options: &Options) -> Result<Vec<Pair<'a>>, Error> {
    let cut = usize::try_from(options.max_bytes)
        .unwrap_or(usize::MAX)
        .min(input.len());
    let head = &input[..cut];
    // At most one pair per `&` plus one: no reallocation.
    let most = memchr::memchr_iter(b'&', head).count() as u64 + 1;
    let mut out = Vec::with_capacity(most.min(options.max_pairs.saturating_add(1)) as usize);
    // Valid UTF-8 as a whole (the usual case): halves are str slices.
    let text = core::str::from_utf8(head).ok();
    let mut at = 0;
    while at < head.len() {
        let (end, pair) = scan_pair(head, text, at);
        if let Some(pair) = pair {
            // UE-L-02
            if out.len() as u64 >= options.max_pairs {
                return Err(Error::new(ErrorCode::UeLimitPairs, at as u64));
            }
            out.push(pair);
        }
        at = end + 1;
    }
    // UE-L-01: the bytes before the limit were processed first (UE-L-03).
    if cut < input.len() {
        return Err(Error::new(ErrorCode::UeLimitBytes, options.max_bytes));
    }
    Ok(out)
}

/// Parses a whole input into owned strings, with the default limits.
pub fn parse_owned(input: &[u8]) -> Result<Vec<(String, String)>, Error> {
    parse_owned_with(input, &Options::default())
}

/// Parses a whole input into owned strings: the same pairs and the same
/// errors as [`parse_with`], each name and value a `String` of its own.
///
/// Faster than `parse_with` followed by `into_owned` (no `Cow` first): the
/// input is read in chunks of whole pairs (about 16 KiB each), which are
/// copied once with `+` as spaces and checked as UTF-8 as a whole, so a name
/// or value without `%` costs one allocation and one copy; names and values
/// with `%` are decoded into one buffer per chunk. Memory besides the result
/// is a few buffers of about the chunk size and one `u32` position per chunk
/// byte, about 100 KiB (up to four times that for a pair longer than a
/// chunk; a pair longer than 64 KiB is decoded on its own instead).
///
/// ```
/// use formwire::urlencoded::{self, Options};
///
/// let pairs = urlencoded::parse_owned_with(b"a=1&b=%C3%A9+x&&c", &Options::default())?;
/// assert_eq!(pairs, [("a".into(), "1".into()), ("b".into(), "\u{e9} x".into()), ("c".into(), String::new())]);
/// # Ok::<(), formwire::Error>(())
/// ```
pub fn parse_owned_with(input: &[u8], options: &Options) -> Result<Vec<(String, String)>, Error> {
    owned::parse_owned_with(input, options)
}

/// One decoded half in a [`Form`].
#[derive(Clone, Copy, Debug)]
enum Half<'a> {
    /// A slice of the input that needed no decoding.
    Input(&'a str),
    /// `arena[start..end]`.
    Arena(usize, usize),
}

/// Parsed pairs held in one reusable buffer: decoded strings live in a
/// single arena, undecoded ones borrow the input, so parsing allocates
/// nothing per pair (the fastest way to get every pair as `&str`).
///
/// ```
/// use formwire::urlencoded::{Form, Options};
///
/// let form = Form::parse(b"a=1&b=x+y%21", &Options::default())?;
/// assert_eq!(form.iter().collect::<Vec<_>>(), [("a", "1"), ("b", "x y!")]);
/// // Reuse the buffers for the next body.
/// let form = form.parse_reusing(b"c", &Options::default())?;
/// assert_eq!(form.get(0), Some(("c", "")));
/// # Ok::<(), formwire::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Form<'a> {
    arena: String,
    scratch: Vec<u8>,
    pairs: Vec<[Half<'a>; 2]>,
}

impl<'a> Form<'a> {
    /// Parses a whole input with the same rules and limits as
    /// [`parse_with`].
    pub fn parse(input: &'a [u8], options: &Options) -> Result<Form<'a>, Error> {
        Form::default().parse_reusing(input, options)
    }

    /// Parses another input, reusing this form's buffers.
    pub fn parse_reusing<'b>(self, input: &'b [u8], options: &Options) -> Result<Form<'b>, Error> {
        let Form {
            mut arena,
            mut scratch,
            mut pairs,
        } = self;
        // Keep the larger buffer as the raw one.
        if arena.capacity() > scratch.capacity() {
            scratch = core::mem::take(&mut arena).into_bytes();
        }
        arena.clear();
        scratch.clear();
        pairs.clear();
        // Same allocation, new lifetime (in-place collect of an empty Vec).
        let pairs: Vec<[Half<'b>; 2]> = pairs.into_iter().map(|_| [Half::Arena(0, 0); 2]).collect();
        let mut form = Form {
            arena,
            scratch,
            pairs,
        };
        form.fill(input, options)?;
        form.decode_arena();
        Ok(form)
    }

    /// A half that needs decoding is decoded into `scratch` (raw bytes, one
    /// buffer for the whole form), one that needs none borrows the input.
    #[inline]
    fn half(
        &mut self,
        input: &'a [u8],
        text: Option<&'a str>,
        a: usize,
        b: usize,
        flags: u8,
    ) -> Half<'a> {
        let start = self.scratch.len();
        if flags & ESC == 0 {
            if let Some(s) = text.and_then(|t| t.get(a..b)) {
                return Half::Input(s);
            }
            if flags & HIGH == 0 {
                // ASCII: valid as it is.
                if let Ok(s) = core::str::from_utf8(&input[a..b]) {
                    return Half::Input(s);
                }
            }
            self.scratch.extend_from_slice(&input[a..b]);
        } else {
            unescape_hinted(&input[a..b], &mut self.scratch, flags);
        }
        Half::Arena(start, self.scratch.len())
    }

    /// Turns the raw decoded bytes into the text arena: in one validation
    /// when they are valid UTF-8 and every half begins and ends on a
    /// character boundary (then each half is valid on its own, the usual
    /// case); else half by half with U+FFFD (UE-P-08).
    fn decode_arena(&mut self) {
        let raw = core::mem::take(&mut self.scratch);
        let raw = match String::from_utf8(raw) {
            Ok(text) => {
                let on = |h: &Half<'_>| match *h {
                    Half::Arena(a, b) => text.is_char_boundary(a) && text.is_char_boundary(b),
                    Half::Input(_) => true,
                };
                if self.pairs.iter().all(|[n, v]| on(n) && on(v)) {
                    self.arena = text;
                    return;
                }
                text.into_bytes()
            }
            Err(e) => e.into_bytes(),
        };
        self.arena.clear();
        for pair in &mut self.pairs {
            for h in pair.iter_mut() {
                if let Half::Arena(a, b) = *h {
                    let start = self.arena.len();
                    self.arena.push_str(&String::from_utf8_lossy(&raw[a..b]));
                    *h = Half::Arena(start, self.arena.len());
                }
            }
        }
        self.scratch = raw;
    }

    fn fill(&mut self, input: &'a [u8], options: &Options) -> Result<(), Error> {
        let cut = usize::try_from(options.max_bytes)
            .unwrap_or(usize::MAX)
            .min(input.len());
        let head = &input[..cut];
        let most = memchr::memchr_iter(b'&', head).count() as u64 + 1;
        self.pairs
            .reserve(most.min(options.max_pairs.saturating_add(1)) as usize);
        let text = core::str::from_utf8(head).ok();
        let mut at = 0;
        while at < head.len() {
            let q = scan(head, at);
            if q.end > at {
                // UE-L-02
                if self.pairs.len() as u64 >= options.max_pairs {
                    return Err(Error::new(ErrorCode::UeLimitPairs, at as u64));
                }
                let pair = if q.eq == usize::MAX {
                    [
                        self.half(head, text, at, q.end, q.value_flags),
                        Half::Input(""),
                    ]
                } else {
                    let name = self.half(head, text, at, q.eq, q.name_flags);
                    [name, self.half(head, text, q.eq + 1, q.end, q.value_flags)]
                };
                self.pairs.push(pair);
            }
            at = q.end + 1;
        }
        // UE-L-01, UE-L-03
        if cut < input.len() {
            return Err(Error::new(ErrorCode::UeLimitBytes, options.max_bytes));
        }
        Ok(())
    }

    fn str(&self, h: Half<'a>) -> &str {
        match h {
            Half::Input(s) => s,
            Half::Arena(a, b) => &self.arena[a..b],
        }
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// `true` when there are no pairs.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Pair number `i` (0-based), in input order.
    pub fn get(&self, i: usize) -> Option<(&str, &str)> {
        self.pairs.get(i).map(|[n, v]| (self.str(*n), self.str(*v)))
    }

    /// Every pair in input order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.pairs.iter().map(|[n, v]| (self.str(*n), self.str(*v)))
    }
}

/// Appends the urlencoded form of `bytes` (WHATWG URL
/// "application/x-www-form-urlencoded serializer" step for one string):
/// `[A-Za-z0-9*-._]` as is (UE-S-04), space as `+` (UE-S-03), everything
/// else `%XX` uppercase (UE-S-05).
pub fn byte_serialize(bytes: &[u8], out: &mut String) {
    let mut rest = bytes;
    while !rest.is_empty() {
        let keep = rest
            .iter()
            .position(|&b| !URLENCODED_KEEP[b as usize])
            .unwrap_or(rest.len());
        // The kept bytes are ASCII.
        out.push_str(core::str::from_utf8(&rest[..keep]).unwrap_or_default());
        let Some(&b) = rest.get(keep) else { break };
        if b == b' ' {
            out.push('+');
        } else {
            out.push('%');
            out.push(HEX_UPPER[(b >> 4) as usize] as char);
            out.push(HEX_UPPER[(b & 15) as usize] as char);
        }
        rest = &rest[keep + 1..];
    }
}

/// Serializes pairs as `name=value` joined by `&` (UE-S-06). Rust strings
/// are always scalar value strings, so UE-S-01 holds by construction.
pub fn serialize<I, K, V>(pairs: I) -> String
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    for (i, (k, v)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        byte_serialize(k.as_ref().as_bytes(), &mut out);
        out.push('=');
        byte_serialize(v.as_ref().as_bytes(), &mut out);
    }
    out
}

/// A streaming urlencoded parser: feed chunks, pull pairs.
///
/// A pair that lies inside one chunk borrows it; a pair split across chunks
/// is assembled in an internal buffer first (at most `max_bytes`). Decoding
/// happens on whole pairs, so `%`, `%X` and UTF-8 sequences split across
/// chunks decode exactly as if the input came in one piece (UE-P-11). A pair
/// is handed out as soon as its `&` is seen (UE-P-12); after an error every
/// call reports it again (UE-L-05).
///
/// ```
/// use formwire::urlencoded::{Options, Parser};
///
/// let mut p = Parser::new(Options::default());
/// let mut got = Vec::new();
/// for chunk in [&b"a=%C"[..], b"3%A", b"9&b", b"=2"] {
///     let mut feed = p.feed(chunk);
///     while let Some(pair) = feed.next() {
///         let (n, v) = pair?;
///         got.push((n.into_owned(), v.into_owned()));
///     }
/// }
/// let mut feed = p.finish();
/// while let Some(pair) = feed.next() {
///     let (n, v) = pair?;
///     got.push((n.into_owned(), v.into_owned()));
/// }
/// assert_eq!(got, [("a".into(), "\u{e9}".into()), ("b".into(), "2".into())]);
/// # Ok::<(), formwire::Error>(())
/// ```
#[derive(Debug)]
pub struct Parser {
    opts: Options,
    /// The raw bytes of a pair begun in an earlier chunk.
    buf: Vec<u8>,
    /// `buf` was handed out and must be cleared before reuse.
    buf_used: bool,
    consumed: u64,
    pairs: u64,
    error: Option<Error>,
}

impl Parser {
    /// A parser with the given limits.
    pub fn new(options: Options) -> Parser {
        Parser {
            opts: options,
            buf: Vec::new(),
            buf_used: false,
            consumed: 0,
            pairs: 0,
            error: None,
        }
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.consumed
    }

    /// Feeds a chunk; pull its pairs from the returned [`Feed`].
    pub fn feed<'p, 'c>(&'p mut self, chunk: &'c [u8]) -> Feed<'p, 'c> {
        let room = self.opts.max_bytes.saturating_sub(self.consumed);
        let (chunk, over) = if (chunk.len() as u64) > room {
            (&chunk[..room as usize], true)
        } else {
            (chunk, false)
        };
        let base = self.consumed;
        Feed {
            parser: self,
            chunk,
            base,
            pos: 0,
            over,
            eof: false,
            done: false,
        }
    }

    /// Ends the input: yields the last pair, if one is pending.
    pub fn finish(&mut self) -> Feed<'_, 'static> {
        let base = self.consumed;
        Feed {
            parser: self,
            chunk: &[],
            base,
            pos: 0,
            over: false,
            eof: true,
            done: false,
        }
    }

    fn count(&mut self, off: u64) -> Result<(), Error> {
        if self.pairs >= self.opts.max_pairs {
            let e = Error::new(ErrorCode::UeLimitPairs, off);
            self.error = Some(e);
            return Err(e);
        }
        self.pairs += 1;
        Ok(())
    }
}

/// The pairs of one chunk (or of the end of input), from [`Parser::feed`].
#[derive(Debug)]
pub struct Feed<'p, 'c> {
    parser: &'p mut Parser,
    chunk: &'c [u8],
    base: u64,
    pos: usize,
    over: bool,
    eof: bool,
    done: bool,
}

impl<'c> Feed<'_, 'c> {
    /// The next complete pair; `None` when the chunk is used up.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Result<Pair<'_>, Error>> {
        if self.done {
            return None;
        }
        let p = &mut *self.parser;
        if let Some(e) = p.error {
            self.done = true;
            return Some(Err(e));
        }
        if p.buf_used {
            p.buf.clear();
            p.buf_used = false;
        }
        let chunk = self.chunk;
        let end = chunk.len();
        if !p.buf.is_empty() {
            // A pair begun in an earlier chunk.
            match memchr(b'&', &chunk[self.pos..]) {
                Some(i) => {
                    p.buf.extend_from_slice(&chunk[self.pos..self.pos + i]);
                    self.pos += i + 1;
                    p.consumed = self.base + self.pos as u64;
                    p.buf_used = true;
                    return Some(Ok(pair(&self.parser.buf)));
                }
                None => {
                    p.buf.extend_from_slice(&chunk[self.pos..]);
                    self.pos = end;
                    p.consumed = self.base + end as u64;
                    if self.eof {
                        p.buf_used = true;
                        self.done = true;
                        return Some(Ok(pair(&self.parser.buf)));
                    }
                    return self.end();
                }
            }
        }
        while self.pos < end && chunk[self.pos] == b'&' {
            self.pos += 1;
        }
        p.consumed = self.base + self.pos as u64;
        if self.pos == end {
            return self.end();
        }
        let start = self.pos;
        if let Err(e) = p.count(self.base + start as u64) {
            self.done = true;
            return Some(Err(e));
        }
        match memchr(b'&', &chunk[start..]) {
            Some(i) => {
                self.pos = start + i + 1;
                p.consumed = self.base + self.pos as u64;
                Some(Ok(pair(&chunk[start..start + i])))
            }
            None => {
                p.buf.extend_from_slice(&chunk[start..]);
                self.pos = end;
                p.consumed = self.base + end as u64;
                self.end()
            }
        }
    }

    fn end(&mut self) -> Option<Result<Pair<'_>, Error>> {
        self.done = true;
        if self.over {
            let e = Error::new(ErrorCode::UeLimitBytes, self.parser.opts.max_bytes);
            self.parser.error = Some(e);
            return Some(Err(e));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(v: Vec<Pair<'_>>) -> Vec<(String, String)> {
        v.into_iter()
            .map(|(a, b)| (a.into_owned(), b.into_owned()))
            .collect()
    }

    fn p(s: &[u8]) -> Vec<(String, String)> {
        owned(parse(s).unwrap())
    }

    fn s(a: &str, b: &str) -> (String, String) {
        (a.to_owned(), b.to_owned())
    }

    #[test]
    fn whatwg_parse() {
        assert_eq!(p(b""), []);
        assert_eq!(p(b"&&&"), []);
        assert_eq!(p(b"a"), [s("a", "")]);
        assert_eq!(p(b"a="), [s("a", "")]);
        assert_eq!(p(b"=a"), [s("", "a")]);
        assert_eq!(p(b"="), [s("", "")]);
        assert_eq!(p(b"a=b=c"), [s("a", "b=c")]);
        assert_eq!(p(b"a;b=c"), [s("a;b", "c")]);
        assert_eq!(p(b"a+b=c+d"), [s("a b", "c d")]);
        assert_eq!(p(b"%2B=%2b"), [s("+", "+")]);
        assert_eq!(p(b"%=%4=%zz=%4g"), [s("%", "%4=%zz=%4g")]);
        assert_eq!(p(b"a=%"), [s("a", "%")]);
        assert_eq!(p(b"a=%f"), [s("a", "%f")]);
        assert_eq!(p(b"a=%FF%fe"), [s("a", "\u{fffd}\u{fffd}")]);
        assert_eq!(p(b"a=\xff"), [s("a", "\u{fffd}")]);
        assert_eq!(p(b"%EF%BB%BFa=1"), [s("\u{feff}a", "1")]);
        assert_eq!(
            p(b"a=%e2%82%ac&b=%E2%82"),
            [s("a", "\u{20ac}"), s("b", "\u{fffd}")]
        );
        assert_eq!(p(b"a=%00"), [s("a", "\0")]);
    }

    #[test]
    fn borrows_when_it_can() {
        let v = parse(b"abc=def&x=%41").unwrap();
        assert!(matches!(v[0], (Cow::Borrowed(_), Cow::Borrowed(_))));
        assert!(matches!(v[1].1, Cow::Owned(_)));
    }

    #[test]
    fn limits() {
        let mut o = Options {
            max_pairs: 2,
            ..Options::default()
        };
        assert_eq!(parse_with(b"a&&b", &o).unwrap().len(), 2);
        assert_eq!(parse_with(b"a&&b&&&", &o).unwrap().len(), 2);
        assert_eq!(
            parse_with(b"a&b&&c", &o).unwrap_err(),
            Error::new(ErrorCode::UeLimitPairs, 5)
        );
        o.max_bytes = 4;
        assert_eq!(parse_with(b"a&bc", &o).unwrap().len(), 2);
        assert_eq!(
            parse_with(b"a&bcd", &o).unwrap_err(),
            Error::new(ErrorCode::UeLimitBytes, 4)
        );
        // Pair 3 begins at the cut: never processed.
        assert_eq!(
            parse_with(b"a&b&c", &o).unwrap_err(),
            Error::new(ErrorCode::UeLimitBytes, 4)
        );
        o.max_bytes = 5;
        assert_eq!(
            parse_with(b"a&b&c", &o).unwrap_err(),
            Error::new(ErrorCode::UeLimitPairs, 4)
        );
        assert_eq!(
            parse_with(b"a&b&cd", &o).unwrap_err(),
            Error::new(ErrorCode::UeLimitPairs, 4)
        );
        for (input, max_pairs, max_bytes) in [
            (&b"a&b&&c"[..], 2, 100),
            (b"a&bcd", 2, 4),
            (b"a&b&c", 2, 4),
            (b"a&b&c", 2, 5),
        ] {
            let o = Options {
                max_pairs,
                max_bytes,
            };
            assert_eq!(
                Form::parse(input, &o).map(|f| f.len()),
                parse_with(input, &o).map(|v| v.len())
            );
        }
        o.max_bytes = 0;
        assert_eq!(parse_with(b"", &o).unwrap().len(), 0);
        assert_eq!(
            parse_with(b"&", &o).unwrap_err(),
            Error::new(ErrorCode::UeLimitBytes, 0)
        );
    }

    fn stream(input: &[u8], cuts: &[usize], o: &Options) -> Result<Vec<(String, String)>, Error> {
        let mut parser = Parser::new(o.clone());
        let mut out = Vec::new();
        let mut last = 0;
        for &c in cuts.iter().chain([input.len()].iter()) {
            let mut feed = parser.feed(&input[last..c]);
            while let Some(r) = feed.next() {
                let (a, b) = r?;
                out.push((a.into_owned(), b.into_owned()));
            }
            last = c;
        }
        let mut feed = parser.finish();
        while let Some(r) = feed.next() {
            let (a, b) = r?;
            out.push((a.into_owned(), b.into_owned()));
        }
        Ok(out)
    }

    #[test]
    fn streaming_matches_whole_at_every_split() {
        let inputs: [&[u8]; 6] = [
            b"a=%C3%A9&b=c+d&&%E2%82%AC=%f&x",
            b"&&a&b=&=c&",
            b"caf\xc3\xa9=%F0%9F%98%80&%4",
            b"",
            b"abc",
            b"%=%%%41%4",
        ];
        let o = Options::default();
        for input in inputs {
            let whole = p(input);
            for i in 0..=input.len() {
                for j in i..=input.len() {
                    let cuts: Vec<usize> = [i, j]
                        .into_iter()
                        .filter(|&c| c > 0 && c < input.len())
                        .collect();
                    let mut cuts2 = cuts.clone();
                    cuts2.dedup();
                    assert_eq!(
                        stream(input, &cuts2, &o).unwrap(),
                        whole,
                        "{input:?} {cuts2:?}"
                    );
                }
            }
            let bytes: Vec<usize> = (1..input.len()).collect();
            assert_eq!(stream(input, &bytes, &o).unwrap(), whole);
        }
    }

    #[test]
    fn streaming_limits_match_whole() {
        let input = b"a=1&&b=2&c=3&dd=4&e";
        for max_pairs in [0, 1, 2, 3, 10] {
            for max_bytes in [0, 1, 3, 4, 5, 9, 10, 11, 19, 20, 100] {
                let o = Options {
                    max_pairs,
                    max_bytes,
                };
                let whole = parse_with(input, &o).map(owned);
                for cut in 0..=input.len() {
                    let cuts: Vec<usize> = [cut]
                        .into_iter()
                        .filter(|&c| c > 0 && c < input.len())
                        .collect();
                    assert_eq!(
                        stream(input, &cuts, &o),
                        whole,
                        "{max_pairs} {max_bytes} {cut}"
                    );
                }
            }
        }
    }

    /// WHATWG URL §5.1 transcribed step by step, byte at a time.
    fn naive(input: &[u8]) -> Vec<(String, String)> {
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        let dec = |s: &[u8]| {
            let s: Vec<u8> = s
                .iter()
                .map(|&b| if b == b'+' { b' ' } else { b })
                .collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < s.len() {
                if s[i] == b'%' && i + 2 < s.len() {
                    if let (Some(h), Some(l)) = (hex(s[i + 1]), hex(s[i + 2])) {
                        out.push(h * 16 + l);
                        i += 3;
                        continue;
                    }
                }
                out.push(s[i]);
                i += 1;
            }
            String::from_utf8_lossy(&out).into_owned()
        };
        input
            .split(|&b| b == b'&')
            .filter(|s| !s.is_empty())
            .map(|s| match s.iter().position(|&b| b == b'=') {
                Some(i) => (dec(&s[..i]), dec(&s[i + 1..])),
                None => (dec(s), String::new()),
            })
            .collect()
    }

    #[test]
    fn matches_naive_reference() {
        let alphabet: &[u8] = b"aZ09&&==++%%%fFgG\xc3\xa9\xe2\x82\xac\xff\x80 ;";
        let mut rng = crate::test_rng::Rng(7);
        let mut next = move || rng.next() as usize;
        let o = Options {
            max_pairs: UNLIMITED,
            max_bytes: UNLIMITED,
        };
        for round in 0..3000 {
            let len = next() % if round % 10 == 0 { 400 } else { 40 };
            let input: Vec<u8> = (0..len)
                .map(|_| alphabet[next() % alphabet.len()])
                .collect();
            let want = naive(&input);
            assert_eq!(owned(parse_with(&input, &o).unwrap()), want, "{input:?}");
            assert_eq!(owned(pairs(&input).collect()), want, "{input:?}");
            let form = Form::parse(&input, &o).unwrap();
            let got: Vec<(String, String)> = form
                .iter()
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
                .collect();
            assert_eq!(got, want, "{input:?}");
            let cuts: Vec<usize> = if len > 1 {
                vec![1 + next() % (len - 1)]
            } else {
                vec![]
            };
            assert_eq!(
                stream(&input, &cuts, &o).unwrap(),
                want,
                "{input:?} {cuts:?}"
            );
        }
    }

    #[test]
    fn serializer() {
        assert_eq!(serialize::<[(&str, &str); 0], _, _>([]), "");
        assert_eq!(serialize([("a", "b"), ("c", "")]), "a=b&c=");
        assert_eq!(serialize([(" ", "+")]), "+=%2B");
        assert_eq!(
            serialize([("*-._~!'()", "\u{1f600}")]),
            "*-._%7E%21%27%28%29=%F0%9F%98%80"
        );
        assert_eq!(serialize([("\r\n", "\0")]), "%0D%0A=%00");
        // Round trip.
        let pairs = [("k\u{e9}y &=", "v+%a\u{20ac}"), ("", "")];
        let text = serialize(pairs);
        assert_eq!(
            p(text.as_bytes()),
            [s("k\u{e9}y &=", "v+%a\u{20ac}"), s("", "")]
        );
    }
}
