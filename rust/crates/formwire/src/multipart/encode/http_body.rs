//! The `http-body` feature's encoder body: an [`Encoder`] as an
//! [`http_body::Body`] (hyper 1.x clients and servers, reqwest, axum take it
//! as it is).
//!
//! Frames and in-memory bodies go out as [`Bytes`] without a copy of a file
//! body (MP-S-04): the frame text becomes one `Bytes` that every frame piece
//! slices, a `Vec` or `Bytes` body is handed over. A borrowed `&[u8]` body
//! cannot be a `Bytes` and is copied when its turn comes (give `Vec` or
//! `Bytes` bodies to avoid that copy). [`http_body::Body::size_hint`] is exact whenever
//! [`Encoder::content_length`] is known (MP-S-08), so hyper sends a
//! `Content-Length` and no chunked framing.

use core::pin::Pin;
use core::task::{Context, Poll};
use std::fmt;

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use super::{Body, Encoder, Inner, Piece};

/// A body piece not yet sent.
enum Out<'a> {
    Bytes(Bytes),
    Slice(&'a [u8]),
    /// A `std::io::Read` body (feature `io`), read 64 KiB at a time on the
    /// polling task.
    #[cfg(feature = "io")]
    Reader(super::EncodeReader<'a>),
}

/// The encoded body as an [`http_body::Body`], from
/// [`Encoder::into_http_body`].
///
/// Its data frames are [`Bytes`], its error a [`std::io::Error`] (only a
/// streamed body's, [`Body::reader`]). A `std::io::Read` body is read on the
/// task that polls this body, so give it in-memory readers, or files only
/// where a short blocking read is acceptable; bodies already in memory never
/// block.
pub struct HttpBody<'a> {
    pieces: std::collections::VecDeque<Out<'a>>,
    /// Bytes not yet sent, when every size is known.
    remaining: Option<u64>,
}

impl fmt::Debug for HttpBody<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpBody")
            .field("pieces", &self.pieces.len())
            .field("remaining", &self.remaining)
            .finish()
    }
}

impl<'a> Encoder<'a> {
    /// The body as an [`http_body::Body`] (feature `http-body`): what a
    /// hyper 1.x request or response takes, with an exact
    /// [`size_hint`](http_body::Body::size_hint) when
    /// [`Encoder::content_length`] is known. Send [`Encoder::content_type`]
    /// with it.
    pub fn into_http_body(self) -> HttpBody<'a> {
        let remaining = self.content_length();
        let frame = Bytes::from(self.frame);
        let mut pieces = std::collections::VecDeque::with_capacity(self.pieces.len() + 1);
        for p in self.pieces {
            let out = match p {
                Piece::Frame(a, b) => Out::Bytes(frame.slice(a..b)),
                Piece::Body(Body(inner)) => match inner {
                    Inner::Slice(s) => Out::Slice(s),
                    Inner::Vec(v) => Out::Bytes(Bytes::from(v)),
                    Inner::Bytes(b) => Out::Bytes(b),
                    #[cfg(feature = "io")]
                    r @ Inner::Reader { .. } => Out::Reader(super::EncodeReader::single(Body(r))),
                },
            };
            pieces.push_back(out);
        }
        pieces.push_back(Out::Bytes(Bytes::from(self.close.into_vec())));
        HttpBody { pieces, remaining }
    }
}

impl http_body::Body for HttpBody<'_> {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        let this = &mut *self;
        loop {
            let Some(piece) = this.pieces.front_mut() else {
                return Poll::Ready(None);
            };
            let data = match piece {
                Out::Bytes(b) => {
                    let b = core::mem::take(b);
                    this.pieces.pop_front();
                    b
                }
                Out::Slice(s) => {
                    let b = Bytes::copy_from_slice(s);
                    this.pieces.pop_front();
                    b
                }
                #[cfg(feature = "io")]
                Out::Reader(r) => {
                    let mut buf = vec![0u8; 64 << 10];
                    match std::io::Read::read(r, &mut buf) {
                        Ok(0) => {
                            this.pieces.pop_front();
                            continue;
                        }
                        Ok(n) => {
                            buf.truncate(n);
                            Bytes::from(buf)
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => {
                            // The body is broken: nothing more is sent after its error.
                            this.pieces.clear();
                            return Poll::Ready(Some(Err(e)));
                        }
                    }
                }
            };
            // Empty bodies and frames are not sent as empty data frames.
            if data.is_empty() {
                continue;
            }
            if let Some(r) = &mut this.remaining {
                *r = r.saturating_sub(data.len() as u64);
            }
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
    }

    fn is_end_stream(&self) -> bool {
        self.pieces.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        match self.remaining {
            Some(n) => SizeHint::with_exact(n),
            None => SizeHint::default(),
        }
    }
}
