//! One-pass parsing into owned strings: [`parse_owned`](super::parse_owned)
//! and [`parse_owned_with`](super::parse_owned_with).
//!
//! Same pairs and same errors as [`parse_with`](super::parse_with) followed
//! by `into_owned`, without building `Cow`s first. The input is taken in
//! chunks of whole pairs (each chunk ends right after an `&`, so on a
//! character boundary):
//!
//! 1. One pass over the chunk's 64-byte blocks copies it with `+` turned
//!    into a space (UE-P-06) and gathers the positions of its `&`, `=` and
//!    `%` bytes: byte compares the compiler vectorizes, a multiply per eight
//!    bytes gathers one bit per byte (SWAR), and the positions are written
//!    out without a branch per bit. The copy is then checked as UTF-8 in
//!    one call.
//! 2. A short loop walks the positions: `&` ends a pair (UE-P-02, UE-P-03),
//!    the first `=` splits it (UE-P-04), a `%` marks the half it is in. The
//!    chunk's pairs are then built, names by one `extend` and values by a
//!    second pass: a name or value without `%` is a slice of the checked
//!    copy and becomes its `String` with one allocation of its length and
//!    one copy.
//! 3. A name or value with `%` is percent-decoded (UE-P-07) from those same
//!    positions (runs between escapes copied eight bytes at a time) into a
//!    buffer shared by the chunk, which is checked as UTF-8 once; each such
//!    half is cut from it, or decoded with U+FFFD on its own when its bytes
//!    are not valid UTF-8 by themselves (UE-P-08).
//!
//! A chunk that is not valid UTF-8 as a whole (raw invalid bytes) takes the
//! general path of [`parse_with`](super::parse_with) for its pairs.

use super::{HEX_VALUE, Options, scan_pair};
use crate::error::{Error, ErrorCode};

/// About how many input bytes one chunk holds (more when one pair is longer).
const CHUNK: usize = 16 * 1024;
/// A chunk longer than this (and than four chunks) is one long pair, read by
/// the general path.
const BIG: usize = 64 * 1024;
/// Zero bytes after a chunk's copy: whole 64-byte blocks, 8-byte copies and
/// the two hex digits after a `%` may read past the chunk's end.
const PAD: usize = 64 + 16;

/// Multiplying bytes that are 0 or 1 by this gathers them, byte `k` to bit
/// `56 + k` (no carries: every partial product lands on its own bit).
const GATHER: u64 = 0x0102_0408_1020_4080;

/// Parses a whole input into owned pairs; see the module documentation.
pub(super) fn parse_owned_with(
    input: &[u8],
    options: &Options,
) -> Result<Vec<(String, String)>, Error> {
    parse_chunked(input, options, CHUNK)
}

/// [`parse_owned_with`] with chunks of about `chunk` bytes (tests use small
/// ones).
fn parse_chunked(
    input: &[u8],
    options: &Options,
    chunk: usize,
) -> Result<Vec<(String, String)>, Error> {
    let cut = usize::try_from(options.max_bytes)
        .unwrap_or(usize::MAX)
        .min(input.len());
    let head = &input[..cut];
    // At most one pair per `&` plus one: no reallocation.
    let most = memchr::memchr_iter(b'&', head).count() as u64 + 1;
    let mut out = Vec::with_capacity(most.min(options.max_pairs.saturating_add(1)) as usize);
    let mut s = Scratch {
        chunk,
        blocks: chunk.min(head.len()).div_ceil(64),
        ..Scratch::default()
    };
    let mut c0 = 0;
    while c0 < head.len() {
        let c1 = chunk_end(head, c0, chunk);
        s.chunk(&head[c0..c1], c0, options.max_pairs, &mut out)?;
        c0 = c1;
    }
    // UE-L-01: the bytes before the limit were processed first (UE-L-03).
    if cut < input.len() {
        return Err(Error::new(ErrorCode::UeLimitBytes, options.max_bytes));
    }
    Ok(out)
}

