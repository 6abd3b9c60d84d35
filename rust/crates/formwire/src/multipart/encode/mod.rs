//! The `multipart/form-data` encoder (WHATWG HTML "multipart/form-data
//! encoding algorithm", UTF-8; MP-S-01..10).
//!
//! Entries are added in order; the framing and text values are rendered into
//! one buffer as they are added, and file bodies are only referenced. The
//! output is a sequence of borrowed slices ([`Encoder::slices`]) or one
//! `Vec` ([`Encoder::encode_to_vec`]), and with the `io` feature (default) a
//! `std::io::Read` (`Encoder::into_reader`) or a `std::io::Write` target
//! (`Encoder::write_to`), and file bodies read from a `Read`: a file
//! body is never copied into an intermediate buffer (MP-S-04), and
//! [`Encoder::content_length`] is known before the first byte whenever every
//! body's size is (MP-S-08).
//!
//! # Example
//!
//! ```
//! use formwire::multipart::Encoder;
//!
//! let blob = vec![0u8; 1 << 20];
//! let mut form = Encoder::with_boundary("BOUNDARY")?;
//! form.text("a\nb", "line 1\nline 2");
//! form.file("f", "x\".txt", "", &blob[..])?;
//! assert_eq!(form.content_type(), "multipart/form-data; boundary=BOUNDARY");
//! let len = form.content_length().unwrap();
//! let body = form.encode_to_vec()?;
//! assert_eq!(body.len() as u64, len);
//! assert!(body.starts_with(
//!     b"--BOUNDARY\r\nContent-Disposition: form-data; name=\"a%0D%0Ab\"\r\n\r\nline 1\r\nline 2\r\n\
//!       --BOUNDARY\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%22.txt\"\r\n\
//!       Content-Type: application/octet-stream\r\n\r\n"));
//! assert!(body.ends_with(b"\r\n--BOUNDARY--\r\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use memchr::{memchr2, memchr3};

use crate::error::{Error, ErrorCode};
use crate::tables::BCHARS;

/// The bytes of a File or Blob entry.
///
/// In-memory bodies (`&[u8]`, `Vec<u8>`, `bytes::Bytes` with the `bytes`
/// feature) are written as they are, never copied by the encoder. With the
/// `io` feature, a `std::io::Read` source (`Body::reader`) is streamed;
/// give its size when known so that [`Encoder::content_length`] is.
pub struct Body<'a>(Inner<'a>);

enum Inner<'a> {
    Slice(&'a [u8]),
    Vec(Vec<u8>),
    #[cfg(feature = "bytes")]
    Bytes(bytes::Bytes),
    /// A streamed source: the `io` adapter (`io.rs`).
    #[cfg(feature = "io")]
    Reader {
        reader: Box<dyn std::io::Read + Send + 'a>,
        size: Option<u64>,
    },
}

impl<'a> Body<'a> {
    /// The size in bytes, when known.
    pub fn size(&self) -> Option<u64> {
        match &self.0 {
            Inner::Slice(s) => Some(s.len() as u64),
            Inner::Vec(v) => Some(v.len() as u64),
            #[cfg(feature = "bytes")]
            Inner::Bytes(b) => Some(b.len() as u64),
            #[cfg(feature = "io")]
            Inner::Reader { size, .. } => *size,
        }
    }

    fn as_slice(&self) -> Option<&[u8]> {
        match &self.0 {
            Inner::Slice(s) => Some(s),
            Inner::Vec(v) => Some(v),
            #[cfg(feature = "bytes")]
            Inner::Bytes(b) => Some(b),
            #[cfg(feature = "io")]
            Inner::Reader { .. } => None,
        }
    }
}

impl fmt::Debug for Body<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_slice() {
            Some(s) => write!(f, "Body({} bytes)", s.len()),
            None => write!(f, "Body(reader, size {:?})", self.size()),
        }
    }
}

impl<'a> From<&'a [u8]> for Body<'a> {
    fn from(s: &'a [u8]) -> Body<'a> {
        Body(Inner::Slice(s))
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Body<'a> {
    fn from(s: &'a [u8; N]) -> Body<'a> {
        Body(Inner::Slice(s))
    }
}

impl<'a> From<&'a str> for Body<'a> {
    fn from(s: &'a str) -> Body<'a> {
        Body(Inner::Slice(s.as_bytes()))
    }
}

impl From<Vec<u8>> for Body<'_> {
    fn from(v: Vec<u8>) -> Body<'static> {
        Body(Inner::Vec(v))
    }
}

#[cfg(feature = "bytes")]
impl From<bytes::Bytes> for Body<'_> {
    fn from(b: bytes::Bytes) -> Body<'static> {
        Body(Inner::Bytes(b))
    }
}

enum Piece<'a> {
    /// `frame[a..b]`.
    Frame(usize, usize),
    Body(Body<'a>),
}

