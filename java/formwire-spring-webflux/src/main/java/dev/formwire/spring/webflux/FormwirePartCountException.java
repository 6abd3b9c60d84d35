package dev.formwire.spring.webflux;

import dev.formwire.FormwireException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ResponseStatus;

/**
 * Too many parts ({@code MP_LIMIT_PARTS}): a {@link org.springframework.core.codec.DecodingException} as Spring's
 * reader raises for its {@code maxParts} (so {@code bodyToFlux} and annotated controllers answer 400, as with Spring's
 * reader), while formwire's status (413, a limit) is {@link #status()} and the answer where WebFlux maps nothing itself.
 */
@ResponseStatus(HttpStatus.CONTENT_TOO_LARGE)
public class FormwirePartCountException extends FormwireDecodingException {
    private static final long serialVersionUID = 1L;

    /** Wraps {@code cause}, which is the formwire error. */
    public FormwirePartCountException(FormwireException cause) {
        super(cause);
    }
}
