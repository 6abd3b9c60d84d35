// generated from spec/registry.json by scripts/registry/gen.py, do not edit
//! The limits, error codes and lenient options of `spec/registry.json`.
//!
//! Generated: edit `spec/registry.json` and run `make registry`. Limit defaults are `u64`
//! ([`UNLIMITED`] is off).

/// The value of a limit that is off.
pub const UNLIMITED: u64 = u64::MAX;

/// Default values and names of the multipart limits and lenient options.
pub mod multipart {
    /// `max_boundary_bytes` (`MP_LIMIT_BOUNDARY`): RFC 2046 §5.1.1 allows 1–70 characters, but real
    /// producers send more (werkzeug's test client: 71+); 256 still keeps the delimiter search
    /// window small (CVE-2014-0050, CVE-2016-3092).
    pub const MAX_BOUNDARY_BYTES: u64 = 256;
    /// `max_parts` (`MP_LIMIT_PARTS`): Go, werkzeug, Starlette, formidable all default to 1000.
    pub const MAX_PARTS: u64 = 1000;
    /// `max_files` (`MP_LIMIT_FILES`): Parts with a `filename` (MP-L-05), counted apart from
    /// `max_parts`: each one costs a temp file or an open handle in whole-form APIs
    /// (CVE-2023-24998, Commons FileUpload's `fileCountMax`); Starlette's `max_files` default.
    pub const MAX_FILES: u64 = 1000;
    /// `max_fields` (`MP_LIMIT_FIELDS`): Parts without `filename` (MP-L-05), counted apart from
    /// `max_parts`: each one becomes an in-memory string in whole-form APIs; Starlette's
    /// `max_fields` default.
    pub const MAX_FIELDS: u64 = 1000;
    /// `max_headers` (`MP_LIMIT_HEADERS`): Browsers send 2; python-multipart and defnull use 8.
    pub const MAX_HEADERS: u64 = 8;
    /// `max_header_bytes` (`MP_LIMIT_HEADER_BYTES`): Per part; a long UTF-8 filename fits easily;
    /// CVE-2023-45290, CVE-2026-42561.
    pub const MAX_HEADER_BYTES: u64 = 8192;
    /// `max_field_bytes` (`MP_LIMIT_FIELD_BYTES`): Text fields are held in memory by callers;
    /// busboy/Starlette use 1 MiB (CVE-2024-47874).
    pub const MAX_FIELD_BYTES: u64 = 1_048_576;
    /// `max_total_field_bytes` (`MP_LIMIT_TOTAL_FIELD_BYTES`): All text fields of one body
    /// together: whole-form APIs hold them in memory, so `max_parts` × `max_field_bytes` (1000 MiB)
    /// is no bound; Go's `ReadForm` keeps 10 MiB of non-file parts in memory.
    pub const MAX_TOTAL_FIELD_BYTES: u64 = 10_485_760;
    /// `max_file_bytes` (`MP_LIMIT_FILE_BYTES`): File bodies stream in constant memory; the cap
    /// only bounds disk use.
    pub const MAX_FILE_BYTES: u64 = 10_737_418_240;
    /// `max_total_bytes` (`MP_LIMIT_TOTAL_BYTES`): Bounds a whole request; a server should lower it
    /// to its own upload policy.
    pub const MAX_TOTAL_BYTES: u64 = 21_474_836_480;
    /// `max_disk_bytes` (`MP_LIMIT_DISK_BYTES`, spooling form readers only): Spooling form readers
    /// only (MP-L-06; the streaming parser writes nothing to disk): all temp files of one body
    /// together; Go's `ReadForm` caps its temp files at 10 GiB (`MaxDiskBytes`).
    pub const MAX_DISK_BYTES: u64 = 10_737_418_240;
    /// Every multipart limit's spec name that the parser takes, in registry order.
    pub const LIMITS: &[&str] = &[
        "max_boundary_bytes",
        "max_parts",
        "max_files",
        "max_fields",
        "max_headers",
        "max_header_bytes",
        "max_field_bytes",
        "max_total_field_bytes",
        "max_file_bytes",
        "max_total_bytes",
    ];
    /// The multipart limits of spooling form readers only (registry layer `form`).
    pub const FORM_LIMITS: &[&str] = &["max_disk_bytes"];
    /// Every multipart lenient option's spec name (all off by default), in registry order.
    pub const FLAGS: &[&str] = &[
        "allow_preamble",
        "allow_lf",
        "allow_obs_fold",
        "allow_quoted_pairs",
        "allow_missing_disposition",
        "allow_any_disposition_type",
        "allow_junk_after_close",
        "allow_utf8_header_names",
        "allow_cr",
        "allow_near_delimiters",
        "allow_8bit_parameter_names",
        "allow_rfc2231_continuations",
    ];