/// The end of the chunk that starts at `c0`: just after the last `&` of the
/// next `chunk` bytes, or of the pair that is longer than that, or the end.
fn chunk_end(head: &[u8], c0: usize, chunk: usize) -> usize {
    let w = c0.saturating_add(chunk);
    if w >= head.len() {
        return head.len();
    }
    match memchr::memrchr(b'&', &head[c0..w]) {
        Some(k) => c0 + k + 1,
        None => memchr::memchr(b'&', &head[w..]).map_or(head.len(), |k| w + k + 1),
    }
}

/// A half whose `%`-decoded bytes are `dec[a..b]`, to be filled in once the
/// chunk's decoded bytes are checked.
struct Deferred {
    pair: usize,
    value: bool,
    a: usize,
    b: usize,
}

/// One pair of the chunk: `raw[start..end]`, its first `=` at `eq`
/// (`end` when it has none), and which halves hold a `%`.
#[derive(Clone, Copy)]
struct Bounds {
    start: u32,
    eq: u32,
    end: u32,
    /// `NAME_PCT`, `VALUE_PCT`.
    pct: u32,
    /// Index in the chunk's positions of the pair's first `&`/`=`/`%`.
    i0: u32,
}

const NAME_PCT: u32 = 1;
const VALUE_PCT: u32 = 2;

/// Buffers reused from chunk to chunk.
#[derive(Default)]
struct Scratch {
    /// The chunk size aimed at.
    chunk: usize,
    /// Blocks of the largest usual chunk: the chunk size, or the input's
    /// length when that is shorter.
    blocks: usize,
    /// The chunk with `+` as spaces, then `PAD` zero bytes.
    raw: Vec<u8>,
    /// `&`/`=`/`%` positions of the chunk (room for one per byte).
    idx: Vec<u32>,
    /// The pairs of the chunk.
    bounds: Vec<Bounds>,
    /// Percent-decoded halves of the chunk, then `PAD` bytes of room.
    dec: Vec<u8>,
    deferred: Vec<Deferred>,
}

/// Copies the 64-byte block number `bi` to `dst` with `+` as a space
/// (UE-P-06) and writes the positions of its `&`, `=` and `%` bytes to
/// `idx[k..]`; returns how many.
#[inline(always)]
fn classify(block: &[u8; 64], dst: &mut [u8; 64], bi: usize, idx: &mut [u32], k: usize) -> usize {
    // 1 for `&`, `=`, `%` (a loop the compiler vectorizes).
    let mut class = [0u8; 64];
    for ((c, d), &b) in class.iter_mut().zip(dst.iter_mut()).zip(block) {
        *c = ((b == b'&') | (b == b'=') | (b == b'%')) as u8;
        *d = if b == b'+' { b' ' } else { b };
    }
    let mut bits = 0u64;
    for (j, w) in class.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
        bits |= (w.wrapping_mul(GATHER) >> 56) << (8 * j);
    }
    // Positions out without a branch per bit: four writes always (unused
    // ones are overwritten next; a block holds three or four positions on
    // average), a loop only for more.
    let at = (bi * 64) as u32;
    let slots = &mut idx[k..k + 64];
    let mut m = bits;
    let mut n = 0;
    for slot in &mut slots[..4] {
        *slot = at + m.trailing_zeros();
        n += (m != 0) as usize;
        m &= m.wrapping_sub(1);
    }
    while m != 0 {
        slots[n] = at + m.trailing_zeros();
        n += 1;
        m &= m - 1;
    }
    n
}

/// The chunk's decoded text and where its halves with `%` go.
struct Decoded<'s> {
    text: &'s str,
    raw: &'s [u8],
    dec: &'s mut [u8],
    /// The end of the decoded bytes in `dec`.
    dw: usize,
    deferred: &'s mut Vec<Deferred>,
}

