//! The push parser: framing (MP-P), header lines (MP-H), limits (MP-L).

use memchr::memmem::Finder;

use super::part::{Disposition, HeaderSpan, Part, RawName};
use super::{Options, check_boundary};
use crate::error::{Error, ErrorCode};

const CR: u8 = b'\r';
const LF: u8 = b'\n';
const SP: u8 = b' ';
const HT: u8 = b'\t';

mod body;
mod headers;

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
