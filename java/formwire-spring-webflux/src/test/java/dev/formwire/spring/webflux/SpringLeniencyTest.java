package dev.formwire.spring.webflux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.multipart.MultipartOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.MultipartHttpMessageReader;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.codec.multipart.PartEventHttpMessageReader;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;

/**
 * The readers' no-argument constructors are drop-ins for Spring's: a body Spring's own readers accept (an RFC 2046
 * preamble, parts without Content-Disposition, a UTF-8 header name as in Spring's utf8.multipart, a non-form-data
 * disposition type, junk after the close delimiter) reads the same through formwire's, checked against Spring's
 * {@code DefaultPartHttpMessageReader} and {@code PartEventHttpMessageReader} on the same bytes, in 7-byte buffers.
 */
class SpringLeniencyTest {
    static final String BOUNDARY = "simple-boundary";
    static final byte[] BODY = ("This is the preamble.\r\n"
            + "--simple-boundary\r\n\r\nimplicitly typed\r\n"
            + "--simple-boundary\r\nContent-type: text/plain; charset=us-ascii\r\nF\u00f8\u00f8: B\u00e5r\r\n\r\n"
            + "explicitly typed\r\n"
            + "--simple-boundary\r\nContent-Disposition: form-field; name=\"a\"\r\n\r\nv\r\n"
            + "--simple-boundary\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\nfile bytes\r\n"
            + "--simple-boundary--junk").getBytes(StandardCharsets.UTF_8);

    /**
     * python-multipart's {@code non_ascii_whitespace_before_filename}: a byte A0 / 85 before {@code filename} makes a
     * parameter Spring's {@code ContentDisposition.parse} does not know (it takes any attribute before {@code =}),
     * so both parts are fields; formwire reads it so with {@code allow8bitParameterNames} (MP-H-07).
     */
    static final byte[] EIGHT_BIT_PARAMS = concat("--simple-boundary\r\nContent-Disposition: form-data; name=\"a\";",
            new byte[] {(byte) 0xA0}, "filename=\"a.txt\"\r\n\r\nfirst\r\n--simple-boundary\r\n"
            + "Content-Disposition: form-data; name=\"b\";", new byte[] {(byte) 0x85},
            "filename=\"b.txt\"\r\n\r\nsecond\r\n--simple-boundary--\r\n");

