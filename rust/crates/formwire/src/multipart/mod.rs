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
//! adapter's `form_data()`. `spool` (feature `spool`) collects a whole form
//! with large files in owner-only temp files instead.
//!
//! The parser is strict by default (the WPT fetch profile); leniency is
//! only by the named flags of [`Options`] (MP-R-02, all off): `allow_preamble`,
//! `allow_lf`, `allow_obs_fold`, `allow_quoted_pairs`,
//! `allow_missing_disposition`, `allow_any_disposition_type`,
//! `allow_junk_after_close`, `allow_utf8_header_names`, `allow_cr`,
//! `allow_near_delimiters`, `allow_8bit_parameter_names`,
//! `allow_rfc2231_continuations`, freely combined. With
//! `allow_missing_disposition` a part may have no name ([`Part::has_name`]):
//! events and part readers deliver it, [`FormData`] and `spool` skip it
//! (MP-F-05), every limit counts it as a field.
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
#[cfg(any(feature = "io", feature = "stream"))]
mod pull;
#[cfg(feature = "io")]
pub mod read;
#[cfg(feature = "spool")]
pub mod spool;
#[cfg(feature = "stream")]
pub mod stream;

pub use encode::{Body, Encoder, encode_to_vec};
pub use form::{Entry, FormData, Value};
pub use parser::{Event, Feed, Parser};
pub use part::{ContentDisposition, Header, Headers, Part};

use crate::error::{Error, ErrorCode};
use crate::mime::MimeType;

/// The value of a limit that is off.
pub use crate::registry::UNLIMITED;
/// Parser options: the named lenient flags (MP-R-02) and every multipart limit of
/// `spec/limits.md`, generated from `spec/registry.json`.
pub use crate::registry::multipart::Options;

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
mod adapter_tests;
#[cfg(test)]
mod tests;
