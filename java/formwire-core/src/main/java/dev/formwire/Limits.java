// generated from spec/registry.json by scripts/registry/gen.py, do not edit
package dev.formwire;

/** Every named limit of {@code spec/registry.json}: defaults, error codes and names, by format. */
public final class Limits {
    private Limits() {}

    /** Limits of the multipart format. */
    public static final class Multipart {
        private Multipart() {}

        /** Default of {@code max_boundary_bytes} (error {@code MP_LIMIT_BOUNDARY}): RFC 2046 §5.1.1 allows 1–70 characters, but real producers send more (werkzeug's test client: 71+); 256 still keeps the delimiter search window small (CVE-2014-0050, CVE-2016-3092). */
        public static final long MAX_BOUNDARY_BYTES = 256L;
        /** The registry name of {@link #MAX_BOUNDARY_BYTES}. */
        public static final String MAX_BOUNDARY_BYTES_NAME = "max_boundary_bytes";
        /** The error of {@link #MAX_BOUNDARY_BYTES}. */
        public static final ErrorCode MAX_BOUNDARY_BYTES_ERROR = ErrorCode.MP_LIMIT_BOUNDARY;

        /** Default of {@code max_parts} (error {@code MP_LIMIT_PARTS}): Go, werkzeug, Starlette, formidable all default to 1000. */
        public static final long MAX_PARTS = 1000L;
        /** The registry name of {@link #MAX_PARTS}. */
        public static final String MAX_PARTS_NAME = "max_parts";
        /** The error of {@link #MAX_PARTS}. */
        public static final ErrorCode MAX_PARTS_ERROR = ErrorCode.MP_LIMIT_PARTS;

        /** Default of {@code max_files} (error {@code MP_LIMIT_FILES}): Parts with a `filename` (MP-L-05), counted apart from `max_parts`: each one costs a temp file or an open handle in whole-form APIs (CVE-2023-24998, Commons FileUpload's `fileCountMax`); Starlette's `max_files` default. */
        public static final long MAX_FILES = 1000L;
        /** The registry name of {@link #MAX_FILES}. */
        public static final String MAX_FILES_NAME = "max_files";
        /** The error of {@link #MAX_FILES}. */
        public static final ErrorCode MAX_FILES_ERROR = ErrorCode.MP_LIMIT_FILES;

        /** Default of {@code max_fields} (error {@code MP_LIMIT_FIELDS}): Parts without `filename` (MP-L-05), counted apart from `max_parts`: each one becomes an in-memory string in whole-form APIs; Starlette's `max_fields` default. */
        public static final long MAX_FIELDS = 1000L;
        /** The registry name of {@link #MAX_FIELDS}. */
        public static final String MAX_FIELDS_NAME = "max_fields";
        /** The error of {@link #MAX_FIELDS}. */
        public static final ErrorCode MAX_FIELDS_ERROR = ErrorCode.MP_LIMIT_FIELDS;

        /** Default of {@code max_headers} (error {@code MP_LIMIT_HEADERS}): Browsers send 2; python-multipart and defnull use 8. */
        public static final long MAX_HEADERS = 8L;
        /** The registry name of {@link #MAX_HEADERS}. */
        public static final String MAX_HEADERS_NAME = "max_headers";
        /** The error of {@link #MAX_HEADERS}. */
        public static final ErrorCode MAX_HEADERS_ERROR = ErrorCode.MP_LIMIT_HEADERS;

        /** Default of {@code max_header_bytes} (error {@code MP_LIMIT_HEADER_BYTES}): Per part; a long UTF-8 filename fits easily; CVE-2023-45290, CVE-2026-42561. */
        public static final long MAX_HEADER_BYTES = 8192L;
        /** The registry name of {@link #MAX_HEADER_BYTES}. */
        public static final String MAX_HEADER_BYTES_NAME = "max_header_bytes";
        /** The error of {@link #MAX_HEADER_BYTES}. */
        public static final ErrorCode MAX_HEADER_BYTES_ERROR = ErrorCode.MP_LIMIT_HEADER_BYTES;

