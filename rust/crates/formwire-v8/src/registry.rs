// generated from spec/registry.json by scripts/registry/gen.py, do not edit
//! The structured-clone limits and `SC_` error codes of `spec/registry.json`.
//!
//! Generated: edit `spec/registry.json` and run `make registry`.

/// `max_depth` (`SC_LIMIT_DEPTH`): Nesting of containers; keeps recursion bounded in every language
/// (V8's own bound is its stack).
pub const MAX_DEPTH: u32 = 1000;
/// `max_bytes` (`SC_LIMIT_BYTES`): Input size accepted by `decode`.
pub const MAX_BYTES: u64 = 268_435_456;
/// `max_values` (`SC_LIMIT_VALUES`): Values decoded (SC-L-05): each becomes an object of the
/// caller's language, dozens of bytes each, so `max_bytes` alone lets 256 MiB of one-byte values
/// cost gigabytes.
pub const MAX_VALUES: u64 = 10_000_000;
/// `max_bigint_bytes` (`SC_LIMIT_BIGINT`): A BigInt's digit bytes (SC-L-06), about 2.5 million
/// decimal digits; converting or printing longer ones costs seconds in several languages.
pub const MAX_BIGINT_BYTES: u32 = 1_048_576;
/// Every clone limit's spec name that the parser takes, in registry order.
pub const LIMITS: &[&str] = &["max_depth", "max_bytes", "max_values", "max_bigint_bytes"];

/// What an error code means for a caller: the `kind` column of `spec/registry.json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input breaks a rule of the format (HTTP 400).
    Malformed,
    /// The input is well-formed but uses what cannot cross a process boundary (HTTP 400).
    Unsupported,
    /// A named limit of `spec/limits.md` was exceeded (HTTP 413).
    Limit,
    /// An encoder refused its input; no HTTP response status.
    Encode,
}

impl ErrorKind {
    /// The registry string, e.g. `"limit"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Malformed => "malformed",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Limit => "limit",
            ErrorKind::Encode => "encode",
        }
    }

    /// The HTTP status a server answers with (malformed 400, limit 413); `None` for encoder errors.
    pub const fn http_status(self) -> Option<u16> {
        match self {
            ErrorKind::Malformed | ErrorKind::Unsupported => Some(400),
            ErrorKind::Limit => Some(413),
            ErrorKind::Encode => None,
        }
    }
}

/// The error codes of `spec/errors.md`, one variant per code.
///
/// [`ErrorCode::as_str`] gives the registry string; the byte offset that comes with each code is
/// documented on the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// `SC_TRUNCATED`: The input ended inside a value. Offset: the total input length.
    Truncated,
    /// `SC_VERSION`: No `FF` version header, or a version outside 13..=15. Offset: 0.
    Version,
    /// `SC_TAG`: An unknown tag, a reserved legacy tag, a tag where it is not allowed (e.g. `-`
    /// hole outside a dense array, an end tag with no open container), a non-string where a string
    /// is required, a bad Error subtag, bytes after the top-level value, or a well-formed item with
    /// an impossible value (BigInt -0n, a resizable buffer longer than its maximum, unknown RegExp
    /// flag bits). Offset: the tag (for trailing bytes: the first byte after the value).
    Tag,
    /// `SC_VARINT`: A varint longer than its type allows (more than 5 bytes for u32, 10 for u64) or
    /// a value above 2^32−1 where a u32 is read. Offset: the first byte of the varint.
    Varint,
    /// `SC_REF`: A `^` back-reference to an id not yet assigned. Offset: the tag.
    Ref,
    /// `SC_COUNT`: An end tag whose property count or length does not match what was read. Offset:
    /// the end tag.
    Count,
    /// `SC_STRING`: A two-byte string with an odd byte length, or a `S` string that is not valid
    /// UTF-8. Offset: the tag.
    String,
    /// `SC_KEY`: An object or array property key that is not a string or number, a number key that
    /// is not a safe integer, a duplicate key, or a `length` key on an array. Offset: the key's
    /// tag.
    Key,
    /// `SC_VIEW`: A view that is not directly after its buffer, has an unknown subtag, is out of
    /// bounds, or is misaligned for its element size. Offset: the tag.
    View,
    /// `SC_HOST`: A host object (`\`) that is not one of Node's typed-array encodings, or a
    /// malformed one. Offset: the tag.
    Host,
    /// `SC_UNSUPPORTED`: A tag that only has meaning inside one process (`u` SharedArrayBuffer, `t`
    /// transfer, `w` wasm module, `m` wasm memory, `p` shared object). Offset: the tag.
    Unsupported,
    /// `SC_LIMIT_DEPTH`: Nesting deeper than `max_depth`. Offset: the tag that would open level
    /// `max_depth + 1`.
    LimitDepth,
    /// `SC_LIMIT_BYTES`: The input is longer than `max_bytes`. Offset: 0.
    LimitBytes,
    /// `SC_LIMIT_VALUES`: More than `max_values` values: the root, property values, array elements,
    /// Map keys and values, Set values, Error causes, back-references included (SC-L-05). Offset:
    /// the tag of value number `max_values + 1`.
    LimitValues,
    /// `SC_LIMIT_BIGINT`: A BigInt (or BigInt wrapper) with more than `max_bigint_bytes` digit
    /// bytes. Offset: the tag (`Z`, or `z` for a wrapper).
    LimitBigint,
    /// `SC_DATA_CLONE`: The value cannot be cloned (function, symbol, WeakMap, Promise, Proxy,
    /// detached buffer, ...). The TS `clone()` throws a `DOMException` named `DataCloneError` with
    /// this code, like `structuredClone`.
    DataClone,
}

