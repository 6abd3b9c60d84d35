# generated from spec/registry.json by scripts/registry/gen.py, do not edit
"""The limits and error codes of spec/registry.json (edit that file, then `make registry`)."""

from __future__ import annotations

# Default of every named limit (spec/limits.md), by format.
DEFAULTS: dict[str, dict[str, int]] = {
    "multipart": {
        "max_boundary_bytes": 256,
        "max_parts": 1000,
        "max_files": 1000,
        "max_fields": 1000,
        "max_headers": 8,
        "max_header_bytes": 8192,
        "max_field_bytes": 1048576,
        "max_total_field_bytes": 10485760,
        "max_file_bytes": 10737418240,
        "max_total_bytes": 21474836480,
    },
    "urlencoded": {
        "max_pairs": 10000,
        "max_bytes": 10485760,
    },
    "clone": {
        "max_depth": 1000,
        "max_bytes": 268435456,
        "max_values": 10000000,
        "max_bigint_bytes": 1048576,
    },
}

# Limits of the whole-form readers that spool files (registry layer `form`), by format.
FORM_DEFAULTS: dict[str, dict[str, int]] = {
    "multipart": {
        "max_disk_bytes": 10737418240,
    },
}

# The lenient options (all off by default), by format.
FLAGS: dict[str, tuple[str, ...]] = {
    "multipart": (
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
    ),
    "urlencoded": (),
    "clone": (),
}

# Each code's kind and the HTTP status a server answers with (None: an encoder error).
ERRORS: dict[str, tuple[str, int | None]] = {
    "MP_CONTENT_TYPE": ("malformed", 400),
    "MP_BOUNDARY": ("malformed", 400),
    "MP_PREAMBLE": ("malformed", 400),
    "MP_DELIMITER": ("malformed", 400),
    "MP_HEADER_NAME": ("malformed", 400),
    "MP_HEADER_VALUE": ("malformed", 400),
    "MP_OBS_FOLD": ("malformed", 400),
    "MP_NO_DISPOSITION": ("malformed", 400),
    "MP_DISPOSITION": ("malformed", 400),
    "MP_TRUNCATED": ("malformed", 400),
    "MP_LIMIT_BOUNDARY": ("limit", 413),
    "MP_LIMIT_PARTS": ("limit", 413),
    "MP_LIMIT_FILES": ("limit", 413),
    "MP_LIMIT_FIELDS": ("limit", 413),
    "MP_LIMIT_HEADERS": ("limit", 413),
    "MP_LIMIT_HEADER_BYTES": ("limit", 413),
    "MP_LIMIT_FIELD_BYTES": ("limit", 413),
    "MP_LIMIT_TOTAL_FIELD_BYTES": ("limit", 413),
    "MP_LIMIT_FILE_BYTES": ("limit", 413),
    "MP_LIMIT_TOTAL_BYTES": ("limit", 413),
    "MP_LIMIT_DISK_BYTES": ("limit", 413),
    "MP_ENCODE_BOUNDARY": ("encode", None),
    "MP_ENCODE_HEADER": ("encode", None),
    "UE_LIMIT_PAIRS": ("limit", 413),
    "UE_LIMIT_BYTES": ("limit", 413),
    "SC_TRUNCATED": ("malformed", 400),
    "SC_VERSION": ("malformed", 400),
    "SC_TAG": ("malformed", 400),
    "SC_VARINT": ("malformed", 400),
    "SC_REF": ("malformed", 400),
    "SC_COUNT": ("malformed", 400),
    "SC_STRING": ("malformed", 400),
    "SC_KEY": ("malformed", 400),
    "SC_VIEW": ("malformed", 400),
    "SC_HOST": ("malformed", 400),
    "SC_UNSUPPORTED": ("unsupported", 400),
    "SC_LIMIT_DEPTH": ("limit", 413),
    "SC_LIMIT_BYTES": ("limit", 413),
    "SC_LIMIT_VALUES": ("limit", 413),
    "SC_LIMIT_BIGINT": ("limit", 413),
    "SC_DATA_CLONE": ("encode", None),
}
