//! Typed errors with the stable `SC_` codes of `spec/errors.md`.

use core::fmt;

/// The stable error codes of `spec/errors.md` § Structured clone.
///
/// Codes are the contract: [`ErrorCode::as_str`] gives the spec string. The byte offset that comes
/// with each code is documented on the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `SC_TRUNCATED`: the input ended inside a value. Offset: the total input length.
    Truncated,
    /// `SC_VERSION`: no `FF` version header, or a version outside 13..=15. Offset: 0.
    Version,
    /// `SC_TAG`: an unknown tag, a reserved legacy tag, or a tag where it is not allowed. Offset: the tag.
    Tag,
    /// `SC_VARINT`: a varint longer than its type allows. Offset: the first byte of the varint.
    Varint,
    /// `SC_REF`: a `^` back-reference to an id not yet assigned. Offset: the tag.
    Ref,
    /// `SC_COUNT`: an end tag whose property count or length does not match. Offset: the end tag.
    Count,
    /// `SC_STRING`: a two-byte string with an odd byte length, or an `S` string that is not UTF-8. Offset: the tag.
    String,
    /// `SC_KEY`: an object or array property key that is not a string or number. Offset: the key's tag.
    Key,
    /// `SC_VIEW`: a view not directly after its buffer, with an unknown subtag, out of bounds or misaligned. Offset: the tag.
    View,
    /// `SC_HOST`: a host object that is not one of Node's typed-array encodings, or a malformed one. Offset: the tag.
    Host,
    /// `SC_UNSUPPORTED`: a tag that only has meaning inside one process (`u`, `t`, `w`, `m`, `p`). Offset: the tag.
    Unsupported,
    /// `SC_LIMIT_DEPTH`: nesting deeper than `max_depth`. Offset: the tag that would open level `max_depth + 1`
    /// (encoder: the output length).
    LimitDepth,
    /// `SC_LIMIT_BYTES`: the input is longer than `max_bytes`. Offset: 0.
    LimitBytes,
    /// `SC_LIMIT_VALUES`: more than `max_values` values. Offset: the tag of value number `max_values + 1`.
    LimitValues,
    /// `SC_LIMIT_BIGINT`: a BigInt with more than `max_bigint_bytes` digit bytes. Offset: its tag.
    LimitBigint,
    /// `SC_DATA_CLONE` (encoder): the value cannot be cloned. Offset: the output length at that point.
    DataClone,
}

impl ErrorCode {
    /// The stable code string of `spec/errors.md`, e.g. `"SC_TRUNCATED"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Truncated => "SC_TRUNCATED",
            ErrorCode::Version => "SC_VERSION",
            ErrorCode::Tag => "SC_TAG",
            ErrorCode::Varint => "SC_VARINT",
            ErrorCode::Ref => "SC_REF",
            ErrorCode::Count => "SC_COUNT",
            ErrorCode::String => "SC_STRING",
            ErrorCode::Key => "SC_KEY",
            ErrorCode::View => "SC_VIEW",
            ErrorCode::Host => "SC_HOST",
            ErrorCode::Unsupported => "SC_UNSUPPORTED",
            ErrorCode::LimitDepth => "SC_LIMIT_DEPTH",
            ErrorCode::LimitBytes => "SC_LIMIT_BYTES",
            ErrorCode::LimitValues => "SC_LIMIT_VALUES",
            ErrorCode::LimitBigint => "SC_LIMIT_BIGINT",
            ErrorCode::DataClone => "SC_DATA_CLONE",
        }
    }

    /// Every code, in registry order.
    pub const ALL: [ErrorCode; 16] = [
        ErrorCode::Truncated,
        ErrorCode::Version,
        ErrorCode::Tag,
        ErrorCode::Varint,
        ErrorCode::Ref,
        ErrorCode::Count,
        ErrorCode::String,
        ErrorCode::Key,
        ErrorCode::View,
        ErrorCode::Host,
        ErrorCode::Unsupported,
        ErrorCode::LimitDepth,
        ErrorCode::LimitBytes,
        ErrorCode::LimitValues,
        ErrorCode::LimitBigint,
        ErrorCode::DataClone,
    ];

    /// The code for a spec string, if it is one of ours.
    pub fn from_str_code(s: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A decode or encode error: a stable [`ErrorCode`] and a byte offset (`spec/errors.md`).
///
/// The message is human text, not part of the contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The stable code.
    pub code: ErrorCode,
    /// Decoder: an offset into the input, as the code documents. Encoder: the output length when the error happened.
    pub offset: u64,
    message: &'static str,
}

impl Error {
    /// An error with a code, an offset and a short static message.
    pub const fn new(code: ErrorCode, offset: u64, message: &'static str) -> Error {
        Error {
            code,
            offset,
            message,
        }
    }

    /// Human-readable detail (not part of the contract).
    pub fn message(&self) -> &'static str {
        self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.code.as_str(),
            self.offset,
            self.message
        )
    }
}

impl std::error::Error for Error {}