/// Builds a `multipart/form-data` body.
pub struct Encoder<'a> {
    boundary: String,
    /// `--B--CRLF` (MP-S-01).
    close: Box<[u8]>,
    frame: Vec<u8>,
    pieces: Vec<Piece<'a>>,
    entries: usize,
    /// `Some` while every body's size is known: the body bytes so far.
    body_bytes: Option<u64>,
}

impl fmt::Debug for Encoder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoder")
            .field("boundary", &self.boundary)
            .field("entries", &self.entries)
            .field("content_length", &self.content_length())
            .finish()
    }
}

/// MP-S-09: 32 base-62 characters after `----formwire-` (45 in all, about
/// 190 bits from the operating system's CSPRNG).
#[cfg(feature = "getrandom")]
pub fn random_boundary() -> String {
    boundary_from(|buf| {
        getrandom::fill(buf).expect("the operating system's random number generator failed")
    })
}

/// [`random_boundary`] over any byte source. Bytes of 248 and up are
/// dropped (rejection sampling): 248 is 4 x 62, so every character is
/// equally likely, where `b % 62` over all 256 values favours `0`-`7`.
#[cfg(any(test, feature = "getrandom"))]
pub(crate) fn boundary_from(mut fill: impl FnMut(&mut [u8])) -> String {
    const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const PREFIX: &str = "----formwire-";
    const LEN: usize = PREFIX.len() + 32;
    let mut s = String::with_capacity(LEN);
    s.push_str(PREFIX);
    // 32 bytes usually suffice (each is kept with probability 248/256).
    let mut bytes = [0u8; 36];
    while s.len() < LEN {
        fill(&mut bytes);
        for &b in bytes.iter().filter(|&&b| b < 248) {
            if s.len() == LEN {
                break;
            }
            s.push(ALPHABET[(b % 62) as usize] as char);
        }
    }
    s
}

/// MP-S-09: 1 to 70 `bchars`, not ending in a space.
fn check_boundary(b: &str) -> Result<(), Error> {
    let ok = !b.is_empty()
        && b.len() <= 70
        && b.bytes().all(|c| BCHARS[c as usize])
        && !b.ends_with(' ');
    if ok {
        Ok(())
    } else {
        Err(Error::new(ErrorCode::MpEncodeBoundary, 0))
    }
}

/// MP-S-02 (`normalize`, names) and MP-S-03 (filenames): escape LF, CR and
/// `"`; names first turn every lone CR, lone LF and CRLF into CRLF.
fn push_escaped(out: &mut Vec<u8>, s: &[u8], normalize: bool) {
    let mut rest = s;
    while let Some(i) = memchr3(b'\r', b'\n', b'"', rest) {
        out.extend_from_slice(&rest[..i]);
        let b = rest[i];
        rest = &rest[i + 1..];
        match b {
            b'"' => out.extend_from_slice(b"%22"),
            b'\r' | b'\n' if normalize => {
                out.extend_from_slice(b"%0D%0A");
                if b == b'\r' && rest.first() == Some(&b'\n') {
                    rest = &rest[1..];
                }
            }
            b'\r' => out.extend_from_slice(b"%0D"),
            _ => out.extend_from_slice(b"%0A"),
        }
    }
    out.extend_from_slice(rest);
}

/// MP-S-04: every lone CR, lone LF and CRLF becomes CRLF.
fn push_normalized(out: &mut Vec<u8>, s: &[u8]) {
    let mut rest = s;
    while let Some(i) = memchr2(b'\r', b'\n', rest) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(b"\r\n");
        let crlf = rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n');
        rest = &rest[i + 1 + usize::from(crlf)..];
    }
    out.extend_from_slice(rest);
}

