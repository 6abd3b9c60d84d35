//! Delimiter search (MP-P-01, MP-P-02, MP-P-04, MP-P-06, MP-P-08): the scan
//! of a body, or of the bytes before the first delimiter, and the tail held
//! back at a chunk edge. A second `impl Parser` block, kept apart from the
//! state machine in `parser.rs` so the hot loop can be read on its own.

use memchr::{memchr, memrchr, memrchr2};

use super::{CR, HT, LF, Parser, Raw, SP, State};
use crate::error::{Error, ErrorCode};

/// MP-P-04: the bytes that may follow `CRLF "--" B` in a delimiter.
#[inline]
fn is_delimiter_follower(b: u8) -> bool {
    matches!(b, b'-' | SP | HT | CR | LF)
}

/// MP-P-03: `f` after `"--" B` and the byte `g` after it are `--` (a close
/// delimiter) or CRLF (a line end), not an `allow_near_delimiters` lookalike.
#[inline]
fn closes_line(f: u8, g: u8) -> bool {
    (f == b'-' && g == b'-') || (f == CR && g == LF)
}

/// `a == b` for slices of equal length, eight bytes at a time: short
/// compares inline, without a `memcmp` call.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tails = a8.remainder() == b8.remainder();
    tails && a8.zip(b8).all(|(x, y)| x == y)
}

impl Parser {
    /// Scans a body (or, in state `Start`, the bytes before the first
    /// delimiter). Returns a data event, or `None` with the state changed
    /// (a delimiter was found) or the chunk consumed.
    pub(super) fn scan(&mut self, chunk: &[u8], pos: &mut usize) -> Result<Option<Raw>, Error> {
        let end = chunk.len();
        let in_body = self.state == State::Body;
        if self.held > 0 {
            return self.scan_held(chunk, pos, in_body);
        }
        if self.lenient_scan {
            return self.scan_lenient(chunk, pos, in_body);
        }

        let needle_len = self.finder.needle().len();
        let lf_mode = self.opts.allow_lf;
        let start = *pos;
        let mut from = start;
        while let Some(m) = self.find_delimiter(chunk, from, end) {
            // With allow_lf the needle is `LF "--" B`; a CR before it belongs
            // to the delimiter (MP-P-06).
            let d = if lf_mode && m > start && chunk[m - 1] == CR {
                m - 1
            } else {
                m
            };
            let after = m + needle_len;
            if after == end {
                // The byte that decides MP-P-04 is in the next chunk.
                self.hold(chunk, d, end);
                *pos = end;
                return self.body_data(in_body, start, d);
            }
            if is_delimiter_follower(chunk[after]) {
                *pos = after;
                self.delimiter_found();
                return self.body_data(in_body, start, d);
            }
            // MP-P-04: `CRLF--BX` is body data; search on.
            from = m + 1;
        }
        // No delimiter: hold back a tail that may begin one (MP-P-08).
        let h = self.tail_start(chunk, start, end);
        if h < end {
            self.hold(chunk, h, end);
        }
        *pos = end;
        self.body_data(in_body, start, h)
    }

    /// Continues a delimiter match begun in an earlier chunk (at most once
    /// per chunk, so kept out of the scan loop's way).
    #[inline(never)]
    fn scan_held(
        &mut self,
        chunk: &[u8],
        pos: &mut usize,
        in_body: bool,
    ) -> Result<Option<Raw>, Error> {
        let end = chunk.len();
        // Continue a delimiter match begun in an earlier chunk. The held
        // bytes start with the only CR/LF they contain, so a delimiter
        // can only begin at their first byte.
        let mut pat_len = self.pattern_len(self.held_base);
        while self.held < pat_len {
            if *pos == end {
                return Ok(None);
            }
            let b = chunk[*pos];
            if b != self.delim[self.held_base + self.held] {
                if !(self.opts.allow_cr && self.held_base == 0 && self.held == 1 && b == b'-') {
                    return self.held_mismatch(*pos);
                }
                // MP-P-06: with `allow_cr` a held CR then `-` goes on
                // as `CR "--" B`.
                self.held_base = self.dlen + 1;
                pat_len = self.pattern_len(self.held_base);
            }
            self.held += 1;
            *pos += 1;
        }
        if *pos == end {
            return Ok(None);
        }
        let b = chunk[*pos];
        if self.held > pat_len {
            // The `-` or CR of a possible lookalike is held too
            // (MP-P-03, `allow_near_delimiters`): this byte decides.
            let f = self.delim[self.held_base + pat_len];
            if !closes_line(f, b) {
                return self.held_mismatch(*pos);
            }
            self.held = 0;
            self.state = if f == b'-' {
                State::PartEndDash
            } else {
                State::PartEndCr
            };
            return Ok(None);
        }
        if !is_delimiter_follower(b) {
            return self.held_mismatch(*pos);
        }
        if in_body
            && self.near_candidate(b)
            && chunk.get(*pos + 1).is_none_or(|&g| !closes_line(b, g))
        {
            // Held with its `-` or CR until the next byte (MP-P-08), or
            // a lookalike: body data up to here, the search goes on.
            self.delim[self.held_base + pat_len] = b;
            self.held += 1;
            *pos += 1;
            if *pos == end {
                return Ok(None);
            }
            return self.held_mismatch(*pos);
        }
        self.held = 0;
        self.held_virtual = false;
        self.delimiter_found();
        Ok(None)
    }

