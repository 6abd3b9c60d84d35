//! A blocking adapter: parts of a `multipart/form-data` body read from any
//! [`std::io::Read`], each part's body an [`io::Read`] (and
//! [`BufRead`]).
//!
//! A thin layer over the sans-IO [`Parser`]: one fixed 64 KiB buffer
//! ([`BUF_SIZE`]) is filled from the source and fed to the parser; body
//! bytes are copied once, from that buffer into the caller's. Nothing else
//! is buffered, so memory does not grow with the body, and the source is
//! only read when the caller asks for more.
//!
//! Errors are [`io::Error`]s. A malformed body or an exceeded limit is one of
//! kind [`InvalidData`](io::ErrorKind::InvalidData) carrying the coded
//! [`Error`] (code and byte offset), which
//! [`Error::from_io`](crate::Error::from_io) gets back; the parser is then
//! poisoned and every later call reports the same error. An error of the
//! source is passed on as it is (a later call retries the read).
//! [`Interrupted`](io::ErrorKind::Interrupted) reads are retried.
//!
//! # Example
//!
//! ```
//! use std::io::Read;
//! use formwire::multipart::{read::Reader, Options};
//!
//! let body: &[u8] = b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n\
//!     --XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.txt\"\r\n\
//!     Content-Type: text/plain\r\n\r\nfile contents\r\n--XyZ--\r\n";
//! // Any `Read`: a file, a socket, `std::io::stdin().lock()`...
//! let mut form = Reader::from_content_type(body, "multipart/form-data; boundary=XyZ", Options::default())?;
//! let mut seen = Vec::new();
//! while let Some(mut part) = form.next_part()? {
//!     let name = part.name().into_owned();
//!     if part.is_file() {
//!         // Stream it (here into a sink); the body never sits in memory whole.
//!         let n = std::io::copy(&mut part, &mut std::io::sink())?;
//!         seen.push(format!("{name}: file {:?}, {n} bytes", part.filename().unwrap()));
//!     } else {
//!         let mut value = String::new();
//!         part.read_to_string(&mut value)?; // bounded by max_field_bytes
//!         seen.push(format!("{name} = {value}"));
//!     }
//! }
//! assert_eq!(seen, ["title = hello", "doc: file \"a.txt\", 13 bytes"]);
//!
//! // A malformed body: the io::Error carries the code and the offset.
//! let bad: &[u8] = b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ncut off";
//! let mut form = Reader::new(bad, b"XyZ", Options::default())?;
//! let mut part = form.next_part()?.expect("one part");
//! let err = std::io::copy(&mut part, &mut std::io::sink()).unwrap_err();
//! let coded = formwire::Error::from_io(&err).expect("a form error");
//! assert_eq!((coded.code.as_str(), coded.offset), ("MP_TRUNCATED", bad.len() as u64));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, BufRead, Read};
use std::ops::Range;

use super::pull::{Step, pull};
use super::{FormData, Options, Parser, Part};
use crate::error::Error;

/// The size of the [`Reader`]'s one buffer: 64 KiB.
pub const BUF_SIZE: usize = 64 * 1024;

/// Reads the parts of a `multipart/form-data` body from an [`io::Read`].
///
/// Call [`Reader::next_part`] until it returns `None` (the close delimiter
/// was read). A part not read to its end is skipped by the next call.
pub struct Reader<R> {
    inner: R,
    parser: Parser,
    buf: Box<[u8]>,
    /// `buf[start..end]` is read but not yet fed to the parser.
    start: usize,
    end: usize,
    /// The source is at its end: the next step is `finish`.
    eof: bool,
    /// Body bytes the parser produced, not yet handed out: `buf[data]`...
    data: Range<usize>,
    /// ...or `held[held_pos..]` (held-back bytes, at most the delimiter).
    held: Vec<u8>,
    held_pos: usize,
    in_part: bool,
    /// [`super::Event::End`] was seen, or the input ended without a part.
    done: bool,
}

impl<R> core::fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Reader")
            .field("parser", &self.parser)
            .field("in_part", &self.in_part)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// A step of the reader, body bytes already parked in `data` or `held`.
enum Got {
    PartStart,
    Data,
    PartEnd,
    End,
}

impl<R: Read> Reader<R> {
    /// A reader for the boundary `B` (the bytes after `--`); the errors of
    /// [`Parser::new`].
    pub fn new(inner: R, boundary: &[u8], options: Options) -> Result<Reader<R>, Error> {
        Ok(Reader::with_parser(inner, Parser::new(boundary, options)?))
    }

    /// A reader for a request `Content-Type`; the errors of
    /// [`Parser::from_content_type`].
    pub fn from_content_type(
        inner: R,
        content_type: &str,
        options: Options,
    ) -> Result<Reader<R>, Error> {
        Ok(Reader::with_parser(
            inner,
            Parser::from_content_type(content_type, options)?,
        ))
    }

    /// A reader around a parser made elsewhere (e.g. one [`Parser::reset`]
    /// for reuse). The parser should be at the start of a body.
    pub fn with_parser(inner: R, parser: Parser) -> Reader<R> {
        Reader {
            inner,
            parser,
            buf: vec![0; BUF_SIZE].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            data: 0..0,
            held: Vec::new(),
            held_pos: 0,
            in_part: false,
            done: false,
        }
    }

