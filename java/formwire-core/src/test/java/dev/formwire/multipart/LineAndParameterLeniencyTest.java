package dev.formwire.multipart;

import static dev.formwire.multipart.Bodies.ascii;
import static dev.formwire.multipart.Bodies.close;
import static dev.formwire.multipart.Bodies.field;
import static dev.formwire.multipart.MultipartParserTest.CT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.FormwireException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * allow_cr, allow_near_delimiters, allow_8bit_parameter_names and allow_rfc2231_continuations (MP-R-02) beyond the
 * vectors: each against its strict reading, at every split point and byte by byte (so every held-back path of
 * MP-P-08 runs), the limits they leave unchanged, their combinations, and the Part API of a joined filename.
 */
class LineAndParameterLeniencyTest {
    static MultipartOptions cr() {
        return new MultipartOptions().allowCr(true);
    }

    static MultipartOptions near() {
        return new MultipartOptions().allowNearDelimiters(true);
    }

    /** The parts as {@code name|filename|hex body} lines, or the error as {@code CODE@offset}. */
    static String outcome(byte[] input, MultipartOptions o, int[] cuts, boolean direct) {
        try {
            StringBuilder sb = new StringBuilder();
            for (Bodies.P p : Bodies.parse(MultipartParser.forContentType(CT, o), input, cuts, direct)) {
                sb.append(p.name()).append('|').append(p.filename()).append('|')
                        .append(HexFormat.of().formatHex(p.body())).append('\n');
            }
            return sb.toString();
        } catch (FormwireException e) {
            return e.code() + "@" + e.offset();
        }
    }

    /** The outcome of the whole input, checked to be that of every single split and of byte-by-byte feeding. */
    static String everySplit(String body, MultipartOptions o) {
        byte[] input = ascii(body);
        String whole = outcome(input, o, new int[0], false);
        for (int i = 1; i < input.length; i++) {
            assertEquals(whole, outcome(input, o, new int[] {i}, (i & 1) == 0), "split at " + i);
        }
        int[] all = new int[Math.max(0, input.length - 1)];
        for (int i = 0; i < all.length; i++) {
            all[i] = i + 1;
        }
        assertEquals(whole, outcome(input, o, all, false), "byte by byte");
        return whole;
    }

    static String part(String name, String filename, String body) {
        return name + "|" + filename + "|" + HexFormat.of().formatHex(ascii(body)) + "\n";
    }

    static String cd(String value) {
        return "--b\r\nContent-Disposition: " + value + "\r\n\r\nv\r\n" + close("b");
    }

    // --- allow_cr (MP-P-03, MP-P-05, MP-P-06, MP-H-02, MP-H-03) -----------------------------------------------

    @Test
    void crEndsDelimiterAndHeaderLinesAndBodies() {
        String body = "--b\rContent-Disposition: form-data; name=\"a\"\r\rv\r--b\rContent-Disposition: form-data; "
                + "name=\"c\"\r\r\r--b--";
        assertEquals("MP_DELIMITER@4", everySplit(body, new MultipartOptions()));
        // The second body is empty: its empty line's CR is the header block's, the next CR the delimiter's.
        assertEquals(part("a", null, "v") + part("c", null, ""), everySplit(body, cr()));
        // A CR then CRLF in a header: the CR ends the line, the CRLF is the empty line.
        String crCrlf = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\r\nv\r\n" + close("b");
        assertEquals("MP_HEADER_VALUE@45", everySplit(crCrlf, new MultipartOptions()));
        assertEquals(part("a", null, "v"), everySplit(crCrlf, cr()));
        // Padding then a bare CR ends the delimiter line; the byte after it starts the header block.
        assertEquals(part("a", null, "v"), everySplit("--b \t\rContent-Disposition: form-data; name=a\r\n\r\nv\r\n"
                + close("b"), cr()));
        // A body ends at CR--B only before a delimiter follower (MP-P-04).
        assertEquals(part("a", null, "1\r--bX2"), everySplit("--b\rContent-Disposition: form-data; name=a\r\r"
                + "1\r--bX2\r--b--", cr()));
    }

