//! The push parser: framing (MP-P), header lines (MP-H), limits (MP-L).

use memchr::memmem::Finder;
use memchr::{memchr, memchr3, memrchr, memrchr2};

use super::part::{self, Disposition, HeaderSpan, Part, RawName};
use super::{Options, check_boundary};
use crate::error::{Error, ErrorCode};
use crate::tables::{HEADER_PLAIN, NAME_UTF8, TOKEN};

const CR: u8 = b'\r';
const LF: u8 = b'\n';
const SP: u8 = b' ';
const HT: u8 = b'\t';

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

/// One parse event. `'a` borrows the parser, `'c` the chunk being fed.
#[derive(Debug)]
pub enum Event<'a, 'c> {
    /// A part begins: its header block was complete and valid (MP-H-06..11).
    PartStart(Part<'a>),
    /// Body bytes of the current part: a slice of the chunk being fed.
    Data(&'c [u8]),
    /// Body bytes that were held back at the end of an earlier chunk because
    /// they might have begun a delimiter, and turned out to be body
    /// (MP-P-08). Never longer than the delimiter `CRLF "--" B`.
    HeldData(&'a [u8]),
    /// The current part's body is complete (its delimiter was recognized).
    PartEnd,
    /// The close delimiter line is complete; what follows is the epilogue.
    /// With `allow_junk_after_close` it comes right after `"--" B "--"`,
    /// and every byte after that is epilogue (MP-P-05).
    End,
}

impl Event<'_, '_> {
    /// The body bytes of a [`Event::Data`] or [`Event::HeldData`].
    pub fn data(&self) -> Option<&[u8]> {
        match self {
            Event::Data(d) => Some(d),
            Event::HeldData(d) => Some(d),
            _ => None,
        }
    }
}

/// What a step produced, without borrows (turned into an [`Event`] after).
#[derive(Clone, Copy, Debug)]
enum Raw {
    PartStart,
    Data(usize, usize),
    Held(usize, usize),
    PartEnd,
    End,
}

/// Parser states, named as in spec/multipart.md § Parser states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the first delimiter (MP-P-02): a scan whose data is discarded.
    Start,
    /// At the byte after `"--" B` (MP-P-03).
    AfterBoundary,
    /// After `"--" B "-"`.
    Dash,
    /// In transport padding after `"--" B`.
    Padding,
    /// After the CR of a delimiter line.
    DelimiterCr,
    /// In a part's header block.
    Headers(Hs),
    /// The header block is complete: emit `PartStart`.
    PartStart,
    /// In a part's body (MP-P-06).
    Body,
    /// A delimiter was recognized after a body: emit `PartEnd`.
    PartEnd,
    /// As `PartEnd`, the delimiter's `-` already read (held back to tell
    /// it from an `allow_near_delimiters` lookalike): then `Dash`.
    PartEndDash,
    /// As `PartEndDash` for a CR after `"--" B`: then `DelimiterCr`.
    PartEndCr,
    /// After `"--" B "--"`: padding, then CRLF or the end of input (MP-P-05).
    ClosePadding,
    /// After the CR of the close delimiter line.
    CloseCr,
    /// The close delimiter line is complete: emit `End`.
    End,
    /// Everything after the close delimiter line (ignored, MP-P-05).
    Epilogue,
}

/// Header-line states (MP-H-01..05), named as in spec/multipart.md § Parser states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hs {
    /// At the first byte of a line.
    LineStart,
    /// After a CR at the start of a line: the empty line, or a bare CR.
    LineStartCr,
    /// Leading OWS of the first header line (MP-H-01).
    LeadOws,
    /// In a header name.
    Name,
    /// OWS between the name and the colon.
    NameOws,
    /// OWS after the colon.
    ValueOws,
    /// In a value.
    Value,
    /// After a CR in a value.
    ValueCr,
    /// Leading OWS of an obs-fold continuation line (MP-H-04).
    FoldOws,
}

/// A sans-IO `multipart/form-data` parser.
///
/// Feed chunks with [`Parser::feed`] and pull events from the returned
/// [`Feed`]; at the end of input call [`Parser::finish`] and drain it the
/// same way. The form is complete and valid exactly when every event was
/// `Ok` and the finish feed ended without an error.
///
/// After an error the parser is poisoned: every later feed reports the same
/// error.
///
/// Memory: the boundary, one header block (at most `max_header_bytes`), and
/// nothing per body byte. Time: linear in the input, whatever the chunking.
#[derive(Debug)]
pub struct Parser {
    opts: Options,
    /// `CRLF "--" B`, a spare byte, `CR "--" B`, a spare byte: every
    /// pattern a held-back tail can be a prefix of, so held bytes are
    /// always one slice of it (the spare byte holds the `-` or CR of an
    /// `allow_near_delimiters` lookalike, MP-P-03).
    delim: Box<[u8]>,
    /// `len(CRLF "--" B)`.
    dlen: usize,
    /// Searches `CRLF "--" B`, or `LF "--" B` with `allow_lf`.
    finder: Finder<'static>,
    /// Searches `CR "--" B` with `allow_cr` (MP-P-06).
    cr_finder: Option<Box<Finder<'static>>>,
    /// `allow_cr` or `allow_near_delimiters`: bodies take
    /// [`Parser::scan_lenient`].
    lenient_scan: bool,
    /// Bytes consumed so far (offset of the next byte, absolute).
    consumed: u64,
    /// Absolute offset of the current chunk's first byte.
    chunk_base: u64,
    state: State,
    error: Option<Error>,
    /// Length of the delimiter prefix held back at a chunk edge: it equals
    /// `delim[held_base..held_base + held]`.
    held: usize,
    /// 0 when the held prefix begins `CRLF "--" B`, 1 when `LF "--" B`
    /// (`allow_lf`), `dlen + 1` when `CR "--" B` (`allow_cr`).
    held_base: usize,
    /// The held bytes are the CRLF implied before the first delimiter.
    held_virtual: bool,
    parts: u64,
    /// Parts with a `filename` / without, so far (MP-L-05).
    files: u64,
    fields: u64,
    // Header block state.
    block_start: u64,
    header_limit_off: u64,
    line_start: u64,
    lines: u64,
    name_start: usize,
    name_end: usize,
    /// The current line's name as written.
    raw_name: RawName,
    value_start: usize,
    trim_floor: usize,
    folding: bool,
    pub(super) hbuf: Vec<u8>,
    pub(super) headers: Vec<HeaderSpan>,
    // Current part.
    pub(super) disp: Disposition,
    pub(super) content_type: Option<usize>,
    /// The current part has a Content-Disposition (`false`: a nameless part
    /// of `allow_missing_disposition`, MP-H-06).
    pub(super) named: bool,
    in_part: bool,
    /// The header block of the latest part is still in `hbuf` (until the
    /// next part's delimiter line ends).
    has_head: bool,
    pub(super) body_start: u64,
    body_len: u64,
    body_limit: u64,
    body_code: ErrorCode,
    /// The current part has no `filename` (its body counts for MP-L-04).
    is_field: bool,
    /// Body bytes of the fields before the current part (MP-L-04).
    field_total: u64,
}

impl Parser {
    /// Creates a parser for the boundary `B` (the bytes after `--`).
    ///
    /// Errors: `MP_BOUNDARY` for an empty boundary or one holding CR, LF or
    /// NUL (MP-B-03); `MP_LIMIT_BOUNDARY` when longer than
    /// `max_boundary_bytes` (MP-B-04).
    pub fn new(boundary: &[u8], options: Options) -> Result<Parser, Error> {
        check_boundary(boundary)?;
        if boundary.len() as u64 > options.max_boundary_bytes {
            return Err(Error::new(ErrorCode::MpLimitBoundary, 0));
        }
        let dlen = boundary.len() + 4;
        let mut delim = Vec::with_capacity(2 * dlen + 1);
        delim.extend_from_slice(b"\r\n--");
        delim.extend_from_slice(boundary);
        delim.push(0);
        delim.extend_from_slice(b"\r--");
        delim.extend_from_slice(boundary);
        delim.push(0);
        let delim = delim.into_boxed_slice();
        let needle = if options.allow_lf {
            &delim[1..dlen]
        } else {
            &delim[..dlen]
        };
        let finder = Finder::new(needle).into_owned();
        let cr_finder = options
            .allow_cr
            .then(|| Box::new(Finder::new(&delim[dlen + 1..2 * dlen]).into_owned()));
        Ok(Parser {
            lenient_scan: options.allow_cr || options.allow_near_delimiters,
            opts: options,
            delim,
            dlen,
            finder,
            cr_finder,
            consumed: 0,
            chunk_base: 0,
            state: State::Start,
            error: None,
            // MP-P-01: the first delimiter may omit its CRLF at offset 0.
            held: 2,
            held_base: 0,
            held_virtual: true,
            parts: 0,
            files: 0,
            fields: 0,
            block_start: 0,
            header_limit_off: 0,
            line_start: 0,
            lines: 0,
            name_start: 0,
            name_end: 0,
            raw_name: RawName::Known(b""),
            value_start: 0,
            trim_floor: 0,
            folding: false,
            hbuf: Vec::new(),
            headers: Vec::new(),
            disp: Disposition::default(),
            content_type: None,
            named: true,
            in_part: false,
            has_head: false,
            body_start: 0,
            body_len: 0,
            body_limit: 0,
            body_code: ErrorCode::MpLimitFieldBytes,
            is_field: false,
            field_total: 0,
        })
    }

