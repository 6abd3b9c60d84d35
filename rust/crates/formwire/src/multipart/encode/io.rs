//! The `io` feature's adapter over the sans-IO encoder: file bodies read
//! from a [`Read`] ([`Body::reader`]), the encoded body as a [`Read`]
//! ([`Encoder::into_reader`]) or written to a [`Write`]
//! ([`Encoder::write_to`]). Frames and in-memory bodies are written as they
//! are (MP-S-04: no intermediate copy of a file body).

use std::fmt;
use std::io::{self, Read, Write};

use super::{Body, Encoder, Inner, Piece};

impl<'a> Body<'a> {
    /// A streamed body. With `size`, reading more or fewer bytes than that is
    /// an I/O error (the announced Content-Length would be wrong).
    pub fn reader(reader: impl Read + Send + 'a, size: Option<u64>) -> Body<'a> {
        Body(Inner::Reader {
            reader: Box::new(reader),
            size,
        })
    }
}

impl<'a> Encoder<'a> {
    /// Writes the body to `w` (slices as they are, readers streamed).
    /// Returns the number of bytes written.
    pub fn write_to<W: Write + ?Sized>(self, w: &mut W) -> io::Result<u64> {
        let mut n = 0u64;
        let close = self.close;
        for p in self.pieces {
            match p {
                Piece::Frame(a, b) => {
                    w.write_all(&self.frame[a..b])?;
                    n += (b - a) as u64;
                }
                Piece::Body(body) => match body.0 {
                    Inner::Reader { reader, size } => {
                        let mut r = SizedReader {
                            inner: reader,
                            size,
                            read: 0,
                        };
                        n += io::copy(&mut r, w)?;
                    }
                    _ => {
                        let s = body.as_slice().unwrap_or_default();
                        w.write_all(s)?;
                        n += s.len() as u64;
                    }
                },
            }
        }
        w.write_all(&close)?;
        Ok(n + close.len() as u64)
    }

    /// The body as a [`Read`].
    pub fn into_reader(self) -> EncodeReader<'a> {
        let close = self.close;
        let mut pieces: Vec<Piece<'a>> = self.pieces;
        let frame_len = self.frame.len();
        let mut frame = self.frame;
        frame.extend_from_slice(&close);
        pieces.push(Piece::Frame(frame_len, frame.len()));
        EncodeReader {
            frame,
            pieces: pieces.into_iter(),
            current: None,
            at: 0,
        }
    }
}

/// A reader that checks its announced size.
struct SizedReader<'a> {
    inner: Box<dyn Read + Send + 'a>,
    size: Option<u64>,
    read: u64,
}

impl Read for SizedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        if let Some(size) = self.size {
            if self.read > size {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "body longer than its announced size",
                ));
            }
            if n == 0 && !buf.is_empty() && self.read < size {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "body shorter than its announced size",
                ));
            }
        }
        Ok(n)
    }
}

/// The encoded body as a [`Read`], from [`Encoder::into_reader`].
pub struct EncodeReader<'a> {
    frame: Vec<u8>,
    pieces: std::vec::IntoIter<Piece<'a>>,
    current: Option<Piece<'a>>,
    at: usize,
}

impl<'a> EncodeReader<'a> {
    /// One streamed body alone, its announced size enforced as for a whole
    /// body (the `http-body` adapter reads reader bodies through this).
    #[cfg(feature = "http-body")]
    pub(super) fn single(body: Body<'a>) -> EncodeReader<'a> {
        EncodeReader {
            frame: Vec::new(),
            pieces: vec![Piece::Body(body)].into_iter(),
            current: None,
            at: 0,
        }
    }
}

impl fmt::Debug for EncodeReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EncodeReader").finish_non_exhaustive()
    }
}

impl Read for EncodeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.current.is_none() {
                self.current = self.pieces.next();
                self.at = 0;
            }
            let Some(piece) = &mut self.current else {
                return Ok(0);
            };
            let n = match piece {
                Piece::Frame(a, b) => copy_out(&self.frame[*a..*b], &mut self.at, buf),
                Piece::Body(Body(Inner::Reader { reader, size })) => {
                    let want = match size {
                        Some(s) => buf
                            .len()
                            .min(usize::try_from(*s - self.at as u64).unwrap_or(usize::MAX)),
                        None => buf.len(),
                    };
                    if want == 0 {
                        // Announced size reached: the reader must be at its end.
                        let mut probe = [0u8; 1];
                        if reader.read(&mut probe)? != 0 {
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                "body longer than its announced size",
                            ));
                        }
                        0
                    } else {
                        let n = reader.read(&mut buf[..want])?;
                        if n == 0 && size.is_some() {
                            return Err(io::Error::new(
                                io::ErrorKind::UnexpectedEof,
                                "body shorter than its announced size",
                            ));
                        }
                        self.at += n;
                        n
                    }
                }
                Piece::Body(body) => {
                    let s = body.as_slice().unwrap_or_default();
                    copy_out(s, &mut self.at, buf)
                }
            };
            if n > 0 {
                return Ok(n);
            }
            self.current = None;
        }
    }
}

fn copy_out(src: &[u8], at: &mut usize, buf: &mut [u8]) -> usize {
    let n = (src.len() - *at).min(buf.len());
    buf[..n].copy_from_slice(&src[*at..*at + n]);
    *at += n;
    n
}