    /// [`Parser::scan`] with `allow_cr` or `allow_near_delimiters`, held
    /// bytes done. A body also ends at `CR "--" B` with `allow_cr`
    /// (MP-P-06): two searches, each taken up again only once the scan has
    /// passed its match, so no byte is searched twice (MP-P-08); the first
    /// delimiter in the chunk wins. With `allow_near_delimiters` a `-` or
    /// CR after `"--" B` needs one more byte to tell a delimiter from a
    /// lookalike, which is body data (MP-P-03).
    #[inline(never)]
    fn scan_lenient(
        &mut self,
        chunk: &[u8],
        pos: &mut usize,
        in_body: bool,
    ) -> Result<Option<Raw>, Error> {
        let end = chunk.len();
        let needle_len = self.finder.needle().len();
        let cr_len = self.dlen - 1;
        let lf_mode = self.opts.allow_lf;
        let near = in_body && self.opts.allow_near_delimiters;
        let start = *pos;
        let find_cr = |from: usize| -> Option<usize> {
            let f = self.cr_finder.as_ref()?;
            f.find(&chunk[from..end]).map(|i| from + i)
        };
        let mut main = self.find_delimiter(chunk, start, end);
        let mut cr = find_cr(start);
        loop {
            // Where the main match's delimiter begins: with allow_lf a CR
            // before `LF "--" B` belongs to it (MP-P-06).
            let main_d = main.map(|m| {
                if lf_mode && m > start && chunk[m - 1] == CR {
                    m - 1
                } else {
                    m
                }
            });
            let (d, after, is_main) = match (main, main_d, cr) {
                (Some(m), Some(d), c) if c.is_none_or(|c| d < c) => (d, m + needle_len, true),
                (_, _, Some(c)) => (c, c + cr_len, false),
                _ => break,
            };
            if after == end {
                // The byte that decides MP-P-04 is in the next chunk.
                self.hold(chunk, d, end);
                *pos = end;
                return self.body_data(in_body, start, d);
            }
            let f = chunk[after];
            if is_delimiter_follower(f) {
                if !(near && self.near_candidate(f)) {
                    *pos = after;
                    self.delimiter_found();
                    return self.body_data(in_body, start, d);
                }
                if after + 1 == end {
                    // The byte after the `-` or CR decides (MP-P-08).
                    self.hold(chunk, d, end);
                    *pos = end;
                    return self.body_data(in_body, start, d);
                }
                if closes_line(f, chunk[after + 1]) {
                    *pos = after;
                    self.delimiter_found();
                    return self.body_data(in_body, start, d);
                }
                // MP-P-03: a lookalike is body data; search on after it.
                let from = after + 1;
                if main.is_some_and(|m| m < from) {
                    main = self.find_delimiter(chunk, from, end);
                }
                if cr.is_some_and(|c| c < from) {
                    cr = find_cr(from);
                }
                continue;
            }
            // MP-P-04: `CRLF--BX` is body data; search on.
            if is_main {
                main = main.and_then(|m| self.find_delimiter(chunk, m + 1, end));
            } else {
                cr = find_cr(d + 1);
            }
        }
        // No delimiter: hold back a tail that may begin one (MP-P-08).
        let h = self.tail_start_lenient(chunk, start, end);
        if h < end {
            self.hold(chunk, h, end);
        }
        *pos = end;
        self.body_data(in_body, start, h)
    }

    /// [`Parser::tail_start`] with `allow_cr` or `allow_near_delimiters`:
    /// a tail may also begin `CR "--" B` (`allow_cr`).
    fn tail_start_lenient(&self, chunk: &[u8], lo: usize, end: usize) -> usize {
        let n = self.dlen;
        let window = lo.max(end.saturating_sub(n - 1));
        let Some(i) = memrchr2(CR, LF, &chunk[window..end]) else {
            return end;
        };
        let q = window + i;
        let tail = &chunk[q..end];
        if chunk[q] == CR {
            let cr_pat = &self.delim[n + 1..2 * n];
            return if q + 1 == end || (self.opts.allow_cr && cr_pat.starts_with(tail)) {
                q
            } else {
                end
            };
        }
        if self.delim[1..n].starts_with(tail) {
            if q > lo && chunk[q - 1] == CR {
                return q - 1;
            }
            if self.opts.allow_lf {
                return q;
            }
        }
        end
    }

    /// How long the pattern held from `base` is (MP-P-06).
    #[inline]
    fn pattern_len(&self, base: usize) -> usize {
        if base <= 1 {
            self.dlen - base
        } else {
            self.dlen - 1
        }
    }

