//! # formwire
//!
//! The serialization layer for web form bodies, byte-compatible with
//! browsers and with formwire's other implementations (shared vectors):
//!
//! - [`multipart`]: a sans-IO streaming `multipart/form-data` parser (the
//!   WPT fetch profile by default, leniency only by named options) and a
//!   WHATWG-exact encoder that never copies file bodies. Adapters, each a
//!   feature: a blocking `std::io::Read` (`multipart::read`, default
//!   feature `io`) and an async `Stream` of `Bytes` (`multipart::stream`,
//!   feature `stream`), any `http_body::Body` such as hyper 1.x's
//!   `Incoming` (`Multipart::from_body`, and `Encoder::into_http_body`,
//!   feature `http-body`); [`multipart::FormData`] for a whole form in one
//!   arena, and `multipart::spool` (feature `spool`) for a whole form with
//!   large files in temp files.
//! - [`urlencoded`]: WHATWG `application/x-www-form-urlencoded` parse
//!   (whole or streaming) and serialize.
//! - [`mime`]: the WHATWG MIME type parser and serializer both use.
//! - `v8` (feature `v8`): the V8 ValueSerializer v15 codec, the
//!   `formwire-v8` crate re-exported (what Node's `v8` module,
//!   `worker_threads` and Deno KV write).
//!
//! Every decoder reports bad input as an [`Error`] with a stable
//! [`ErrorCode`] and a byte offset (`spec/errors.md`); every limit of
//! `spec/limits.md` is on by default. Nothing here does I/O: callers move
//! bytes, formwire turns them into events.
//!
//! # Example
//!
//! ```
//! use formwire::multipart::{Encoder, Event, Options, Parser};
//!
//! // Encode a form...
//! let mut form = Encoder::with_boundary("XyZ")?;
//! form.text("greeting", "hello");
//! form.file("upload", "a.bin", "application/x-demo", &b"\x00\x01\x02"[..])?;
//! let content_type = form.content_type();
//! let body = form.encode_to_vec()?;
//!
//! // ...and parse it back, one byte at a time.
//! let mut parser = Parser::from_content_type(&content_type, Options::default())?;
//! let mut seen = Vec::new();
//! for byte in body.chunks(1) {
//!     let mut feed = parser.feed(byte);
//!     while let Some(event) = feed.next() {
//!         if let Event::PartStart(part) = event? {
//!             seen.push((part.name().into_owned(), part.mime_type()));
//!         }
//!     }
//! }
//! let mut end = parser.finish();
//! while let Some(event) = end.next() {
//!     event?;
//! }
//! assert!(parser.is_done());
//! assert_eq!(seen[1], ("upload".to_owned(), "application/x-demo".to_owned()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod error;
pub mod mime;
#[cfg(feature = "v8")]
pub use formwire_v8 as v8;
pub mod multipart;
pub mod registry;
mod tables;
#[cfg(test)]
mod test_rng;
pub mod urlencoded;

pub use error::{Error, ErrorCode, ErrorKind};

// The README's examples are complete programs, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