    @Test
    void crEndsTheCloseDelimiterLine() {
        String part = field("b", "a", "v");
        assertEquals("MP_TRUNCATED@" + (part.length() + 6), everySplit(part + "--b--\r", new MultipartOptions()));
        assertEquals(part("a", null, "v"), everySplit(part + "--b--\r", cr()));
        assertEquals("MP_DELIMITER@" + (part.length() + 6), everySplit(part + "--b--\repilogue", new MultipartOptions()));
        assertEquals(part("a", null, "v"), everySplit(part + "--b--\repilogue", cr()));
        // The epilogue still counts (MP-L-03), and --B-x is still no close delimiter.
        assertEquals("MP_LIMIT_TOTAL_BYTES@" + (part.length() + 7),
                everySplit(part + "--b--\repilogue", cr().maxTotalBytes(part.length() + 7)));
        assertEquals("MP_DELIMITER@" + (part.length() + 4), everySplit(part + "--b-x\r", cr()));
    }

    @Test
    void crLeavesWhatStillFails() {
        // Input that ends right after a delimiter line's CR: the line's end is not known yet.
        assertEquals("MP_TRUNCATED@4", everySplit("--b\r", cr()));
        // A bare CR before the colon is a line without a colon.
        assertEquals("MP_HEADER_NAME@8", everySplit("--b\r\nX-A\r: v\r\n" + cd("form-data; name=a").substring(5), cr()));
        // MP-L-01: the delimiter line of part max_parts + 1 ends at its CR; the limit fires at the next byte.
        assertEquals("MP_LIMIT_PARTS@4", everySplit("--b\rContent-Disposition: form-data; name=a\r\rv\r--b--",
                cr().maxParts(0)));
        // MP-L-02: the CR of CR--B is no body byte.
        String four = "--b\rContent-Disposition: form-data; name=a\r\rabcd\r--b--";
        assertEquals(part("a", null, "abcd"), everySplit(four, cr().maxFieldBytes(4)));
        assertEquals("MP_LIMIT_FIELD_BYTES@" + (four.indexOf("abcd") + 3), everySplit(four, cr().maxFieldBytes(3)));
        // MP-H-05: a CR at a line start is the empty line, not counted; header bytes before it are.
        String h = "--b\rContent-Disposition: form-data; name=a\r\rv\r--b--";
        assertEquals(part("a", null, "v"), everySplit(h, cr().maxHeaderBytes(39)));
        assertEquals("MP_LIMIT_HEADER_BYTES@42", everySplit(h, cr().maxHeaderBytes(38)));
    }

    /** allow_cr changes what a strictly valid body means: CR--B inside a value becomes a delimiter. */
    @Test
    void crChangesTheReadingOfValidBodies() {
        String body = field("b", "a", "1\r--b\r\nContent-Disposition: form-data; name=c\r\n\r\n2") + close("b");
        assertEquals(part("a", null, "1\r--b\r\nContent-Disposition: form-data; name=c\r\n\r\n2"),
                everySplit(body, new MultipartOptions()));
        assertEquals(part("a", null, "1") + part("c", null, "2"), everySplit(body, cr()));
    }

    @Test
    void crWithLfAndObsFold() {
        String body = "--b\rContent-Disposition: form-data;\r name=a\n\r\nx\r--b\nContent-Disposition: form-data; "
                + "name=c\r\ry\n--b--";
        MultipartOptions all = cr().allowLf(true).allowObsFold(true);
        assertEquals(part("a", null, "x") + part("c", null, "y"), everySplit(body, all));
        assertEquals("MP_OBS_FOLD@36", everySplit(body, cr().allowLf(true)));
        assertEquals("MP_DELIMITER@4", everySplit(body, new MultipartOptions().allowLf(true).allowObsFold(true)));
        // The preamble ends at CR--B too (MP-P-02).
        assertEquals(part("a", null, "v"), everySplit("preamble\r--b\rContent-Disposition: form-data; name=a\r\rv\r"
                + "--b--", cr().allowPreamble(true)));
    }

    // --- allow_near_delimiters (MP-P-03, MP-P-04) --------------------------------------------------------------

    @Test
    void nearDelimitersAreBodyData() {
        String value = "x\r\n--b-y\r\n--b\rz\r\n--b-\r\n--b\r\r";
        String body = field("b", "a", value) + close("b");
        assertEquals("MP_DELIMITER@" + (body.indexOf("-y") + 1), everySplit(body, new MultipartOptions()));
        assertEquals(part("a", null, value), everySplit(body, near()));
        // Every limit counts the lookalike's bytes as body bytes.
        int start = body.indexOf("x\r\n");
        assertEquals(part("a", null, value), everySplit(body, near().maxFieldBytes(value.length())));
        assertEquals("MP_LIMIT_FIELD_BYTES@" + (start + 5), everySplit(body, near().maxFieldBytes(5)));
        assertEquals("MP_LIMIT_TOTAL_FIELD_BYTES@" + (start + 9), everySplit(body, near().maxTotalFieldBytes(9)));
        // The byte after --B- decides: when it is at max_total_bytes it is never read.
        int y = body.indexOf("-y") + 1;
        assertEquals("MP_LIMIT_TOTAL_BYTES@" + y, everySplit(body, near().maxTotalBytes(y)));
    }

