//! `multipart/form-data`: a sans-IO streaming parser and a WHATWG-exact encoder.
//!
//! The parser implements `spec/multipart.md` §1–§6: the caller feeds chunks
//! and pulls [`Event`]s. Body bytes are slices of the chunk just fed; only the
//! few bytes that might begin a delimiter at a chunk edge are held back, and
//! they come back as [`Event::HeldData`] when they turn out to be body. Part
//! headers are parsed into a bounded internal buffer and shown as a borrowed
//! [`Part`]. Chunking never changes the result (MP-P-08).
//!
//! The [`encode`] module writes bodies (MP-S rules) without copying file
//! contents.
//!
//! Two thin I/O adapters drive the parser for callers who have a byte
//! source rather than chunks: [`read::Reader`] over any blocking
//! [`std::io::Read`] (parts with `Read` bodies, one 64 KiB buffer), and
//! `stream::Multipart` (feature `stream`) over an async
//! `Stream<Item = Result<Bytes, E>>` such as a hyper or axum body (parts
//! as streams of zero-copy `Bytes` slices).
//!
//! [`FormData`] holds a whole form in memory the way a browser's
//! `formData()` returns it, in two arenas (no allocation per entry); fill
//! it from any feed loop, from [`FormData::parse`], or from either
//! adapter's `form_data()`.
//!
//! # Example
//!
//! ```
//! use formwire::multipart::{Event, Options, Parser};
//!
//! let body = b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhello\r\n\
//!              --b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n\
//!              Content-Type: text/plain\r\n\r\nfile bytes\r\n--b--\r\n";
//! let mut parser =
//!     Parser::from_content_type("multipart/form-data; boundary=b", Options::default())?;
//! let mut names = Vec::new();
//! let mut bodies: Vec<Vec<u8>> = Vec::new();
//! // Feed in two chunks, as a socket would deliver them.
//! for chunk in body.chunks(37) {
//!     let mut feed = parser.feed(chunk);
//!     while let Some(event) = feed.next() {
//!         match event? {
//!             Event::PartStart(part) => {
//!                 names.push(part.name().into_owned());
//!                 bodies.push(Vec::new());
//!             }
//!             Event::Data(bytes) => bodies.last_mut().unwrap().extend_from_slice(bytes),
//!             Event::HeldData(bytes) => bodies.last_mut().unwrap().extend_from_slice(bytes),
//!             Event::PartEnd | Event::End => {}
//!         }
//!     }
//! }
//! // The end of input: an error (MP_TRUNCATED) unless the form was complete.
//! let mut feed = parser.finish();
//! while let Some(event) = feed.next() {
//!     event?;
//! }
//! assert_eq!(names, ["a", "f"]);
//! assert_eq!(bodies, [b"hello".to_vec(), b"file bytes".to_vec()]);
//! # Ok::<(), formwire::Error>(())
//! ```

pub mod encode;
mod form;
mod parser;
mod part;
mod pull;
pub mod read;
#[cfg(feature = "stream")]
pub mod stream;

pub use encode::{Body, Encoder, encode_to_vec};
pub use form::{Entry, FormData, Value};
pub use parser::{Event, Feed, Parser};
pub use part::{Header, Headers, Part};

use crate::error::{Error, ErrorCode};
use crate::mime::MimeType;

/// Parser options: the four named lenient flags (MP-R-02) and every
/// multipart limit of `spec/limits.md`.
///
/// `Default` is the strict profile with the default limits. A limit of
/// [`UNLIMITED`] (`u64::MAX`) is off. The names are the snake_case names of
/// the spec; [`Options::set_flag`] and [`Options::set_limit`] take them as
/// strings, for bindings and configuration files.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Skip bytes before the first delimiter (RFC 2046 preamble, MP-P-02).
    pub allow_preamble: bool,
    /// Accept a bare LF as a line end in delimiter and header lines
    /// (MP-P-03, MP-P-06, MP-H-02).
    pub allow_lf: bool,
    /// Accept obs-fold continuation lines in part headers (MP-H-04).
    pub allow_obs_fold: bool,
    /// Read Content-Disposition quoted-strings with quoted-pairs first, so
    /// `\\` is one backslash (MP-H-07). Without it they are read with
    /// quoted-pairs only when the literal reading fails.
    pub allow_quoted_pairs: bool,
    /// Longest accepted boundary, in bytes (MP-B-04). Default 256.
    pub max_boundary_bytes: u64,
    /// Most parts (MP-L-01). Default 1000.
    pub max_parts: u64,
    /// Most header lines per part (MP-H-05). Default 8.
    pub max_headers: u64,
    /// Most header bytes per part, empty line excluded (MP-H-05). Default 8192.
    pub max_header_bytes: u64,
    /// Longest body of a part without `filename` (MP-L-02). Default 1 MiB.
    pub max_field_bytes: u64,
    /// Most body bytes of all parts without `filename` together (MP-L-04):
    /// what a whole-form API holds in memory. Default 10 MiB.
    pub max_total_field_bytes: u64,
    /// Longest body of a part with `filename` (MP-L-02). Default 10 GiB.
    pub max_file_bytes: u64,
    /// Most input bytes, epilogue included (MP-L-03). Default 20 GiB.
    pub max_total_bytes: u64,
}

