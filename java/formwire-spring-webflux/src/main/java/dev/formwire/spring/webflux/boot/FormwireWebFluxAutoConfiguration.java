package dev.formwire.spring.webflux.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.http.codec.CodecCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot auto-configuration: with formwire-spring-webflux on the class path, a WebFlux application reads
 * multipart bodies with formwire (no code change). Off with {@code formwire.webflux.enabled=false}; a
 * {@link FormwireCodecCustomizer} bean of the application's own (its limits) replaces the default one.
 */
@AutoConfiguration
@ConditionalOnClass(CodecCustomizer.class)
@ConditionalOnProperty(name = "formwire.webflux.enabled", havingValue = "true", matchIfMissing = true)
public class FormwireWebFluxAutoConfiguration {
    /** The customizer with the default limits and Spring's leniencies, unless the application declares one. */
    @Bean
    @ConditionalOnMissingBean
    public FormwireCodecCustomizer formwireCodecCustomizer() {
        return new FormwireCodecCustomizer();
    }
}