    /// Parser options: the lenient flags (MP-R-02, all off) and limits (`spec/limits.md`) of
    /// `spec/registry.json`.
    ///
    /// `Default` is the strict profile with the default limits. A limit of
    /// [`UNLIMITED`](crate::registry::UNLIMITED) (`u64::MAX`) is off. Field names are the spec's;
    /// [`Options::set_limit`] and [`Options::set_flag`] take them as strings, for bindings and
    /// configuration files.
    #[derive(Clone, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct Options {
        /// `allow_preamble` (MP-P-02): bytes before the first delimiter are skipped (RFC 2046
        /// preamble).
        pub allow_preamble: bool,
        /// `allow_lf` (MP-P-03, MP-P-06, MP-H-02): a bare LF ends delimiter lines and header lines;
        /// a body ends at `LF--B` (a CR before that LF is also removed).
        pub allow_lf: bool,
        /// `allow_obs_fold` (MP-H-04): a header line starting with SP/HT continues the previous
        /// header (RFC 5322 obs-fold), joined with one SP.
        pub allow_obs_fold: bool,
        /// `allow_quoted_pairs` (MP-H-07): a Content-Disposition value is read with quoted-pairs
        /// first (`\\` is one `\`, `\"` is `"`), literally only when that fails.
        pub allow_quoted_pairs: bool,
        /// `allow_missing_disposition` (MP-H-06, MP-F-05): a part with no Content-Disposition
        /// header, or whose only one is empty, is a part with no name (and no filename) instead of
        /// an error; form layers skip it, every limit counts it.
        pub allow_missing_disposition: bool,
        /// `allow_any_disposition_type` (MP-H-07): the Content-Disposition type may be any token
        /// (`form-field`, `attachment`, ...), its parameters read as for `form-data`.
        pub allow_any_disposition_type: bool,
        /// `allow_junk_after_close` (MP-P-05, MP-P-07): every byte after the close delimiter
        /// `--B--` is epilogue (ignored, still counted), and the input may end anywhere after it.
        pub allow_junk_after_close: bool,
        /// `allow_utf8_header_names` (MP-H-01, MP-H-02): a part header name may hold bytes 80-FF
        /// besides token characters (UTF-8 names such as `Føø`).
        pub allow_utf8_header_names: bool,
        /// `allow_cr` (MP-P-03, MP-P-05, MP-P-06, MP-H-02, MP-H-03): a bare CR (one not followed by
        /// LF) ends delimiter lines and header lines; a body also ends at `CR--B`.
        pub allow_cr: bool,
        /// `allow_near_delimiters` (MP-P-03, MP-P-04): inside a body, `CRLF--B` followed by `-` and
        /// a byte other than `-`, or by CR and a byte other than LF, is body data instead of
        /// MP_DELIMITER.
        pub allow_near_delimiters: bool,
        /// `allow_8bit_parameter_names` (MP-H-07): a Content-Disposition parameter name may hold
        /// bytes 80-FF besides token characters; such a parameter is ignored.
        pub allow_8bit_parameter_names: bool,
        /// `allow_rfc2231_continuations` (MP-H-09): without a `filename` parameter, RFC 2231
        /// continuations `filename*0`, `filename*1*`, ... are joined (percent-decoded where marked
        /// `*`) into the filename.
        pub allow_rfc2231_continuations: bool,
        /// `max_boundary_bytes` (default 256): `MP_LIMIT_BOUNDARY` when the boundary is longer than
        /// `max_boundary_bytes`.
        pub max_boundary_bytes: u64,
        /// `max_parts` (default 1000): `MP_LIMIT_PARTS` when the body has more than `max_parts`
        /// parts.
        pub max_parts: u64,
        /// `max_files` (default 1000): `MP_LIMIT_FILES` when the body has more than `max_files`
        /// parts with a `filename` (MP-L-05).
        pub max_files: u64,
        /// `max_fields` (default 1000): `MP_LIMIT_FIELDS` when the body has more than `max_fields`
        /// parts without `filename` (MP-L-05).
        pub max_fields: u64,
        /// `max_headers` (default 8): `MP_LIMIT_HEADERS` when a part has more than `max_headers`
        /// header lines.
        pub max_headers: u64,
        /// `max_header_bytes` (default 8192): `MP_LIMIT_HEADER_BYTES` when a part's header block
        /// (every header line with its CRLF, not counting the empty line) is longer than
        /// `max_header_bytes`.
        pub max_header_bytes: u64,
        /// `max_field_bytes` (default 1 MiB): `MP_LIMIT_FIELD_BYTES` when a part without `filename`
        /// has a body longer than `max_field_bytes`.
        pub max_field_bytes: u64,
        /// `max_total_field_bytes` (default 10 MiB): `MP_LIMIT_TOTAL_FIELD_BYTES` when the bodies
        /// of all parts without `filename` together are longer than `max_total_field_bytes`
        /// (`MP_LIMIT_FIELD_BYTES` wins when both fire at one byte).
        pub max_total_field_bytes: u64,
        /// `max_file_bytes` (default 10 GiB): `MP_LIMIT_FILE_BYTES` when a part with `filename` has
        /// a body longer than `max_file_bytes`.
        pub max_file_bytes: u64,
        /// `max_total_bytes` (default 20 GiB): `MP_LIMIT_TOTAL_BYTES` when the input is longer than
        /// `max_total_bytes`.
        pub max_total_bytes: u64,
    }

    impl Default for Options {
        fn default() -> Options {
            Options {
                allow_preamble: false,
                allow_lf: false,
                allow_obs_fold: false,
                allow_quoted_pairs: false,
                allow_missing_disposition: false,
                allow_any_disposition_type: false,
                allow_junk_after_close: false,
                allow_utf8_header_names: false,
                allow_cr: false,
                allow_near_delimiters: false,
                allow_8bit_parameter_names: false,
                allow_rfc2231_continuations: false,
                max_boundary_bytes: MAX_BOUNDARY_BYTES,
                max_parts: MAX_PARTS,
                max_files: MAX_FILES,
                max_fields: MAX_FIELDS,
                max_headers: MAX_HEADERS,
                max_header_bytes: MAX_HEADER_BYTES,
                max_field_bytes: MAX_FIELD_BYTES,
                max_total_field_bytes: MAX_TOTAL_FIELD_BYTES,
                max_file_bytes: MAX_FILE_BYTES,
                max_total_bytes: MAX_TOTAL_BYTES,
            }
        }
    }

    impl Options {
        /// Sets a lenient flag by its spec name ([`FLAGS`]). Returns `false` for an unknown name.
        pub fn set_flag(&mut self, name: &str, on: bool) -> bool {
            let slot = match name {
                "allow_preamble" => &mut self.allow_preamble,
                "allow_lf" => &mut self.allow_lf,
                "allow_obs_fold" => &mut self.allow_obs_fold,
                "allow_quoted_pairs" => &mut self.allow_quoted_pairs,
                "allow_missing_disposition" => &mut self.allow_missing_disposition,
                "allow_any_disposition_type" => &mut self.allow_any_disposition_type,
                "allow_junk_after_close" => &mut self.allow_junk_after_close,
                "allow_utf8_header_names" => &mut self.allow_utf8_header_names,
                "allow_cr" => &mut self.allow_cr,
                "allow_near_delimiters" => &mut self.allow_near_delimiters,
                "allow_8bit_parameter_names" => &mut self.allow_8bit_parameter_names,
                "allow_rfc2231_continuations" => &mut self.allow_rfc2231_continuations,
                _ => return false,
            };
            *slot = on;
            true
        }

        /// Sets a limit by its spec name ([`LIMITS`]); `None` is unlimited. Returns `false` for an
        /// unknown name.
        pub fn set_limit(&mut self, name: &str, limit: Option<u64>) -> bool {
            let slot = match name {
                "max_boundary_bytes" => &mut self.max_boundary_bytes,
                "max_parts" => &mut self.max_parts,
                "max_files" => &mut self.max_files,
                "max_fields" => &mut self.max_fields,
                "max_headers" => &mut self.max_headers,
                "max_header_bytes" => &mut self.max_header_bytes,
                "max_field_bytes" => &mut self.max_field_bytes,
                "max_total_field_bytes" => &mut self.max_total_field_bytes,
                "max_file_bytes" => &mut self.max_file_bytes,
                "max_total_bytes" => &mut self.max_total_bytes,
                _ => return false,
            };
            *slot = limit.unwrap_or(crate::registry::UNLIMITED);
            true
        }
    }
}