impl Decoded<'_> {
    /// One name or value, `raw[a..b]`: a copy of the text when it has no
    /// `%`, else decoded into `dec` and filled in later (empty for now).
    /// `pos` are the chunk's `&`/`=`/`%` positions from the pair's first.
    #[inline(always)]
    fn half(
        &mut self,
        a: usize,
        b: usize,
        pct: bool,
        pos: &[u32],
        pair: usize,
        value: bool,
    ) -> String {
        if !pct {
            return String::from(&self.text[a..b]);
        }
        let d0 = self.dw;
        self.dw = percent_decode(self.raw, a, b, pos, self.dec, d0);
        self.deferred.push(Deferred {
            pair,
            value,
            a: d0,
            b: self.dw,
        });
        String::new()
    }

    /// Appends the pairs of `bounds` to `out` (room is reserved), each name
    /// and value a `String` of its own: the names in one pass, then the
    /// values (faster than pair by pair on W4, see CHANGELOG.md: the
    /// allocations of one kind follow each other).
    #[inline(always)]
    fn pairs(&mut self, bounds: &[Bounds], idx: &[u32], out: &mut Vec<(String, String)>) {
        let first = out.len();
        out.extend(bounds.iter().enumerate().map(|(i, f)| {
            let (start, eq) = (f.start as usize, f.eq as usize);
            let pos = idx.get(f.i0 as usize..).unwrap_or_default();
            (
                self.half(start, eq, f.pct & NAME_PCT != 0, pos, first + i, false),
                String::new(),
            )
        }));
        for ((i, f), slot) in bounds.iter().enumerate().zip(&mut out[first..]) {
            let (eq, end) = (f.eq as usize, f.end as usize);
            let pos = idx.get(f.i0 as usize..).unwrap_or_default();
            // UE-P-04: no `=` is an empty value.
            slot.1 = self.half(
                (eq + 1).min(end),
                end,
                f.pct & VALUE_PCT != 0,
                pos,
                first + i,
                true,
            );
        }
    }
}

impl Scratch {
    /// Appends the pairs of `chunk` (whole pairs; `base` is its offset in the
    /// input) to `out`.
    fn chunk(
        &mut self,
        chunk: &[u8],
        base: usize,
        max_pairs: u64,
        out: &mut Vec<(String, String)>,
    ) -> Result<(), Error> {
        let len = chunk.len();
        // One pair much longer than a chunk: its copy costs more than the
        // scan, and the buffers here stay small (positions fit in u32).
        if len > (4 * self.chunk).max(BIG) {
            return general(chunk, base, max_pairs, out);
        }
        let blocks = len.div_ceil(64);
        // Room for every block, the padding, and one position per byte; at
        // once for the usual chunk, so that later chunks find it.
        let room = blocks.max(self.blocks) * 64;
        if self.raw.len() < room + PAD {
            self.raw.resize(room + PAD, 0);
            self.dec.resize(room + PAD, 0);
            self.idx.resize(room + 64, 0);
        }
        // One pass: `+` becomes a space (UE-P-06) in the copy, and the
        // positions of `&`, `=` and `%` are gathered.
        let mut k = 0;
        let whole = chunk.chunks_exact(64);
        let mut last = [0u8; 64];
        last[..whole.remainder().len()].copy_from_slice(whole.remainder());
        let blocks_in = whole.chain((len % 64 != 0).then_some(&last[..]));
        for (bi, (block, dst)) in blocks_in.zip(self.raw.chunks_exact_mut(64)).enumerate() {
            if let (Ok(block), Ok(dst)) =
                (<&[u8; 64]>::try_from(block), <&mut [u8; 64]>::try_from(dst))
            {
                k += classify(block, dst, bi, &mut self.idx, k);
            }
        }
        let Ok(text) = core::str::from_utf8(&self.raw[..len]) else {
            return general(chunk, base, max_pairs, out);
        };
        let raw = &self.raw[..];
        let idx = &self.idx[..k];
        // The pairs: UE-P-02 (`&` ends a pair), UE-P-03 (an empty sequence is
        // no pair), UE-P-04 (the first `=` splits it), and which halves hold
        // a `%`. The pair being read: its first byte, its first position in
        // `idx`, its first `=`, whether its name had a `%` and whether the
        // half being read has one.
        let bounds = &mut self.bounds;
        bounds.clear();
        let mut start = 0;
        let mut i0 = 0;
        let mut eq = usize::MAX;
        let mut name_pct = false;
        let mut pct = false;
        for (j, &p) in idx.iter().enumerate() {
            let p = p as usize;
            match raw[p] {
                b'&' => {
                    if p > start {
                        // UE-L-02
                        if (out.len() + bounds.len()) as u64 >= max_pairs {
                            return Err(Error::new(ErrorCode::UeLimitPairs, (base + start) as u64));
                        }
                        bounds.push(bounds_of(start, eq, p, name_pct, pct, i0));
                    }
                    start = p + 1;
                    i0 = j as u32 + 1;
                    eq = usize::MAX;
                    pct = false;
                }
                b'=' if eq == usize::MAX => {
                    eq = p;
                    name_pct = pct;
                    pct = false;
                }
                b'=' => {}
                _ => pct = true,
            }
        }
        // The last pair, ended by the end of the input.
        if len > start {
            if (out.len() + bounds.len()) as u64 >= max_pairs {
                return Err(Error::new(ErrorCode::UeLimitPairs, (base + start) as u64));
            }
            bounds.push(bounds_of(start, eq, len, name_pct, pct, i0));
        }
        self.deferred.clear();
        let mut d = Decoded {
            text,
            raw,
            dec: &mut self.dec,
            dw: 0,
            deferred: &mut self.deferred,
        };
        d.pairs(bounds, idx, out);
        if d.deferred.is_empty() {
            return Ok(());
        }
        let dec = &d.dec[..d.dw];
        let checked = core::str::from_utf8(dec).ok();
        for f in d.deferred.iter() {
            // UE-P-08: each half on its own; cut from the checked text when
            // it is valid there and starts and ends on boundaries.
            let s = match checked.and_then(|t| t.get(f.a..f.b)) {
                Some(s) => String::from(s),
                None => String::from_utf8_lossy(&dec[f.a..f.b]).into_owned(),
            };
            if f.value {
                out[f.pair].1 = s;
            } else {
                out[f.pair].0 = s;
            }
        }
        Ok(())
    }
}