        /** Default of {@code max_field_bytes} (error {@code MP_LIMIT_FIELD_BYTES}): Text fields are held in memory by callers; busboy/Starlette use 1 MiB (CVE-2024-47874). */
        public static final long MAX_FIELD_BYTES = 1048576L;
        /** The registry name of {@link #MAX_FIELD_BYTES}. */
        public static final String MAX_FIELD_BYTES_NAME = "max_field_bytes";
        /** The error of {@link #MAX_FIELD_BYTES}. */
        public static final ErrorCode MAX_FIELD_BYTES_ERROR = ErrorCode.MP_LIMIT_FIELD_BYTES;

        /** Default of {@code max_total_field_bytes} (error {@code MP_LIMIT_TOTAL_FIELD_BYTES}): All text fields of one body together: whole-form APIs hold them in memory, so `max_parts` × `max_field_bytes` (1000 MiB) is no bound; Go's `ReadForm` keeps 10 MiB of non-file parts in memory. */
        public static final long MAX_TOTAL_FIELD_BYTES = 10485760L;
        /** The registry name of {@link #MAX_TOTAL_FIELD_BYTES}. */
        public static final String MAX_TOTAL_FIELD_BYTES_NAME = "max_total_field_bytes";
        /** The error of {@link #MAX_TOTAL_FIELD_BYTES}. */
        public static final ErrorCode MAX_TOTAL_FIELD_BYTES_ERROR = ErrorCode.MP_LIMIT_TOTAL_FIELD_BYTES;

        /** Default of {@code max_file_bytes} (error {@code MP_LIMIT_FILE_BYTES}): File bodies stream in constant memory; the cap only bounds disk use. */
        public static final long MAX_FILE_BYTES = 10737418240L;
        /** The registry name of {@link #MAX_FILE_BYTES}. */
        public static final String MAX_FILE_BYTES_NAME = "max_file_bytes";
        /** The error of {@link #MAX_FILE_BYTES}. */
        public static final ErrorCode MAX_FILE_BYTES_ERROR = ErrorCode.MP_LIMIT_FILE_BYTES;

        /** Default of {@code max_total_bytes} (error {@code MP_LIMIT_TOTAL_BYTES}): Bounds a whole request; a server should lower it to its own upload policy. */
        public static final long MAX_TOTAL_BYTES = 21474836480L;
        /** The registry name of {@link #MAX_TOTAL_BYTES}. */
        public static final String MAX_TOTAL_BYTES_NAME = "max_total_bytes";
        /** The error of {@link #MAX_TOTAL_BYTES}. */
        public static final ErrorCode MAX_TOTAL_BYTES_ERROR = ErrorCode.MP_LIMIT_TOTAL_BYTES;

        /** Default of {@code max_disk_bytes} (error {@code MP_LIMIT_DISK_BYTES}): Spooling form readers only (MP-L-06; the streaming parser writes nothing to disk): all temp files of one body together; Go's `ReadForm` caps its temp files at 10 GiB (`MaxDiskBytes`). */
        public static final long MAX_DISK_BYTES = 10737418240L;
        /** The registry name of {@link #MAX_DISK_BYTES}. */
        public static final String MAX_DISK_BYTES_NAME = "max_disk_bytes";
        /** The error of {@link #MAX_DISK_BYTES}. */
        public static final ErrorCode MAX_DISK_BYTES_ERROR = ErrorCode.MP_LIMIT_DISK_BYTES;

        /** Every multipart limit name the parser takes, in registry order. */
        public static final java.util.List<String> NAMES = java.util.List.of("max_boundary_bytes", "max_parts", "max_files", "max_fields", "max_headers", "max_header_bytes", "max_field_bytes", "max_total_field_bytes", "max_file_bytes", "max_total_bytes");
        /** The multipart limits of spooling form readers only (registry layer {@code form}). */
        public static final java.util.List<String> FORM_NAMES = java.util.List.of("max_disk_bytes");
        /** The named lenient options of multipart, in registry order (all off by default). */
        public static final java.util.List<String> LENIENT_OPTIONS = java.util.List.of("allow_preamble", "allow_lf", "allow_obs_fold", "allow_quoted_pairs", "allow_missing_disposition", "allow_any_disposition_type", "allow_junk_after_close", "allow_utf8_header_names", "allow_cr", "allow_near_delimiters", "allow_8bit_parameter_names", "allow_rfc2231_continuations");
    }