    /// MP-P-03 with `allow_near_delimiters`: after `"--" B` inside a body,
    /// a `-` or (without `allow_cr`) a CR may begin a lookalike.
    #[inline]
    fn near_candidate(&self, b: u8) -> bool {
        self.opts.allow_near_delimiters && (b == b'-' || (b == CR && !self.opts.allow_cr))
    }

    /// The first complete needle (`CRLF "--" B`, or `LF "--" B` with
    /// `allow_lf`) in `chunk[from..end]`, as an index into `chunk`.
    ///
    /// Form fields are short: the delimiter usually follows within a few
    /// dozen bytes, where one `memchr` and a compare beat setting up the
    /// `memmem` search. The window only moves where the search starts: the
    /// result is the first match either way. Inlined into each scan: the
    /// strict body scan's loop is built around it.
    #[inline(always)]
    fn find_delimiter(&self, chunk: &[u8], from: usize, end: usize) -> Option<usize> {
        const WINDOW: usize = 128;
        let needle = self.finder.needle();
        let w_end = end.min(from + WINDOW);
        let mut p = from;
        while let Some(i) = memchr(needle[0], &chunk[p..w_end]) {
            let m = p + i;
            if chunk
                .get(m..m + needle.len())
                .is_some_and(|h| same(h, needle))
            {
                return Some(m);
            }
            p = m + 1;
        }
        if w_end == end {
            return None;
        }
        self.finder.find(&chunk[w_end..end]).map(|i| w_end + i)
    }

    /// Where a delimiter prefix begins at the end of `chunk[lo..end]`
    /// (`end` when none). Only the last CR (or LF, with `allow_lf`) can begin
    /// one, since `B` holds neither.
    fn tail_start(&self, chunk: &[u8], lo: usize, end: usize) -> usize {
        let n = self.dlen;
        let window = lo.max(end.saturating_sub(n - 1));
        let tail = &chunk[window..end];
        if !self.opts.allow_lf {
            if let Some(i) = memrchr(CR, tail) {
                let q = window + i;
                if self.delim[..n].starts_with(&chunk[q..end]) {
                    return q;
                }
            }
            return end;
        }
        if let Some(i) = memrchr2(CR, LF, tail) {
            let q = window + i;
            if chunk[q] == CR {
                // A CR can only begin `CRLF--B` as the very last byte.
                return if q + 1 == end { q } else { end };
            }
            if self.delim[1..n].starts_with(&chunk[q..end]) {
                return if q > lo && chunk[q - 1] == CR {
                    q - 1
                } else {
                    q
                };
            }
        }
        end
    }

    /// Holds back `chunk[from..end]`, a prefix of a delimiter pattern, or
    /// (`allow_near_delimiters`) a whole one and the `-` or CR after it.
    fn hold(&mut self, chunk: &[u8], from: usize, end: usize) {
        let t = &chunk[from..end];
        self.held_base = match t {
            [LF, ..] => 1,
            [CR, b'-', ..] => self.dlen + 1,
            _ => 0,
        };
        let pat_len = self.pattern_len(self.held_base);
        if t.len() > pat_len {
            self.delim[self.held_base + pat_len] = t[pat_len];
        }
        self.held = t.len();
        debug_assert_eq!(
            &self.delim[self.held_base..self.held_base + self.held],
            &chunk[from..end]
        );
    }

    /// The held bytes did not continue into a delimiter.
    fn held_mismatch(&mut self, at: usize) -> Result<Option<Raw>, Error> {
        let (base, len) = (self.held_base, self.held);
        self.held = 0;
        if self.held_virtual {
            self.held_virtual = false;
            if !self.opts.allow_preamble {
                // MP-P-02 strict: the body must begin with `--B`, and the
                // line must go on as MP-P-03 says.
                let off = self.chunk_base + at as u64;
                let code = if len == self.dlen {
                    ErrorCode::MpDelimiter
                } else {
                    ErrorCode::MpPreamble
                };
                return Err(self.fail(code, off));
            }
            return Ok(None);
        }
        if self.state == State::Body {
            self.count_body(len)?;
            return Ok(Some(Raw::Held(base, len)));
        }
        Ok(None)
    }

    fn delimiter_found(&mut self) {
        self.state = if self.state == State::Body {
            State::PartEnd
        } else {
            State::AfterBoundary
        };
    }

    /// Emits `chunk[a..b]` as body data (nothing in the preamble).
    #[inline]
    fn body_data(&mut self, in_body: bool, a: usize, b: usize) -> Result<Option<Raw>, Error> {
        if !in_body || a == b {
            return Ok(None);
        }
        self.count_body(b - a)?;
        Ok(Some(Raw::Data(a, b)))
    }

    /// MP-L-02: body bytes count once they are known not to be a delimiter.
    #[inline]
    fn count_body(&mut self, n: usize) -> Result<(), Error> {
        let len = self.body_len + n as u64;
        if len > self.body_limit {
            let off = self.body_start.saturating_add(self.body_limit);
            return Err(self.fail(self.body_code, off));
        }
        self.body_len = len;
        Ok(())
    }
}
