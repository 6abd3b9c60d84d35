//! An async adapter (feature `stream`): the parts of a body that arrives as
//! a [`Stream`] of [`Bytes`] (hyper's and axum's body data streams,
//! reqwest's `bytes_stream`), each part's body an async [`Stream`] of
//! [`Bytes`].
//!
//! A thin layer over the sans-IO [`Parser`], with no runtime of its own:
//!
//! - **Zero-copy**: body chunks are [`Bytes::slice`]s of the chunks the
//!   source gave. Only the few bytes held back at a chunk edge because they
//!   might have begun a delimiter (at most `CRLF "--" B`, 4 + boundary
//!   bytes) are copied.
//! - **Backpressure**: nothing is buffered beyond the current chunk. The
//!   source is polled only when the caller asks for more and the current
//!   chunk is used up; a slow consumer slows the source.
//! - **Skipping**: [`Multipart::next_part`] drains whatever is left of the
//!   current part first, so a part can be dropped unread.
//! - **Errors**: [`Error::Form`] carries the coded [`crate::Error`] (code
//!   and byte offset) for a malformed body or an exceeded limit; the parser
//!   is then poisoned and reports it again on every call.
//!   [`Error::Stream`] passes the source's own error through.
//!
//! # Example: an upload handler
//!
//! What an axum or hyper handler does with its request body. The source here
//! is a `futures::stream::iter` of chunks; with axum it is
//! `request.into_body().into_data_stream()`; with hyper 1.x (or any
//! `http_body::Body`), `Multipart::from_body` takes `req.into_body()` as it
//! is (feature `http-body`).
//!
//! ```
//! use bytes::Bytes;
//! use formwire::multipart::Options;
//! use formwire::multipart::stream::{Error, Multipart};
//! use futures_util::StreamExt;
//!
//! /// Fields as strings, files streamed and counted.
//! async fn upload<S, E>(content_type: &str, body: S) -> Result<Vec<String>, Error<E>>
//! where
//!     S: futures_util::Stream<Item = Result<Bytes, E>>,
//! {
//!     let mut form = Multipart::from_content_type(body, content_type, Options::default())?;
//!     let mut seen = Vec::new();
//!     while let Some(mut part) = form.next_part().await? {
//!         let name = part.name().into_owned();
//!         match part.filename() {
//!             Some(filename) => {
//!                 let filename = filename.into_owned();
//!                 let mut size = 0;
//!                 // Each chunk is a zero-copy slice of the request's chunk:
//!                 // write it to disk or object storage as it comes.
//!                 while let Some(chunk) = part.next().await {
//!                     size += chunk?.len();
//!                 }
//!                 seen.push(format!("{name}: {filename}, {size} bytes"));
//!             }
//!             // A text field, bounded by `max_field_bytes` (1 MiB by default).
//!             None => seen.push(format!("{name} = {}", part.text().await?)),
//!         }
//!     }
//!     Ok(seen)
//! }
//!
//! let body = "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n\
//!     --XyZ\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.bin\"\r\n\
//!     Content-Type: application/octet-stream\r\n\r\n0123456789abcdef\r\n--XyZ--\r\n";
//! // The body in 7-byte chunks, as a socket might deliver it.
//! let chunks: Vec<Result<Bytes, std::io::Error>> =
//!     body.as_bytes().chunks(7).map(|c| Ok(Bytes::copy_from_slice(c))).collect();
//! # let rt = tokio::runtime::Builder::new_current_thread().build()?;
//! # rt.block_on(async {
//! let seen = upload("multipart/form-data; boundary=XyZ", futures_util::stream::iter(chunks)).await?;
//! assert_eq!(seen, ["title = hello", "doc: a.bin, 16 bytes"]);
//!
//! // A body cut short: the error has the code and the byte offset.
//! let cut = vec![Ok::<_, std::io::Error>(Bytes::from_static(&body.as_bytes()[..90]))];
//! let err = upload("multipart/form-data; boundary=XyZ", futures_util::stream::iter(cut)).await.unwrap_err();
//! let coded = err.form().expect("a form error");
//! assert_eq!((coded.code.as_str(), coded.offset), ("MP_TRUNCATED", 90));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::pin::Pin;
use core::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use futures_core::Stream;

use super::pull::{Step, pull};
use super::{FormData, Options, Parser, Part};

/// An error of the async adapter: the body is bad, or the source failed.
#[derive(Debug)]
pub enum Error<E> {
    /// A malformed body or an exceeded limit: the coded error of
    /// `spec/errors.md`, with its byte offset.
    Form(crate::Error),
    /// The source stream's own error, as it gave it.
    Stream(E),
}

impl<E> Error<E> {
    /// The coded error, for [`Error::Form`].
    pub fn form(&self) -> Option<crate::Error> {
        match self {
            Error::Form(e) => Some(*e),
            Error::Stream(_) => None,
        }
    }