    /// The next part, after skipping what is left of the current one;
    /// `None` once the close delimiter was read.
    ///
    /// The epilogue after the close delimiter is not read: the source is
    /// left right after it ([`Reader::into_inner`]).
    pub fn next_part(&mut self) -> io::Result<Option<PartReader<'_, R>>> {
        self.data = 0..0;
        self.held_pos = self.held.len();
        while !self.done {
            match self.step()? {
                Got::PartStart => {
                    self.in_part = true;
                    return Ok(Some(PartReader { reader: self }));
                }
                Got::Data => {
                    // Skipping the rest of the current part.
                    self.data = 0..0;
                    self.held_pos = self.held.len();
                }
                Got::PartEnd => self.in_part = false,
                Got::End => self.done = true,
            }
        }
        Ok(None)
    }

    /// The rest of the form in memory (files included), as a [`FormData`]:
    /// one text arena and one byte arena, no allocation per entry. Bounded
    /// by the parser's limits; a part already begun is skipped.
    pub fn form_data(mut self) -> io::Result<FormData> {
        let mut form = FormData::new();
        self.data = 0..0;
        self.held_pos = self.held.len();
        while !self.done {
            match self.step()? {
                Got::PartStart => {
                    if let Some(part) = self.parser.last_part() {
                        form.start(&part);
                    }
                }
                Got::Data => {
                    if self.held_pos < self.held.len() {
                        form.data(&self.held[self.held_pos..]);
                        self.held_pos = self.held.len();
                    } else {
                        form.data(&self.buf[self.data.clone()]);
                        self.data = 0..0;
                    }
                }
                Got::PartEnd => form.end(),
                Got::End => {
                    form.complete();
                    self.done = true;
                }
            }
        }
        Ok(form)
    }

    /// The parser (its offset, options, the latest part).
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// The source back. Bytes read from it but not yet parsed are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Runs the parser to its next event, reading the source when the buffer
    /// is used up. Only called when no body bytes are pending.
    fn step(&mut self) -> io::Result<Got> {
        loop {
            if self.start < self.end || self.eof {
                let chunk = &self.buf[self.start..self.end];
                let (step, used) = pull(&mut self.parser, chunk, self.eof, &mut self.held)?;
                let base = self.start;
                self.start += used;
                match step {
                    Step::PartStart => return Ok(Got::PartStart),
                    Step::Data(r) => {
                        self.data = base + r.start..base + r.end;
                        return Ok(Got::Data);
                    }
                    Step::Held => {
                        self.held_pos = 0;
                        return Ok(Got::Data);
                    }
                    Step::PartEnd => return Ok(Got::PartEnd),
                    Step::End => return Ok(Got::End),
                    // At the end of input with nothing left: End was seen.
                    Step::Need if self.eof => return Ok(Got::End),
                    Step::Need => {}
                }
            }
            // Everything read was fed: refill from the start of the buffer.
            self.start = 0;
            self.end = 0;
            match self.inner.read(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end = n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// The body of one part, read with [`io::Read`] or [`BufRead`]; its headers
/// through [`PartReader::part`].
///
/// Reading returns `Ok(0)` at the end of the part's body. Body limits
/// (`max_field_bytes`, `max_file_bytes`) are errors while reading.
pub struct PartReader<'r, R> {
    reader: &'r mut Reader<R>,
}

impl<R> core::fmt::Debug for PartReader<'_, R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("PartReader").field(&self.part()).finish()
    }
}

impl<'r, R> PartReader<'r, R> {
    /// The byte offset where this part's body begins (before any of it is read).
    #[cfg(feature = "spool")]
    pub(super) fn body_offset(&self) -> u64 {
        self.reader.parser.offset()
    }

    /// The part's headers (name, filename, content type, every header).
    pub fn part(&self) -> Part<'_> {
        self.reader
            .parser
            .last_part()
            .expect("a part reader exists only after PartStart")
    }

    /// The `name` parameter (MP-H-10); empty for a part without a name.
    pub fn name(&self) -> std::borrow::Cow<'_, str> {
        self.part().name()
    }

    /// `false` for a part without a name (`allow_missing_disposition`,
    /// MP-H-06): see [`Part::has_name`].
    pub fn has_name(&self) -> bool {
        self.part().has_name()
    }

    /// The `filename` parameter; `None` for a field (MP-H-10).
    pub fn filename(&self) -> Option<std::borrow::Cow<'_, str>> {
        self.part().filename()
    }

    /// The last `Content-Type` header's value, as is (MP-H-11).
    pub fn content_type(&self) -> Option<&[u8]> {
        self.part().content_type()
    }

    /// `true` when the part has a `filename` (a File entry).
    pub fn is_file(&self) -> bool {
        self.part().is_file()
    }
}

impl<R: Read> Read for PartReader<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for PartReader<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let r = &mut *self.reader;
        while r.held_pos == r.held.len() && r.data.is_empty() && r.in_part {
            match r.step()? {
                Got::Data => {}
                Got::PartEnd => r.in_part = false,
                // The parser always ends a part before another or the end.
                Got::PartStart | Got::End => unreachable!("part ended without PartEnd"),
            }
        }
        if r.held_pos < r.held.len() {
            return Ok(&r.held[r.held_pos..]);
        }
        Ok(&r.buf[r.data.clone()])
    }

    fn consume(&mut self, n: usize) {
        let r = &mut *self.reader;
        if r.held_pos < r.held.len() {
            r.held_pos = (r.held_pos + n).min(r.held.len());
        } else {
            r.data.start = (r.data.start + n).min(r.data.end);
        }
    }
}
