// generated from spec/registry.json by scripts/registry/gen.py, do not edit
/**
 * The limits, lenient options and error codes of spec/registry.json: defaults by format, the `ErrorCode`
 * union and each code's kind and HTTP status. Edit spec/registry.json and run `make registry`.
 */

/** The multipart limits, each optional; `Infinity` or `null` is unlimited. */
export interface MultipartLimits {
  /** `max_boundary_bytes`, default 256; exceeding it is MP_LIMIT_BOUNDARY. */
  maxBoundaryBytes?: number | null;
  /** `max_parts`, default 1000; exceeding it is MP_LIMIT_PARTS. */
  maxParts?: number | null;
  /** `max_files`, default 1000; exceeding it is MP_LIMIT_FILES. */
  maxFiles?: number | null;
  /** `max_fields`, default 1000; exceeding it is MP_LIMIT_FIELDS. */
  maxFields?: number | null;
  /** `max_headers`, default 8; exceeding it is MP_LIMIT_HEADERS. */
  maxHeaders?: number | null;
  /** `max_header_bytes`, default 8192; exceeding it is MP_LIMIT_HEADER_BYTES. */
  maxHeaderBytes?: number | null;
  /** `max_field_bytes`, default 1048576; exceeding it is MP_LIMIT_FIELD_BYTES. */
  maxFieldBytes?: number | null;
  /** `max_total_field_bytes`, default 10485760; exceeding it is MP_LIMIT_TOTAL_FIELD_BYTES. */
  maxTotalFieldBytes?: number | null;
  /** `max_file_bytes`, default 10737418240; exceeding it is MP_LIMIT_FILE_BYTES. */
  maxFileBytes?: number | null;
  /** `max_total_bytes`, default 21474836480; exceeding it is MP_LIMIT_TOTAL_BYTES. */
  maxTotalBytes?: number | null;
}

/** Default multipart limits (spec/limits.md). */
export const MULTIPART_DEFAULTS: Readonly<Record<keyof MultipartLimits, number>> = Object.freeze({
  /**
   * `max_boundary_bytes` (MP_LIMIT_BOUNDARY): RFC 2046 §5.1.1 allows 1–70 characters, but real producers send more
   * (werkzeug's test client: 71+); 256 still keeps the delimiter search window small (CVE-2014-0050, CVE-2016-3092).
   */
  maxBoundaryBytes: 256,
  /** `max_parts` (MP_LIMIT_PARTS): Go, werkzeug, Starlette, formidable all default to 1000. */
  maxParts: 1000,
  /**
   * `max_files` (MP_LIMIT_FILES): Parts with a `filename` (MP-L-05), counted apart from `max_parts`: each one costs a
   * temp file or an open handle in whole-form APIs (CVE-2023-24998, Commons FileUpload's `fileCountMax`); Starlette's
   * `max_files` default.
   */
  maxFiles: 1000,
  /**
   * `max_fields` (MP_LIMIT_FIELDS): Parts without `filename` (MP-L-05), counted apart from `max_parts`: each one
   * becomes an in-memory string in whole-form APIs; Starlette's `max_fields` default.
   */
  maxFields: 1000,
  /** `max_headers` (MP_LIMIT_HEADERS): Browsers send 2; python-multipart and defnull use 8. */
  maxHeaders: 8,
  /**
   * `max_header_bytes` (MP_LIMIT_HEADER_BYTES): Per part; a long UTF-8 filename fits easily; CVE-2023-45290,
   * CVE-2026-42561.
   */
  maxHeaderBytes: 8192,
  /**
   * `max_field_bytes` (MP_LIMIT_FIELD_BYTES): Text fields are held in memory by callers; busboy/Starlette use 1 MiB
   * (CVE-2024-47874).
   */
  maxFieldBytes: 1048576,
  /**
   * `max_total_field_bytes` (MP_LIMIT_TOTAL_FIELD_BYTES): All text fields of one body together: whole-form APIs hold
   * them in memory, so `max_parts` × `max_field_bytes` (1000 MiB) is no bound; Go's `ReadForm` keeps 10 MiB of
   * non-file parts in memory.
   */
  maxTotalFieldBytes: 10485760,
  /** `max_file_bytes` (MP_LIMIT_FILE_BYTES): File bodies stream in constant memory; the cap only bounds disk use. */
  maxFileBytes: 10737418240,
  /**
   * `max_total_bytes` (MP_LIMIT_TOTAL_BYTES): Bounds a whole request; a server should lower it to its own upload
   * policy.
   */
  maxTotalBytes: 21474836480,
});

