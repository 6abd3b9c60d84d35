package dev.formwire;

/**
 * Bad input or an exceeded limit: a stable {@link ErrorCode} from {@code spec/errors.md} and a byte offset.
 *
 * <p>The offset counts from the first byte ever fed, across all chunks (for encoder errors: the index of the offending
 * entry). "Need more data" is never an exception; running out of input is one only at {@code finish()}.
 * {@link #httpStatus()} is the answer a server gives: 413 for a limit, 400 for malformed input.
 */
public final class FormwireException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final long offset;

    /** An error with a code and an offset; the message is derived from them. */
    public FormwireException(ErrorCode code, long offset) {
        this(code, offset, null);
    }

    /** An error with a code, an offset and a human detail (not part of the contract). */
    public FormwireException(ErrorCode code, long offset, String detail) {
        super(code.name() + " at offset " + offset + (detail == null ? "" : ": " + detail), null, false, false);
        this.code = code;
        this.offset = offset;
    }

    /** The stable error code. */
    public ErrorCode code() {
        return code;
    }

    /** The byte offset the code's definition names. */
    public long offset() {
        return offset;
    }

    /** 413 for a limit, 400 for malformed input, 0 for encoder errors (caller mistakes, not input). */
    public int httpStatus() {
        return code.httpStatus();
    }

    /** {@code true} when a named limit was exceeded. */
    public boolean isLimit() {
        return code.isLimit();
    }
}
