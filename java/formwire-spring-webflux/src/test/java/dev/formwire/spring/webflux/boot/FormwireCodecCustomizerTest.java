package dev.formwire.spring.webflux.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.multipart.MultipartOptions;
import dev.formwire.spring.webflux.FormwirePartEventHttpMessageReader;
import dev.formwire.spring.webflux.FormwirePartHttpMessageReader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.http.codec.ClientCodecConfigurer;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;

/** The Boot CodecCustomizer and its auto-configuration, without starting a Boot application. */
class FormwireCodecCustomizerTest {
    static List<HttpMessageReader<?>> readers(ServerCodecConfigurer c) {
        return c.getReaders();
    }

    @Test
    void customizesServerCodecs() {
        ServerCodecConfigurer server = ServerCodecConfigurer.create();
        new FormwireCodecCustomizer().customize(server);
        List<HttpMessageReader<?>> r = readers(server);
        assertTrue(r.stream().anyMatch(x -> x instanceof FormwirePartEventHttpMessageReader), r.toString());
        MultipartHttpMessageReader mp = (MultipartHttpMessageReader) r.stream()
                .filter(x -> x instanceof MultipartHttpMessageReader).findFirst().orElseThrow();
        assertTrue(mp.getPartReader() instanceof FormwirePartHttpMessageReader, mp.getPartReader().toString());
        // Spring's own part reader is gone: formwire's is the only Part reader.
        assertFalse(r.stream().anyMatch(x -> x.getClass().getName().endsWith("DefaultPartHttpMessageReader")));
        // The custom PartEvent reader comes before any default one.
        int ours = indexOf(r, FormwirePartEventHttpMessageReader.class.getName());
        int spring = indexOf(r, "org.springframework.http.codec.multipart.PartEventHttpMessageReader");
        assertTrue(spring < 0 || ours < spring, r.toString());
    }

    static int indexOf(List<HttpMessageReader<?>> r, String cls) {
        for (int i = 0; i < r.size(); i++) {
            if (r.get(i).getClass().getName().equals(cls)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void leavesClientCodecsAlone() {
        ClientCodecConfigurer client = ClientCodecConfigurer.create();
        int before = client.getReaders().size();
        new FormwireCodecCustomizer().customize(client);
        assertEquals(before, client.getReaders().size());
        assertFalse(client.getReaders().stream().anyMatch(x -> x.getClass().getName().startsWith("dev.formwire")));
    }

    @Test
    void autoConfigurationIsListedForBoot() throws Exception {
        try (InputStream in = getClass().getResourceAsStream(
                "/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")) {
            String listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(FormwireWebFluxAutoConfiguration.class.getName(), listed);
        }
    }

    @Test
    void autoConfigurationDeclaresTheCustomizer() {
        try (AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext(
                FormwireWebFluxAutoConfiguration.class)) {
            assertEquals(1, ctx.getBeansOfType(FormwireCodecCustomizer.class).size());
        }
    }

    @Configuration
    static class Own {
        static final FormwireCodecCustomizer MINE = new FormwireCodecCustomizer(new MultipartOptions().maxParts(5));

        @Bean
        FormwireCodecCustomizer mine() {
            return MINE;
        }
    }

    @Test
    void anApplicationsOwnCustomizerWins() {
        try (AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext()) {
            ctx.register(Own.class);
            ctx.register(FormwireWebFluxAutoConfiguration.class);
            ctx.refresh();
            assertSame(Own.MINE, ctx.getBean(FormwireCodecCustomizer.class));
        }
    }

    @Test
    void offByProperty() {
        try (AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext()) {
            // A property source of this context only (the system properties would leak into the other tests).
            ctx.getEnvironment().getPropertySources().addFirst(
                    new MapPropertySource("test", Map.of("formwire.webflux.enabled", "false")));
            ctx.register(FormwireWebFluxAutoConfiguration.class);
            ctx.refresh();
            assertEquals(0, ctx.getBeansOfType(FormwireCodecCustomizer.class).size());
        }
    }
}