/** The multipart limits of the whole-form readers that spool files to disk (registry layer `form`); the
 * streaming parser does not take them. `Infinity` or `null` is unlimited. */
export interface MultipartFormLimits {
  /** `max_disk_bytes`, default 10737418240; exceeding it is MP_LIMIT_DISK_BYTES. */
  maxDiskBytes?: number | null;
}

/** Default multipart limits of the spooling form readers (spec/limits.md). */
export const MULTIPART_FORM_DEFAULTS: Readonly<Record<keyof MultipartFormLimits, number>> = Object.freeze({
  /**
   * `max_disk_bytes` (MP_LIMIT_DISK_BYTES): Spooling form readers only (MP-L-06; the streaming parser writes nothing
   * to disk): all temp files of one body together; Go's `ReadForm` caps its temp files at 10 GiB (`MaxDiskBytes`).
   */
  maxDiskBytes: 10737418240,
});

/** The multipart lenient options (MP-R-02), all off by default. */
export interface MultipartFlags {
  /** MP-P-02: bytes before the first delimiter are skipped (RFC 2046 preamble). */
  allowPreamble?: boolean;
  /**
   * MP-P-03, MP-P-06, MP-H-02: a bare LF ends delimiter lines and header lines; a body ends at `LF--B` (a CR before
   * that LF is also removed).
   */
  allowLf?: boolean;
  /**
   * MP-H-04: a header line starting with SP/HT continues the previous header (RFC 5322 obs-fold), joined with one SP.
   */
  allowObsFold?: boolean;
  /**
   * MP-H-07: a Content-Disposition value is read with quoted-pairs first (`\\` is one `\`, `\"` is `"`), literally
   * only when that fails.
   */
  allowQuotedPairs?: boolean;
  /**
   * MP-H-06, MP-F-05: a part with no Content-Disposition header, or whose only one is empty, is a part with no name
   * (and no filename) instead of an error; form layers skip it, every limit counts it.
   */
  allowMissingDisposition?: boolean;
  /**
   * MP-H-07: the Content-Disposition type may be any token (`form-field`, `attachment`, ...), its parameters read as
   * for `form-data`.
   */
  allowAnyDispositionType?: boolean;
  /**
   * MP-P-05, MP-P-07: every byte after the close delimiter `--B--` is epilogue (ignored, still counted), and the input
   * may end anywhere after it.
   */
  allowJunkAfterClose?: boolean;
  /** MP-H-01, MP-H-02: a part header name may hold bytes 80-FF besides token characters (UTF-8 names such as `Føø`). */
  allowUtf8HeaderNames?: boolean;
  /**
   * MP-P-03, MP-P-05, MP-P-06, MP-H-02, MP-H-03: a bare CR (one not followed by LF) ends delimiter lines and header
   * lines; a body also ends at `CR--B`.
   */
  allowCr?: boolean;
  /**
   * MP-P-03, MP-P-04: inside a body, `CRLF--B` followed by `-` and a byte other than `-`, or by CR and a byte other
   * than LF, is body data instead of MP_DELIMITER.
   */
  allowNearDelimiters?: boolean;
  /**
   * MP-H-07: a Content-Disposition parameter name may hold bytes 80-FF besides token characters; such a parameter is
   * ignored.
   */
  allow8bitParameterNames?: boolean;
  /**
   * MP-H-09: without a `filename` parameter, RFC 2231 continuations `filename*0`, `filename*1*`, ... are joined
   * (percent-decoded where marked `*`) into the filename.
   */
  allowRfc2231Continuations?: boolean;
}

export type MultipartErrorCode =
  | 'MP_CONTENT_TYPE'
  | 'MP_BOUNDARY'
  | 'MP_PREAMBLE'
  | 'MP_DELIMITER'
  | 'MP_HEADER_NAME'
  | 'MP_HEADER_VALUE'
  | 'MP_OBS_FOLD'
  | 'MP_NO_DISPOSITION'
  | 'MP_DISPOSITION'
  | 'MP_TRUNCATED'
  | 'MP_LIMIT_BOUNDARY'
  | 'MP_LIMIT_PARTS'
  | 'MP_LIMIT_FILES'
  | 'MP_LIMIT_FIELDS'
  | 'MP_LIMIT_HEADERS'
  | 'MP_LIMIT_HEADER_BYTES'
  | 'MP_LIMIT_FIELD_BYTES'
  | 'MP_LIMIT_TOTAL_FIELD_BYTES'
  | 'MP_LIMIT_FILE_BYTES'
  | 'MP_LIMIT_TOTAL_BYTES'
  | 'MP_LIMIT_DISK_BYTES'
  | 'MP_ENCODE_BOUNDARY'
  | 'MP_ENCODE_HEADER';