/// The [`Bounds`] of the pair `start..end` whose first `=` is at `eq`
/// (`usize::MAX` for none); `pct` is whether the half being read (the
/// value, or the name when there is no `=`) holds a `%`.
#[inline(always)]
fn bounds_of(start: usize, eq: usize, end: usize, name_pct: bool, pct: bool, i0: u32) -> Bounds {
    let (eq, flags) = if eq == usize::MAX {
        (end, pct as u32 * NAME_PCT)
    } else {
        (eq, (name_pct as u32 * NAME_PCT) | (pct as u32 * VALUE_PCT))
    };
    Bounds {
        start: start as u32,
        eq: eq as u32,
        end: end as u32,
        pct: flags,
        i0,
    }
}

/// UE-P-07: writes `raw[a..b]` (where `+` is already a space) to `dec[w..]`
/// with every `%` and two hex digits as the byte they denote, any other `%`
/// kept. Returns the new end. `pos` holds the `%` positions of the half in
/// order (among `&` and `=` ones, earlier ones of the pair and later ones).
/// Runs between escapes are copied eight bytes at a time: `raw` and `dec`
/// have room past their ends.
#[inline(never)]
fn percent_decode(
    raw: &[u8],
    a: usize,
    b: usize,
    pos: &[u32],
    dec: &mut [u8],
    mut w: usize,
) -> usize {
    // Eight bytes always (most runs are shorter), more in a loop.
    let copy = |dec: &mut [u8], w: usize, r: usize, n: usize| {
        let mut t = 0;
        loop {
            dec[w + t..w + t + 8].copy_from_slice(&raw[r + t..r + t + 8]);
            t += 8;
            if t >= n {
                break;
            }
        }
    };
    let mut r = a;
    for &p in pos {
        let p = p as usize;
        if p >= b {
            break;
        }
        // `=` in a value is data; positions before the half are the name's.
        if p < r || raw[p] != b'%' {
            continue;
        }
        copy(dec, w, r, p - r);
        w += p - r;
        let (h, l) = (
            HEX_VALUE[raw[p + 1] as usize],
            HEX_VALUE[raw[p + 2] as usize],
        );
        let ok = p + 2 < b && (h | l) < 16;
        dec[w] = if ok { h << 4 | l } else { b'%' };
        w += 1;
        r = p + 1 + 2 * ok as usize;
    }
    copy(dec, w, r, b - r);
    w + (b - r)
}

