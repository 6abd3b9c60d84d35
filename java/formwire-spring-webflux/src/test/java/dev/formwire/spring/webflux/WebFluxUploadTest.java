package dev.formwire.spring.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.multipart.MultipartEncoder;
import dev.formwire.multipart.MultipartOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** A real WebFlux application on Reactor Netty (127.0.0.1), switched to formwire by codec configuration only. */
class WebFluxUploadTest {
    static DisposableServer server;
    static HttpClient client;
    static Path saved;
    /** The last error a handler's body read signalled (the app still answers it: the error is not consumed). */
    static final java.util.concurrent.atomic.AtomicReference<Throwable> lastError = new java.util.concurrent.atomic.AtomicReference<>();

    @BeforeAll
    static void start(@TempDir Path dir) {
        saved = dir;
        RouterFunction<ServerResponse> routes = RouterFunctions
                // The handler is ordinary WebFlux code: multipartData(), FilePart.transferTo.
                .route(POST("/upload"), req -> req.multipartData().doOnError(lastError::set).flatMap(parts -> {
                    StringBuilder sb = new StringBuilder();
                    Mono<Void> all = Mono.empty();
                    for (Map.Entry<String, List<Part>> e : parts.entrySet()) {
                        for (Part p : e.getValue()) {
                            if (p instanceof FormFieldPart) {
                                sb.append(p.name()).append('=').append(((FormFieldPart) p).value()).append('\n');
                            } else {
                                FilePart f = (FilePart) p;
                                Path dest = saved.resolve("saved-" + p.name());
                                sb.append(p.name()).append(" file ").append(f.filename()).append('\n');
                                all = all.then(f.transferTo(dest)).then(f.delete());
                            }
                        }
                    }
                    return all.then(ServerResponse.ok().bodyValue(sb.toString()));
                }))
                // Streaming: PartEvents, body slices counted and hashed as they arrive.
                .andRoute(POST("/events"), req -> req.bodyToFlux(PartEvent.class)
                        .doOnError(lastError::set)
                        .windowUntil(PartEvent::isLast)
                        .concatMap(w -> w.switchOnFirst((first, all) -> {
                            String name = first.get().name();
                            MessageDigest md = sha();
                            AtomicLong n = new AtomicLong();
                            return all.doOnNext(ev -> {
                                DataBuffer d = ev.content();
                                byte[] b = new byte[d.readableByteCount()];
                                d.read(b);
                                DataBufferUtils.release(d);
                                md.update(b);
                                n.addAndGet(b.length);
                            }).then(Mono.fromCallable(() -> name + " " + n.get() + " "
                                    + HexFormat.of().formatHex(md.digest()) + "\n"));
                        }))
                        .collectList()
                        .flatMap(lines -> ServerResponse.ok().bodyValue(String.join("", lines))));
        // Both places WebFlux reads bodies from: the handler strategies (bodyToFlux) and the exchange's codec
        // configurer (multipartData(), getMultipartData()).
        MultipartOptions limits = new MultipartOptions().maxParts(3).maxFieldBytes(100);
        HandlerStrategies strategies = HandlerStrategies.builder().codecs(c -> FormwireCodecs.install(c, limits)).build();
        ServerCodecConfigurer codecs = ServerCodecConfigurer.create();
        FormwireCodecs.install(codecs, limits);
        HttpHandler handler = WebHttpHandlerBuilder.webHandler(RouterFunctions.toWebHandler(routes, strategies))
                .exceptionHandlers(h -> h.addAll(strategies.exceptionHandlers()))
                .codecConfigurer(codecs)
                .build();
        server = HttpServer.create().host("127.0.0.1").port(0)
                .handle(new ReactorHttpHandlerAdapter(handler))
                .bindNow();
        client = HttpClient.newHttpClient();
    }

    @AfterAll
    static void stop() {
        server.disposeNow();
    }

