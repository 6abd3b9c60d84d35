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

#[cfg(feature = "io")]
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
        e.get_ref()
            .and_then(|inner| inner.downcast_ref::<Error>())
            .copied()
    }
}

/// An [`std::io::Error`] of kind `InvalidData` carrying the coded error
/// (get it back with [`Error::from_io`]).
#[cfg(feature = "io")]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

pub use crate::registry::{ErrorCode, ErrorKind};

impl ErrorCode {
    /// A short human description. Not part of the contract.
    pub const fn message(self) -> &'static str {
        match self {
            ErrorCode::MpContentType => "content type is not multipart/form-data",
            ErrorCode::MpBoundary => "missing or invalid boundary",
            ErrorCode::MpPreamble => "body does not begin with the boundary",
            ErrorCode::MpDelimiter => "malformed delimiter line",
            ErrorCode::MpHeaderName => "malformed header name",
            ErrorCode::MpHeaderValue => "forbidden byte in a header line",
            ErrorCode::MpObsFold => "obsolete header line folding",
            ErrorCode::MpNoDisposition => "part without Content-Disposition",
            ErrorCode::MpDisposition => "invalid Content-Disposition",
            ErrorCode::MpTruncated => "input ended before the close delimiter",
            ErrorCode::MpLimitBoundary => "boundary longer than max_boundary_bytes",
            ErrorCode::MpLimitParts => "more than max_parts parts",
            ErrorCode::MpLimitFiles => "more than max_files file parts",
            ErrorCode::MpLimitFields => "more than max_fields field parts",
            ErrorCode::MpLimitHeaders => "more than max_headers header lines",
            ErrorCode::MpLimitHeaderBytes => "header block longer than max_header_bytes",
            ErrorCode::MpLimitFieldBytes => "field longer than max_field_bytes",
            ErrorCode::MpLimitTotalFieldBytes => {
                "fields together longer than max_total_field_bytes"
            }
            ErrorCode::MpLimitFileBytes => "file longer than max_file_bytes",
            ErrorCode::MpLimitTotalBytes => "input longer than max_total_bytes",
            ErrorCode::MpLimitDiskBytes => "temp files longer than max_disk_bytes",
            ErrorCode::MpEncodeBoundary => "invalid boundary for encoding",
            ErrorCode::MpEncodeHeader => "content type would inject a header",
            ErrorCode::UeLimitPairs => "more than max_pairs pairs",
            ErrorCode::UeLimitBytes => "input longer than max_bytes",
            ErrorCode::ScTruncated => "input ended inside a value",
            ErrorCode::ScVersion => "missing or unsupported version",
            ErrorCode::ScTag => "unknown or misplaced tag",
            ErrorCode::ScVarint => "overlong varint",
            ErrorCode::ScRef => "reference to an unknown object",
            ErrorCode::ScCount => "property count or length mismatch",
            ErrorCode::ScString => "malformed string",
            ErrorCode::ScKey => "invalid property key",
            ErrorCode::ScView => "invalid array buffer view",
            ErrorCode::ScHost => "invalid host object",
            ErrorCode::ScUnsupported => "value cannot cross a process boundary",
            ErrorCode::ScLimitDepth => "nesting deeper than max_depth",
            ErrorCode::ScLimitBytes => "input longer than max_bytes",
            ErrorCode::ScLimitValues => "more than max_values values",
            ErrorCode::ScLimitBigint => "BigInt longer than max_bigint_bytes",
            ErrorCode::ScDataClone => "value cannot be cloned",
        }
    }
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
    fn kinds_and_http_statuses_follow_the_registry() {
        assert_eq!(ErrorCode::MpLimitParts.kind(), ErrorKind::Limit);
        assert_eq!(ErrorCode::MpLimitParts.http_status(), Some(413));
        assert_eq!(ErrorCode::MpTruncated.http_status(), Some(400));
        assert_eq!(ErrorCode::ScUnsupported.kind(), ErrorKind::Unsupported);
        assert_eq!(ErrorCode::ScUnsupported.http_status(), Some(400));
        assert_eq!(ErrorCode::MpEncodeHeader.http_status(), None);
        for &code in ErrorCode::ALL {
            let limit = code.as_str().contains("_LIMIT_");
            assert_eq!(code.kind() == ErrorKind::Limit, limit, "{code}");
            assert_eq!(code.http_status() == Some(413), limit, "{code}");
            assert!(!code.message().is_empty(), "{code}");
        }
    }

    #[test]
    fn options_take_every_registry_name() {
        use crate::registry::{multipart, urlencoded};
        let mut o = crate::multipart::Options::default();
        for name in multipart::LIMITS {
            assert!(o.set_limit(name, Some(7)), "{name}");
        }
        for name in multipart::FLAGS {
            assert!(o.set_flag(name, true), "{name}");
        }
        assert!(!o.set_limit("max_nope", None) && !o.set_flag("allow_nope", true));
        assert_eq!((o.max_parts, o.max_total_bytes, o.allow_lf), (7, 7, true));
        let d = crate::multipart::Options::default();
        assert_eq!(
            (d.max_parts, d.max_field_bytes, d.allow_lf),
            (1000, 1 << 20, false)
        );
        let mut u = crate::urlencoded::Options::default();
        for name in urlencoded::LIMITS {
            assert!(u.set_limit(name, None), "{name}");
        }
        assert_eq!(u.max_pairs, crate::registry::UNLIMITED);
    }

    #[test]
    fn display_names_code_and_offset() {
        let e = Error::new(ErrorCode::MpTruncated, 42);
        let s = e.to_string();
        assert!(s.contains("MP_TRUNCATED") && s.contains("42"), "{s}");
    }
}
