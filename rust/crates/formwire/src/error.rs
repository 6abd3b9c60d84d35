//! Typed errors: a stable code from `spec/errors.md` and a byte offset.
//!
//! Every decoder in this crate reports bad input as an [`Error`]: an
//! [`ErrorCode`] (the contract: its string never changes meaning) and a byte
//! offset counted from the first byte ever fed, across all chunks. What the
//! offset points at is defined per code in `spec/errors.md`. The message
//! ([`ErrorCode::message`], [`Display`](fmt::Display)) is for humans and may
//! change.
//!
//! "Need more data" is never an error: a streaming parser only reports
//! truncation when the caller says the input has ended.
//!
//! # Example
//!
//! ```
//! use formwire::{multipart, ErrorCode};
//!
//! let err = multipart::Parser::from_content_type("text/plain", Default::default())
//!     .unwrap_err();
//! assert_eq!(err.code, ErrorCode::MpContentType);
//! assert_eq!(err.code.as_str(), "MP_CONTENT_TYPE");
//! assert_eq!(err.offset, 0);
//! ```

use core::fmt;

/// A decoding or encoding error: what went wrong and where.
///
/// For decoders, `offset` is a byte offset into the whole input (across all
/// chunks). For the multipart encoder it is the index of the offending entry
/// (`spec/errors.md`, "Serializer errors").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    /// The stable error code.
    pub code: ErrorCode,
    /// The byte offset the code's definition points at.
    pub offset: u64,
}

impl Error {
    /// Creates an error. Decoders build these; callers rarely need to.
    #[inline]
    pub const fn new(code: ErrorCode, offset: u64) -> Error {
        Error { code, offset }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {} ({})",
            self.code.message(),
            self.offset,
            self.code.as_str()
        )
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The coded error inside an [`std::io::Error`] made from one (as the
    /// blocking adapter [`multipart::read`](crate::multipart::read) reports
    /// bad input), or `None` for any other I/O error.
    ///
    /// ```
    /// use formwire::{Error, ErrorCode};
    ///
    /// let io: std::io::Error = Error::new(ErrorCode::MpTruncated, 9).into();
    /// assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
    /// assert_eq!(Error::from_io(&io), Some(Error::new(ErrorCode::MpTruncated, 9)));
    /// assert_eq!(Error::from_io(&std::io::ErrorKind::BrokenPipe.into()), None);
    /// ```
    pub fn from_io(e: &std::io::Error) -> Option<Error> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<Error>()).copied()
    }
}

/// An [`std::io::Error`] of kind `InvalidData` carrying the coded error
/// (get it back with [`Error::from_io`]).
impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $string:literal, $message:literal; )*) => {
        /// The error codes of `spec/errors.md`, one variant per code.
        ///
        /// [`ErrorCode::as_str`] gives the registry string (`"MP_TRUNCATED"`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in registry order.
            pub const ALL: &'static [ErrorCode] = &[ $( ErrorCode::$variant, )* ];

            /// The stable registry string, e.g. `"MP_TRUNCATED"`.
            pub const fn as_str(self) -> &'static str {
                match self { $( ErrorCode::$variant => $string, )* }
            }

            /// A short human description. Not part of the contract.
            pub const fn message(self) -> &'static str {
                match self { $( ErrorCode::$variant => $message, )* }
            }

            /// Looks a code up by its registry string.
            pub fn from_code(s: &str) -> Option<ErrorCode> {
                match s { $( $string => Some(ErrorCode::$variant), )* _ => None }
            }
        }
    };
}