    @Test
    void nearDelimitersLeaveRealDelimitersAndEndsAlone() {
        // --B-- and --B CRLF stay delimiters, also when the deciding byte is in the next chunk.
        String two = field("b", "a", "1") + field("b", "c", "2") + close("b");
        assertEquals(part("a", null, "1") + part("c", null, "2"), everySplit(two, near()));
        String f = field("b", "a", "1");
        assertEquals("MP_TRUNCATED@" + (f.length() + 4), everySplit(f + "--b-", near()));
        assertEquals("MP_TRUNCATED@" + (f.length() + 4), everySplit(f + "--b\r", near()));
        // Padding then junk, and the first delimiter, are unchanged.
        assertEquals("MP_DELIMITER@" + (f.length() + 4), everySplit(f + "--b x\r\n" + close("b"), near()));
        assertEquals("MP_DELIMITER@4", everySplit("--b-x\r\n" + f.substring(5) + close("b"), near()));
        // --B- CR CRLF--B--: the lookalike ends at the dash, the CR is data, the CRLF begins the close delimiter.
        assertEquals(part("a", null, "1\r\n--b-\r"), everySplit(f.replace("1\r\n", "1\r\n--b-\r\r\n") + close("b"),
                near()));
    }

    @Test
    void nearDelimitersWithCrAndLf() {
        // With allow_cr, --B CR then a byte other than LF ends the delimiter line: no lookalike.
        String body = field("b", "a", "1") + "--b\rContent-Disposition: form-data; name=c\r\n\r\n2\r\n" + close("b");
        assertEquals(part("a", null, "1") + part("c", null, "2"), everySplit(body, near().allowCr(true)));
        assertEquals(part("a", null, "1\r\n--b\rContent-Disposition: form-data; name=c\r\n\r\n2"),
                everySplit(body, near()));
        // CR--B-x and LF--B-x are lookalikes too.
        String crBody = "--b\rContent-Disposition: form-data; name=a\r\r1\r--b-x\r--b--";
        assertEquals(part("a", null, "1\r--b-x"), everySplit(crBody, near().allowCr(true)));
        assertEquals("MP_DELIMITER@" + (crBody.indexOf("-x") + 1), everySplit(crBody, cr()));
        String lfBody = "--b\nContent-Disposition: form-data; name=a\n\n1\n--b-x\r\n--b-x\n--b--\n";
        assertEquals(part("a", null, "1\n--b-x\r\n--b-x"), everySplit(lfBody,
                near().allowLf(true)));
        assertEquals(part("a", null, "1\n--b-x\r\n--b-x"), everySplit(lfBody,
                near().allowLf(true).allowCr(true)));
    }