    /// Creates a parser from a request `Content-Type` (MP-B-01..04).
    ///
    /// Errors: `MP_CONTENT_TYPE`, `MP_BOUNDARY`, `MP_LIMIT_BOUNDARY`, all at
    /// offset 0.
    pub fn from_content_type(content_type: &str, options: Options) -> Result<Parser, Error> {
        let boundary = super::boundary_from_content_type(content_type)?;
        Parser::new(&boundary, options)
    }

    /// Makes the parser ready for a new body with the same boundary and
    /// options, keeping its buffers (no allocation when parsing many bodies).
    pub fn reset(&mut self) {
        self.consumed = 0;
        self.chunk_base = 0;
        self.state = State::Start;
        self.error = None;
        self.held = 2;
        self.held_base = 0;
        self.held_virtual = true;
        self.parts = 0;
        self.files = 0;
        self.fields = 0;
        self.hbuf.clear();
        self.headers.clear();
        self.in_part = false;
        self.has_head = false;
        self.body_len = 0;
        self.is_field = false;
        self.field_total = 0;
    }

    /// The boundary `B`.
    pub fn boundary(&self) -> &[u8] {
        &self.delim[4..self.dlen]
    }

    /// The options this parser was made with.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Bytes consumed so far (held-back bytes count as consumed).
    pub fn offset(&self) -> u64 {
        self.consumed
    }