impl ErrorCode {
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

    /// The stable registry string, e.g. `"SC_TRUNCATED"`.
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

    /// Looks a code up by its registry string.
    pub fn from_str_code(s: &str) -> Option<ErrorCode> {
        match s {
            "SC_TRUNCATED" => Some(ErrorCode::Truncated),
            "SC_VERSION" => Some(ErrorCode::Version),
            "SC_TAG" => Some(ErrorCode::Tag),
            "SC_VARINT" => Some(ErrorCode::Varint),
            "SC_REF" => Some(ErrorCode::Ref),
            "SC_COUNT" => Some(ErrorCode::Count),
            "SC_STRING" => Some(ErrorCode::String),
            "SC_KEY" => Some(ErrorCode::Key),
            "SC_VIEW" => Some(ErrorCode::View),
            "SC_HOST" => Some(ErrorCode::Host),
            "SC_UNSUPPORTED" => Some(ErrorCode::Unsupported),
            "SC_LIMIT_DEPTH" => Some(ErrorCode::LimitDepth),
            "SC_LIMIT_BYTES" => Some(ErrorCode::LimitBytes),
            "SC_LIMIT_VALUES" => Some(ErrorCode::LimitValues),
            "SC_LIMIT_BIGINT" => Some(ErrorCode::LimitBigint),
            "SC_DATA_CLONE" => Some(ErrorCode::DataClone),
            _ => None,
        }
    }

    /// The code's kind (malformed input, unsupported value, limit, encoder error).
    pub const fn kind(self) -> ErrorKind {
        match self {
            ErrorCode::Truncated => ErrorKind::Malformed,
            ErrorCode::Version => ErrorKind::Malformed,
            ErrorCode::Tag => ErrorKind::Malformed,
            ErrorCode::Varint => ErrorKind::Malformed,
            ErrorCode::Ref => ErrorKind::Malformed,
            ErrorCode::Count => ErrorKind::Malformed,
            ErrorCode::String => ErrorKind::Malformed,
            ErrorCode::Key => ErrorKind::Malformed,
            ErrorCode::View => ErrorKind::Malformed,
            ErrorCode::Host => ErrorKind::Malformed,
            ErrorCode::Unsupported => ErrorKind::Unsupported,
            ErrorCode::LimitDepth => ErrorKind::Limit,
            ErrorCode::LimitBytes => ErrorKind::Limit,
            ErrorCode::LimitValues => ErrorKind::Limit,
            ErrorCode::LimitBigint => ErrorKind::Limit,
            ErrorCode::DataClone => ErrorKind::Encode,
        }
    }

    /// The HTTP status for this code (400 malformed, 413 limit); `None` for encoder errors.
    pub const fn http_status(self) -> Option<u16> {
        self.kind().http_status()
    }
}