    /// The status a server answers with (`spec/registry.json` `http_status`): 413 for an
    /// exceeded limit, 400 for a malformed body; `None` for the source's own error (the client
    /// went away, or a layer below has its own answer).
    pub fn http_status(&self) -> Option<u16> {
        self.form().and_then(|e| e.code.http_status())
    }
}

impl<E> From<crate::Error> for Error<E> {
    fn from(e: crate::Error) -> Error<E> {
        Error::Form(e)
    }
}

impl<E: fmt::Display> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Form(e) => e.fmt(f),
            Error::Stream(e) => write!(f, "reading the body failed: {e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for Error<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Form(e) => Some(e),
            Error::Stream(e) => Some(e),
        }
    }
}

/// An [`http_body::Body`] as the [`Stream`] of [`Bytes`] that
/// [`Multipart`] reads (feature `http-body`), from [`Multipart::from_body`]:
/// data frames as `Bytes` (`Buf::copy_to_bytes`, no copy for hyper's
/// `Bytes`), trailers frames skipped (they carry no form bytes), the body's
/// error passed through as [`Error::Stream`].
#[cfg(feature = "http-body")]
pub struct BodyData<B> {
    body: Pin<Box<B>>,
}

#[cfg(feature = "http-body")]
impl<B> fmt::Debug for BodyData<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BodyData").finish_non_exhaustive()
    }
}

#[cfg(feature = "http-body")]
impl<B: http_body::Body> BodyData<B> {
    /// The data frames of `body`.
    pub fn new(body: B) -> BodyData<B> {
        BodyData {
            body: Box::pin(body),
        }
    }
}

#[cfg(feature = "http-body")]
impl<B: http_body::Body> Stream for BodyData<B> {
    type Item = Result<Bytes, B::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        use bytes::Buf;
        loop {
            match self.body.as_mut().poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(mut data) => {
                        let n = data.remaining();
                        return Poll::Ready(Some(Ok(data.copy_to_bytes(n))));
                    }
                    // A trailers frame (or a frame kind a later http-body adds): no body bytes.
                    Err(_) => continue,
                },
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, None)
    }
}

#[cfg(feature = "http-body")]
impl<B: http_body::Body> Multipart<BodyData<B>> {
    /// The parts of an [`http_body::Body`] (a hyper 1.x
    /// `Request<Incoming>`'s `req.into_body()`, or any body whose data is a
    /// [`bytes::Buf`]) for the boundary `B` (the bytes after `--`); the
    /// errors of [`Parser::new`]. Trailers are skipped; the body's own error
    /// is [`Error::Stream`].
    pub fn from_body(
        body: B,
        boundary: impl AsRef<[u8]>,
        options: Options,
    ) -> Result<Multipart<BodyData<B>>, crate::Error> {
        Multipart::new(BodyData::new(body), boundary, options)
    }

    /// [`Multipart::from_body`] for a request `Content-Type` (the boundary
    /// is taken from it); the errors of [`Parser::from_content_type`].
    pub fn from_body_content_type(
        body: B,
        content_type: &str,
        options: Options,
    ) -> Result<Multipart<BodyData<B>>, crate::Error> {
        Multipart::from_content_type(BodyData::new(body), content_type, options)
    }
}

/// A step of the adapter. Body bytes are `chunk[range]` or `held`, valid
/// until the next step.
enum Got {
    PartStart,
    Data(core::ops::Range<usize>),
    Held,
    PartEnd,
    End,
}

/// The parts of a `multipart/form-data` body that arrives as a stream of
/// [`Bytes`] chunks.
///
/// Call [`Multipart::next_part`] until it returns `None` (the close
/// delimiter was read); read each part as a [`Stream`] of [`Bytes`], or with
/// [`PartStream::chunk`], [`PartStream::bytes`], [`PartStream::text`].
pub struct Multipart<S> {
    source: Pin<Box<S>>,
    parser: Parser,
    /// The current chunk; `chunk[pos..]` is not yet fed to the parser.
    chunk: Bytes,
    pos: usize,
    /// The source ended: the next step is `finish`.
    eof: bool,
    held: Vec<u8>,
    in_part: bool,
    /// [`super::Event::End`] was seen.
    done: bool,
}

impl<S> fmt::Debug for Multipart<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Multipart")
            .field("parser", &self.parser)
            .field("in_part", &self.in_part)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<S, E> Multipart<S>