    /** Limits of the urlencoded format. */
    public static final class Urlencoded {
        private Urlencoded() {}

        /** Default of {@code max_pairs} (error {@code UE_LIMIT_PAIRS}): Go `urlmaxqueryparams` (CVE-2025-61726); querystring/qs use 1000, which silently truncates. */
        public static final long MAX_PAIRS = 10000L;
        /** The registry name of {@link #MAX_PAIRS}. */
        public static final String MAX_PAIRS_NAME = "max_pairs";
        /** The error of {@link #MAX_PAIRS}. */
        public static final ErrorCode MAX_PAIRS_ERROR = ErrorCode.UE_LIMIT_PAIRS;

        /** Default of {@code max_bytes} (error {@code UE_LIMIT_BYTES}): Go `net/http` `maxFormSize`. */
        public static final long MAX_BYTES = 10485760L;
        /** The registry name of {@link #MAX_BYTES}. */
        public static final String MAX_BYTES_NAME = "max_bytes";
        /** The error of {@link #MAX_BYTES}. */
        public static final ErrorCode MAX_BYTES_ERROR = ErrorCode.UE_LIMIT_BYTES;

        /** Every urlencoded limit name the parser takes, in registry order. */
        public static final java.util.List<String> NAMES = java.util.List.of("max_pairs", "max_bytes");
    }

    /** Limits of the clone format. */
    public static final class Clone {
        private Clone() {}

        /** Default of {@code max_depth} (error {@code SC_LIMIT_DEPTH}): Nesting of containers; keeps recursion bounded in every language (V8's own bound is its stack). */
        public static final long MAX_DEPTH = 1000L;
        /** The registry name of {@link #MAX_DEPTH}. */
        public static final String MAX_DEPTH_NAME = "max_depth";
        /** The error of {@link #MAX_DEPTH}. */
        public static final ErrorCode MAX_DEPTH_ERROR = ErrorCode.SC_LIMIT_DEPTH;

        /** Default of {@code max_bytes} (error {@code SC_LIMIT_BYTES}): Input size accepted by `decode`. */
        public static final long MAX_BYTES = 268435456L;
        /** The registry name of {@link #MAX_BYTES}. */
        public static final String MAX_BYTES_NAME = "max_bytes";
        /** The error of {@link #MAX_BYTES}. */
        public static final ErrorCode MAX_BYTES_ERROR = ErrorCode.SC_LIMIT_BYTES;

        /** Default of {@code max_values} (error {@code SC_LIMIT_VALUES}): Values decoded (SC-L-05): each becomes an object of the caller's language, dozens of bytes each, so `max_bytes` alone lets 256 MiB of one-byte values cost gigabytes. */
        public static final long MAX_VALUES = 10000000L;
        /** The registry name of {@link #MAX_VALUES}. */
        public static final String MAX_VALUES_NAME = "max_values";
        /** The error of {@link #MAX_VALUES}. */
        public static final ErrorCode MAX_VALUES_ERROR = ErrorCode.SC_LIMIT_VALUES;

        /** Default of {@code max_bigint_bytes} (error {@code SC_LIMIT_BIGINT}): A BigInt's digit bytes (SC-L-06), about 2.5 million decimal digits; converting or printing longer ones costs seconds in several languages. */
        public static final long MAX_BIGINT_BYTES = 1048576L;
        /** The registry name of {@link #MAX_BIGINT_BYTES}. */
        public static final String MAX_BIGINT_BYTES_NAME = "max_bigint_bytes";
        /** The error of {@link #MAX_BIGINT_BYTES}. */
        public static final ErrorCode MAX_BIGINT_BYTES_ERROR = ErrorCode.SC_LIMIT_BIGINT;

        /** Every clone limit name the parser takes, in registry order. */
        public static final java.util.List<String> NAMES = java.util.List.of("max_depth", "max_bytes", "max_values", "max_bigint_bytes");
    }
}
