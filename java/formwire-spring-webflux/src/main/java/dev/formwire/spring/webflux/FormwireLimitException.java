package dev.formwire.spring.webflux;

import dev.formwire.FormwireException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * A limit (other than the part count), as Spring's reader signals its header, field, part-size and disk limits
 * ({@link DataBufferLimitException}: annotated controllers answer 413). The {@code @ResponseStatus} gives the same 413
 * where WebFlux maps nothing itself ({@code multipartData()}, {@code getMultipartData()}, {@code bodyToFlux}).
 */
@ResponseStatus(HttpStatus.CONTENT_TOO_LARGE)
public class FormwireLimitException extends DataBufferLimitException implements FormwireError {
    private static final long serialVersionUID = 1L;

    private final FormwireException formwire;

    /** Wraps {@code cause}, which is the formwire error. */
    public FormwireLimitException(FormwireException cause) {
        super(cause.getMessage(), cause);
        this.formwire = cause;
    }

    @Override
    public FormwireException formwire() {
        return formwire;
    }
}