/** The urlencoded limits, each optional; `Infinity` or `null` is unlimited. */
export interface UrlencodedLimits {
  /** `max_pairs`, default 10000; exceeding it is UE_LIMIT_PAIRS. */
  maxPairs?: number | null;
  /** `max_bytes`, default 10485760; exceeding it is UE_LIMIT_BYTES. */
  maxBytes?: number | null;
}

/** Default urlencoded limits (spec/limits.md). */
export const URLENCODED_DEFAULTS: Readonly<Record<keyof UrlencodedLimits, number>> = Object.freeze({
  /**
   * `max_pairs` (UE_LIMIT_PAIRS): Go `urlmaxqueryparams` (CVE-2025-61726); querystring/qs use 1000, which silently
   * truncates.
   */
  maxPairs: 10000,
  /** `max_bytes` (UE_LIMIT_BYTES): Go `net/http` `maxFormSize`. */
  maxBytes: 10485760,
});

export type UrlencodedErrorCode =
  | 'UE_LIMIT_PAIRS'
  | 'UE_LIMIT_BYTES';

/** The clone limits, each optional; `Infinity` or `null` is unlimited. */
export interface CloneLimits {
  /** `max_depth`, default 1000; exceeding it is SC_LIMIT_DEPTH. */
  maxDepth?: number | null;
  /** `max_bytes`, default 268435456; exceeding it is SC_LIMIT_BYTES. */
  maxBytes?: number | null;
  /** `max_values`, default 10000000; exceeding it is SC_LIMIT_VALUES. */
  maxValues?: number | null;
  /** `max_bigint_bytes`, default 1048576; exceeding it is SC_LIMIT_BIGINT. */
  maxBigintBytes?: number | null;
}

/** Default clone limits (spec/limits.md). */
export const CLONE_DEFAULTS: Readonly<Record<keyof CloneLimits, number>> = Object.freeze({
  /**
   * `max_depth` (SC_LIMIT_DEPTH): Nesting of containers; keeps recursion bounded in every language (V8's own bound is
   * its stack).
   */
  maxDepth: 1000,
  /** `max_bytes` (SC_LIMIT_BYTES): Input size accepted by `decode`. */
  maxBytes: 268435456,
  /**
   * `max_values` (SC_LIMIT_VALUES): Values decoded (SC-L-05): each becomes an object of the caller's language, dozens
   * of bytes each, so `max_bytes` alone lets 256 MiB of one-byte values cost gigabytes.
   */
  maxValues: 10000000,
  /**
   * `max_bigint_bytes` (SC_LIMIT_BIGINT): A BigInt's digit bytes (SC-L-06), about 2.5 million decimal digits;
   * converting or printing longer ones costs seconds in several languages.
   */
  maxBigintBytes: 1048576,
});

export type CloneErrorCode =
  | 'SC_TRUNCATED'
  | 'SC_VERSION'
  | 'SC_TAG'
  | 'SC_VARINT'
  | 'SC_REF'
  | 'SC_COUNT'
  | 'SC_STRING'
  | 'SC_KEY'
  | 'SC_VIEW'
  | 'SC_HOST'
  | 'SC_UNSUPPORTED'
  | 'SC_LIMIT_DEPTH'
  | 'SC_LIMIT_BYTES'
  | 'SC_LIMIT_VALUES'
  | 'SC_LIMIT_BIGINT'
  | 'SC_DATA_CLONE';