/// The pairs of a chunk that is not valid UTF-8 as a whole, one by one as
/// [`parse_with`](super::parse_with) reads them.
fn general(
    chunk: &[u8],
    base: usize,
    max_pairs: u64,
    out: &mut Vec<(String, String)>,
) -> Result<(), Error> {
    let mut at = 0;
    while at < chunk.len() {
        let (end, pair) = scan_pair(chunk, None, at);
        if let Some((n, v)) = pair {
            // UE-L-02
            if out.len() as u64 >= max_pairs {
                return Err(Error::new(ErrorCode::UeLimitPairs, (base + at) as u64));
            }
            out.push((n.into_owned(), v.into_owned()));
        }
        at = end + 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{UNLIMITED, parse_with};
    use super::*;

    fn owned(v: Vec<super::super::Pair<'_>>) -> Vec<(String, String)> {
        v.into_iter()
            .map(|(a, b)| (a.into_owned(), b.into_owned()))
            .collect()
    }

    fn same(input: &[u8], o: &Options) {
        let want = parse_with(input, o).map(owned);
        for chunk in [1, 7, 64, 100, 333, 4096, CHUNK] {
            assert_eq!(
                parse_chunked(input, o, chunk),
                want,
                "chunk {chunk}: {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    fn s(a: &str, b: &str) -> (String, String) {
        (a.to_owned(), b.to_owned())
    }

    #[test]
    fn whatwg_edges() {
        let o = Options::default();
        let p = |x: &[u8]| super::super::parse_owned(x).unwrap();
        assert_eq!(p(b""), []);
        assert_eq!(p(b"&&&"), []);
        assert_eq!(p(b"a"), [s("a", "")]);
        assert_eq!(p(b"=a"), [s("", "a")]);
        assert_eq!(p(b"a=b=c&&d=%3D"), [s("a", "b=c"), s("d", "=")]);
        // `+` in names and values, before percent-decoding (UE-P-06).
        assert_eq!(p(b"a+b=c+d&%2B=%2b+"), [s("a b", "c d"), s("+", "+ ")]);
        // `%` at the end, `%X`, non-hex (UE-P-07).
        assert_eq!(
            p(b"a=%&b=%4&c=%zz&d%=%%41&e=%2%41"),
            [
                s("a", "%"),
                s("b", "%4"),
                s("c", "%zz"),
                s("d%", "%A"),
                s("e", "%2A")
            ]
        );
        assert_eq!(p(b"%"), [s("%", "")]);
        assert_eq!(p(b"%4"), [s("%4", "")]);
        assert_eq!(p(b"x=%41%"), [s("x", "A%")]);
        // Invalid UTF-8 after decoding, raw and decoded bytes mixed (UE-P-08).
        assert_eq!(
            p(b"a=%FF%fe&b=%E2%82&c=%C3%A9&d=%C0%AF"),
            [
                s("a", "\u{fffd}\u{fffd}"),
                s("b", "\u{fffd}"),
                s("c", "\u{e9}"),
                s("d", "\u{fffd}\u{fffd}")
            ]
        );
        assert_eq!(
            p(b"a=\xc3%A9&b=%C3\xa9&c=\xff"),
            [s("a", "\u{e9}"), s("b", "\u{e9}"), s("c", "\u{fffd}")]
        );
        assert_eq!(p(b"%EF%BB%BFa=\xef\xbb\xbf"), [s("\u{feff}a", "\u{feff}")]);
        for input in [
            &b"a=%e2%82%ac&%F0%9F%98%80=%ED%A0%80"[..],
            b"=&=&=",
            b"a=%00&b=\x80",
        ] {
            same(input, &o);
        }
    }

    #[test]
    fn limits_with_offsets() {
        let lim = |max_pairs, max_bytes| Options {
            max_pairs,
            max_bytes,
        };
        let e = |code, off| Err(Error::new(code, off));
        assert_eq!(
            parse_chunked(b"a&b&&c", &lim(2, 100), CHUNK),
            e(ErrorCode::UeLimitPairs, 5)
        );
        assert_eq!(
            parse_chunked(b"a&b&&c", &lim(2, 100), 2),
            e(ErrorCode::UeLimitPairs, 5)
        );
        assert_eq!(
            parse_chunked(b"a&bcd", &lim(2, 4), CHUNK),
            e(ErrorCode::UeLimitBytes, 4)
        );
        assert_eq!(
            parse_chunked(b"a&b&c", &lim(2, 4), CHUNK),
            e(ErrorCode::UeLimitBytes, 4)
        );
        assert_eq!(
            parse_chunked(b"a&b&c", &lim(2, 5), CHUNK),
            e(ErrorCode::UeLimitPairs, 4)
        );
        assert_eq!(
            parse_chunked(b"\xff&b&c", &lim(2, 5), 1),
            e(ErrorCode::UeLimitPairs, 4)
        );
        assert_eq!(
            parse_chunked(b"a&&&", &lim(1, 100), 1),
            Ok(vec![s("a", "")])
        );
        assert_eq!(
            parse_chunked(b"&", &lim(0, 0), CHUNK),
            e(ErrorCode::UeLimitBytes, 0)
        );
        assert_eq!(
            parse_chunked(b"=", &lim(0, 1), CHUNK),
            e(ErrorCode::UeLimitPairs, 0)
        );
        for (input, max_pairs, max_bytes) in [
            (&b"a=1&&b=2&c=3&dd=4&e"[..], 3, 100),
            (b"a&bcd", 2, 4),
            (b"x%41&y+&z", 1, 7),
        ] {
            same(input, &lim(max_pairs, max_bytes));
        }
        // The default byte limit applies: one byte over it fails at it.
        let big = vec![b'a'; (10 << 20) + 1];
        assert_eq!(
            super::super::parse_owned(&big),
            e(ErrorCode::UeLimitBytes, 10 << 20)
        );
    }

    /// Random inputs over an alphabet that hits every class, many chunk and
    /// sizes, long pairs and invalid UTF-8: the same as `parse_with`.
    #[test]
    fn same_as_parse_with() {
        let alphabet: &[u8] = b"aZ09&&==++%%%fFgG\xc3\xa9\xe2\x82\xac\xff\x80 ;";
        let mut rng = crate::test_rng::Rng(11);
        let mut next = move || rng.next() as usize;
        let unlimited = Options {
            max_pairs: UNLIMITED,
            max_bytes: UNLIMITED,
        };
        for round in 0..2000 {
            let len = next() % [40, 200, 1000, 9000][round % 4];
            // Some inputs in mostly-plain runs (long halves, few `&`), some valid UTF-8 only.
            let plain = round % 3 == 0;
            let valid = round % 5 == 0;
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    let c = alphabet[next() % alphabet.len()];
                    if (plain && next() % 8 != 0) || (valid && c >= 0x80) {
                        b'a' + (next() % 26) as u8
                    } else {
                        c
                    }
                })
                .collect();
            same(&input, &unlimited);
            let o = Options {
                max_pairs: (next() % 50) as u64,
                max_bytes: (next() % (len + 2)) as u64,
            };
            same(&input, &o);
        }
    }

    /// Pairs far longer than a chunk, `%` escapes and multibyte text
    /// crossing block and chunk edges.
    #[test]
    fn long_pairs() {
        let mut input = Vec::new();
        for i in 0..300 {
            input.extend_from_slice(format!("k{i}=").as_bytes());
            for j in 0..(i * 37 % 700) {
                input.extend_from_slice(match (i + j) % 7 {
                    0 => "%C3%A9".as_bytes(),
                    1 => "+".as_bytes(),
                    2 => "\u{20ac}".as_bytes(),
                    3 => "%".as_bytes(),
                    4 => "%4".as_bytes(),
                    _ => "xy".as_bytes(),
                });
            }
            input.push(b'&');
        }
        // Longer than `BIG`: the general path.
        input.extend_from_slice(b"big=");
        for _ in 0..10_000 {
            input.extend_from_slice(b"%C3%A9+x");
        }
        input.extend_from_slice(b"&last");
        same(
            &input,
            &Options {
                max_pairs: UNLIMITED,
                max_bytes: UNLIMITED,
            },
        );
        let got = super::super::parse_owned_with(
            &input,
            &Options {
                max_pairs: UNLIMITED,
                max_bytes: UNLIMITED,
            },
        )
        .unwrap();
        assert_eq!(got.len(), 302);
        assert_eq!(got[300], s("big", &"\u{e9} x".repeat(10_000)));
        assert_eq!(got[301], s("last", ""));
    }
}