    static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static HttpResponse<String> post(String path, MultipartEncoder form) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Content-Type", form.contentType())
                .POST(form.bodyPublisher())
                .build();
        return client.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    static byte[] big() {
        byte[] b = new byte[3_000_000];
        new java.util.Random(3).nextBytes(b);
        return b;
    }

    @Test
    void uploadThroughMultipartData() throws Exception {
        byte[] big = big();
        MultipartEncoder form = new MultipartEncoder().text("title", "h\u00e9llo").file("doc", "a\"b.bin", "application/x", big);
        HttpResponse<String> r = post("/upload", form);
        assertEquals(200, r.statusCode(), r.body());
        // multipartData() is a map: the order of names is not the body order.
        assertEquals(List.of("doc file a%22b.bin", "title=h\u00e9llo"), r.body().lines().sorted().toList());
        assertEquals(java.util.Arrays.hashCode(big), java.util.Arrays.hashCode(Files.readAllBytes(saved.resolve("saved-doc"))));
    }

    @Test
    void streamingPartEvents() throws Exception {
        byte[] big = big();
        MultipartEncoder form = new MultipartEncoder().text("a", "1").file("f", "f.bin", "", big);
        HttpResponse<String> r = post("/events", form);
        assertEquals(200, r.statusCode(), r.body());
        String want = "a 1 " + HexFormat.of().formatHex(sha().digest("1".getBytes(StandardCharsets.UTF_8))) + "\n"
                + "f " + big.length + " " + HexFormat.of().formatHex(sha().digest(big)) + "\n";
        assertEquals(want, r.body());
    }

