package dev.formwire.spring.webflux.boot;

import dev.formwire.multipart.MultipartOptions;
import dev.formwire.spring.webflux.FormwireCodecs;
import org.springframework.boot.http.codec.CodecCustomizer;
import org.springframework.http.codec.CodecConfigurer;
import org.springframework.http.codec.ServerCodecConfigurer;

/**
 * A Spring Boot {@link CodecCustomizer} that makes formwire the WebFlux server's multipart reader
 * ({@link FormwireCodecs#install}). Boot applies every {@code CodecCustomizer} bean to the server's codecs and to
 * {@code WebClient}'s; client codecs (which write, not read, multipart) are left as they are.
 *
 * <p>{@link FormwireWebFluxAutoConfiguration} declares one with the default limits and Spring's leniencies; declare
 * your own bean to set limits: {@code @Bean FormwireCodecCustomizer formwire() { return new FormwireCodecCustomizer(
 * FormwireCodecs.springCompatible(new MultipartOptions().maxFileBytes(100L << 20))); }}
 */
public final class FormwireCodecCustomizer implements CodecCustomizer {
    private final MultipartOptions options;

    /**
     * The default limits of spec/limits.md with the leniencies of Spring's own readers
     * ({@link FormwireCodecs#springCompatible}), so that switching readers rejects nothing Spring's accepted.
     */
    public FormwireCodecCustomizer() {
        this(FormwireCodecs.springCompatible(new MultipartOptions()));
    }

    /** With the given limits and lenient options, as given ({@code new MultipartOptions()}: the strict profile). */
    public FormwireCodecCustomizer(MultipartOptions options) {
        this.options = options.clone();
    }

    @Override
    public void customize(CodecConfigurer configurer) {
        if (configurer instanceof ServerCodecConfigurer) {
            FormwireCodecs.install((ServerCodecConfigurer) configurer, options);
        }
    }
}