codes! {
    /// The Content-Type is not `multipart/form-data` or cannot be parsed (MP-B-01).
    MpContentType = "MP_CONTENT_TYPE", "content type is not multipart/form-data";
    /// The boundary is missing, empty, or contains CR, LF or NUL (MP-B-03).
    MpBoundary = "MP_BOUNDARY", "missing or invalid boundary";
    /// Strict profile: the body does not begin with `--boundary` (MP-P-02).
    MpPreamble = "MP_PREAMBLE", "body does not begin with the boundary";
    /// A delimiter line continues with something other than padding and CRLF (MP-P-03, MP-P-05).
    MpDelimiter = "MP_DELIMITER", "malformed delimiter line";
    /// A header line does not match `token OWS ":"` (MP-H-02).
    MpHeaderName = "MP_HEADER_NAME", "malformed header name";
    /// A header line contains NUL, a bare CR or (strict) a bare LF (MP-H-02).
    MpHeaderValue = "MP_HEADER_VALUE", "forbidden byte in a header line";
    /// Strict profile: an obs-fold continuation line (MP-H-04).
    MpObsFold = "MP_OBS_FOLD", "obsolete header line folding";
    /// A part has no Content-Disposition header (MP-H-06).
    MpNoDisposition = "MP_NO_DISPOSITION", "part without Content-Disposition";
    /// The Content-Disposition is invalid or repeated (MP-H-06..09).
    MpDisposition = "MP_DISPOSITION", "invalid Content-Disposition";
    /// The input ended before the close delimiter (MP-P-07).
    MpTruncated = "MP_TRUNCATED", "input ended before the close delimiter";
    /// The boundary is longer than `max_boundary_bytes` (MP-B-04).
    MpLimitBoundary = "MP_LIMIT_BOUNDARY", "boundary longer than max_boundary_bytes";
    /// More than `max_parts` parts (MP-L-01).
    MpLimitParts = "MP_LIMIT_PARTS", "more than max_parts parts";
    /// More than `max_headers` header lines in a part (MP-H-05).
    MpLimitHeaders = "MP_LIMIT_HEADERS", "more than max_headers header lines";
    /// A header block longer than `max_header_bytes` (MP-H-05).
    MpLimitHeaderBytes = "MP_LIMIT_HEADER_BYTES", "header block longer than max_header_bytes";
    /// A field body longer than `max_field_bytes` (MP-L-02).
    MpLimitFieldBytes = "MP_LIMIT_FIELD_BYTES", "field longer than max_field_bytes";
    /// All field bodies together longer than `max_total_field_bytes` (MP-L-04).
    MpLimitTotalFieldBytes = "MP_LIMIT_TOTAL_FIELD_BYTES", "fields together longer than max_total_field_bytes";
    /// A file body longer than `max_file_bytes` (MP-L-02).
    MpLimitFileBytes = "MP_LIMIT_FILE_BYTES", "file longer than max_file_bytes";
    /// The input is longer than `max_total_bytes` (MP-L-03).
    MpLimitTotalBytes = "MP_LIMIT_TOTAL_BYTES", "input longer than max_total_bytes";
    /// A caller-given boundary is not 1..=70 `bchars` or ends in a space (MP-S-09).
    MpEncodeBoundary = "MP_ENCODE_BOUNDARY", "invalid boundary for encoding";
    /// An entry's content type contains CR, LF or NUL (MP-S-06).
    MpEncodeHeader = "MP_ENCODE_HEADER", "content type would inject a header";
    /// More than `max_pairs` urlencoded pairs.
    UeLimitPairs = "UE_LIMIT_PAIRS", "more than max_pairs pairs";
    /// Urlencoded input longer than `max_bytes`.
    UeLimitBytes = "UE_LIMIT_BYTES", "input longer than max_bytes";
    /// Structured clone: the input ended inside a value.
    ScTruncated = "SC_TRUNCATED", "input ended inside a value";
    /// Structured clone: missing or unsupported version header.
    ScVersion = "SC_VERSION", "missing or unsupported version";
    /// Structured clone: unknown or misplaced tag.
    ScTag = "SC_TAG", "unknown or misplaced tag";
    /// Structured clone: overlong varint.
    ScVarint = "SC_VARINT", "overlong varint";
    /// Structured clone: back-reference to an unassigned id.
    ScRef = "SC_REF", "reference to an unknown object";
    /// Structured clone: count or length mismatch at an end tag.
    ScCount = "SC_COUNT", "property count or length mismatch";
    /// Structured clone: malformed string.
    ScString = "SC_STRING", "malformed string";
    /// Structured clone: property key that is not a string or number.
    ScKey = "SC_KEY", "invalid property key";
    /// Structured clone: malformed array buffer view.
    ScView = "SC_VIEW", "invalid array buffer view";
    /// Structured clone: unsupported or malformed host object.
    ScHost = "SC_HOST", "invalid host object";
    /// Structured clone: a tag that only has meaning inside one process.
    ScUnsupported = "SC_UNSUPPORTED", "value cannot cross a process boundary";
    /// Structured clone: nesting deeper than `max_depth`.
    ScLimitDepth = "SC_LIMIT_DEPTH", "nesting deeper than max_depth";
    /// Structured clone: input longer than `max_bytes`.
    ScLimitBytes = "SC_LIMIT_BYTES", "input longer than max_bytes";
    /// Structured clone encoder: the value cannot be cloned.
    ScDataClone = "SC_DATA_CLONE", "value cannot be cloned";
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "duplicate {code}");
            assert_eq!(ErrorCode::from_code(code.as_str()), Some(code));
            let prefix = &code.as_str()[..3];
            assert!(["MP_", "UE_", "SC_"].contains(&prefix), "{code}");
        }
        assert_eq!(ErrorCode::from_code("MP_NOPE"), None);
    }

    #[test]
    fn display_names_code_and_offset() {
        let e = Error::new(ErrorCode::MpTruncated, 42);
        let s = e.to_string();
        assert!(s.contains("MP_TRUNCATED") && s.contains("42"), "{s}");
    }
}
