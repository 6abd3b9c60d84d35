package dev.formwire.multipart;

import static dev.formwire.multipart.Bodies.ascii;
import static dev.formwire.multipart.Bodies.close;
import static dev.formwire.multipart.Bodies.field;
import static dev.formwire.multipart.MultipartParserTest.CT;
import static dev.formwire.multipart.MultipartParserTest.assertError;
import static dev.formwire.multipart.MultipartParserTest.fails;
import static dev.formwire.multipart.MultipartParserTest.firstPart;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The four lenient options of MP-R-02 beyond the vectors: the Part API of a nameless part, what the readers make of
 * it (MP-F-05), and the options through the setters as well as by registry name. The vectors check the parser's
 * events whole, byte by byte and at every split (conformance/run).
 */
class LenientOptionsTest {
    static final String NAMELESS = "--b\r\nContent-Type: text/plain\r\n\r\nskipped\r\n";

    static MultipartOptions missing() {
        return new MultipartOptions().allowMissingDisposition(true);
    }

    /** MP-H-06: no Content-Disposition gives a part with every parameter null, its other headers as for any part. */
    @Test
    void namelessPartHasNoNameAndIsAField() {
        String body = NAMELESS + field("b", "a", "v") + close("b");
        assertError(fails(CT, ascii(body), new MultipartOptions()), ErrorCode.MP_NO_DISPOSITION, 31);
        Part p = firstPart(body, missing());
        assertNull(p.name());
        assertNull(p.nameBytes());
        assertNull(p.filename());
        assertNull(p.filenameBytes());
        assertNull(p.nameStar());
        assertNull(p.filenameStar());
        assertFalse(p.isFile());
        assertEquals("text/plain", p.contentType());
        assertEquals(1, p.headers().size());
        assertEquals("content-type", p.headers().get(0).name());
        List<Bodies.P> parts = Bodies.parse(CT, ascii(body), missing());
        assertEquals(2, parts.size());
        assertEquals("skipped", parts.get(0).text());
        assertEquals("a", parts.get(1).name());
        // An empty Content-Disposition is listed as one; a second one, empty or not, is still MP_DISPOSITION.
        Part empty = firstPart("--b\r\nContent-Disposition: \t\r\n\r\nx\r\n" + close("b"), missing());
        assertNull(empty.name());
        assertEquals("content-disposition", empty.headers().get(0).name());
        assertEquals("", empty.headers().get(0).value());
        String two = "--b\r\nContent-Disposition:\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n" + close("b");
        assertError(fails(CT, ascii(two), missing()), ErrorCode.MP_DISPOSITION, 27);
        String noName = "--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n" + close("b");
        assertError(fails(CT, ascii(noName), missing()), ErrorCode.MP_DISPOSITION, 5);
    }

    /** MultipartReader is a part iterator: it returns the nameless part; FormData.read skips it (MP-F-05). */
    @Test
    void readerReturnsNamelessPartsFormDataSkipsThem(@TempDir Path dir) throws Exception {
        String body = NAMELESS + field("b", "a", "v") + NAMELESS + close("b");
        List<String> names = new ArrayList<>();
        try (MultipartReader r = new MultipartReader(new ByteArrayInputStream(ascii(body)), CT, missing())) {
            for (MultipartReader.PartInput p; (p = r.nextPart()) != null; ) {
                names.add(p.part().name() + "=" + p.readString());
            }
        }
        assertEquals(List.of("null=skipped", "a=v", "null=skipped"), names);
        try (FormData form = FormData.read(new ByteArrayInputStream(ascii(body)), CT, missing(),
                new FormData.Options().tempDir(dir))) {
            assertEquals(1, form.entries().size());
            assertEquals("v", form.get("a").value());
        }
        assertThrows(FormwireException.class, () -> FormData.read(new ByteArrayInputStream(ascii(body)), CT,
                new MultipartOptions(), new FormData.Options().tempDir(dir)));
    }