/// The value of a limit that is off.
pub const UNLIMITED: u64 = u64::MAX;

impl Default for Options {
    fn default() -> Options {
        Options {
            allow_preamble: false,
            allow_lf: false,
            allow_obs_fold: false,
            allow_quoted_pairs: false,
            max_boundary_bytes: 256,
            max_parts: 1000,
            max_headers: 8,
            max_header_bytes: 8192,
            max_field_bytes: 1 << 20,
            max_total_field_bytes: 10 << 20,
            max_file_bytes: 10 << 30,
            max_total_bytes: 20 << 30,
        }
    }
}

impl Options {
    /// Sets a lenient flag by its spec name (`allow_preamble`, `allow_lf`,
    /// `allow_obs_fold`, `allow_quoted_pairs`). Returns `false` for an
    /// unknown name.
    pub fn set_flag(&mut self, name: &str, on: bool) -> bool {
        let slot = match name {
            "allow_preamble" => &mut self.allow_preamble,
            "allow_lf" => &mut self.allow_lf,
            "allow_obs_fold" => &mut self.allow_obs_fold,
            "allow_quoted_pairs" => &mut self.allow_quoted_pairs,
            _ => return false,
        };
        *slot = on;
        true
    }

    /// Sets a limit by its spec name (`max_parts`, ...); `None` is unlimited.
    /// Returns `false` for an unknown name.
    pub fn set_limit(&mut self, name: &str, limit: Option<u64>) -> bool {
        let slot = match name {
            "max_boundary_bytes" => &mut self.max_boundary_bytes,
            "max_parts" => &mut self.max_parts,
            "max_headers" => &mut self.max_headers,
            "max_header_bytes" => &mut self.max_header_bytes,
            "max_field_bytes" => &mut self.max_field_bytes,
            "max_total_field_bytes" => &mut self.max_total_field_bytes,
            "max_file_bytes" => &mut self.max_file_bytes,
            "max_total_bytes" => &mut self.max_total_bytes,
            _ => return false,
        };
        *slot = limit.unwrap_or(UNLIMITED);
        true
    }
}

/// Extracts the boundary `B` from a request Content-Type (MP-B-01..03):
/// the WHATWG MIME type parser, essence `multipart/form-data`, the first
/// `boundary` parameter, UTF-8 encoded. The length limit (MP-B-04) is
/// checked by [`Parser::new`].
///
/// ```
/// use formwire::multipart::boundary_from_content_type;
///
/// assert_eq!(boundary_from_content_type("multipart/form-data; boundary=\"a.b(c)\"").unwrap(), b"a.b(c)");
/// assert_eq!(boundary_from_content_type("Multipart/Form-Data;boundary=b\u{e9}").unwrap(), "b\u{e9}".as_bytes());
/// assert!(boundary_from_content_type("multipart/mixed; boundary=x").is_err());
/// ```
pub fn boundary_from_content_type(content_type: &str) -> Result<Vec<u8>, Error> {
    // MP-B-01
    let mime = MimeType::parse(content_type).ok_or(Error::new(ErrorCode::MpContentType, 0))?;
    if mime.type_() != "multipart" || mime.subtype() != "form-data" {
        return Err(Error::new(ErrorCode::MpContentType, 0));
    }
    // MP-B-02: the MIME parser keeps the first `boundary`.
    let boundary = mime.param("boundary").unwrap_or("").as_bytes().to_vec();
    check_boundary(&boundary)?;
    Ok(boundary)
}

/// MP-B-03: non-empty, no CR, LF or NUL.
fn check_boundary(boundary: &[u8]) -> Result<(), Error> {
    if boundary.is_empty() || boundary.iter().any(|&b| matches!(b, b'\r' | b'\n' | 0)) {
        return Err(Error::new(ErrorCode::MpBoundary, 0));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod adapter_tests;