    static byte[] concat(Object... pieces) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : pieces) {
            out.writeBytes(p instanceof String s ? s.getBytes(StandardCharsets.ISO_8859_1) : (byte[]) p);
        }
        return out.toByteArray();
    }

    static MockServerHttpRequest request() {
        return request(BODY);
    }

    static MockServerHttpRequest request(byte[] body) {
        List<DataBuffer> chunks = new ArrayList<>();
        for (int at = 0; at < body.length; at += 7) {
            chunks.add(DefaultDataBufferFactory.sharedInstance.wrap(
                    java.util.Arrays.copyOfRange(body, at, Math.min(body.length, at + 7))));
        }
        return MockServerHttpRequest.post("/")
                .header(HttpHeaders.CONTENT_TYPE, "multipart/form-data; boundary=" + BOUNDARY)
                .body(Flux.fromIterable(chunks));
    }

    /** What {@code name()} gives: the name, or the exception's type and message. */
    static String name(Supplier<String> name) {
        try {
            return name.get();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** Header names ASCII-lowercased (Spring keeps the case sent, formwire lowercases: MP-H-11), values as lists. */
    static Map<String, List<String>> headers(HttpHeaders h) {
        Map<String, List<String>> m = new TreeMap<>();
        h.forEach((k, v) -> m.computeIfAbsent(k.toLowerCase(java.util.Locale.ROOT), x -> new ArrayList<>()).addAll(v));
        return m;
    }

    static String text(DataBuffer d) {
        String s = d.toString(StandardCharsets.UTF_8);
        DataBufferUtils.release(d);
        return s;
    }

    static List<String> parts(HttpMessageReader<Part> reader) {
        return parts(reader, BODY);
    }

    static List<String> parts(HttpMessageReader<Part> reader, byte[] body) {
        List<String> out = new ArrayList<>();
        for (Part p : reader.read(ResolvableType.forClass(Part.class), request(body), Map.of()).collectList().block()) {
            String kind = p instanceof FilePart ? "file " + ((FilePart) p).filename()
                    : p instanceof FormFieldPart ? "field " + ((FormFieldPart) p).value() : "part";
            String content = DataBufferUtils.join(p.content()).map(SpringLeniencyTest::text).block();
            out.add(kind + " | name " + name(p::name) + " | " + headers(p.headers()) + " | " + content);
        }
        return out;
    }

    /** One line per part: its events' kind, name, headers and joined content (how a file is sliced differs). */
    static List<String> events(HttpMessageReader<PartEvent> reader) {
        return events(reader, BODY);
    }

    static List<String> events(HttpMessageReader<PartEvent> reader, byte[] body) {
        List<String> out = new ArrayList<>();
        StringBuilder content = new StringBuilder();
        for (PartEvent e : reader.read(ResolvableType.forClass(PartEvent.class), request(body), Map.of()).collectList()
                .block()) {
            content.append(text(e.content()));
            if (e.isLast()) {
                String kind = e instanceof FilePartEvent ? "file " + ((FilePartEvent) e).filename()
                        : e instanceof FormPartEvent ? "field " + ((FormPartEvent) e).value() : "event";
                out.add(kind + " | name " + name(e::name) + " | " + headers(e.headers()) + " | " + content);
                content.setLength(0);
            }
        }
        return out;
    }

    @Test
    void partsAsSpringsReaderGivesThem() {
        List<String> spring = parts(new DefaultPartHttpMessageReader());
        List<String> formwire = parts(new FormwirePartHttpMessageReader());
        assertEquals(spring, formwire);
        assertEquals(4, formwire.size());
        // The nameless parts are FormFieldParts whose name() throws, as Spring's; the Føø header is there.
        assertEquals("field implicitly typed | name IllegalStateException: No name available | {} | implicitly typed",
                formwire.get(0));
        assertTrue(formwire.get(1).contains("f\u00f8\u00f8=[B\u00e5r]"), formwire.get(1));
        assertTrue(formwire.get(2).startsWith("field v | name a |"), formwire.get(2));
    }

    @Test
    void partEventsAsSpringsReaderGivesThem() {
        List<String> spring = events(new PartEventHttpMessageReader());
        List<String> formwire = events(new FormwirePartEventHttpMessageReader());
        assertEquals(spring, formwire);
        assertEquals(4, formwire.size());
    }

    @Test
    void eightBitParameterNamesAsSpringsReaderReadsThem() {
        List<String> spring = parts(new DefaultPartHttpMessageReader(), EIGHT_BIT_PARAMS);
        assertEquals(spring, parts(new FormwirePartHttpMessageReader(), EIGHT_BIT_PARAMS));
        assertEquals(2, spring.size());
        assertTrue(spring.get(0).startsWith("field first | name a |"), spring.get(0));
        assertTrue(spring.get(1).startsWith("field second | name b |"), spring.get(1));
        assertEquals(events(new PartEventHttpMessageReader(), EIGHT_BIT_PARAMS),
                events(new FormwirePartEventHttpMessageReader(), EIGHT_BIT_PARAMS));
        Throwable t = assertThrows(FormwireDecodingException.class,
                () -> parts(new FormwirePartHttpMessageReader(new MultipartOptions()), EIGHT_BIT_PARAMS));
        assertEquals(ErrorCode.MP_DISPOSITION, ((FormwireException) t.getCause()).code());
    }

    /** Spring's MultipartHttpMessageReader names every part (collectMultimap(Part::name)): both readers fail alike. */
    @Test
    void multipartDataFailsOnANamelessPartAsWithSpringsReader() {
        Throwable spring = new MultipartHttpMessageReader(new DefaultPartHttpMessageReader())
                .readMono(ResolvableType.forClass(MultiValueMap.class), request(), Map.of()).materialize().block()
                .getThrowable();
        Throwable formwire = new MultipartHttpMessageReader(new FormwirePartHttpMessageReader())
                .readMono(ResolvableType.forClass(MultiValueMap.class), request(), Map.of()).materialize().block()
                .getThrowable();
        assertInstanceOf(IllegalStateException.class, spring);
        assertEquals(spring.getClass(), formwire.getClass());
        assertEquals(spring.getMessage(), formwire.getMessage());
    }

    /** Options passed in are used as given: the strict profile rejects the preamble, and the part without a name. */
    @Test
    void explicitOptionsAreUsedAsGiven() {
        Throwable t = assertThrows(FormwireDecodingException.class,
                () -> parts(new FormwirePartHttpMessageReader(new MultipartOptions())));
        assertEquals(ErrorCode.MP_PREAMBLE, ((FormwireException) t.getCause()).code());
        t = assertThrows(FormwireDecodingException.class, () -> events(new FormwirePartEventHttpMessageReader(
                new MultipartOptions().allowPreamble(true))));
        assertEquals(ErrorCode.MP_NO_DISPOSITION, ((FormwireException) t.getCause()).code());
        MultipartOptions limits = new MultipartOptions().maxParts(2);
        MultipartOptions spring = FormwireCodecs.springCompatible(limits);
        assertTrue(spring.allowPreamble() && spring.allowMissingDisposition() && spring.allowUtf8HeaderNames()
                && spring.allowJunkAfterClose() && spring.allowAnyDispositionType() && spring.allow8bitParameterNames());
        // Spring's reader reads CR-only lines, CRLF--B-x lookalikes and RFC 2231 continuations otherwise.
        assertTrue(!spring.allowCr() && !spring.allowNearDelimiters() && !spring.allowRfc2231Continuations());
        assertEquals(2, spring.maxParts());
        assertTrue(!limits.allowPreamble(), "springCompatible copies");
        t = assertThrows(FormwirePartCountException.class, () -> parts(new FormwirePartHttpMessageReader(spring)));
        assertEquals(ErrorCode.MP_LIMIT_PARTS, ((FormwireException) t.getCause()).code());
    }
}