    /**
     * A lookalike held across chunks is handed out from the parser's own constant bytes: DATA views stay valid after
     * later events (no scratch buffer is reused).
     */
    @Test
    void heldLookalikeViewsStayValid() {
        String value = "x\r\n--b-y\r\n--b\rz";
        byte[] input = ascii(field("b", "a", value) + close("b"));
        MultipartParser p = MultipartParser.forContentType(CT, near());
        List<ByteBuffer> views = new ArrayList<>();
        for (int i = 0; i <= input.length; i++) {
            if (i < input.length) {
                p.feed(ByteBuffer.wrap(input, i, 1));
            } else {
                p.finish();
            }
            for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) {
                if (e == MultipartParser.Event.DATA) {
                    views.add(p.data());
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer v : views) {
            byte[] b = new byte[v.remaining()];
            v.get(b);
            out.writeBytes(b);
        }
        assertEquals(value, out.toString(StandardCharsets.ISO_8859_1));
    }

    // --- allow_8bit_parameter_names (MP-H-07) ------------------------------------------------------------------

    @Test
    void eightBitParameterNamesAreIgnored() {
        MultipartOptions p8 = new MultipartOptions().allow8bitParameterNames(true);
        String a0 = cd("form-data; name=\"a\";\u00a0filename=\"a.txt\"");
        assertEquals("MP_DISPOSITION@5", everySplit(a0, new MultipartOptions()));
        assertEquals(part("a", null, "v"), everySplit(a0, p8));
        assertEquals(part("a", "f.txt", "v"), everySplit(cd("form-data; name=a; f\u00c3\u00a9=x; filename=\"f.txt\""),
                p8));
        assertEquals(part("a", null, "v"), everySplit(cd("form-data; name=a; name\u00ff=\"b\""), p8));
        assertEquals(part("a", null, "v"), everySplit(cd("form-data; name=a; filename\u0085*0=x"),
                p8.clone().allowRfc2231Continuations(true)));
        for (String bad : new String[] {"form-data; name=a; f@o=1", "form-data; name=a; \u00a0x=\"open",
                "form-data\u00a0; name=a", "form-data; \u00a0name=a", "form-data; name=a; \u00a0x"}) {
            assertEquals("MP_DISPOSITION@5", everySplit(cd(bad), p8), bad);
        }
        // With quoted-pairs, as for any parameter: the reading applies to the ignored value too.
        assertEquals(part("a\"b", null, "v"), everySplit(cd("form-data; name=\"a\\\"b\"; \u00e9=\"c\\\"d\""), p8));
    }

    // --- allow_rfc2231_continuations (MP-H-09) -----------------------------------------------------------------

    static MultipartOptions c2231() {
        return new MultipartOptions().allowRfc2231Continuations(true);
    }

    static Part joined(String cdValue) {
        return MultipartParserTest.firstPart(cd(cdValue), c2231());
    }

    @Test
    void continuationsMakeTheFilename() {
        String v = "form-data; name=f; filename*1=\".txt\"; filename*0*=UTF-8'en'%C3%A9t%C3%A9";
        Part strict = MultipartParserTest.firstPart(cd(v), new MultipartOptions());
        assertNull(strict.filename());
        assertFalse(strict.isFile());
        Part p = joined(v);
        assertEquals("\u00e9t\u00e9.txt", p.filename());
        assertArrayEquals("\u00e9t\u00e9.txt".getBytes(StandardCharsets.UTF_8), p.filenameBytes());
        assertTrue(p.isFile());
        assertNull(p.filenameStar());
        assertEquals("a b", joined("form-data; name=f; filename*0*=''a%20b").filename());
        assertEquals("100%%2x%", joined("form-data; name=f; filename*0*=''100%25%2x%").filename());
        assertEquals("%41", joined("form-data; name=f; filename*0=%41").filename()); // not extended: as written
        assertEquals("ab", joined("form-data; name=f; FILENAME*0=a; FileName*1*=%62").filename());
        assertEquals("a b c d e f.txt", everySplit("--b\r\nContent-Disposition: form-data; name=rfc2231;\r\n\t"
                + "filename*0*=ascii''a%20b%20;\r\n\tfilename*1*=c%20d%20;\r\n\tfilename*2=\"e f.txt\"\r\n\r\nv\r\n"
                + close("b"), c2231().allowObsFold(true)).split("\\|")[1]);
    }

    @Test
    void continuationsWhatIsNotJoined() {
        assertEquals("safe.txt", joined("form-data; name=f; filename*0=evil; filename=\"safe.txt\"").filename());
        assertEquals("ab", joined("form-data; name=f; filename*1=b; filename*0=a; filename*3=d").filename());
        assertNull(joined("form-data; name=f; filename*1=b").filename());
        assertEquals("a", joined("form-data; name=f; filename*0=a; filename*01=b; filename*00=c").filename());
        assertEquals("a", joined("form-data; name=f; filename*0=a; filename*99999999999999999999=b; "
                + "filename*99999999999999999998=c").filename());
        Part star = joined("form-data; name=f; filename*=utf-8''x.php; filename*0=\"a.txt\"");
        assertEquals("a.txt", star.filename());
        assertEquals("utf-8''x.php", star.filenameStar());
        Part name = joined("form-data; name=n; name*0=x; filename*0=f");
        assertEquals("n", name.name());
        assertEquals("f", name.filename());
        for (String bad : new String[] {"form-data; name=f; filename*0=a; filename*0*=''b",
                "form-data; name=f; filename*0=a; filename*1=b; filename*1=c", "form-data; name=f; filename*0*=a.txt",
                "form-data; name=f; filename*0*=utf-8'a.txt", "form-data; filename*0=a",
                // The same N twice is two readings even where no continuation is joined.
                "form-data; name=f; filename=safe; filename*0=a; filename*0=b",
                "form-data; name=f; filename*0=a; filename*2=b; FILENAME*2*=c", "form-data; name=f; filename*1=a; filename*1=b",
                "form-data; name=f; filename*99999999999999999999=a; filename*99999999999999999999*=b"}) {
            assertEquals("MP_DISPOSITION@5", everySplit(cd(bad), c2231()), bad);
            assertEquals(!bad.contains("name=f") ? "MP_DISPOSITION@5"
                    : part("f", bad.contains("filename=safe") ? "safe" : null, "v"),
                    everySplit(cd(bad), new MultipartOptions()), bad);
        }
    }

    /** The joined part is a file part for every limit and count (MP-L-02, MP-L-05). */
    @Test
    void continuationsMakeAFilePart() {
        String body = field("b", "a", "1") + "--b\r\nContent-Disposition: form-data; name=f; filename*0=x.bin\r\n\r\n"
                + "abcd\r\n" + close("b");
        assertEquals(part("a", null, "1") + part("f", "x.bin", "abcd"), everySplit(body, c2231().maxFieldBytes(1)));
        assertEquals("MP_LIMIT_FILE_BYTES@" + (body.indexOf("abcd") + 3), everySplit(body, c2231().maxFileBytes(3)));
        assertEquals("MP_LIMIT_FILES@" + (field("b", "a", "1").length() + 5), everySplit(body, c2231().maxFiles(0)));
        assertEquals(part("a", null, "1") + part("f", null, "abcd"), everySplit(body, new MultipartOptions().maxFiles(0)));
    }

    // --- together ----------------------------------------------------------------------------------------------

    @Test
    void allTwelveFlagsTogether() {
        MultipartOptions all = new MultipartOptions();
        for (String flag : dev.formwire.Limits.Multipart.LENIENT_OPTIONS) {
            assertTrue(all.setFlag(flag, true), flag);
        }
        assertTrue(all.allowCr() && all.allowNearDelimiters() && all.allow8bitParameterNames()
                && all.allowRfc2231Continuations());
        MultipartOptions d = new MultipartOptions();
        assertFalse(d.allowCr() || d.allowNearDelimiters() || d.allow8bitParameterNames()
                || d.allowRfc2231Continuations());
        String body = "pre\n--b\rContent-Disposition: form-field; name=\"a\";\u00a0x=1;\r filename*0=\"f.txt\"\r"
                + "F\u00c3\u00b8: 1\r\r1\r\n--b-x\r--b\r\nContent-Type: text/plain\r\n\r\n2\n--b--junk";
        assertEquals(part("a", "f.txt", "1\r\n--b-x") + part(null, null, "2"), everySplit(body, all));
        MultipartOptions set = new MultipartOptions().allowPreamble(true).allowLf(true).allowObsFold(true)
                .allowQuotedPairs(true).allowMissingDisposition(true).allowAnyDispositionType(true)
                .allowJunkAfterClose(true).allowUtf8HeaderNames(true).allowCr(true).allowNearDelimiters(true)
                .allow8bitParameterNames(true).allowRfc2231Continuations(true);
        assertEquals(everySplit(body, all), everySplit(body, set));
    }

    /** MP-P-08 with the new options: bodies full of CR--B and CRLF--B- lookalikes are searched in linear time. */
    @Test
    void lookalikesStayLinear() {
        String b = "x".repeat(200);
        String near = "\r\n--" + b + "-y\r\n--" + b + "\rz\r\r";
        String crNear = "\r--" + "x".repeat(199) + "y\n--" + b + "-y\r--" + b + "-z\r\r\n\n";
        for (MultipartOptions o : new MultipartOptions[] {near(), near().allowCr(true).allowLf(true)}) {
            StringBuilder sb = new StringBuilder("--" + b + "\r\nContent-Disposition: form-data; name=f; filename=f\r\n\r\n");
            while (sb.length() < 8 << 20) {
                sb.append(o.allowCr() ? crNear : near);
            }
            sb.append("\r\n").append(close(b));
            byte[] body = ascii(sb.toString());
            long t0 = System.nanoTime();
            List<Bodies.P> parts = Bodies.parse("multipart/form-data; boundary=" + b, body, o);
            assertEquals(1, parts.size());
            assertTrue(System.nanoTime() - t0 < 3_000_000_000L, "linear time");
        }
    }
}