    /** MP-F-05: a skipped part still counts for every limit, as the field it is, and is never spooled. */
    @Test
    void formDataCountsSkippedParts(@TempDir Path dir) throws Exception {
        String body = NAMELESS + field("b", "a", "v") + close("b");
        FormData.Options spill = new FormData.Options().tempDir(dir).memoryThreshold(0);
        FormwireException e = assertThrows(FormwireException.class, () -> FormData.read(
                new ByteArrayInputStream(ascii(body)), CT, missing().maxFields(1), spill));
        assertError(e, ErrorCode.MP_LIMIT_FIELDS, 47);
        e = assertThrows(FormwireException.class, () -> FormData.read(new ByteArrayInputStream(ascii(body)), CT,
                missing().maxFieldBytes(6).maxFiles(0), spill));
        assertError(e, ErrorCode.MP_LIMIT_FIELD_BYTES, 39);
        e = assertThrows(FormwireException.class, () -> FormData.read(new ByteArrayInputStream(ascii(body)), CT,
                missing().maxTotalFieldBytes(7), spill));
        assertError(e, ErrorCode.MP_LIMIT_TOTAL_FIELD_BYTES, 91);
        e = assertThrows(FormwireException.class, () -> FormData.read(new ByteArrayInputStream(ascii(body)), CT,
                missing().maxParts(1), spill));
        assertError(e, ErrorCode.MP_LIMIT_PARTS, 47);
        // A large nameless body with a file-like type goes nowhere: no temporary file.
        String big = "--b\r\nContent-Type: application/octet-stream\r\n\r\n" + "x".repeat(200_000) + "\r\n" + close("b");
        try (FormData form = FormData.read(new ByteArrayInputStream(ascii(big)), CT, missing(), spill)) {
            assertTrue(form.entries().isEmpty());
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count());
        }
    }

    /** MP-H-01, MP-H-02, MP-H-11: bytes 80-FF in names, shown ASCII-lowercased and UTF-8 decoded; ordinary headers. */
    @Test
    void utf8HeaderNames() {
        String body = "--b\r\nX-F\u00c3\u0098\u00c3\u0098: 1\r\nContent-Disposition: form-data; name=\"a\"\r\n"
                + "C\u00c3\u00b6ntent-Type: text/html\r\n\r\nv\r\n" + close("b");
        assertError(fails(CT, ascii(body), new MultipartOptions()), ErrorCode.MP_HEADER_NAME, 8);
        Part p = firstPart(body, new MultipartOptions().allowUtf8HeaderNames(true));
        assertEquals("x-f\u00d8\u00d8", p.headers().get(0).name());
        assertEquals("c\u00f6ntent-type", p.headers().get(2).name());
        assertNull(p.contentType()); // not the Content-Type header
        assertEquals("a", p.name());
        String ctl = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nF\u00c3\u00b8\u0001: x\r\n\r\nv\r\n" + close("b");
        assertError(fails(CT, ascii(ctl), new MultipartOptions().allowUtf8HeaderNames(true)), ErrorCode.MP_HEADER_NAME,
                50);
    }

    /** MP-P-05, MP-P-07: every byte after {@code --B--} is epilogue, counted; the close delimiter itself is strict. */
    @Test
    void junkAfterClose() {
        MultipartOptions junk = new MultipartOptions().allowJunkAfterClose(true);
        String part = field("b", "a", "v");
        for (String tail : new String[] {"junk", "\r", "\rX", " \tjunk\r\n", "", "\n--b\r\nnot a part"}) {
            String body = part + "--b--" + tail;
            List<Bodies.P> parts = Bodies.parse(CT, ascii(body), junk);
            assertEquals(1, parts.size(), tail);
            MultipartParser p = MultipartParser.forContentType(CT, junk);
            p.feed(ByteBuffer.wrap(ascii(body)));
            List<MultipartParser.Event> events = new ArrayList<>();
            for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) {
                events.add(e);
            }
            // END comes right after `--b--`, before any epilogue byte is seen.
            assertEquals(MultipartParser.Event.END, events.get(events.size() - 1), tail);
            assertTrue(p.isDone());
        }
        assertError(fails(CT, ascii(part + "--b--junk"), new MultipartOptions()), ErrorCode.MP_DELIMITER,
                part.length() + 5);
        assertError(fails(CT, ascii(part + "--b-x"), junk), ErrorCode.MP_DELIMITER, part.length() + 4);
        assertError(fails(CT, ascii(part + "--b"), junk), ErrorCode.MP_TRUNCATED, part.length() + 3);
        byte[] body = ascii(part + "--b--junk");
        assertError(fails(CT, body, new MultipartOptions().allowJunkAfterClose(true).maxTotalBytes(body.length - 1)),
                ErrorCode.MP_LIMIT_TOTAL_BYTES, body.length - 1);
    }

    /** MP-H-07: any token as the disposition type, the rest read as for form-data. */
    @Test
    void anyDispositionType() {
        MultipartOptions any = new MultipartOptions().allowAnyDispositionType(true);
        String file = "--b\r\nContent-Disposition: attachment; name=\"f\"; filename=\"a.txt\"\r\n\r\nv\r\n" + close("b");
        assertError(fails(CT, ascii(file), new MultipartOptions()), ErrorCode.MP_DISPOSITION, 5);
        Part p = firstPart(file, any);
        assertEquals("f", p.name());
        assertEquals("a.txt", p.filename());
        assertEquals("a", firstPart("--b\r\nContent-Disposition: Form-Field ;name=a\r\n\r\nv\r\n" + close("b"), any).name());
        for (String bad : new String[] {"\"form-data\"; name=a", "; name=a", "form/data; name=a", "form-field"}) {
            String body = "--b\r\nContent-Disposition: " + bad + "\r\n\r\nv\r\n" + close("b");
            assertError(fails(CT, ascii(body), any), ErrorCode.MP_DISPOSITION, 5);
        }
    }

    /** The setters and the registry names set the same flags; all are off by default. */
    @Test
    void settersAndRegistryNames() {
        MultipartOptions d = new MultipartOptions();
        assertFalse(d.allowMissingDisposition() || d.allowAnyDispositionType() || d.allowJunkAfterClose()
                || d.allowUtf8HeaderNames());
        MultipartOptions byName = new MultipartOptions();
        for (String n : new String[] {"allow_missing_disposition", "allow_any_disposition_type",
                "allow_junk_after_close", "allow_utf8_header_names"}) {
            assertTrue(byName.setFlag(n, true), n);
        }
        assertTrue(byName.allowMissingDisposition() && byName.allowAnyDispositionType() && byName.allowJunkAfterClose()
                && byName.allowUtf8HeaderNames());
        MultipartOptions set = new MultipartOptions().allowMissingDisposition(true).allowAnyDispositionType(true)
                .allowJunkAfterClose(true).allowUtf8HeaderNames(true);
        String body = "--b\r\nF\u00c3\u00b8\u00c3\u00b8: 1\r\n\r\nx\r\n--b\r\nContent-Disposition: form-field; name=a\r\n"
                + "\r\ny\r\n--b--junk";
        for (MultipartOptions o : new MultipartOptions[] {byName, set}) {
            List<Bodies.P> parts = Bodies.parse(CT, body.getBytes(StandardCharsets.ISO_8859_1), o);
            assertEquals(2, parts.size());
            assertNull(parts.get(0).name());
            assertEquals("a", parts.get(1).name());
        }
    }
}
