package dev.formwire.spring.webflux;

import dev.formwire.multipart.MultipartOptions;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;

/**
 * Switches a WebFlux application to formwire's multipart readers by configuration only.
 *
 * <pre>{@code
 * // WebFluxConfigurer
 * public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
 *     FormwireCodecs.install(configurer, new MultipartOptions().maxFileBytes(100 << 20));
 * }
 * // or, with Spring Boot: a CodecCustomizer bean
 * @Bean CodecCustomizer formwire() { return c -> FormwireCodecs.install((ServerCodecConfigurer) c, new MultipartOptions()); }
 * }</pre>
 */
public final class FormwireCodecs {
    private FormwireCodecs() {}

    /**
     * Makes formwire the default multipart reader ({@code Part}s and {@code MultiValueMap<String, Part>}) and registers
     * the {@code PartEvent} reader (custom readers come before the defaults).
     */
    public static void install(ServerCodecConfigurer configurer, MultipartOptions options) {
        configurer.defaultCodecs().multipartReader(new MultipartHttpMessageReader(new FormwirePartHttpMessageReader(options)));
        configurer.customCodecs().register(new FormwirePartEventHttpMessageReader(options));
    }
}