    /** The limit is formwire's (max_parts 3, configured in the codec): 413; a malformed body: 400. */
    @Test
    void limitsAnswer413AndMalformedBodies400() throws Exception {
        MultipartEncoder form = new MultipartEncoder();
        for (int i = 0; i < 4; i++) {
            form.text("f" + i, "v");
        }
        assertEquals(413, post("/upload", form).statusCode());
        HttpRequest bad = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/upload"))
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofString("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv"))
                .build();
        assertEquals(400, client.send(bad, HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    static HttpResponse<String> postRaw(String path, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        lastError.set(null);
        return client.send(req, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Each error kind reaches the handler as the type Spring's own reader raises for it (DecodingException for a
     * malformed body and for too many parts, DataBufferLimitException for other limits), with formwire's code, offset
     * and status; the app answers formwire's status from multipartData() and Spring's mapping from bodyToFlux().
     */
    @Test
    void errorKindsAreSpringsTypesWithFormwiresCode() throws Exception {
        String cut = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv";
        StringBuilder parts = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            parts.append("--b\r\nContent-Disposition: form-data; name=\"f").append(i).append("\"\r\n\r\nv\r\n");
        }
        parts.append("--b--\r\n");
        String big = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + "x".repeat(101) + "\r\n--b--\r\n";
        record Case(String path, String body, Class<?> springType, Class<?> formwireType, ErrorCode code, long offset,
                int formwireStatus, int answer) {}
        List<Case> cases = List.of(
                new Case("/upload", cut, org.springframework.core.codec.DecodingException.class,
                        FormwireDecodingException.class, ErrorCode.MP_TRUNCATED, cut.length(), 400, 400),
                new Case("/upload", parts.toString(), org.springframework.core.codec.DecodingException.class,
                        FormwirePartCountException.class, ErrorCode.MP_LIMIT_PARTS, -1, 413, 413),
                new Case("/upload", big, org.springframework.core.io.buffer.DataBufferLimitException.class,
                        FormwireLimitException.class, ErrorCode.MP_LIMIT_FIELD_BYTES, -1, 413, 413),
                // bodyToFlux maps any DecodingException to a ServerWebInputException (400), as for Spring's reader.
                new Case("/events", cut, org.springframework.core.codec.DecodingException.class,
                        FormwireDecodingException.class, ErrorCode.MP_TRUNCATED, cut.length(), 400, 400),
                new Case("/events", parts.toString(), org.springframework.core.codec.DecodingException.class,
                        FormwirePartCountException.class, ErrorCode.MP_LIMIT_PARTS, -1, 413, 400),
                new Case("/events", big, org.springframework.core.io.buffer.DataBufferLimitException.class,
                        FormwireLimitException.class, ErrorCode.MP_LIMIT_FIELD_BYTES, -1, 413, 413));
        for (Case c : cases) {
            HttpResponse<String> r = postRaw(c.path(), c.body());
            String what = c.path() + " " + c.code() + ": ";
            Throwable t = lastError.get();
            if (c.path().equals("/events") && c.formwireType() != FormwireLimitException.class) {
                // Spring's bodyToFlux wraps the reader's DecodingException (400), as for Spring's own reader.
                assertEquals(org.springframework.web.server.ServerWebInputException.class, t.getClass(), what);
                t = t.getCause();
            }
            assertTrue(c.springType().isInstance(t), what + t);
            assertEquals(c.formwireType(), t.getClass(), what);
            FormwireError fe = (FormwireError) t;
            assertEquals(c.code(), fe.code(), what);
            assertEquals(c.formwireStatus(), fe.status(), what);
            assertEquals(fe.formwire(), t.getCause(), what);
            if (c.offset() >= 0) {
                assertEquals(c.offset(), fe.offset(), what);
            }
            assertEquals(c.answer(), r.statusCode(), what + r.body());
        }
    }

    /** Demand flows upstream one buffer at a time: reading one event pulls one small buffer, not the whole body. */
    @Test
    void backpressure() {
        AtomicLong requested = new AtomicLong();
        byte[] body = new MultipartEncoder().file("f", "f", "a/b", new byte[1 << 20]).toByteArray();
        String ct = "multipart/form-data; boundary=" + new String(body, 2, 45, StandardCharsets.US_ASCII);
        Flux<DataBuffer> source = Flux.range(0, body.length / 1024 + 1)
                .<DataBuffer>map(i -> DefaultDataBufferFactory.sharedInstance.wrap(java.util.Arrays.copyOfRange(body,
                        i * 1024, Math.min(body.length, (i + 1) * 1024))))
                .doOnRequest(requested::addAndGet);
        MockServerHttpRequest req = MockServerHttpRequest.post("/").header(HttpHeaders.CONTENT_TYPE, ct).body(source);
        List<PartEvent> first = new FormwirePartEventHttpMessageReader()
                .read(ResolvableType.forClass(PartEvent.class), req, Map.of()).take(3).collectList().block();
        assertEquals(3, first.size());
        assertTrue(requested.get() <= 8, "requested " + requested.get());
    }

    @Test
    void partLimitThroughSpringsMultipartReader() {
        MultipartEncoder form = new MultipartEncoder();
        for (int i = 0; i < 4; i++) {
            form.text("f" + i, "v");
        }
        MockServerHttpRequest req = MockServerHttpRequest.post("/").header(HttpHeaders.CONTENT_TYPE, form.contentType())
                .body(Flux.<DataBuffer>just(DefaultDataBufferFactory.sharedInstance.wrap(form.toByteArray())));
        Throwable t = new org.springframework.http.codec.multipart.MultipartHttpMessageReader(
                new FormwirePartHttpMessageReader(new MultipartOptions().maxParts(3)))
                .readMono(ResolvableType.forClass(org.springframework.util.MultiValueMap.class), req, Map.of())
                .materialize().block().getThrowable();
        assertEquals(ErrorCode.MP_LIMIT_PARTS, ((FormwireException) t.getCause()).code());
    }

    /** The parts before an error are delivered, then the error (as Spring's reader does), even within one buffer. */
    @Test
    void partsBeforeAnErrorAreDelivered() {
        MultipartEncoder form = new MultipartEncoder().text("a", "1").text("b", "2");
        MockServerHttpRequest req = MockServerHttpRequest.post("/").header(HttpHeaders.CONTENT_TYPE, form.contentType())
                .body(Flux.<DataBuffer>just(DefaultDataBufferFactory.sharedInstance.wrap(form.toByteArray())));
        List<reactor.core.publisher.Signal<Part>> got = new FormwirePartHttpMessageReader(new MultipartOptions().maxParts(1))
                .read(ResolvableType.forClass(Part.class), req, Map.of()).materialize().collectList().block();
        assertEquals(2, got.size(), got.toString());
        assertEquals("1", ((FormFieldPart) got.get(0).get()).value());
        assertEquals(ErrorCode.MP_LIMIT_PARTS, ((FormwireException) got.get(1).getThrowable().getCause()).code());
    }

    /** An epilogue (MP-P-05) that spans upstream buffers is read to its end, through both readers, strict profile. */
    @Test
    void epilogueAcrossBuffers() {
        byte[] body = ("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b--\r\n"
                + "This is the epilogue. It is also to be ignored.\r\n").getBytes(StandardCharsets.US_ASCII);
        java.util.function.Supplier<MockServerHttpRequest> req = () -> MockServerHttpRequest.post("/")
                .header(HttpHeaders.CONTENT_TYPE, "multipart/form-data; boundary=b")
                .body(Flux.range(0, (body.length + 15) / 16).map(i -> DefaultDataBufferFactory.sharedInstance.wrap(
                        java.util.Arrays.copyOfRange(body, i * 16, Math.min(body.length, i * 16 + 16)))));
        List<Part> parts = new FormwirePartHttpMessageReader(new MultipartOptions())
                .read(ResolvableType.forClass(Part.class), req.get(), Map.of()).collectList().block();
        assertEquals(1, parts.size());
        assertEquals("v", ((FormFieldPart) parts.get(0)).value());
        List<PartEvent> events = new FormwirePartEventHttpMessageReader(new MultipartOptions())
                .read(ResolvableType.forClass(PartEvent.class), req.get(), Map.of()).collectList().block();
        assertEquals(1, events.size());
        assertEquals("a", events.get(0).name());
    }

    @Test
    void errorsKeepTheFormwireCodeAsCause() {
        MockServerHttpRequest req = MockServerHttpRequest.post("/")
                .header(HttpHeaders.CONTENT_TYPE, "multipart/form-data; boundary=b").body("junk");
        Throwable t = new FormwirePartHttpMessageReader(new MultipartOptions()) // strict: no preamble
                .read(ResolvableType.forClass(Part.class), req, Map.of()).then().onErrorResume(e -> Mono.just(e).then(Mono.error(e))).materialize().block().getThrowable();
        FormwireException cause = (FormwireException) t.getCause();
        assertEquals(ErrorCode.MP_PREAMBLE, cause.code());
        assertEquals(0, cause.offset());
    }

    @Test
    void tempFilesAreDeletedOnError(@TempDir Path dir) throws Exception {
        byte[] body = new MultipartEncoder().file("f", "f", "a/b", new byte[1 << 20]).toByteArray();
        String ct = "multipart/form-data; boundary=" + new String(body, 2, 45, StandardCharsets.US_ASCII);
        // The body is cut short after the file spilled: MP_TRUNCATED, and no file is left behind.
        MockServerHttpRequest req = MockServerHttpRequest.post("/").header(HttpHeaders.CONTENT_TYPE, ct)
                .body(Flux.<DataBuffer>just(DefaultDataBufferFactory.sharedInstance.wrap(java.util.Arrays.copyOf(body, 900_000))));
        Throwable t = new FormwirePartHttpMessageReader().tempDir(dir)
                .read(ResolvableType.forClass(Part.class), req, Map.of()).then().materialize().block().getThrowable();
        assertEquals(ErrorCode.MP_TRUNCATED, ((FormwireException) t.getCause()).code());
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count());
        }
    }
}
