// generated from spec/registry.json by scripts/registry/gen.py, do not edit
package dev.formwire;

/** The stable error codes of {@code spec/errors.md}, with their kind and HTTP status. */
public enum ErrorCode {
    /** The Content-Type is not `multipart/form-data` (after MIME-type parsing) or cannot be parsed. Offset: 0. */
    MP_CONTENT_TYPE("multipart", Kind.MALFORMED, 400),
    /** The `boundary` parameter is missing, empty, or contains CR, LF or NUL. Offset: 0. */
    MP_BOUNDARY("multipart", Kind.MALFORMED, 400),
    /** Strict profile: the body does not begin with `--boundary` (a preamble, or any other first byte). Offset: the first byte that does not match `--boundary`. */
    MP_PREAMBLE("multipart", Kind.MALFORMED, 400),
    /** A delimiter line continues with something other than transport padding (SP/HT) then CRLF, or (close delimiter) padding then CRLF or end of input. Examples: `--boundary--junk`, `--boundaryX` as the very first line. Offset: the first offending byte. */
    MP_DELIMITER("multipart", Kind.MALFORMED, 400),
    /** A header line does not match `[OWS] token OWS ":"` (no colon, empty name, a byte that is not a token character before the colon). Leading OWS is allowed on the first header line of a part only (WPT). Offset: the first byte at which the line can no longer match. */
    MP_HEADER_NAME("multipart", Kind.MALFORMED, 400),
    /** A header line contains NUL, a CR not followed by LF, or (strict) an LF not preceded by CR. Offset: that byte. */
    MP_HEADER_VALUE("multipart", Kind.MALFORMED, 400),
    /** Strict profile: a header line after the first one of a part begins with SP or HT (obs-fold). Offset: that SP/HT byte. */
    MP_OBS_FOLD("multipart", Kind.MALFORMED, 400),
    /** A header block ended without a `Content-Disposition` header (including a part with no headers at all). Offset: the line start of the empty line that ends the header block. */
    MP_NO_DISPOSITION("multipart", Kind.MALFORMED, 400),
    /** The `Content-Disposition` value is not `form-data` with a `name` parameter, cannot be parsed (e.g. an unterminated quoted string), or a part has a second `Content-Disposition` header. Offset: the line start of that Content-Disposition header line. */
    MP_DISPOSITION("multipart", Kind.MALFORMED, 400),
    /** The input ended before the close delimiter (inside the headers, inside a body, or right after a delimiter). Offset: the total input length. */
    MP_TRUNCATED("multipart", Kind.MALFORMED, 400),
    /** The boundary is longer than `max_boundary_bytes`. Offset: 0. */
    MP_LIMIT_BOUNDARY("multipart", Kind.LIMIT, 413),
    /** The body has more than `max_parts` parts. Offset: the line start of the first header line of part number `max_parts + 1` (just after its delimiter line). */
    MP_LIMIT_PARTS("multipart", Kind.LIMIT, 413),
    /** The body has more than `max_files` parts with a `filename` (MP-L-05). Offset: the line start of the first header line of file part number `max_files + 1` (as `MP_LIMIT_PARTS`). */
    MP_LIMIT_FILES("multipart", Kind.LIMIT, 413),
    /** The body has more than `max_fields` parts without `filename` (MP-L-05). Offset: the line start of the first header line of field part number `max_fields + 1` (as `MP_LIMIT_PARTS`). */
    MP_LIMIT_FIELDS("multipart", Kind.LIMIT, 413),
    /** A part has more than `max_headers` header lines. Offset: the line start of header line number `max_headers + 1`. */
    MP_LIMIT_HEADERS("multipart", Kind.LIMIT, 413),
    /** A part's header block (every header line with its CRLF, not counting the empty line) is longer than `max_header_bytes`. Offset: header block start + `max_header_bytes` (the first byte over the limit). */
    MP_LIMIT_HEADER_BYTES("multipart", Kind.LIMIT, 413),
    /** A part without `filename` has a body longer than `max_field_bytes`. Offset: body start + `max_field_bytes`. */
    MP_LIMIT_FIELD_BYTES("multipart", Kind.LIMIT, 413),
    /** The bodies of all parts without `filename` together are longer than `max_total_field_bytes` (`MP_LIMIT_FIELD_BYTES` wins when both fire at one byte). Offset: the body byte that makes the sum `max_total_field_bytes + 1`. */
    MP_LIMIT_TOTAL_FIELD_BYTES("multipart", Kind.LIMIT, 413),
    /** A part with `filename` has a body longer than `max_file_bytes`. Offset: body start + `max_file_bytes`. */
    MP_LIMIT_FILE_BYTES("multipart", Kind.LIMIT, 413),
    /** The input is longer than `max_total_bytes`. Offset: `max_total_bytes`. */
    MP_LIMIT_TOTAL_BYTES("multipart", Kind.LIMIT, 413),
    /** A spooling form reader would write more than `max_disk_bytes` of file contents to temp files for one body (MP-L-06; never raised by the streaming parser). Offset: the file body byte that would make the temp files' total `max_disk_bytes + 1`. */
    MP_LIMIT_DISK_BYTES("multipart", Kind.LIMIT, 413),
    /** A caller-given boundary is not 1 to 70 characters of `[0-9A-Za-z'()+_,-./:=? ]` or ends in a space. Offset: 0. */
    MP_ENCODE_BOUNDARY("multipart", Kind.ENCODE, 0),
    /** An entry's content type contains CR, LF or NUL (would inject headers). Offset: the entry's index. */
    MP_ENCODE_HEADER("multipart", Kind.ENCODE, 0),
    /** More than `max_pairs` name-value pairs (empty sequences between `&` are not pairs). Offset: the first byte of pair number `max_pairs + 1`. */
    UE_LIMIT_PAIRS("urlencoded", Kind.LIMIT, 413),
    /** The input is longer than `max_bytes`. Offset: `max_bytes`. */
    UE_LIMIT_BYTES("urlencoded", Kind.LIMIT, 413),
    /** The input ended inside a value. Offset: the total input length. */
    SC_TRUNCATED("clone", Kind.MALFORMED, 400),
    /** No `FF` version header, or a version outside 13..=15. Offset: 0. */
    SC_VERSION("clone", Kind.MALFORMED, 400),
    /** An unknown tag, a reserved legacy tag, a tag where it is not allowed (e.g. `-` hole outside a dense array, an end tag with no open container), a non-string where a string is required, a bad Error subtag, bytes after the top-level value, or a well-formed item with an impossible value (BigInt -0n, a resizable buffer longer than its maximum, unknown RegExp flag bits). Offset: the tag (for trailing bytes: the first byte after the value). */
    SC_TAG("clone", Kind.MALFORMED, 400),
    /** A varint longer than its type allows (more than 5 bytes for u32, 10 for u64) or a value above 2^32−1 where a u32 is read. Offset: the first byte of the varint. */
    SC_VARINT("clone", Kind.MALFORMED, 400),
    /** A `^` back-reference to an id not yet assigned. Offset: the tag. */
    SC_REF("clone", Kind.MALFORMED, 400),
    /** An end tag whose property count or length does not match what was read. Offset: the end tag. */
    SC_COUNT("clone", Kind.MALFORMED, 400),
    /** A two-byte string with an odd byte length, or a `S` string that is not valid UTF-8. Offset: the tag. */
    SC_STRING("clone", Kind.MALFORMED, 400),
    /** An object or array property key that is not a string or number, a number key that is not a safe integer, a duplicate key, or a `length` key on an array. Offset: the key's tag. */
    SC_KEY("clone", Kind.MALFORMED, 400),
    /** A view that is not directly after its buffer, has an unknown subtag, is out of bounds, or is misaligned for its element size. Offset: the tag. */
    SC_VIEW("clone", Kind.MALFORMED, 400),
    /** A host object (`\`) that is not one of Node's typed-array encodings, or a malformed one. Offset: the tag. */
    SC_HOST("clone", Kind.MALFORMED, 400),
    /** A tag that only has meaning inside one process (`u` SharedArrayBuffer, `t` transfer, `w` wasm module, `m` wasm memory, `p` shared object). Offset: the tag. */
    SC_UNSUPPORTED("clone", Kind.UNSUPPORTED, 400),
    /** Nesting deeper than `max_depth`. Offset: the tag that would open level `max_depth + 1`. */
    SC_LIMIT_DEPTH("clone", Kind.LIMIT, 413),
    /** The input is longer than `max_bytes`. Offset: 0. */
    SC_LIMIT_BYTES("clone", Kind.LIMIT, 413),
    /** More than `max_values` values: the root, property values, array elements, Map keys and values, Set values, Error causes, back-references included (SC-L-05). Offset: the tag of value number `max_values + 1`. */
    SC_LIMIT_VALUES("clone", Kind.LIMIT, 413),
    /** A BigInt (or BigInt wrapper) with more than `max_bigint_bytes` digit bytes. Offset: the tag (`Z`, or `z` for a wrapper). */
    SC_LIMIT_BIGINT("clone", Kind.LIMIT, 413),
    /** The value cannot be cloned (function, symbol, WeakMap, Promise, Proxy, detached buffer, ...). The TS `clone()` throws a `DOMException` named `DataCloneError` with this code, like `structuredClone`. */
    SC_DATA_CLONE("clone", Kind.ENCODE, 0);

    /** What kind of failure a code is. */
    public enum Kind {
        /** Registry kind {@code encode}. */
        ENCODE,
        /** Registry kind {@code limit}. */
        LIMIT,
        /** Registry kind {@code malformed}. */
        MALFORMED,
        /** Registry kind {@code unsupported}. */
        UNSUPPORTED,
    }

    private final String format;
    private final Kind kind;
    private final int httpStatus;

    ErrorCode(String format, Kind kind, int httpStatus) {
        this.format = format;
        this.kind = kind;
        this.httpStatus = httpStatus;
    }

    /** The format: {@code multipart}, {@code urlencoded} or {@code clone}. */
    public String format() {
        return format;
    }

    /** The kind of failure. */
    public Kind kind() {
        return kind;
    }

    /** The HTTP status a server answers with (413 for a limit, 400 for malformed input); 0 for encoder errors. */
    public int httpStatus() {
        return httpStatus;
    }

    /** {@code true} for a limit error (HTTP 413). */
    public boolean isLimit() {
        return kind == Kind.LIMIT;
    }
}