where
    S: Stream<Item = Result<Bytes, E>>,
{
    /// The parts of `source` for the boundary `B` (the bytes after `--`);
    /// the errors of [`Parser::new`].
    pub fn new(
        source: S,
        boundary: impl AsRef<[u8]>,
        options: Options,
    ) -> Result<Multipart<S>, crate::Error> {
        Ok(Multipart::with_parser(
            source,
            Parser::new(boundary.as_ref(), options)?,
        ))
    }

    /// The parts of `source` for a request `Content-Type`; the errors of
    /// [`Parser::from_content_type`].
    pub fn from_content_type(
        source: S,
        content_type: &str,
        options: Options,
    ) -> Result<Multipart<S>, crate::Error> {
        Ok(Multipart::with_parser(
            source,
            Parser::from_content_type(content_type, options)?,
        ))
    }

    /// The parts of `source`, parsed by a parser made elsewhere (at the start
    /// of a body).
    pub fn with_parser(source: S, parser: Parser) -> Multipart<S> {
        Multipart {
            source: Box::pin(source),
            parser,
            chunk: Bytes::new(),
            pos: 0,
            eof: false,
            held: Vec::new(),
            in_part: false,
            done: false,
        }
    }

    /// The next part, after draining what is left of the current one;
    /// `None` once the close delimiter was read (the epilogue after it is
    /// not polled for).
    pub async fn next_part(&mut self) -> Result<Option<PartStream<'_, S>>, Error<E>> {
        if std::future::poll_fn(|cx| self.poll_next_part(cx)).await? {
            Ok(Some(PartStream { form: self }))
        } else {
            Ok(None)
        }
    }

    /// Polls for the next part: `Ready(Ok(true))` when one began (its
    /// headers are then in [`Parser::last_part`]), `Ready(Ok(false))` at the
    /// end of the form. What is left of the current part is drained first.
    pub fn poll_next_part(&mut self, cx: &mut Context<'_>) -> Poll<Result<bool, Error<E>>> {
        while !self.done {
            match self.poll_step(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(Got::PartStart)) => {
                    self.in_part = true;
                    return Poll::Ready(Ok(true));
                }
                // Skipped body bytes of the current part.
                Poll::Ready(Ok(Got::Data(_) | Got::Held)) => {}
                Poll::Ready(Ok(Got::PartEnd)) => self.in_part = false,
                Poll::Ready(Ok(Got::End)) => self.done = true,
            }
        }
        Poll::Ready(Ok(false))
    }

    /// The parser (its offset, options, the latest part).
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// The rest of the form in memory (files included), as a [`FormData`]:
    /// one text arena and one byte arena, no allocation per entry. Bounded
    /// by the parser's limits; a part already begun is skipped.
    pub async fn form_data(mut self) -> Result<FormData, Error<E>> {
        let mut form = FormData::new();
        std::future::poll_fn(|cx| self.poll_form(cx, &mut form)).await?;
        Ok(form)
    }

    fn poll_form(
        &mut self,
        cx: &mut Context<'_>,
        form: &mut FormData,
    ) -> Poll<Result<(), Error<E>>> {
        while !self.done {
            match self.poll_step(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(Got::PartStart)) => {
                    self.in_part = true;
                    if let Some(part) = self.parser.last_part() {
                        form.start(&part);
                    }
                }
                Poll::Ready(Ok(Got::Data(r))) => {
                    if self.in_part {
                        form.data(&self.chunk[r]);
                    }
                }
                Poll::Ready(Ok(Got::Held)) => {
                    if self.in_part {
                        form.data(&self.held);
                    }
                }
                Poll::Ready(Ok(Got::PartEnd)) => {
                    if self.in_part {
                        form.end();
                    }
                    self.in_part = false;
                }
                Poll::Ready(Ok(Got::End)) => {
                    form.complete();
                    self.done = true;
                }
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Runs the parser to its next event, polling the source when the
    /// current chunk is used up.
    fn poll_step(&mut self, cx: &mut Context<'_>) -> Poll<Result<Got, Error<E>>> {
        loop {
            if self.pos < self.chunk.len() || self.eof {
                let (step, used) = pull(
                    &mut self.parser,
                    &self.chunk[self.pos..],
                    self.eof,
                    &mut self.held,
                )?;
                let base = self.pos;
                self.pos += used;
                let got = match step {
                    Step::PartStart => Got::PartStart,
                    Step::Data(r) => Got::Data(base + r.start..base + r.end),
                    Step::Held => Got::Held,
                    Step::PartEnd => Got::PartEnd,
                    Step::End => Got::End,
                    // At the end of input with nothing left: End was seen.
                    Step::Need if self.eof => Got::End,
                    Step::Need => continue,
                };
                return Poll::Ready(Ok(got));
            }
            // The chunk is used up: let it go before asking for the next.
            self.chunk = Bytes::new();
            self.pos = 0;
            match self.source.as_mut().poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => self.chunk = chunk,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(Error::Stream(e))),
                Poll::Ready(None) => self.eof = true,
            }
        }
    }

    fn poll_body(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Error<E>>>> {
        while self.in_part {
            match self.poll_step(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Some(Err(e))),
                // Zero-copy: a slice of the source's chunk.
                Poll::Ready(Ok(Got::Data(r))) => return Poll::Ready(Some(Ok(self.chunk.slice(r)))),
                // Held-back bytes (at most the delimiter's length) are copied.
                Poll::Ready(Ok(Got::Held)) => {
                    return Poll::Ready(Some(Ok(Bytes::copy_from_slice(&self.held))));
                }
                Poll::Ready(Ok(Got::PartEnd)) => self.in_part = false,
                // The parser always ends a part before another or the end.
                Poll::Ready(Ok(Got::PartStart | Got::End)) => {
                    unreachable!("part ended without PartEnd")
                }
            }
        }
        Poll::Ready(None)
    }

    /// The rest of the current part's body, appended to `out`.
    fn poll_body_into(
        &mut self,
        cx: &mut Context<'_>,
        out: &mut Vec<u8>,
    ) -> Poll<Result<(), Error<E>>> {
        while self.in_part {
            match self.poll_step(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(Got::Data(r))) => out.extend_from_slice(&self.chunk[r]),
                Poll::Ready(Ok(Got::Held)) => out.extend_from_slice(&self.held),
                Poll::Ready(Ok(Got::PartEnd)) => self.in_part = false,
                Poll::Ready(Ok(Got::PartStart | Got::End)) => {
                    unreachable!("part ended without PartEnd")
                }
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// The body of one part as a [`Stream`] of [`Bytes`]; its headers through
/// [`PartStream::part`].
///
/// The stream ends (`None`) at the end of the part's body. Body limits
/// (`max_field_bytes`, `max_file_bytes`) are errors on the way.
pub struct PartStream<'m, S> {
    form: &'m mut Multipart<S>,
}

impl<S> fmt::Debug for PartStream<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PartStream").field(&self.part()).finish()
    }
}