/// Default values and names of the urlencoded limits and lenient options.
pub mod urlencoded {
    /// `max_pairs` (`UE_LIMIT_PAIRS`): Go `urlmaxqueryparams` (CVE-2025-61726); querystring/qs use
    /// 1000, which silently truncates.
    pub const MAX_PAIRS: u64 = 10_000;
    /// `max_bytes` (`UE_LIMIT_BYTES`): Go `net/http` `maxFormSize`.
    pub const MAX_BYTES: u64 = 10_485_760;
    /// Every urlencoded limit's spec name that the parser takes, in registry order.
    pub const LIMITS: &[&str] = &["max_pairs", "max_bytes"];

    /// Parser options: the limits (`spec/limits.md`) of
    /// `spec/registry.json`.
    ///
    /// `Default` is the strict profile with the default limits. A limit of
    /// [`UNLIMITED`](crate::registry::UNLIMITED) (`u64::MAX`) is off. Field names are the spec's;
    /// [`Options::set_limit`] take them as strings, for bindings and
    /// configuration files.
    #[derive(Clone, Debug, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct Options {
        /// `max_pairs` (default 10000): `UE_LIMIT_PAIRS` when more than `max_pairs` name-value
        /// pairs (empty sequences between `&` are not pairs).
        pub max_pairs: u64,
        /// `max_bytes` (default 10 MiB): `UE_LIMIT_BYTES` when the input is longer than
        /// `max_bytes`.
        pub max_bytes: u64,
    }

    impl Default for Options {
        fn default() -> Options {
            Options {
                max_pairs: MAX_PAIRS,
                max_bytes: MAX_BYTES,
            }
        }
    }

    impl Options {
        /// Sets a limit by its spec name ([`LIMITS`]); `None` is unlimited. Returns `false` for an
        /// unknown name.
        pub fn set_limit(&mut self, name: &str, limit: Option<u64>) -> bool {
            let slot = match name {
                "max_pairs" => &mut self.max_pairs,
                "max_bytes" => &mut self.max_bytes,
                _ => return false,
            };
            *slot = limit.unwrap_or(crate::registry::UNLIMITED);
            true
        }
    }
}

