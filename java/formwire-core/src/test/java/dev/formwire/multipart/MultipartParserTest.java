package dev.formwire.multipart;

import static dev.formwire.multipart.Bodies.ascii;
import static dev.formwire.multipart.Bodies.close;
import static dev.formwire.multipart.Bodies.field;
import static dev.formwire.multipart.Bodies.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Limits;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MultipartParserTest {
    static final String CT = "multipart/form-data; boundary=b";

    static FormwireException fails(String ct, byte[] body, MultipartOptions o) {
        return assertThrows(FormwireException.class, () -> Bodies.parse(ct, body, o));
    }

    static void assertError(FormwireException e, ErrorCode code, long offset) {
        assertEquals(code, e.code(), e.getMessage());
        assertEquals(offset, e.offset(), e.getMessage());
    }

    @Test
    void parsesFieldsAndFiles() {
        byte[] body = ascii(field("b", "a", "hello") + file("b", "f", "x.txt", "text/plain", "file bytes") + close("b"));
        List<Bodies.P> parts = Bodies.parse(CT, body, new MultipartOptions());
        assertEquals(2, parts.size());
        assertEquals("a", parts.get(0).name());
        assertNull(parts.get(0).filename());
        assertEquals("hello", parts.get(0).text());
        assertEquals("x.txt", parts.get(1).filename());
        assertEquals("file bytes", parts.get(1).text());
    }

    /** MP-P-08: whole, every byte, every single split, random multi-splits, heap and direct buffers: one result. */
    @Test
    void chunkingNeverChangesTheResult() {
        String b = "bb";
        byte[] body = ascii(field(b, "a", "x\r\n--b\r\n-" + "\r") + file(b, "f", "y", "a/b", "\r\n--bbX\r\r\n--b")
                + field(b, "e", "") + close(b) + "epilogue");
        String ct = "multipart/form-data; boundary=bb";
        List<Bodies.P> whole = Bodies.parse(ct, body, new MultipartOptions());
        assertEquals(3, whole.size());
        assertEquals("\r\n--bbX\r\r\n--b", whole.get(1).text());
        Random rnd = new Random(7);
        for (int i = 1; i < body.length; i++) {
            for (boolean direct : new boolean[] {false, true}) {
                List<Bodies.P> got = Bodies.parse(MultipartParser.forContentType(ct, new MultipartOptions()), body,
                        new int[] {i}, direct);
                assertSame(whole, got, "split at " + i);
            }
        }
        int[] bytes = new int[body.length - 1];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = i + 1;
        }
        assertSame(whole, Bodies.parse(MultipartParser.forContentType(ct, new MultipartOptions()), body, bytes, false),
                "bytes");
        for (int round = 0; round < 200; round++) {
            int[] cuts = rnd.ints(1 + rnd.nextInt(8), 1, body.length).distinct().sorted().toArray();
            assertSame(whole, Bodies.parse(MultipartParser.forContentType(ct, new MultipartOptions()), body, cuts,
                    rnd.nextBoolean()), "random cuts");
        }
    }

    static void assertSame(List<Bodies.P> a, List<Bodies.P> b, String what) {
        assertEquals(a.size(), b.size(), what);
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).name(), b.get(i).name(), what);
            assertEquals(a.get(i).filename(), b.get(i).filename(), what);
            assertArrayEquals(a.get(i).body(), b.get(i).body(), what);
        }
    }

    @Test
    void dataEventsAreReadOnlyViewsAndBackpressureLeavesBytesInTheBuffer() {
        byte[] body = ascii(field("b", "a", "hello") + close("b"));
        MultipartParser p = MultipartParser.forContentType(CT, new MultipartOptions());
        ByteBuffer chunk = ByteBuffer.wrap(body);
        p.feed(chunk);
        assertEquals(MultipartParser.Event.PART_START, p.next());
        // The caller stops pulling: the rest stays in the buffer.
        assertTrue(chunk.remaining() > 0 && chunk.remaining() < body.length);
        assertThrows(IllegalStateException.class, () -> p.feed(ByteBuffer.allocate(1)));
        assertEquals(MultipartParser.Event.DATA, p.next());
        ByteBuffer d = p.data();
        assertTrue(d.isReadOnly());
        assertEquals("hello", new String(Bodies.ascii("hello")));
        assertEquals(5, d.remaining());
        body[body.length - "hello\r\n--b--\r\n".length()] = 'J'; // a view: the caller's bytes, not a copy
        assertEquals('J', d.get(0));
    }

    @Test
    void anErrorPoisonsTheParser() {
        MultipartParser p = MultipartParser.forContentType(CT, new MultipartOptions());
        p.feed(ByteBuffer.wrap(ascii("x--b")));
        FormwireException e = assertThrows(FormwireException.class, p::next);
        assertError(e, ErrorCode.MP_PREAMBLE, 0);
        assertEquals(400, e.httpStatus());
        assertFalse(e.isLimit());
        assertTrue(assertThrows(FormwireException.class, p::next) == e);
    }

    @Test
    void truncatedAtTheInputLength() {
        byte[] body = ascii(field("b", "a", "hello"));
        assertError(fails(CT, body, new MultipartOptions()), ErrorCode.MP_TRUNCATED, body.length);
    }

    // --- The CVE inputs of the research brief §3 -----------------------------------------------------------------

    /** CVE-2023-24536 class: 100,000 tiny parts; the default max_parts stops it at part 1001, and unlimited is linear. */
    @Test
    void hundredThousandTinyParts() {
        StringBuilder sb = new StringBuilder();
        String one = field("b", "a", "1");
        for (int i = 0; i < 100_000; i++) {
            sb.append(one);
        }
        sb.append(close("b"));
        byte[] body = ascii(sb.toString());
        // MP-L-01: at the line start after the delimiter line of part 1001.
        long off = 1000L * one.length() + "--b\r\n".length();
        FormwireException e = fails(CT, body, new MultipartOptions());
        assertError(e, ErrorCode.MP_LIMIT_PARTS, off);
        assertEquals(413, e.httpStatus());
        // MP-L-05: with max_parts off, max_fields (1000) stops field 1001 at the same offset.
        assertError(fails(CT, body, new MultipartOptions().maxParts(MultipartOptions.UNLIMITED)), ErrorCode.MP_LIMIT_FIELDS, off);
        long t0 = System.nanoTime();
        List<Bodies.P> parts = Bodies.parse(CT, body,
                new MultipartOptions().maxParts(MultipartOptions.UNLIMITED).maxFields(MultipartOptions.UNLIMITED));
        assertEquals(100_000, parts.size());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "linear time");
    }

    /** CVE-2023-45290 class: 10,000 header lines; MP_LIMIT_HEADERS at line 9. */
    @Test
    void tenThousandHeaders() {
        StringBuilder sb = new StringBuilder("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n");
        for (int i = 0; i < 10_000; i++) {
            sb.append("X: y\r\n");
        }
        sb.append("\r\nv\r\n").append(close("b"));
        long off = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n".length() + 7L * "X: y\r\n".length();
        assertError(fails(CT, ascii(sb.toString()), new MultipartOptions()), ErrorCode.MP_LIMIT_HEADERS, off);
    }

    /** CVE-2026-42561 class: a 10 MiB header line is cut at block start + max_header_bytes, not buffered. */
    @Test
    void tenMebibyteHeaderLine() throws Exception {
        byte[] head = ascii("--b\r\nX-Long: ");
        long[] read = new long[1];
        MultipartReader r = new MultipartReader(Bodies.generated(head, 10 << 20, (byte) 'a', ascii("\r\n"), read),
                CT, new MultipartOptions());
        FormwireException e = assertThrows(FormwireException.class, r::nextPart);
        assertError(e, ErrorCode.MP_LIMIT_HEADER_BYTES, 5 + Limits.Multipart.MAX_HEADER_BYTES);
        assertTrue(read[0] <= 128 * 1024, "stopped early, read " + read[0]);
    }

    /** CVE-2024-47874 class: a 100 MiB part without filename stops at body start + max_field_bytes. */
    @Test
    void hundredMebibyteField() throws Exception {
        byte[] head = ascii("--b\r\nContent-Disposition: form-data; name=\"big\"\r\n\r\n");
        long[] read = new long[1];
        MultipartReader r = new MultipartReader(
                Bodies.generated(head, 100L << 20, (byte) 'a', ascii("\r\n--b--\r\n"), read), CT, new MultipartOptions());
        MultipartReader.PartInput p = r.nextPart();
        FormwireException e = assertThrows(FormwireException.class, p::readAllBytes);
        assertError(e, ErrorCode.MP_LIMIT_FIELD_BYTES, head.length + Limits.Multipart.MAX_FIELD_BYTES);
        assertTrue(read[0] < 2L << 20, "stopped early, read " + read[0]);
    }

    /** Boundaries of 70, 252 (accepted: 256 is the default) and 4096 bytes (MP_LIMIT_BOUNDARY, CVE-2014-0050). */
    @Test
    void longBoundaries() {
        for (int n : new int[] {70, 252, 256}) {
            String b = "x".repeat(n);
            byte[] body = ascii(field(b, "a", "v") + close(b));
            List<Bodies.P> parts = Bodies.parse("multipart/form-data; boundary=" + b, body, new MultipartOptions());
            assertEquals("v", parts.get(0).text(), "boundary of " + n);
        }
        for (int n : new int[] {257, 4096}) {
            String b = "x".repeat(n);
            FormwireException e = assertThrows(FormwireException.class,
                    () -> MultipartParser.forContentType("multipart/form-data; boundary=" + b, new MultipartOptions()));
            assertError(e, ErrorCode.MP_LIMIT_BOUNDARY, 0);
        }
    }

    /** The search stays linear on bodies made of near-delimiters (every CR a candidate). */
    @Test
    void nearDelimitersStayLinear() {
        String b = "x".repeat(200);
        String near = "\r\n--" + "x".repeat(199) + "y";
        StringBuilder sb = new StringBuilder("--" + b + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n\r\n");
        while (sb.length() < 8 << 20) {
            sb.append(near).append("\r\r\r\r");
        }
        sb.append("\r\n").append(close(b));
        byte[] body = ascii(sb.toString());
        long t0 = System.nanoTime();
        List<Bodies.P> parts = Bodies.parse("multipart/form-data; boundary=" + b, body, new MultipartOptions());
        assertEquals(1, parts.size());
        assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "linear time");
    }

    // --- Session spec changes ----------------------------------------------------------------------------------

    /** MP-L-04: the field bodies of one request are summed; the byte that makes the sum limit+1 fails. */
    @Test
    void totalFieldBytes() {
        String body = field("b", "a", "12345") + file("b", "f", "x", "a/b", "ffffffffff") + field("b", "c", "6789")
                + close("b");
        MultipartOptions o = new MultipartOptions().maxTotalFieldBytes(8);
        FormwireException e = fails(CT, ascii(body), o);
        int cStart = body.indexOf("6789");
        assertError(e, ErrorCode.MP_LIMIT_TOTAL_FIELD_BYTES, cStart + 3);
        // Exactly the limit passes; files do not count.
        assertEquals(3, Bodies.parse(CT, ascii(body), new MultipartOptions().maxTotalFieldBytes(9)).size());
        // At the same byte MP_LIMIT_FIELD_BYTES wins.
        assertError(fails(CT, ascii(body), new MultipartOptions().maxTotalFieldBytes(8).maxFieldBytes(3)),
                ErrorCode.MP_LIMIT_FIELD_BYTES, body.indexOf("12345") + 3);
        assertError(fails(CT, ascii(body), new MultipartOptions().maxTotalFieldBytes(8).maxFieldBytes(3 + 0)),
                ErrorCode.MP_LIMIT_FIELD_BYTES, body.indexOf("12345") + 3);
        String tie = field("b", "a", "1234") + field("b", "c", "5678") + close("b");
        assertError(fails(CT, ascii(tie), new MultipartOptions().maxTotalFieldBytes(6).maxFieldBytes(2)),
                ErrorCode.MP_LIMIT_FIELD_BYTES, tie.indexOf("1234") + 2);
        assertError(fails(CT, ascii(tie), new MultipartOptions().maxTotalFieldBytes(6).maxFieldBytes(3)),
                ErrorCode.MP_LIMIT_FIELD_BYTES, tie.indexOf("1234") + 3);
        assertError(fails(CT, ascii(tie), new MultipartOptions().maxTotalFieldBytes(6)),
                ErrorCode.MP_LIMIT_TOTAL_FIELD_BYTES, tie.indexOf("5678") + 2);
        assertEquals(Limits.Multipart.MAX_TOTAL_FIELD_BYTES, new MultipartOptions().maxTotalFieldBytes());
    }

    /** MP-H-07: Go's quoted-pairs are read when the literal reading fails; allow_quoted_pairs reads them first. */
    @Test
    void quotedPairs() {
        String go = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\\\"b.txt\"\r\n\r\nx\r\n" + close("b");
        assertEquals("a\"b.txt", Bodies.parse(CT, ascii(go), new MultipartOptions()).get(0).filename());
        String bs = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\\\\b\"\r\n\r\nx\r\n" + close("b");
        assertEquals("a\\\\b", Bodies.parse(CT, ascii(bs), new MultipartOptions()).get(0).filename());
        assertEquals("a\\b", Bodies.parse(CT, ascii(bs), new MultipartOptions().allowQuotedPairs(true)).get(0).filename());
        String trailing = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\\\"\r\n\r\nx\r\n" + close("b");
        assertEquals("a\\", Bodies.parse(CT, ascii(trailing), new MultipartOptions()).get(0).filename());
        String both = "--b\r\nContent-Disposition: form-data; name=\"a\\\"; filename=\"b\\\"c\"\r\n\r\nx\r\n" + close("b");
        assertError(fails(CT, ascii(both), new MultipartOptions()), ErrorCode.MP_DISPOSITION, 5);
        assertTrue(new MultipartOptions().setFlag("allow_quoted_pairs", true));
    }

    /** The first part's headers (PART_START) of a whole body. */
    static Part firstPart(String body, MultipartOptions o) {
        MultipartParser p = MultipartParser.forContentType(CT, o);
        p.feed(ByteBuffer.wrap(ascii(body)));
        assertEquals(MultipartParser.Event.PART_START, p.next());
        return p.part();
    }

    /** MP-H-04: a continuation line that is empty after its OWS adds nothing, not even the joining SP. */
    @Test
    void emptyObsFoldContinuationAddsNothing() {
        MultipartOptions fold = new MultipartOptions().allowObsFold(true);
        Part p = firstPart("--b\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Type: text/plain\r\n \t\r\n"
                + "\r\nx\r\n" + close("b"), fold);
        assertEquals("text/plain", p.contentType());
        assertEquals("text/plain", p.headers().get(1).value());
        // A continuation with content is still joined with one SP.
        p = firstPart("--b\r\nContent-Disposition: form-data;\r\n \t name=\"a\"\r\n\r\nx\r\n" + close("b"), fold);
        assertEquals("form-data; name=\"a\"", p.headers().get(0).value());
        assertEquals("a", p.name());
    }

    @Test
    void optionsByRegistryName() {
        MultipartOptions o = new MultipartOptions();
        for (String name : Limits.Multipart.NAMES) {
            assertTrue(o.set(name, 5), name);
        }
        assertEquals(5, o.maxTotalFieldBytes());
        for (String name : Limits.Multipart.LENIENT_OPTIONS) {
            assertTrue(o.setFlag(name, true), name);
        }
        assertFalse(o.set("max_nothing", 1));
        assertThrows(IllegalArgumentException.class, () -> o.maxParts(-1));
    }

    @Test
    void totalBytesWinsAndCountsTheEpilogue() {
        byte[] body = ascii(field("b", "a", "v") + close("b") + "epilogue");
        int n = body.length;
        assertEquals(1, Bodies.parse(CT, body, new MultipartOptions().maxTotalBytes(n)).size());
        assertError(fails(CT, body, new MultipartOptions().maxTotalBytes(n - 1)), ErrorCode.MP_LIMIT_TOTAL_BYTES, n - 1);
    }

    @Test
    void readerIteratesAndSkips() throws Exception {
        byte[] body = ascii(field("b", "a", "x".repeat(100_000)) + file("b", "f", "y.bin", "a/b", "yy") + close("b"));
        MultipartReader r = new MultipartReader(new java.io.ByteArrayInputStream(body), CT,
                new MultipartOptions());
        MultipartReader.PartInput a = r.nextPart();
        assertEquals("a", a.part().name());
        assertEquals('x', a.read());
        MultipartReader.PartInput f = r.nextPart(); // skips the rest of `a`
        assertEquals("y.bin", f.part().filename());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        f.transferTo(out);
        assertEquals("yy", out.toString());
        assertNull(r.nextPart());
        assertNull(r.nextPart());
    }

    /**
     * The block-skipping search against a plain one: bodies over a small alphabet made of the delimiter's own bytes
     * (so near-misses are everywhere), random chunkings; each body must come back exactly, with the part count a
     * naive search gives.
     */
    @Test
    void searchAgreesWithANaiveSearch() {
        Random rnd = new Random(11);
        byte[] alphabet = ascii("\r\n-bx");
        int checked = 0;
        for (int round = 0; round < 600; round++) {
            String b = rnd.nextBoolean() ? "bxb" : "b";
            int n = rnd.nextInt(400);
            byte[] body = new byte[n];
            for (int i = 0; i < n; i++) {
                body[i] = alphabet[rnd.nextInt(alphabet.length)];
            }
            // Naive: the first `CRLF--B` followed by a delimiter follower (MP-P-04) ends the body.
            byte[] needle = ascii("\r\n--" + b);
            int cut = n;
            for (int i = 0; i + needle.length <= n; i++) {
                if (java.util.Arrays.equals(body, i, i + needle.length, needle, 0, needle.length)
                        && (i + needle.length == n || "- \t\r\n".indexOf(body[i + needle.length]) >= 0)) {
                    cut = i;
                    break;
                }
            }
            if (cut < n) {
                continue; // the body holds a delimiter: not a single-part form any more
            }
            byte[] head = ascii("--" + b + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n\r\n");
            byte[] tail = ascii("\r\n--" + b + "--\r\n");
            byte[] input = new byte[head.length + n + tail.length];
            System.arraycopy(head, 0, input, 0, head.length);
            System.arraycopy(body, 0, input, head.length, n);
            System.arraycopy(tail, 0, input, head.length + n, tail.length);
            int[] cuts = rnd.ints(rnd.nextInt(6), 1, input.length).distinct().sorted().toArray();
            List<Bodies.P> parts = Bodies.parse(MultipartParser.forContentType("multipart/form-data; boundary=" + b,
                    new MultipartOptions()), input, cuts, rnd.nextBoolean());
            checked++;
            assertEquals(1, parts.size(), "round " + round);
            assertArrayEquals(body, parts.get(0).body(), "round " + round);
        }
        assertTrue(checked > 100, checked + " bodies checked");
    }

    /**
     * MP-P-02, MP-P-08: a delimiter is found wherever it starts relative to the search's blocks (the needle's length,
     * counted from where the scan starts: the body's start when the input comes whole, a chunk's start after a cut),
     * in random bytes of the whole byte range, strict and with allow_lf; the first part's body is exactly the bytes
     * before it and the part after it is intact. Each offset is parsed whole (so every block offset is met whatever
     * the seed) and at random cuts.
     */
    @Test
    void delimiterFoundAtEveryBlockOffset() {
        Random rnd = new Random(17);
        String b = "----PeerBoundary7MA4";
        int needle = 4 + b.length();
        byte[] needleBytes = ascii("\r\n--" + b);
        for (boolean lf : new boolean[] {false, true}) {
            for (int at = 0; at <= 3 * needle + 9; at++) {
                byte[] body = new byte[at];
                for (int i = 0; i < at; i++) {
                    // bytes of the needle half of the time, so blocks pass the filter and partial matches occur
                    body[i] = rnd.nextBoolean() ? (byte) rnd.nextInt(256) : needleBytes[rnd.nextInt(needle)];
                }
                ByteArrayOutputStream in = new ByteArrayOutputStream();
                in.writeBytes(ascii("--" + b + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n"
                        + "\r\n"));
                in.writeBytes(body);
                in.writeBytes(ascii("\r\n--" + b + "\r\nContent-Disposition: form-data; name=\"g\"\r\n\r\n"
                        + "after\r\n--" + b + "--\r\n"));
                byte[] input = in.toByteArray();
                // (a whole needle among the random bytes, which would end the body early, has odds below 2^-95 over
                // the whole test)
                int[] someCuts = rnd.ints(1 + rnd.nextInt(3), 1, input.length).distinct().sorted().toArray();
                for (int[] cuts : new int[][] {{}, someCuts}) {
                    String what = "at " + at + (lf ? " allow_lf" : "") + " cuts " + java.util.Arrays.toString(cuts);
                    List<Bodies.P> parts = Bodies.parse(MultipartParser.forContentType(
                            "multipart/form-data; boundary=" + b, new MultipartOptions().allowLf(lf)), input, cuts,
                            rnd.nextBoolean());
                    assertEquals(2, parts.size(), what);
                    assertArrayEquals(body, parts.get(0).body(), what);
                    assertArrayEquals(ascii("after"), parts.get(1).body(), what);
                }
            }
        }
    }

    /**
     * Where a naive search says a body ends (MP-P-04, MP-P-06) with allow_lf, allow_cr and allow_near_delimiters:
     * the first {@code CRLF--B}, {@code LF--B} or {@code CR--B} the options allow that is followed by a delimiter
     * follower and, with allow_near_delimiters, is no lookalike (MP-P-03); -1 when none.
     */
    static int naiveBodyEnd(byte[] in, int from, byte[] dashB, boolean lf, boolean cr, boolean near) {
        for (int i = from; i < in.length; i++) {
            int s;
            if (in[i] == '\r' && i + 1 < in.length && in[i + 1] == '\n') {
                s = i + 2;
            } else if ((in[i] == '\r' && cr) || (in[i] == '\n' && lf)) {
                s = i + 1;
            } else {
                continue;
            }
            int a = s + dashB.length;
            if (a >= in.length || !java.util.Arrays.equals(in, s, a, dashB, 0, dashB.length)
                    || "- \t\r\n".indexOf(in[a]) < 0) {
                continue;
            }
            byte f = in[a];
            if (near && (f == '-' || (f == '\r' && !cr)) && a + 1 < in.length
                    && in[a + 1] != (f == '-' ? (byte) '-' : (byte) '\n')) {
                i = a; // a lookalike: body data, the search goes on after it
                continue;
            }
            return i;
        }
        return -1;
    }

    /** {@link #searchAgreesWithANaiveSearch} with allow_lf, allow_cr and allow_near_delimiters drawn at random. */
    @Test
    void lenientSearchAgreesWithANaiveSearch() {
        Random rnd = new Random(13);
        byte[] alphabet = ascii("\r\n-bx");
        int checked = 0;
        for (int round = 0; round < 3000; round++) {
            boolean lf = rnd.nextBoolean();
            boolean cr = rnd.nextBoolean();
            boolean near = rnd.nextBoolean();
            MultipartOptions o = new MultipartOptions().allowLf(lf).allowCr(cr).allowNearDelimiters(near);
            String b = rnd.nextBoolean() ? "bxb" : "b";
            int n = rnd.nextInt(300);
            byte[] head = ascii("--" + b + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f\"\r\n\r\n");
            byte[] tail = ascii("\r\n--" + b + "--\r\n");
            byte[] input = new byte[head.length + n + tail.length];
            System.arraycopy(head, 0, input, 0, head.length);
            for (int i = 0; i < n; i++) {
                input[head.length + i] = alphabet[rnd.nextInt(alphabet.length)];
            }
            System.arraycopy(tail, 0, input, head.length + n, tail.length);
            if (naiveBodyEnd(input, head.length, ascii("--" + b), lf, cr, near) != head.length + n) {
                continue; // the body holds a delimiter: not a single-part form any more
            }
            int[] cuts = rnd.ints(rnd.nextInt(6), 1, input.length).distinct().sorted().toArray();
            List<Bodies.P> parts = Bodies.parse(MultipartParser.forContentType("multipart/form-data; boundary=" + b, o),
                    input, cuts, rnd.nextBoolean());
            checked++;
            assertEquals(1, parts.size(), "round " + round);
            assertArrayEquals(java.util.Arrays.copyOfRange(input, head.length, head.length + n), parts.get(0).body(),
                    "round " + round);
        }
        assertTrue(checked > 500, checked + " bodies checked");
    }
}