/** Each format's limit and lenient option names: spec (snake_case) name -> TypeScript option name. */
export const OPTION_NAMES: Readonly<Record<'multipart' | 'urlencoded' | 'clone', Readonly<Record<string, string>>>> = Object.freeze({
  multipart: Object.freeze({
    allow_preamble: 'allowPreamble',
    allow_lf: 'allowLf',
    allow_obs_fold: 'allowObsFold',
    allow_quoted_pairs: 'allowQuotedPairs',
    allow_missing_disposition: 'allowMissingDisposition',
    allow_any_disposition_type: 'allowAnyDispositionType',
    allow_junk_after_close: 'allowJunkAfterClose',
    allow_utf8_header_names: 'allowUtf8HeaderNames',
    allow_cr: 'allowCr',
    allow_near_delimiters: 'allowNearDelimiters',
    allow_8bit_parameter_names: 'allow8bitParameterNames',
    allow_rfc2231_continuations: 'allowRfc2231Continuations',
    max_boundary_bytes: 'maxBoundaryBytes',
    max_parts: 'maxParts',
    max_files: 'maxFiles',
    max_fields: 'maxFields',
    max_headers: 'maxHeaders',
    max_header_bytes: 'maxHeaderBytes',
    max_field_bytes: 'maxFieldBytes',
    max_total_field_bytes: 'maxTotalFieldBytes',
    max_file_bytes: 'maxFileBytes',
    max_total_bytes: 'maxTotalBytes',
  }),
  urlencoded: Object.freeze({
    max_pairs: 'maxPairs',
    max_bytes: 'maxBytes',
  }),
  clone: Object.freeze({
    max_depth: 'maxDepth',
    max_bytes: 'maxBytes',
    max_values: 'maxValues',
    max_bigint_bytes: 'maxBigintBytes',
  }),
});

/** Every error code of spec/errors.md. Codes are the contract; messages are not. */
export type ErrorCode = MultipartErrorCode | UrlencodedErrorCode | CloneErrorCode;

/** What a code means for a caller: malformed input (400), an unsupported value (400), a limit (413), an
 * encoder error (no HTTP status). */
export type ErrorKind = 'malformed' | 'unsupported' | 'limit' | 'encode';

/** Each code's kind and the HTTP status a server answers with (`null` for encoder errors). */
export const ERROR_CODES: Readonly<Record<ErrorCode, { readonly kind: ErrorKind; readonly httpStatus: number | null }>> =
  Object.freeze({
    MP_CONTENT_TYPE: { kind: 'malformed', httpStatus: 400 },
    MP_BOUNDARY: { kind: 'malformed', httpStatus: 400 },
    MP_PREAMBLE: { kind: 'malformed', httpStatus: 400 },
    MP_DELIMITER: { kind: 'malformed', httpStatus: 400 },
    MP_HEADER_NAME: { kind: 'malformed', httpStatus: 400 },
    MP_HEADER_VALUE: { kind: 'malformed', httpStatus: 400 },
    MP_OBS_FOLD: { kind: 'malformed', httpStatus: 400 },
    MP_NO_DISPOSITION: { kind: 'malformed', httpStatus: 400 },
    MP_DISPOSITION: { kind: 'malformed', httpStatus: 400 },
    MP_TRUNCATED: { kind: 'malformed', httpStatus: 400 },
    MP_LIMIT_BOUNDARY: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_PARTS: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_FILES: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_FIELDS: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_HEADERS: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_HEADER_BYTES: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_FIELD_BYTES: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_TOTAL_FIELD_BYTES: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_FILE_BYTES: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_TOTAL_BYTES: { kind: 'limit', httpStatus: 413 },
    MP_LIMIT_DISK_BYTES: { kind: 'limit', httpStatus: 413 },
    MP_ENCODE_BOUNDARY: { kind: 'encode', httpStatus: null },
    MP_ENCODE_HEADER: { kind: 'encode', httpStatus: null },
    UE_LIMIT_PAIRS: { kind: 'limit', httpStatus: 413 },
    UE_LIMIT_BYTES: { kind: 'limit', httpStatus: 413 },
    SC_TRUNCATED: { kind: 'malformed', httpStatus: 400 },
    SC_VERSION: { kind: 'malformed', httpStatus: 400 },
    SC_TAG: { kind: 'malformed', httpStatus: 400 },
    SC_VARINT: { kind: 'malformed', httpStatus: 400 },
    SC_REF: { kind: 'malformed', httpStatus: 400 },
    SC_COUNT: { kind: 'malformed', httpStatus: 400 },
    SC_STRING: { kind: 'malformed', httpStatus: 400 },
    SC_KEY: { kind: 'malformed', httpStatus: 400 },
    SC_VIEW: { kind: 'malformed', httpStatus: 400 },
    SC_HOST: { kind: 'malformed', httpStatus: 400 },
    SC_UNSUPPORTED: { kind: 'unsupported', httpStatus: 400 },
    SC_LIMIT_DEPTH: { kind: 'limit', httpStatus: 413 },
    SC_LIMIT_BYTES: { kind: 'limit', httpStatus: 413 },
    SC_LIMIT_VALUES: { kind: 'limit', httpStatus: 413 },
    SC_LIMIT_BIGINT: { kind: 'limit', httpStatus: 413 },
    SC_DATA_CLONE: { kind: 'encode', httpStatus: null },
  });