/// Default values and names of the clone limits and lenient options.
pub mod clone {
    /// `max_depth` (`SC_LIMIT_DEPTH`): Nesting of containers; keeps recursion bounded in every
    /// language (V8's own bound is its stack).
    pub const MAX_DEPTH: u32 = 1000;
    /// `max_bytes` (`SC_LIMIT_BYTES`): Input size accepted by `decode`.
    pub const MAX_BYTES: u64 = 268_435_456;
    /// `max_values` (`SC_LIMIT_VALUES`): Values decoded (SC-L-05): each becomes an object of the
    /// caller's language, dozens of bytes each, so `max_bytes` alone lets 256 MiB of one-byte
    /// values cost gigabytes.
    pub const MAX_VALUES: u64 = 10_000_000;
    /// `max_bigint_bytes` (`SC_LIMIT_BIGINT`): A BigInt's digit bytes (SC-L-06), about 2.5 million
    /// decimal digits; converting or printing longer ones costs seconds in several languages.
    pub const MAX_BIGINT_BYTES: u32 = 1_048_576;
    /// Every clone limit's spec name that the parser takes, in registry order.
    pub const LIMITS: &[&str] = &["max_depth", "max_bytes", "max_values", "max_bigint_bytes"];
}

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
    /// `MP_CONTENT_TYPE`: The Content-Type is not `multipart/form-data` (after MIME-type parsing)
    /// or cannot be parsed. Offset: 0.
    MpContentType,
    /// `MP_BOUNDARY`: The `boundary` parameter is missing, empty, or contains CR, LF or NUL.
    /// Offset: 0.
    MpBoundary,
    /// `MP_PREAMBLE`: Strict profile: the body does not begin with `--boundary` (a preamble, or any
    /// other first byte). Offset: the first byte that does not match `--boundary`.
    MpPreamble,
    /// `MP_DELIMITER`: A delimiter line continues with something other than transport padding
    /// (SP/HT) then CRLF, or (close delimiter) padding then CRLF or end of input. Examples:
    /// `--boundary--junk`, `--boundaryX` as the very first line. Offset: the first offending byte.
    MpDelimiter,
    /// `MP_HEADER_NAME`: A header line does not match `[OWS] token OWS ":"` (no colon, empty name,
    /// a byte that is not a token character before the colon). Leading OWS is allowed on the first
    /// header line of a part only (WPT). Offset: the first byte at which the line can no longer
    /// match.
    MpHeaderName,
    /// `MP_HEADER_VALUE`: A header line contains NUL, a CR not followed by LF, or (strict) an LF
    /// not preceded by CR. Offset: that byte.
    MpHeaderValue,
    /// `MP_OBS_FOLD`: Strict profile: a header line after the first one of a part begins with SP or
    /// HT (obs-fold). Offset: that SP/HT byte.
    MpObsFold,
    /// `MP_NO_DISPOSITION`: A header block ended without a `Content-Disposition` header (including
    /// a part with no headers at all). Offset: the line start of the empty line that ends the
    /// header block.
    MpNoDisposition,
    /// `MP_DISPOSITION`: The `Content-Disposition` value is not `form-data` with a `name`
    /// parameter, cannot be parsed (e.g. an unterminated quoted string), or a part has a second
    /// `Content-Disposition` header. Offset: the line start of that Content-Disposition header
    /// line.
    MpDisposition,
    /// `MP_TRUNCATED`: The input ended before the close delimiter (inside the headers, inside a
    /// body, or right after a delimiter). Offset: the total input length.
    MpTruncated,
    /// `MP_LIMIT_BOUNDARY`: The boundary is longer than `max_boundary_bytes`. Offset: 0.
    MpLimitBoundary,
    /// `MP_LIMIT_PARTS`: The body has more than `max_parts` parts. Offset: the line start of the
    /// first header line of part number `max_parts + 1` (just after its delimiter line).
    MpLimitParts,
    /// `MP_LIMIT_FILES`: The body has more than `max_files` parts with a `filename` (MP-L-05).
    /// Offset: the line start of the first header line of file part number `max_files + 1` (as
    /// `MP_LIMIT_PARTS`).
    MpLimitFiles,
    /// `MP_LIMIT_FIELDS`: The body has more than `max_fields` parts without `filename` (MP-L-05).
    /// Offset: the line start of the first header line of field part number `max_fields + 1` (as
    /// `MP_LIMIT_PARTS`).
    MpLimitFields,
    /// `MP_LIMIT_HEADERS`: A part has more than `max_headers` header lines. Offset: the line start
    /// of header line number `max_headers + 1`.
    MpLimitHeaders,
    /// `MP_LIMIT_HEADER_BYTES`: A part's header block (every header line with its CRLF, not
    /// counting the empty line) is longer than `max_header_bytes`. Offset: header block start +
    /// `max_header_bytes` (the first byte over the limit).
    MpLimitHeaderBytes,
    /// `MP_LIMIT_FIELD_BYTES`: A part without `filename` has a body longer than `max_field_bytes`.
    /// Offset: body start + `max_field_bytes`.
    MpLimitFieldBytes,
    /// `MP_LIMIT_TOTAL_FIELD_BYTES`: The bodies of all parts without `filename` together are longer
    /// than `max_total_field_bytes` (`MP_LIMIT_FIELD_BYTES` wins when both fire at one byte).
    /// Offset: the body byte that makes the sum `max_total_field_bytes + 1`.
    MpLimitTotalFieldBytes,
    /// `MP_LIMIT_FILE_BYTES`: A part with `filename` has a body longer than `max_file_bytes`.
    /// Offset: body start + `max_file_bytes`.
    MpLimitFileBytes,
    /// `MP_LIMIT_TOTAL_BYTES`: The input is longer than `max_total_bytes`. Offset:
    /// `max_total_bytes`.
    MpLimitTotalBytes,
    /// `MP_LIMIT_DISK_BYTES`: A spooling form reader would write more than `max_disk_bytes` of file
    /// contents to temp files for one body (MP-L-06; never raised by the streaming parser). Offset:
    /// the file body byte that would make the temp files' total `max_disk_bytes + 1`.
    MpLimitDiskBytes,
    /// `MP_ENCODE_BOUNDARY`: A caller-given boundary is not 1 to 70 characters of
    /// `[0-9A-Za-z'()+_,-./:=? ]` or ends in a space. Offset: 0.
    MpEncodeBoundary,
    /// `MP_ENCODE_HEADER`: An entry's content type contains CR, LF or NUL (would inject headers).
    /// Offset: the entry's index.
    MpEncodeHeader,
    /// `UE_LIMIT_PAIRS`: More than `max_pairs` name-value pairs (empty sequences between `&` are
    /// not pairs). Offset: the first byte of pair number `max_pairs + 1`.
    UeLimitPairs,
    /// `UE_LIMIT_BYTES`: The input is longer than `max_bytes`. Offset: `max_bytes`.
    UeLimitBytes,
    /// `SC_TRUNCATED`: The input ended inside a value. Offset: the total input length.
    ScTruncated,
    /// `SC_VERSION`: No `FF` version header, or a version outside 13..=15. Offset: 0.
    ScVersion,
    /// `SC_TAG`: An unknown tag, a reserved legacy tag, a tag where it is not allowed (e.g. `-`
    /// hole outside a dense array, an end tag with no open container), a non-string where a string
    /// is required, a bad Error subtag, bytes after the top-level value, or a well-formed item with
    /// an impossible value (BigInt -0n, a resizable buffer longer than its maximum, unknown RegExp
    /// flag bits). Offset: the tag (for trailing bytes: the first byte after the value).
    ScTag,
    /// `SC_VARINT`: A varint longer than its type allows (more than 5 bytes for u32, 10 for u64) or
    /// a value above 2^32−1 where a u32 is read. Offset: the first byte of the varint.
    ScVarint,
    /// `SC_REF`: A `^` back-reference to an id not yet assigned. Offset: the tag.
    ScRef,
    /// `SC_COUNT`: An end tag whose property count or length does not match what was read. Offset:
    /// the end tag.
    ScCount,
    /// `SC_STRING`: A two-byte string with an odd byte length, or a `S` string that is not valid
    /// UTF-8. Offset: the tag.
    ScString,
    /// `SC_KEY`: An object or array property key that is not a string or number, a number key that
    /// is not a safe integer, a duplicate key, or a `length` key on an array. Offset: the key's
    /// tag.
    ScKey,
    /// `SC_VIEW`: A view that is not directly after its buffer, has an unknown subtag, is out of
    /// bounds, or is misaligned for its element size. Offset: the tag.
    ScView,
    /// `SC_HOST`: A host object (`\`) that is not one of Node's typed-array encodings, or a
    /// malformed one. Offset: the tag.
    ScHost,
    /// `SC_UNSUPPORTED`: A tag that only has meaning inside one process (`u` SharedArrayBuffer, `t`
    /// transfer, `w` wasm module, `m` wasm memory, `p` shared object). Offset: the tag.
    ScUnsupported,
    /// `SC_LIMIT_DEPTH`: Nesting deeper than `max_depth`. Offset: the tag that would open level
    /// `max_depth + 1`.
    ScLimitDepth,
    /// `SC_LIMIT_BYTES`: The input is longer than `max_bytes`. Offset: 0.
    ScLimitBytes,
    /// `SC_LIMIT_VALUES`: More than `max_values` values: the root, property values, array elements,
    /// Map keys and values, Set values, Error causes, back-references included (SC-L-05). Offset:
    /// the tag of value number `max_values + 1`.
    ScLimitValues,
    /// `SC_LIMIT_BIGINT`: A BigInt (or BigInt wrapper) with more than `max_bigint_bytes` digit
    /// bytes. Offset: the tag (`Z`, or `z` for a wrapper).
    ScLimitBigint,
    /// `SC_DATA_CLONE`: The value cannot be cloned (function, symbol, WeakMap, Promise, Proxy,
    /// detached buffer, ...). The TS `clone()` throws a `DOMException` named `DataCloneError` with
    /// this code, like `structuredClone`.
    ScDataClone,
}

