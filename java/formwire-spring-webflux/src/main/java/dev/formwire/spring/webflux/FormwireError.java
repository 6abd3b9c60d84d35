package dev.formwire.spring.webflux;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;

/**
 * What the readers' exceptions carry besides Spring's type: formwire's stable code (spec/errors.md), the byte offset
 * and the HTTP status formwire gives it (413 for a limit, 400 for malformed input). The {@link FormwireException} is
 * also the exception's cause.
 */
public interface FormwireError {
    /** The formwire exception this one wraps. */
    FormwireException formwire();

    /** The stable error code. */
    default ErrorCode code() {
        return formwire().code();
    }

    /** The byte offset the code's definition names. */
    default long offset() {
        return formwire().offset();
    }

    /** formwire's answer: 413 for a limit, 400 for malformed input. */
    default int status() {
        return formwire().httpStatus();
    }
}