impl<S> PartStream<'_, S> {
    /// The byte offset where this part's body begins (before any of it is read).
    #[cfg(feature = "spool")]
    pub(super) fn body_offset(&self) -> u64 {
        self.form.parser.offset()
    }

    /// The part's headers (name, filename, content type, every header).
    pub fn part(&self) -> Part<'_> {
        self.form
            .parser
            .last_part()
            .expect("a part stream exists only after PartStart")
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

impl<S, E> PartStream<'_, S>
where
    S: Stream<Item = Result<Bytes, E>>,
{
    /// The next chunk of the body; `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, Error<E>> {
        std::future::poll_fn(|cx| self.form.poll_body(cx))
            .await
            .transpose()
    }

    /// The whole body in memory: the part's one chunk as it came when it
    /// arrived in one, else the chunks joined. Bounded by the part's limit:
    /// `max_field_bytes` for a field, `max_file_bytes` for a file (lower it,
    /// or stream files, before holding them in memory).
    pub async fn bytes(mut self) -> Result<Bytes, Error<E>> {
        let Some(first) = self.chunk().await? else {
            return Ok(Bytes::new());
        };
        let Some(second) = self.chunk().await? else {
            return Ok(first);
        };
        let mut all = BytesMut::with_capacity(first.len() + second.len());
        all.extend_from_slice(&first);
        all.extend_from_slice(&second);
        while let Some(more) = self.chunk().await? {
            all.extend_from_slice(&more);
        }
        Ok(all.freeze())
    }

    /// The whole body as text: UTF-8 with U+FFFD for invalid bytes, as a
    /// browser's `formData()` decodes a field (MP-F-01). Bounded as
    /// [`PartStream::bytes`] is.
    pub async fn text(self) -> Result<String, Error<E>> {
        // Copied straight out of the source's chunks: no `Bytes` in between.
        let mut raw = Vec::new();
        std::future::poll_fn(|cx| self.form.poll_body_into(cx, &mut raw)).await?;
        Ok(match String::from_utf8(raw) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        })
    }
}

impl<S, E> Stream for PartStream<'_, S>
where
    S: Stream<Item = Result<Bytes, E>>,
{
    type Item = Result<Bytes, Error<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().form.poll_body(cx)
    }
}

#[cfg(test)]
mod http_status_tests {
    use super::Error;
    use crate::ErrorCode;

    #[test]
    fn limits_are_413_malformed_400_source_errors_none() {
        let e = |c| Error::<std::io::Error>::Form(crate::Error::new(c, 5));
        assert_eq!(e(ErrorCode::MpLimitParts).http_status(), Some(413));
        assert_eq!(
            e(ErrorCode::MpLimitTotalFieldBytes).http_status(),
            Some(413)
        );
        assert_eq!(e(ErrorCode::MpTruncated).http_status(), Some(400));
        let source = Error::Stream(std::io::Error::other("reset"));
        assert_eq!(source.http_status(), None);
    }
}
