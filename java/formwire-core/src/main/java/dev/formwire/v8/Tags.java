package dev.formwire.v8;

/**
 * The V8 ValueSerializer tag bytes (SC-W-04) and Error subtags (SC-W-20, {@code ERROR_*}), named as in
 * spec/v8-tags.json, the one table of them: scripts/check-v8-tags.py checks these constants against it. The view
 * subtags (SC-W-19) are {@link ViewKind}'s.
 */
final class Tags {
    private Tags() {}

    /** Version header (offset 0 only). */
    static final byte VERSION = (byte) 0xFF;
    /** Padding. */
    static final byte PADDING = (byte) 0x00;
    /** Verify-count prefix, not a value. */
    static final byte VERIFY_COUNT = '?';
    /** Hole (dense array elements only). */
    static final byte HOLE = '-';
    /** Undefined. */
    static final byte UNDEFINED = '_';
    /** Null. */
    static final byte NULL = '0';
    /** True. */
    static final byte TRUE = 'T';
    /** False. */
    static final byte FALSE = 'F';
    /** Int32 (zigzag varint). */
    static final byte INT32 = 'I';
    /** Uint32 (varint). */
    static final byte UINT32 = 'U';
    /** Double. */
    static final byte DOUBLE = 'N';
    /** BigInt. */
    static final byte BIGINT = 'Z';
    /** UTF-8 string. */
    static final byte UTF8 = 'S';
    /** Latin-1 string. */
    static final byte ONE_BYTE = '"';
    /** UTF-16LE string. */
    static final byte TWO_BYTE = 'c';
    /** Reference to an earlier object. */
    static final byte REF = '^';
    /** Object begin. */
    static final byte OBJECT = 'o';
    /** Object end. */
    static final byte OBJECT_END = '{';
    /** Sparse array begin. */
    static final byte SPARSE = 'a';
    /** Sparse array end. */
    static final byte SPARSE_END = '@';
    /** Dense array begin. */
    static final byte DENSE = 'A';
    /** Dense array end. */
    static final byte DENSE_END = '$';
    /** Date. */
    static final byte DATE = 'D';
    /** Boolean object true. */
    static final byte TRUE_OBJECT = 'y';
    /** Boolean object false. */
    static final byte FALSE_OBJECT = 'x';
    /** Number object. */
    static final byte NUMBER_OBJECT = 'n';
    /** BigInt object. */
    static final byte BIGINT_OBJECT = 'z';
    /** String object. */
    static final byte STRING_OBJECT = 's';
    /** RegExp. */
    static final byte REGEXP = 'R';
    /** Map begin. */
    static final byte MAP = ';';
    /** Map end. */
    static final byte MAP_END = ':';
    /** Set begin. */
    static final byte SET = '\'';
    /** Set end. */
    static final byte SET_END = ',';
    /** ArrayBuffer. */
    static final byte ARRAY_BUFFER = 'B';
    /** Resizable ArrayBuffer. */
    static final byte RESIZABLE_BUFFER = '~';
    /** Transferred ArrayBuffer (in-process). */
    static final byte BUFFER_TRANSFER = 't';
    /** View of the preceding buffer. */
    static final byte VIEW = 'V';
    /** SharedArrayBuffer (in-process). */
    static final byte SHARED_BUFFER = 'u';
    /** Shared object (in-process). */
    static final byte SHARED_OBJECT = 'p';
    /** Wasm module (in-process). */
    static final byte WASM_MODULE = 'w';
    /** Host object (embedder payload). */
    static final byte HOST = '\\';
    /** Wasm memory (in-process). */
    static final byte WASM_MEMORY = 'm';
    /** Error. */
    static final byte ERROR = 'r';

    /** Error subtag: prototype EvalError. */
    static final byte ERROR_EVAL = 'E';
    /** Error subtag: prototype RangeError. */
    static final byte ERROR_RANGE = 'R';
    /** Error subtag: prototype ReferenceError. */
    static final byte ERROR_REFERENCE = 'F';
    /** Error subtag: prototype SyntaxError. */
    static final byte ERROR_SYNTAX = 'S';
    /** Error subtag: prototype TypeError. */
    static final byte ERROR_TYPE = 'T';
    /** Error subtag: prototype URIError. */
    static final byte ERROR_URI = 'U';
    /** Error subtag: message (a string follows). */
    static final byte ERROR_MESSAGE = 'm';
    /** Error subtag: cause (a value follows). */
    static final byte ERROR_CAUSE = 'c';
    /** Error subtag: stack (a string follows). */
    static final byte ERROR_STACK = 's';
    /** Error subtag: end of the Error. */
    static final byte ERROR_END = '.';
}