impl<'a> Encoder<'a> {
    /// An empty form with a fresh CSPRNG boundary (MP-S-09).
    ///
    /// # Panics
    ///
    /// If the operating system's random number generator fails.
    #[cfg(feature = "getrandom")]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Encoder<'a> {
        Self::unchecked(random_boundary())
    }

    /// An empty form with the caller's boundary: 1 to 70 characters of
    /// `[0-9A-Za-z'()+_,-./:=? ]`, not ending in a space, else
    /// `MP_ENCODE_BOUNDARY` (MP-S-09).
    pub fn with_boundary(boundary: &str) -> Result<Encoder<'a>, Error> {
        check_boundary(boundary)?;
        Ok(Self::unchecked(boundary.to_owned()))
    }

    fn unchecked(boundary: String) -> Encoder<'a> {
        let close = format!("--{boundary}--\r\n")
            .into_bytes()
            .into_boxed_slice();
        Encoder {
            boundary,
            close,
            frame: Vec::new(),
            pieces: Vec::new(),
            entries: 0,
            body_bytes: Some(0),
        }
    }

    /// The boundary.
    pub fn boundary(&self) -> &str {
        &self.boundary
    }

    /// The Content-Type to send: `multipart/form-data; boundary=` B
    /// (MP-S-10), unquoted when B is a token (every generated boundary is),
    /// else quoted as MIME Sniffing §4.5 serializes a parameter value
    /// (`bchars` hold no `"` or `\\`, so nothing needs escaping).
    pub fn content_type(&self) -> String {
        if self
            .boundary
            .bytes()
            .all(|b| crate::tables::TOKEN[b as usize])
        {
            format!("multipart/form-data; boundary={}", self.boundary)
        } else {
            format!("multipart/form-data; boundary=\"{}\"", self.boundary)
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// `true` when no entry was added.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The exact body length, when every body's size is known (MP-S-08).
    pub fn content_length(&self) -> Option<u64> {
        let close = self.close.len() as u64;
        self.body_bytes.map(|b| b + self.frame.len() as u64 + close)
    }

    fn frame_start(&mut self) -> usize {
        self.frame.len()
    }

    fn frame_end(&mut self, start: usize) {
        let end = self.frame.len();
        if let Some(Piece::Frame(_, b)) = self.pieces.last_mut() {
            if *b == start {
                *b = end;
                return;
            }
        }
        self.pieces.push(Piece::Frame(start, end));
    }

    /// MP-S-01: `--B CRLF Content-Disposition: form-data; name="..."`.
    fn open_part(&mut self, name: &str) {
        self.frame.extend_from_slice(b"--");
        self.frame.extend_from_slice(self.boundary.as_bytes());
        self.frame
            .extend_from_slice(b"\r\nContent-Disposition: form-data; name=\"");
        push_escaped(&mut self.frame, name.as_bytes(), true);
        self.frame.push(b'"');
    }

    /// Adds a string entry (MP-S-01, MP-S-02, MP-S-04).
    pub fn text(&mut self, name: &str, value: &str) -> &mut Self {
        let start = self.frame_start();
        self.open_part(name);
        self.frame.extend_from_slice(b"\r\n\r\n");
        push_normalized(&mut self.frame, value.as_bytes());
        self.frame.extend_from_slice(b"\r\n");
        self.frame_end(start);
        self.entries += 1;
        self
    }

    /// Adds a File entry: `filename` is sent as is (escaped, MP-S-03; an
    /// empty one gives `filename=""`), `content_type` or
    /// `application/octet-stream` when empty (MP-S-06).
    ///
    /// Errors: `MP_ENCODE_HEADER` (offset: this entry's index) when
    /// `content_type` holds CR, LF or NUL; nothing is added then.
    pub fn file(
        &mut self,
        name: &str,
        filename: &str,
        content_type: &str,
        body: impl Into<Body<'a>>,
    ) -> Result<&mut Self, Error> {
        self.part(name, Some(filename), Some(content_type), &[], body)
    }

    /// Adds an entry with the caller's headers, as curl's `-F name=<file;type=T;headers=H` does:
    /// with `filename` a File entry (MP-S-03; Content-Type `content_type`, else
    /// `application/octet-stream`, MP-S-06), without it a field whose bytes are `body` as they
    /// are (no newline normalization) and whose Content-Type line is sent only when given.
    /// Each of `headers` is one `Name: value` line written after those.
    ///
    /// Errors: `MP_ENCODE_HEADER` (offset: this entry's index) when `content_type` or a header
    /// holds CR, LF or NUL, or a header has no `:` after a non-empty name; nothing is added then.
    pub fn part(
        &mut self,
        name: &str,
        filename: Option<&str>,
        content_type: Option<&str>,
        headers: &[&str],
        body: impl Into<Body<'a>>,
    ) -> Result<&mut Self, Error> {
        let bad_line = |s: &str| s.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0));
        let bad_header = |h: &&str| bad_line(h) || h.find(':').is_none_or(|i| i == 0);
        if content_type.is_some_and(bad_line) || headers.iter().any(bad_header) {
            return Err(Error::new(ErrorCode::MpEncodeHeader, self.entries as u64));
        }
        let body = body.into();
        let start = self.frame_start();
        self.open_part(name);
        let ct = match (filename, content_type) {
            (Some(f), ct) => {
                self.frame.extend_from_slice(b"; filename=\"");
                push_escaped(&mut self.frame, f.as_bytes(), false);
                self.frame.push(b'"');
                Some(
                    ct.filter(|c| !c.is_empty())
                        .unwrap_or("application/octet-stream"),
                )
            }
            (None, ct) => ct,
        };
        if let Some(ct) = ct {
            self.frame.extend_from_slice(b"\r\nContent-Type: ");
            self.frame.extend_from_slice(ct.as_bytes());
        }
        for h in headers {
            self.frame.extend_from_slice(b"\r\n");
            self.frame.extend_from_slice(h.as_bytes());
        }
        self.frame.extend_from_slice(b"\r\n\r\n");
        self.frame_end(start);
        self.body_bytes = match (self.body_bytes, body.size()) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        self.pieces.push(Piece::Body(body));
        let start = self.frame_start();
        self.frame.extend_from_slice(b"\r\n");
        self.frame_end(start);
        self.entries += 1;
        Ok(self)
    }

    /// Adds a Blob that is not a File: sent with `filename="blob"` (MP-S-05).
    pub fn blob(
        &mut self,
        name: &str,
        content_type: &str,
        body: impl Into<Body<'a>>,
    ) -> Result<&mut Self, Error> {
        self.file(name, "blob", content_type, body)
    }

    /// The body as borrowed slices, in order; `None` when a body is a
    /// reader. Concatenated, they are exactly the body.
    pub fn slices(&self) -> Option<Vec<&[u8]>> {
        let mut out = Vec::with_capacity(self.pieces.len() + 1);
        for p in &self.pieces {
            out.push(match p {
                Piece::Frame(a, b) => &self.frame[*a..*b],
                Piece::Body(body) => body.as_slice()?,
            });
        }
        out.push(&self.close);
        Some(out)
    }

    /// The body in one `Vec`, pre-sized when the length is known. The error
    /// is a streamed body's (`Body::reader`, feature `io`); without the
    /// `io` feature every body is in memory and this cannot fail (the type
    /// stays the same so that enabling `io` changes no signature).
    pub fn encode_to_vec(self) -> std::io::Result<Vec<u8>> {
        let cap = self
            .content_length()
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0);
        let mut out = Vec::with_capacity(cap);
        #[cfg(feature = "io")]
        self.write_to(&mut out)?;
        #[cfg(not(feature = "io"))]
        {
            for p in &self.pieces {
                out.extend_from_slice(match p {
                    Piece::Frame(a, b) => &self.frame[*a..*b],
                    Piece::Body(body) => body.as_slice().unwrap_or_default(),
                });
            }
            out.extend_from_slice(&self.close);
        }
        Ok(out)
    }
}

