package dev.formwire.spring.webflux;

import dev.formwire.FormwireException;
import org.springframework.core.codec.DecodingException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * A malformed body, as Spring's reader signals it ({@link DecodingException}: WebFlux's {@code bodyToFlux} and
 * annotated controllers answer 400). The {@code @ResponseStatus} gives the same 400 where WebFlux maps nothing itself
 * ({@code multipartData()}, {@code getMultipartData()}).
 */
@ResponseStatus(HttpStatus.BAD_REQUEST)
public class FormwireDecodingException extends DecodingException implements FormwireError {
    private static final long serialVersionUID = 1L;

    /** Wraps {@code cause}, which is the formwire error. */
    public FormwireDecodingException(FormwireException cause) {
        super(cause.getMessage(), cause);
    }

    @Override
    public FormwireException formwire() {
        return (FormwireException) getCause();
    }
}