impl ErrorCode {
    /// Every code, in registry order.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::MpContentType,
        ErrorCode::MpBoundary,
        ErrorCode::MpPreamble,
        ErrorCode::MpDelimiter,
        ErrorCode::MpHeaderName,
        ErrorCode::MpHeaderValue,
        ErrorCode::MpObsFold,
        ErrorCode::MpNoDisposition,
        ErrorCode::MpDisposition,
        ErrorCode::MpTruncated,
        ErrorCode::MpLimitBoundary,
        ErrorCode::MpLimitParts,
        ErrorCode::MpLimitFiles,
        ErrorCode::MpLimitFields,
        ErrorCode::MpLimitHeaders,
        ErrorCode::MpLimitHeaderBytes,
        ErrorCode::MpLimitFieldBytes,
        ErrorCode::MpLimitTotalFieldBytes,
        ErrorCode::MpLimitFileBytes,
        ErrorCode::MpLimitTotalBytes,
        ErrorCode::MpLimitDiskBytes,
        ErrorCode::MpEncodeBoundary,
        ErrorCode::MpEncodeHeader,
        ErrorCode::UeLimitPairs,
        ErrorCode::UeLimitBytes,
        ErrorCode::ScTruncated,
        ErrorCode::ScVersion,
        ErrorCode::ScTag,
        ErrorCode::ScVarint,
        ErrorCode::ScRef,
        ErrorCode::ScCount,
        ErrorCode::ScString,
        ErrorCode::ScKey,
        ErrorCode::ScView,
        ErrorCode::ScHost,
        ErrorCode::ScUnsupported,
        ErrorCode::ScLimitDepth,
        ErrorCode::ScLimitBytes,
        ErrorCode::ScLimitValues,
        ErrorCode::ScLimitBigint,
        ErrorCode::ScDataClone,
    ];

    /// The stable registry string, e.g. `"MP_CONTENT_TYPE"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::MpContentType => "MP_CONTENT_TYPE",
            ErrorCode::MpBoundary => "MP_BOUNDARY",
            ErrorCode::MpPreamble => "MP_PREAMBLE",
            ErrorCode::MpDelimiter => "MP_DELIMITER",
            ErrorCode::MpHeaderName => "MP_HEADER_NAME",
            ErrorCode::MpHeaderValue => "MP_HEADER_VALUE",
            ErrorCode::MpObsFold => "MP_OBS_FOLD",
            ErrorCode::MpNoDisposition => "MP_NO_DISPOSITION",
            ErrorCode::MpDisposition => "MP_DISPOSITION",
            ErrorCode::MpTruncated => "MP_TRUNCATED",
            ErrorCode::MpLimitBoundary => "MP_LIMIT_BOUNDARY",
            ErrorCode::MpLimitParts => "MP_LIMIT_PARTS",
            ErrorCode::MpLimitFiles => "MP_LIMIT_FILES",
            ErrorCode::MpLimitFields => "MP_LIMIT_FIELDS",
            ErrorCode::MpLimitHeaders => "MP_LIMIT_HEADERS",
            ErrorCode::MpLimitHeaderBytes => "MP_LIMIT_HEADER_BYTES",
            ErrorCode::MpLimitFieldBytes => "MP_LIMIT_FIELD_BYTES",
            ErrorCode::MpLimitTotalFieldBytes => "MP_LIMIT_TOTAL_FIELD_BYTES",
            ErrorCode::MpLimitFileBytes => "MP_LIMIT_FILE_BYTES",
            ErrorCode::MpLimitTotalBytes => "MP_LIMIT_TOTAL_BYTES",
            ErrorCode::MpLimitDiskBytes => "MP_LIMIT_DISK_BYTES",
            ErrorCode::MpEncodeBoundary => "MP_ENCODE_BOUNDARY",
            ErrorCode::MpEncodeHeader => "MP_ENCODE_HEADER",
            ErrorCode::UeLimitPairs => "UE_LIMIT_PAIRS",
            ErrorCode::UeLimitBytes => "UE_LIMIT_BYTES",
            ErrorCode::ScTruncated => "SC_TRUNCATED",
            ErrorCode::ScVersion => "SC_VERSION",
            ErrorCode::ScTag => "SC_TAG",
            ErrorCode::ScVarint => "SC_VARINT",
            ErrorCode::ScRef => "SC_REF",
            ErrorCode::ScCount => "SC_COUNT",
            ErrorCode::ScString => "SC_STRING",
            ErrorCode::ScKey => "SC_KEY",
            ErrorCode::ScView => "SC_VIEW",
            ErrorCode::ScHost => "SC_HOST",
            ErrorCode::ScUnsupported => "SC_UNSUPPORTED",
            ErrorCode::ScLimitDepth => "SC_LIMIT_DEPTH",
            ErrorCode::ScLimitBytes => "SC_LIMIT_BYTES",
            ErrorCode::ScLimitValues => "SC_LIMIT_VALUES",
            ErrorCode::ScLimitBigint => "SC_LIMIT_BIGINT",
            ErrorCode::ScDataClone => "SC_DATA_CLONE",
        }
    }

    /// Looks a code up by its registry string.
    pub fn from_code(s: &str) -> Option<ErrorCode> {
        match s {
            "MP_CONTENT_TYPE" => Some(ErrorCode::MpContentType),
            "MP_BOUNDARY" => Some(ErrorCode::MpBoundary),
            "MP_PREAMBLE" => Some(ErrorCode::MpPreamble),
            "MP_DELIMITER" => Some(ErrorCode::MpDelimiter),
            "MP_HEADER_NAME" => Some(ErrorCode::MpHeaderName),
            "MP_HEADER_VALUE" => Some(ErrorCode::MpHeaderValue),
            "MP_OBS_FOLD" => Some(ErrorCode::MpObsFold),
            "MP_NO_DISPOSITION" => Some(ErrorCode::MpNoDisposition),
            "MP_DISPOSITION" => Some(ErrorCode::MpDisposition),
            "MP_TRUNCATED" => Some(ErrorCode::MpTruncated),
            "MP_LIMIT_BOUNDARY" => Some(ErrorCode::MpLimitBoundary),
            "MP_LIMIT_PARTS" => Some(ErrorCode::MpLimitParts),
            "MP_LIMIT_FILES" => Some(ErrorCode::MpLimitFiles),
            "MP_LIMIT_FIELDS" => Some(ErrorCode::MpLimitFields),
            "MP_LIMIT_HEADERS" => Some(ErrorCode::MpLimitHeaders),
            "MP_LIMIT_HEADER_BYTES" => Some(ErrorCode::MpLimitHeaderBytes),
            "MP_LIMIT_FIELD_BYTES" => Some(ErrorCode::MpLimitFieldBytes),
            "MP_LIMIT_TOTAL_FIELD_BYTES" => Some(ErrorCode::MpLimitTotalFieldBytes),
            "MP_LIMIT_FILE_BYTES" => Some(ErrorCode::MpLimitFileBytes),
            "MP_LIMIT_TOTAL_BYTES" => Some(ErrorCode::MpLimitTotalBytes),
            "MP_LIMIT_DISK_BYTES" => Some(ErrorCode::MpLimitDiskBytes),
            "MP_ENCODE_BOUNDARY" => Some(ErrorCode::MpEncodeBoundary),
            "MP_ENCODE_HEADER" => Some(ErrorCode::MpEncodeHeader),
            "UE_LIMIT_PAIRS" => Some(ErrorCode::UeLimitPairs),
            "UE_LIMIT_BYTES" => Some(ErrorCode::UeLimitBytes),
            "SC_TRUNCATED" => Some(ErrorCode::ScTruncated),
            "SC_VERSION" => Some(ErrorCode::ScVersion),
            "SC_TAG" => Some(ErrorCode::ScTag),
            "SC_VARINT" => Some(ErrorCode::ScVarint),
            "SC_REF" => Some(ErrorCode::ScRef),
            "SC_COUNT" => Some(ErrorCode::ScCount),
            "SC_STRING" => Some(ErrorCode::ScString),
            "SC_KEY" => Some(ErrorCode::ScKey),
            "SC_VIEW" => Some(ErrorCode::ScView),
            "SC_HOST" => Some(ErrorCode::ScHost),
            "SC_UNSUPPORTED" => Some(ErrorCode::ScUnsupported),
            "SC_LIMIT_DEPTH" => Some(ErrorCode::ScLimitDepth),
            "SC_LIMIT_BYTES" => Some(ErrorCode::ScLimitBytes),
            "SC_LIMIT_VALUES" => Some(ErrorCode::ScLimitValues),
            "SC_LIMIT_BIGINT" => Some(ErrorCode::ScLimitBigint),
            "SC_DATA_CLONE" => Some(ErrorCode::ScDataClone),
            _ => None,
        }
    }

    /// The code's kind (malformed input, unsupported value, limit, encoder error).
    pub const fn kind(self) -> ErrorKind {
        match self {
            ErrorCode::MpContentType => ErrorKind::Malformed,
            ErrorCode::MpBoundary => ErrorKind::Malformed,
            ErrorCode::MpPreamble => ErrorKind::Malformed,
            ErrorCode::MpDelimiter => ErrorKind::Malformed,
            ErrorCode::MpHeaderName => ErrorKind::Malformed,
            ErrorCode::MpHeaderValue => ErrorKind::Malformed,
            ErrorCode::MpObsFold => ErrorKind::Malformed,
            ErrorCode::MpNoDisposition => ErrorKind::Malformed,
            ErrorCode::MpDisposition => ErrorKind::Malformed,
            ErrorCode::MpTruncated => ErrorKind::Malformed,
            ErrorCode::MpLimitBoundary => ErrorKind::Limit,
            ErrorCode::MpLimitParts => ErrorKind::Limit,
            ErrorCode::MpLimitFiles => ErrorKind::Limit,
            ErrorCode::MpLimitFields => ErrorKind::Limit,
            ErrorCode::MpLimitHeaders => ErrorKind::Limit,
            ErrorCode::MpLimitHeaderBytes => ErrorKind::Limit,
            ErrorCode::MpLimitFieldBytes => ErrorKind::Limit,
            ErrorCode::MpLimitTotalFieldBytes => ErrorKind::Limit,
            ErrorCode::MpLimitFileBytes => ErrorKind::Limit,
            ErrorCode::MpLimitTotalBytes => ErrorKind::Limit,
            ErrorCode::MpLimitDiskBytes => ErrorKind::Limit,
            ErrorCode::MpEncodeBoundary => ErrorKind::Encode,
            ErrorCode::MpEncodeHeader => ErrorKind::Encode,
            ErrorCode::UeLimitPairs => ErrorKind::Limit,
            ErrorCode::UeLimitBytes => ErrorKind::Limit,
            ErrorCode::ScTruncated => ErrorKind::Malformed,
            ErrorCode::ScVersion => ErrorKind::Malformed,
            ErrorCode::ScTag => ErrorKind::Malformed,
            ErrorCode::ScVarint => ErrorKind::Malformed,
            ErrorCode::ScRef => ErrorKind::Malformed,
            ErrorCode::ScCount => ErrorKind::Malformed,
            ErrorCode::ScString => ErrorKind::Malformed,
            ErrorCode::ScKey => ErrorKind::Malformed,
            ErrorCode::ScView => ErrorKind::Malformed,
            ErrorCode::ScHost => ErrorKind::Malformed,
            ErrorCode::ScUnsupported => ErrorKind::Unsupported,
            ErrorCode::ScLimitDepth => ErrorKind::Limit,
            ErrorCode::ScLimitBytes => ErrorKind::Limit,
            ErrorCode::ScLimitValues => ErrorKind::Limit,
            ErrorCode::ScLimitBigint => ErrorKind::Limit,
            ErrorCode::ScDataClone => ErrorKind::Encode,
        }
    }

    /// The HTTP status for this code (400 malformed, 413 limit); `None` for encoder errors.
    pub const fn http_status(self) -> Option<u16> {
        self.kind().http_status()
    }
}