// The std::io pieces (`Body::reader`, `Encoder::write_to`, `Encoder::into_reader`): an adapter over this sans-IO
// encoder, feature `io`.
#[cfg(feature = "io")]
mod io;
#[cfg(feature = "io")]
pub use self::io::EncodeReader;

// The encoder as an `http_body::Body` (hyper 1.x), feature `http-body`.
#[cfg(feature = "http-body")]
mod http_body;
#[cfg(feature = "http-body")]
pub use self::http_body::HttpBody;

/// Encodes in one call: `entries` as `(name, value)` strings.
///
/// ```
/// let (content_type, body) = formwire::multipart::encode_to_vec("b", [("a", "1")])?;
/// assert_eq!(content_type, "multipart/form-data; boundary=b");
/// assert_eq!(body, b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b--\r\n");
/// # Ok::<(), formwire::Error>(())
/// ```
pub fn encode_to_vec<'k, 'v>(
    boundary: &str,
    entries: impl IntoIterator<Item = (&'k str, &'v str)>,
) -> Result<(String, Vec<u8>), Error> {
    let mut enc = Encoder::with_boundary(boundary)?;
    for (name, value) in entries {
        enc.text(name, value);
    }
    let ct = enc.content_type();
    let body = enc.encode_to_vec().expect("in-memory bodies cannot fail");
    Ok((ct, body))
}

#[cfg(test)]
pub(crate) mod tests_support {
    pub(crate) fn normalize(out: &mut Vec<u8>, s: &[u8]) {
        super::push_normalized(out, s)
    }
}

#[cfg(test)]
mod part_tests {
    use super::*;

    #[test]
    fn part_writes_type_and_headers_and_refuses_injection() {
        let mut e = Encoder::with_boundary("B").unwrap();
        e.part("m", None, Some("application/json"), &["X-A: 1"], &b"{}"[..])
            .unwrap();
        e.part("f", Some("a.bin"), None, &[], &b"x"[..]).unwrap();
        let n = e.content_length();
        let body = e.encode_to_vec().unwrap();
        assert_eq!(n, Some(body.len() as u64));
        assert_eq!(
            body,
            b"--B\r\nContent-Disposition: form-data; name=\"m\"\r\nContent-Type: application/json\r\nX-A: 1\r\n\r\n{}\r\n\
--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n--B--\r\n"
        );
        let mut e = Encoder::with_boundary("B").unwrap();
        for bad in ["X: a\r\nY: b", "novalue", ": x", "X: \0"] {
            let err = e.part("m", None, None, &[bad], &b""[..]).unwrap_err();
            assert_eq!(err.code, ErrorCode::MpEncodeHeader, "{bad:?}");
        }
        assert!(e.is_empty());
    }
}
