//! Header lines (MP-H-01..05) and the end of a header block (MP-H-06): a
//! one-pass reader for the common shape and the byte-at-a-time path behind
//! it. A second `impl Parser` block, kept apart from the framing in
//! `parser.rs` because a header block is read on its own, between a
//! delimiter line and a body.

use memchr::memchr3;

use super::{CR, HT, Hs, LF, Parser, SP, State};
use crate::error::{Error, ErrorCode};
use crate::multipart::part::{self, Disposition, HeaderSpan, RawName};
use crate::tables::{HEADER_PLAIN, NAME_UTF8, TOKEN};

impl Parser {
    /// Checks MP-H-05 (1) for a header-line byte at `off`.
    #[inline]
    fn header_byte(&mut self, off: u64) -> Result<(), Error> {
        if off >= self.header_limit_off {
            return Err(self.fail(ErrorCode::MpLimitHeaderBytes, self.header_limit_off));
        }
        Ok(())
    }

    /// How many bytes from `off` still fit in the header block.
    #[inline]
    fn header_room(&self, off: u64) -> usize {
        usize::try_from(self.header_limit_off.saturating_sub(off)).unwrap_or(usize::MAX)
    }

    /// A whole header block in the common shape, in one pass: every line
    /// `token ":" OWS value CRLF` with no byte needing a second look (no OWS
    /// before the colon, no obs-fold, no bare CR or LF, within the limits),
    /// then the empty line, all inside `chunk`. Fills `hbuf` and `headers`
    /// exactly as the byte-at-a-time path does and returns where the body
    /// begins; `None` (nothing changed) sends the block to that path, which
    /// decides everything else, errors included.
    #[inline]
    fn headers_fast(&mut self, chunk: &[u8], from: usize) -> Option<usize> {
        let end = chunk.len();
        let room = self.header_room(self.chunk_base + from as u64);
        // Header line bytes must end before the limit (MP-H-05).
        let limit = end.min(from.saturating_add(room));
        let mut p = from;
        let mut lines = 0u64;
        loop {
            if p + 1 < end && chunk[p] == CR && chunk[p + 1] == LF {
                break;
            }
            lines += 1;
            if lines > self.opts.max_headers {
                return self.fast_bail();
            }
            let line_start = p;
            let name_start = self.hbuf.len();
            // The names browsers send, spelled as they send them.
            let rest = chunk.get(p..).unwrap_or_default();
            let (known, written): (&[u8], &'static [u8]) =
                if rest.first_chunk::<20>() == Some(b"Content-Disposition:") {
                    (b"content-disposition", b"Content-Disposition")
                } else if rest.first_chunk::<13>() == Some(b"Content-Type:") {
                    (b"content-type", b"Content-Type")
                } else {
                    (b"", b"")
                };
            let raw = if !known.is_empty() && p + known.len() < limit {
                p += known.len();
                self.hbuf.extend_from_slice(known);
                RawName::Known(written)
            } else {
                while p < limit && TOKEN[chunk[p] as usize] {
                    p += 1;
                }
                if p == line_start || p >= limit || chunk[p] != b':' {
                    return self.fast_bail();
                }
                // Lowercased on the way (MP-H-11): one pass over the bytes;
                // then the name as written.
                self.hbuf
                    .extend(chunk[line_start..p].iter().map(u8::to_ascii_lowercase));
                let r = self.hbuf.len();
                self.hbuf.extend_from_slice(&chunk[line_start..p]);
                RawName::Span(r, self.hbuf.len())
            };
            let name_end = name_start + (p - line_start);
            p += 1;
            while p < limit && matches!(chunk[p], SP | HT) {
                p += 1;
            }
            let v = p;
            p = memchr3(0, CR, LF, &chunk[v..limit]).map_or(limit, |i| v + i);
            // The CR and its LF are header-line bytes too.
            if p + 1 >= limit || chunk[p] != CR || chunk[p + 1] != LF {
                return self.fast_bail();
            }
            let mut ve = p;
            while ve > v && matches!(chunk[ve - 1], SP | HT) {
                ve -= 1;
            }
            let value_start = self.hbuf.len();
            self.hbuf.extend_from_slice(&chunk[v..ve]);
            self.headers.push(HeaderSpan {
                name_start,
                name_end,
                raw_name: raw,
                value_start,
                value_end: self.hbuf.len(),
                line_start: self.chunk_base + line_start as u64,
            });
            p += 2;
            // MP-H-04: a continuation line takes the slow path.
            if p < end && matches!(chunk[p], SP | HT) {
                return self.fast_bail();
            }
        }
        self.lines = lines;
        Some(p + 2)
    }

    #[cold]
    fn fast_bail(&mut self) -> Option<usize> {
        self.hbuf.clear();
        self.headers.clear();
        None
    }

    /// Runs header lines. Returns `true` when the block is complete.
    pub(super) fn headers_step(&mut self, chunk: &[u8], pos: &mut usize) -> Result<bool, Error> {
        let end = chunk.len();
        let lf_ok = self.opts.allow_lf;
        let State::Headers(mut hs) = self.state else {
            unreachable!()
        };
        if hs == Hs::LineStart && self.lines == 0 {
            if let Some(body) = self.headers_fast(chunk, *pos) {
                let cr = self.chunk_base + (body - 2) as u64;
                *pos = body;
                self.end_block(cr, cr + 2)?;
                self.state = State::PartStart;
                return Ok(true);
            }
        }
        let result = loop {
            if *pos == end {
                break Ok(false);
            }
            let b = chunk[*pos];
            let off = self.chunk_base + *pos as u64;
            match hs {
                Hs::LineStart => {
                    if b == CR {
                        // The empty line, or a bare CR: decided by the next byte.
                        hs = Hs::LineStartCr;
                        *pos += 1;
                        continue;
                    }
                    if b == LF && lf_ok {
                        *pos += 1;
                        break self.end_block(off, off + 1).map(|()| true);
                    }
                    self.header_byte(off)?;
                    if matches!(b, SP | HT) && self.lines > 0 {
                        // MP-H-04: obs-fold.
                        if !self.opts.allow_obs_fold {
                            break Err(self.fail(ErrorCode::MpObsFold, off));
                        }
                        // Its SP goes in with its first content byte: an
                        // empty continuation adds nothing.
                        self.trim_floor = self.hbuf.len();
                        self.folding = true;
                        hs = Hs::FoldOws;
                        *pos += 1;
                        continue;
                    }
                    self.new_line(off)?;
                    if matches!(b, SP | HT) {
                        // MP-H-01: the first line may start with OWS.
                        hs = Hs::LeadOws;
                        *pos += 1;
                    } else {
                        hs = Hs::Name;
                    }
                }
                Hs::LineStartCr => {
                    let cr = off - 1;
                    if b == LF {
                        *pos += 1;
                        break self.end_block(cr, off + 1).map(|()| true);
                    }
                    if self.opts.allow_cr {
                        // MP-H-03: a bare CR is the empty line; this byte
                        // is the body's first.
                        break self.end_block(cr, off).map(|()| true);
                    }
                    // A bare CR begins a header line: limits, then MP-H-02
                    // (a CR is not a token byte: the name check fails first).
                    self.header_byte(cr)?;
                    self.new_line(cr)?;
                    break Err(self.fail(ErrorCode::MpHeaderName, cr));
                }
                Hs::LeadOws => {
                    self.header_byte(off)?;
                    if matches!(b, SP | HT) {
                        *pos += 1;
                    } else {
                        hs = Hs::Name;
                    }
                }
                Hs::Name => {
                    // Fast run of name bytes (MP-H-01: token bytes, and with
                    // `allow_utf8_header_names` bytes 80-FF) into the buffer
                    // as written; `end_name` adds the lowercased copy.
                    let room = self.header_room(off);
                    let stop = end.min(pos.saturating_add(room));
                    let names = if self.opts.allow_utf8_header_names {
                        &NAME_UTF8
                    } else {
                        &TOKEN
                    };
                    let mut p = *pos;
                    while p < stop && names[chunk[p] as usize] {
                        p += 1;
                    }
                    self.hbuf.extend_from_slice(&chunk[*pos..p]);
                    *pos = p;
                    if p == end {
                        continue;
                    }
                    let off = self.chunk_base + p as u64;
                    self.header_byte(off)?;
                    let b = chunk[p];
                    match b {
                        b':' => {
                            if self.hbuf.len() == self.name_start {
                                break Err(self.fail(ErrorCode::MpHeaderName, off));
                            }
                            self.end_name();
                            hs = Hs::ValueOws;
                        }
                        SP | HT if self.hbuf.len() > self.name_start => hs = Hs::NameOws,
                        // MP-H-02: before the colon every other byte (CR, LF,
                        // NUL included) fails the name check first, so a line
                        // without a colon fails at its CR (or LF).
                        _ => break Err(self.fail(ErrorCode::MpHeaderName, off)),
                    }
                    *pos += 1;
                }
                Hs::NameOws => {
                    self.header_byte(off)?;
                    match b {
                        SP | HT => {}
                        b':' => {
                            self.end_name();
                            hs = Hs::ValueOws;
                        }
                        _ => break Err(self.fail(ErrorCode::MpHeaderName, off)),
                    }
                    *pos += 1;
                }
                Hs::ValueOws | Hs::FoldOws => {
                    if matches!(b, SP | HT) {
                        self.header_byte(off)?;
                        *pos += 1;
                    } else {
                        if hs == Hs::ValueOws {
                            self.value_start = self.hbuf.len();
                            self.trim_floor = self.value_start;
                        } else if b != CR && b != LF {
                            // MP-H-04: a continuation with content is
                            // joined after one SP.
                            self.hbuf.push(SP);
                            self.trim_floor = self.hbuf.len();
                        }
                        hs = Hs::Value;
                    }
                }
                Hs::Value => {
                    // Fast run up to the next NUL, CR or LF (MP-H-02).
                    let room = self.header_room(off);
                    let stop = end.min(pos.saturating_add(room));
                    let p = memchr3(0, CR, LF, &chunk[*pos..stop]).map_or(stop, |i| *pos + i);
                    debug_assert!(chunk[*pos..p].iter().all(|&b| HEADER_PLAIN[b as usize]));
                    self.hbuf.extend_from_slice(&chunk[*pos..p]);
                    *pos = p;
                    if p == end {
                        continue;
                    }
                    let off = self.chunk_base + p as u64;
                    self.header_byte(off)?;
                    match chunk[p] {
                        CR => hs = Hs::ValueCr,
                        LF if lf_ok => {
                            self.end_line();
                            hs = Hs::LineStart;
                        }
                        _ => break Err(self.fail(ErrorCode::MpHeaderValue, off)),
                    }
                    *pos += 1;
                }
                Hs::ValueCr => {
                    if b != LF && self.opts.allow_cr {
                        // MP-H-02: the line ended at the bare CR; this byte
                        // begins the next one.
                        self.end_line();
                        hs = Hs::LineStart;
                        continue;
                    }
                    if b != LF {
                        break Err(self.fail(ErrorCode::MpHeaderValue, off - 1));
                    }
                    self.header_byte(off)?;
                    self.end_line();
                    hs = Hs::LineStart;
                    *pos += 1;
                }
            }
        };
        if let State::Headers(_) = self.state {
            self.state = State::Headers(hs);
        }
        if matches!(result, Ok(true)) {
            self.state = State::PartStart;
        }
        result
    }

    /// MP-H-05 (2): a new header line begins at `off`.
    fn new_line(&mut self, off: u64) -> Result<(), Error> {
        self.lines += 1;
        if self.lines > self.opts.max_headers {
            return Err(self.fail(ErrorCode::MpLimitHeaders, off));
        }
        self.line_start = off;
        self.folding = false;
        self.name_start = self.hbuf.len();
        Ok(())
    }

    /// The name of the current header line, as written, ends at the end of
    /// `hbuf`: its shown form (ASCII-lowercased, MP-H-11) goes after it.
    #[inline]
    fn end_name(&mut self) {
        let (a, b) = (self.name_start, self.hbuf.len());
        self.raw_name = RawName::Span(a, b);
        self.hbuf.extend_from_within(a..b);
        self.hbuf[b..].make_ascii_lowercase();
        self.name_start = b;
        if self.opts.allow_utf8_header_names {
            self.utf8_name();
        }
        self.name_end = self.hbuf.len();
    }

    /// MP-H-11 with `allow_utf8_header_names`: a name holding bytes 80-FF
    /// is shown decoded as UTF-8 with U+FFFD for invalid sequences, so the
    /// buffer keeps that form (names are kept as shown: ASCII-lowercased;
    /// [`Header::name`](crate::multipart::Header::name) stays a `&str`). Never a
    /// `Content-Disposition` or `Content-Type` (MP-H-01): those are ASCII.
    fn utf8_name(&mut self) {
        let name = &self.hbuf[self.name_start..];
        if name.is_ascii() || core::str::from_utf8(name).is_ok() {
            return;
        }
        let shown = String::from_utf8_lossy(name).into_owned();
        self.hbuf.truncate(self.name_start);
        self.hbuf.extend_from_slice(shown.as_bytes());
    }

    /// A header line ended: trim trailing OWS (MP-H-01) and record it.
    fn end_line(&mut self) {
        while self.hbuf.len() > self.trim_floor && matches!(self.hbuf.last(), Some(&(SP | HT))) {
            self.hbuf.pop();
        }
        if self.folding {
            if let Some(last) = self.headers.last_mut() {
                last.value_end = self.hbuf.len();
            }
            self.folding = false;
        } else {
            self.headers.push(HeaderSpan {
                name_start: self.name_start,
                name_end: self.name_end,
                raw_name: self.raw_name,
                value_start: self.value_start,
                value_end: self.hbuf.len(),
                line_start: self.line_start,
            });
        }
    }

    /// MP-H-06: the empty line at `empty_line` ended the block; the body
    /// begins at `body_start`.
    fn end_block(&mut self, empty_line: u64, body_start: u64) -> Result<(), Error> {
        let mut cd: Option<usize> = None;
        let mut ct: Option<usize> = None;
        for (i, h) in self.headers.iter().enumerate() {
            let name = &self.hbuf[h.name_start..h.name_end];
            // Fixed-size compares: inline, no memcmp call.
            let is = |known: &[u8; 19]| name.len() == 19 && name.first_chunk::<19>() == Some(known);
            if is(b"content-disposition") {
                if cd.is_some() {
                    return Err(self.fail(ErrorCode::MpDisposition, h.line_start));
                }
                cd = Some(i);
            } else if name.len() == 12 && name.first_chunk::<12>() == Some(b"content-type") {
                ct = Some(i);
            }
        }
        let named = match cd {
            // MP-H-06: no Content-Disposition, or (below) only an empty one:
            // with `allow_missing_disposition`, a part without a name.
            None if self.opts.allow_missing_disposition => false,
            None => return Err(self.fail(ErrorCode::MpNoDisposition, empty_line)),
            Some(cd) => {
                let h = self.headers[cd];
                h.value_start != h.value_end || !self.opts.allow_missing_disposition
            }
        };
        self.named = named;
        if let (true, Some(cd)) = (named, cd) {
            let h = self.headers[cd];
            if !part::parse_disposition_into(
                &mut self.hbuf,
                h.value_start,
                h.value_end,
                &mut self.disp,
                part::CdRead::of(&self.opts),
            ) {
                return Err(self.fail(ErrorCode::MpDisposition, h.line_start));
            }
        } else {
            // A nameless part has no parameters: no name bytes, no
            // filename, so it is a field for every limit (MP-L-05).
            self.disp = Disposition::default();
        }
        // MP-L-05: a file part is one with a `filename` (MP-L-02's rule);
        // the offset is MP-L-01's, the start of this part's header block.
        if self.disp.filename.is_some() {
            self.files += 1;
            if self.files > self.opts.max_files {
                return Err(self.fail(ErrorCode::MpLimitFiles, self.block_start));
            }
        } else {
            self.fields += 1;
            if self.fields > self.opts.max_fields {
                return Err(self.fail(ErrorCode::MpLimitFields, self.block_start));
            }
        }
        self.content_type = ct;
        self.in_part = true;
        self.has_head = true;
        self.body_start = body_start;
        // MP-L-04: the previous part's body is complete; a field's counts.
        if self.is_field {
            self.field_total += self.body_len;
        }
        self.body_len = 0;
        self.is_field = self.disp.filename.is_none();
        (self.body_limit, self.body_code) = if !self.is_field {
            (self.opts.max_file_bytes, ErrorCode::MpLimitFileBytes)
        } else {
            // MP-L-02 and MP-L-04 as one per-part limit: whichever byte comes
            // first; MP_LIMIT_FIELD_BYTES when both fall on the same byte.
            let room = self
                .opts
                .max_total_field_bytes
                .saturating_sub(self.field_total);
            if self.opts.max_field_bytes <= room {
                (self.opts.max_field_bytes, ErrorCode::MpLimitFieldBytes)
            } else {
                (room, ErrorCode::MpLimitTotalFieldBytes)
            }
        };
        Ok(())
    }
}
