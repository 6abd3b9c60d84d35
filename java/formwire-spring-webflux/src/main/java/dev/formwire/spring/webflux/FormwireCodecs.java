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
 *     FormwireCodecs.install(configurer, FormwireCodecs.springCompatible(new MultipartOptions().maxFileBytes(100 << 20)));
 * }
 * // or, with Spring Boot: a CodecCustomizer bean
 * @Bean CodecCustomizer formwire() { return c -> FormwireCodecs.install((ServerCodecConfigurer) c, new MultipartOptions()); }
 * }</pre>
 */
public final class FormwireCodecs {
    private FormwireCodecs() {}

    /**
     * A copy of {@code options} with the leniencies of Spring's own readers ({@code DefaultPartHttpMessageReader},
     * {@code PartEventHttpMessageReader}, spring-web {@code MultipartParser}), so that formwire's readers accept the
     * bodies those accept: {@code allowPreamble} (Spring skips everything before the first {@code --B}, RFC 2046),
     * {@code allowMissingDisposition} (Spring delivers parts without Content-Disposition, RFC 2046 bodies: a part
     * whose {@code name()} throws {@link IllegalStateException}, as Spring's), {@code allowUtf8HeaderNames} (Spring
     * decodes header lines as UTF-8 and takes any name before the colon), {@code allowJunkAfterClose} (Spring stops
     * reading at {@code --B--}), {@code allowAnyDispositionType} (Spring never checks the disposition type) and
     * {@code allow8bitParameterNames} (Spring's {@code ContentDisposition.parse} takes any attribute name before
     * {@code =} and ignores the ones it does not know, such as {@code <A0>filename}). The
     * limits are those of {@code options}. The readers' and {@link dev.formwire.spring.webflux.boot.FormwireCodecCustomizer}'s
     * no-argument constructors use {@code springCompatible(new MultipartOptions())}; the constructors that take
     * options use them as given ({@code new MultipartOptions()} is formwire's strict profile).
     */
    public static MultipartOptions springCompatible(MultipartOptions options) {
        return options.clone().allowPreamble(true).allowMissingDisposition(true).allowUtf8HeaderNames(true)
                .allowJunkAfterClose(true).allowAnyDispositionType(true).allow8bitParameterNames(true);
    }

    /**
     * Makes formwire the default multipart reader ({@code Part}s and {@code MultiValueMap<String, Part>}) and registers
     * the {@code PartEvent} reader (custom readers come before the defaults).
     */
    public static void install(ServerCodecConfigurer configurer, MultipartOptions options) {
        configurer.defaultCodecs().multipartReader(new MultipartHttpMessageReader(new FormwirePartHttpMessageReader(options)));
        configurer.customCodecs().register(new FormwirePartEventHttpMessageReader(options));
    }
}
