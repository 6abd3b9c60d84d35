package dev.formwire.spring.webflux;

import dev.formwire.multipart.MultipartOptions;
import java.util.List;
import java.util.Map;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Streams a {@code multipart/form-data} body as Spring {@link PartEvent}s, parsed by formwire: a
 * {@link org.springframework.http.codec.multipart.FormPartEvent} per field, and per file part a
 * {@link org.springframework.http.codec.multipart.FilePartEvent} for each body slice (views, not copies) and a last
 * one with empty content and {@code isLast()}. Nothing is buffered beyond one upstream buffer and one field; demand
 * flows upstream one buffer at a time. Errors are Spring's reader's types, implementing {@link FormwireError} (code,
 * offset, status): {@link FormwireDecodingException} for malformed bodies, {@link FormwirePartCountException} for too
 * many parts, {@link FormwireLimitException} for the other limits.
 */
public final class FormwirePartEventHttpMessageReader implements HttpMessageReader<PartEvent> {
    private final MultipartOptions options;

    /**
     * A drop-in for Spring's {@code PartEventHttpMessageReader}: the default limits with Spring's leniencies
     * ({@link FormwireCodecs#springCompatible}).
     */
    public FormwirePartEventHttpMessageReader() {
        this(FormwireCodecs.springCompatible(new MultipartOptions()));
    }

    /** With the given limits and lenient options, as given ({@code new MultipartOptions()}: the strict profile). */
    public FormwirePartEventHttpMessageReader(MultipartOptions options) {
        this.options = options.clone();
    }

    @Override
    public List<MediaType> getReadableMediaTypes() {
        return List.of(MediaType.MULTIPART_FORM_DATA);
    }

    @Override
    public boolean canRead(ResolvableType elementType, MediaType mediaType) {
        return PartEvent.class.isAssignableFrom(elementType.toClass())
                && (mediaType == null || MediaType.MULTIPART_FORM_DATA.isCompatibleWith(mediaType));
    }

    @Override
    public Flux<PartEvent> read(ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Events.parse(message.getBody(), message.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE), options);
    }

    @Override
    public Mono<PartEvent> readMono(ResolvableType elementType, ReactiveHttpInputMessage message,
            Map<String, Object> hints) {
        return Mono.error(new UnsupportedOperationException("a multipart body is a stream of PartEvents: use read()"));
    }
}