    /// `true` once the close delimiter line was complete ([`Event::End`];
    /// with `allow_junk_after_close`, once `"--" B "--"` was read).
    pub fn is_done(&self) -> bool {
        self.state == State::Epilogue
    }

    /// The error this parser stopped at, if any.
    pub fn error(&self) -> Option<Error> {
        self.error
    }

    /// The current part, from its [`Event::PartStart`] to its
    /// [`Event::PartEnd`].
    pub fn part(&self) -> Option<Part<'_>> {
        if self.in_part {
            Some(self.part_view())
        } else {
            None
        }
    }

    /// The latest part, from its [`Event::PartStart`] until the next part's
    /// delimiter line ends: unlike [`Parser::part`] it is still there after
    /// [`Event::PartEnd`] (and after [`Event::End`] for the last part), so a
    /// caller that sees `PartEnd` can still tell which part ended.
    pub fn last_part(&self) -> Option<Part<'_>> {
        if self.has_head {
            Some(self.part_view())
        } else {
            None
        }
    }

    /// Feeds one chunk. Drain the returned [`Feed`] with [`Feed::next`].
    ///
    /// Dropping a feed before it returns `None` leaves the rest of the chunk
    /// unconsumed ([`Feed::remaining`]); feed it again later to go on (this
    /// is how a caller applies backpressure).
    pub fn feed<'p, 'c>(&'p mut self, chunk: &'c [u8]) -> Feed<'p, 'c> {
        self.start_feed(chunk, false)
    }

    /// Ends the input. The returned [`Feed`] yields [`Event::End`] if the
    /// input ended right after the close delimiter (MP-P-05), nothing if
    /// `End` was already seen, or `MP_TRUNCATED` at the input length
    /// (MP-P-07).
    pub fn finish(&mut self) -> Feed<'_, 'static> {
        self.start_feed(&[], true)
    }

    fn start_feed<'p, 'c>(&'p mut self, chunk: &'c [u8], eof: bool) -> Feed<'p, 'c> {
        // MP-L-03: only bytes before `max_total_bytes` are processed; the
        // rest stays in `full`, so `remaining()` hands it back to a caller
        // that pauses and feeds it again (MP-P-08: chunking never matters).
        let full = chunk;
        let room = self.opts.max_total_bytes.saturating_sub(self.consumed);
        let (chunk, over) = if (chunk.len() as u64) > room {
            (&chunk[..room as usize], true)
        } else {
            (chunk, false)
        };
        self.chunk_base = self.consumed;
        Feed {
            parser: self,
            chunk,
            full,
            pos: 0,
            over,
            eof,
            done: false,
        }
    }

    #[cfg(test)]
    pub(crate) fn held_len(&self) -> usize {
        self.held
    }

    fn part_view(&self) -> Part<'_> {
        Part::new(self)
    }

    fn event<'a, 'c>(&'a self, raw: Raw, chunk: &'c [u8]) -> Event<'a, 'c> {
        match raw {
            Raw::PartStart => Event::PartStart(self.part_view()),
            Raw::Data(a, b) => Event::Data(&chunk[a..b]),
            Raw::Held(base, len) => Event::HeldData(&self.delim[base..base + len]),
            Raw::PartEnd => Event::PartEnd,
            Raw::End => Event::End,
        }
    }

    #[cold]
    fn fail(&mut self, code: ErrorCode, offset: u64) -> Error {
        let e = Error::new(code, offset);
        self.error = Some(e);
        e
    }

    /// Runs the machine over `chunk[*pos..]` until it produces an event
    /// (`Some`) or needs more input (`None`).
    fn step(&mut self, chunk: &[u8], pos: &mut usize, eof: bool) -> Result<Option<Raw>, Error> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let r = self.run(chunk, pos);
        self.consumed = self.chunk_base + *pos as u64;
        match r {
            Ok(None) if eof => self.at_eof(),
            r => r,
        }
    }

    /// MP-P-05, MP-P-07: the input ended.
    fn at_eof(&mut self) -> Result<Option<Raw>, Error> {
        match self.state {
            State::ClosePadding => {
                self.state = State::Epilogue;
                Ok(Some(Raw::End))
            }
            // MP-P-05: with `allow_cr` the close line may end at its CR.
            State::CloseCr if self.opts.allow_cr => {
                self.state = State::Epilogue;
                Ok(Some(Raw::End))
            }
            State::Epilogue => Ok(None),
            _ => Err(self.fail(ErrorCode::MpTruncated, self.consumed)),
        }
    }

    fn run(&mut self, chunk: &[u8], pos: &mut usize) -> Result<Option<Raw>, Error> {
        let end = chunk.len();
        loop {
            match self.state {
                State::Start | State::Body => {
                    if let Some(raw) = self.scan(chunk, pos)? {
                        return Ok(Some(raw));
                    }
                    if *pos == end && matches!(self.state, State::Start | State::Body) {
                        return Ok(None);
                    }
                }
                State::PartStart => {
                    self.state = State::Body;
                    return Ok(Some(Raw::PartStart));
                }
                State::PartEnd | State::PartEndDash | State::PartEndCr => {
                    self.in_part = false;
                    self.state = match self.state {
                        State::PartEndDash => State::Dash,
                        State::PartEndCr => State::DelimiterCr,
                        _ => State::AfterBoundary,
                    };
                    return Ok(Some(Raw::PartEnd));
                }
                State::End => {
                    self.state = State::Epilogue;
                    return Ok(Some(Raw::End));
                }
                State::Epilogue => {
                    // MP-P-05: ignored, but counted (MP-L-03).
                    *pos = end;
                    return Ok(None);
                }
                State::Headers(_) => {
                    if !self.headers_step(chunk, pos)? {
                        return Ok(None);
                    }
                }
                _ => {
                    if *pos == end {
                        return Ok(None);
                    }
                    // The usual delimiter line: CRLF right after `--B`.
                    if self.state == State::AfterBoundary
                        && chunk.get(*pos..*pos + 2) == Some(b"\r\n")
                    {
                        *pos += 1;
                        self.delimiter_line_end(pos)?;
                        continue;
                    }
                    self.delimiter_line(chunk, pos)?;
                }
            }
        }
    }

    /// The rest of a delimiter line, one byte (MP-P-03, MP-P-05).
    fn delimiter_line(&mut self, chunk: &[u8], pos: &mut usize) -> Result<(), Error> {
        let b = chunk[*pos];
        let off = self.chunk_base + *pos as u64;
        let lf_ok = self.opts.allow_lf;
        match self.state {
            State::AfterBoundary => match b {
                b'-' => self.state = State::Dash,
                SP | HT => self.state = State::Padding,
                CR => self.state = State::DelimiterCr,
                LF if lf_ok => return self.delimiter_line_end(pos),
                _ => return Err(self.fail(ErrorCode::MpDelimiter, off)),
            },
            State::Dash => match b {
                // MP-P-05: with `allow_junk_after_close` the epilogue starts
                // right after `"--" B "--"` (MP-P-07: the input may end there).
                b'-' if self.opts.allow_junk_after_close => self.state = State::End,
                b'-' => self.state = State::ClosePadding,
                _ => return Err(self.fail(ErrorCode::MpDelimiter, off)),
            },
            State::Padding => match b {
                SP | HT => {}
                CR => self.state = State::DelimiterCr,
                LF if lf_ok => return self.delimiter_line_end(pos),
                _ => return Err(self.fail(ErrorCode::MpDelimiter, off)),
            },
            State::DelimiterCr => match b {
                LF => return self.delimiter_line_end(pos),
                // MP-P-03: with `allow_cr` the line ended at the CR, and
                // this byte begins the header block.
                _ if self.opts.allow_cr => return self.begin_part(off),
                _ => return Err(self.fail(ErrorCode::MpDelimiter, off)),
            },
            State::ClosePadding => match b {
                SP | HT => {}
                CR => self.state = State::CloseCr,
                LF if lf_ok => self.state = State::End,
                _ => return Err(self.fail(ErrorCode::MpDelimiter, off)),
            },
            State::CloseCr => match b {
                LF => self.state = State::End,
                // MP-P-05: with `allow_cr` the line ended at the CR; this
                // byte is epilogue.
                _ if self.opts.allow_cr => {
                    self.state = State::End;
                    return Ok(());
                }
                _ => return Err(self.fail(ErrorCode::MpDelimiter, off)),
            },
            _ => unreachable!("not a delimiter-line state"),
        }
        *pos += 1;
        Ok(())
    }

    /// The LF of a (non-close) delimiter line: a part begins.
    fn delimiter_line_end(&mut self, pos: &mut usize) -> Result<(), Error> {
        *pos += 1;
        self.begin_part(self.chunk_base + *pos as u64)
    }

    /// A delimiter line ended; the part's header block begins at `off`.
    #[inline]
    fn begin_part(&mut self, off: u64) -> Result<(), Error> {
        // MP-L-01
        self.parts += 1;
        if self.parts > self.opts.max_parts {
            return Err(self.fail(ErrorCode::MpLimitParts, off));
        }
        self.block_start = off;
        self.header_limit_off = off.saturating_add(self.opts.max_header_bytes);
        self.lines = 0;
        self.folding = false;
        self.hbuf.clear();
        self.headers.clear();
        self.has_head = false;
        self.state = State::Headers(Hs::LineStart);
        Ok(())
    }

    // ---------------------------------------------------------------------
    // Delimiter search (MP-P-01, MP-P-02, MP-P-04, MP-P-06, MP-P-08)

    /// Scans a body (or, in state `Start`, the bytes before the first
    /// delimiter). Returns a data event, or `None` with the state changed
    /// (a delimiter was found) or the chunk consumed.
    fn scan(&mut self, chunk: &[u8], pos: &mut usize) -> Result<Option<Raw>, Error> {
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

    // ---------------------------------------------------------------------
    // Header lines (MP-H-01..05)

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
    fn headers_step(&mut self, chunk: &[u8], pos: &mut usize) -> Result<bool, Error> {
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
    /// [`Header::name`](super::Header::name) stays a `&str`). Never a
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

/// The events of one chunk (or of the end of input), pulled with
/// [`Feed::next`].
///
/// A lending iterator: each event borrows the feed, so handle (or copy) it
/// before pulling the next one.
#[derive(Debug)]
pub struct Feed<'p, 'c> {
    parser: &'p mut Parser,
    /// The bytes this feed may process (the chunk, cut at `max_total_bytes`).
    chunk: &'c [u8],
    /// The whole chunk as fed; `chunk` is a prefix of it.
    full: &'c [u8],
    pos: usize,
    over: bool,
    eof: bool,
    done: bool,
}

impl<'p, 'c> Feed<'p, 'c> {
    /// The next event; `None` when the chunk is used up (or after an error).
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn next(&mut self) -> Option<Result<Event<'_, 'c>, Error>> {
        if self.done {
            return None;
        }
        // The end of a part needs no input: answered here, without a trip
        // through the machine (a third of the events of a form of fields).
        if self.parser.state == State::PartEnd && self.parser.error.is_none() {
            self.parser.in_part = false;
            self.parser.state = State::AfterBoundary;
            return Some(Ok(Event::PartEnd));
        }
        self.next_step()
    }

    fn next_step(&mut self) -> Option<Result<Event<'_, 'c>, Error>> {
        match self.parser.step(self.chunk, &mut self.pos, self.eof) {
            Ok(Some(raw)) => Some(Ok(self.parser.event(raw, self.chunk))),
            Ok(None) => {
                self.done = true;
                if self.over {
                    // MP-L-03: everything before the limit was processed.
                    let limit = self.parser.opts.max_total_bytes;
                    return Some(Err(self.parser.fail(ErrorCode::MpLimitTotalBytes, limit)));
                }
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }

    /// The part of the chunk not consumed yet.
    pub fn remaining(&self) -> &'c [u8] {
        &self.full[self.pos..]
    }

    /// Where `data` (an [`Event::Data`] slice) sits in the chunk, as a
    /// range of indices: for bindings that hand out views of the caller's
    /// buffer instead of copies. `None` for a slice not inside the chunk.
    pub fn chunk_range(&self, data: &[u8]) -> Option<core::ops::Range<usize>> {
        let base = self.chunk.as_ptr() as usize;
        let start = (data.as_ptr() as usize).checked_sub(base)?;
        let end = start.checked_add(data.len())?;
        (end <= self.chunk.len()).then_some(start..end)
    }

    /// The parser being fed (e.g. for [`Parser::part`] during body data).
    pub fn parser(&self) -> &Parser {
        self.parser
    }
}
