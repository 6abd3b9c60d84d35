package dev.formwire.multipart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.FormwireException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * jqwik properties. MP-P-08: chunking never changes the result, for every shared multipart vector (vectors/multipart/
 * accept, reject and lenient, with its options: lenient flags and limits) and any set of split points, heap or direct
 * buffers: the same parts, or the same error code at the same offset. And the encoder's round trip: any form the encoder writes parses back to its fields, with
 * exactly {@code contentLength()} bytes.
 */
class ChunkingProperties {
    /** One shared vector: its id, Content-Type, body and options. */
    record Vector(String id, String contentType, byte[] body, MultipartOptions options) {
        @Override
        public String toString() {
            return id;
        }
    }

    static final Pattern CT = Pattern.compile("\"content_type\": \"((?:[^\"\\\\]++|\\\\.)*+)\""); // possessive: no backtracking stack
    /** The flat {@code "options"} object of a vector (SCHEMA.md: flags, integer limits, null for unlimited). */
    static final Pattern OPTIONS = Pattern.compile("\"options\": \\{([^}]*+)\\}");
    static final Pattern OPTION = Pattern.compile("\"([a-z0-9_]++)\": (true|false|null|[0-9]++)");
    static final List<Vector> VECTORS = load();

    static MultipartOptions options(String json) {
        MultipartOptions o = new MultipartOptions();
        Matcher block = OPTIONS.matcher(json);
        if (block.find()) {
            Matcher m = OPTION.matcher(block.group(1));
            int seen = 0;
            while (m.find()) {
                seen++;
                String name = m.group(1);
                String v = m.group(2);
                boolean known = v.equals("true") || v.equals("false") ? o.setFlag(name, v.equals("true"))
                        : o.set(name, v.equals("null") ? MultipartOptions.UNLIMITED : Long.parseLong(v));
                if (!known) {
                    throw new IllegalStateException("unknown option " + name + " in " + json);
                }
            }
            if (seen != block.group(1).split("\":", -1).length - 1) {
                throw new IllegalStateException("an option this small reader cannot read in " + json);
            }
        }
        return o;
    }

    static Path vectorsDir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("vectors/multipart"))) {
                return p.resolve("vectors/multipart");
            }
        }
        throw new IllegalStateException("vectors/ not found above the working directory");
    }

    static List<Vector> load() {
        List<Vector> out = new ArrayList<>();
        for (String dir : new String[] {"accept", "reject", "lenient"}) {
            try (Stream<Path> s = Files.list(vectorsDir().resolve(dir))) {
                for (Path json : s.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    String text = Files.readString(json);
                    Matcher m = CT.matcher(text);
                    Path http = json.resolveSibling(json.getFileName().toString().replace(".json", ".http"));
                    if (!m.find() || !Files.exists(http)) {
                        continue;
                    }
                    String ct = m.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
                    if (ct.contains("\\u")) {
                        continue; // a JSON escape this small reader does not decode
                    }
                    out.add(new Vector(dir + "/" + json.getFileName(), ct, Files.readAllBytes(http), options(text)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** The parts, or the error as "code@offset". */
    static Object outcome(Vector v, int[] cuts, boolean direct) {
        try {
            return Bodies.parse(MultipartParser.forContentType(v.contentType(), v.options()), v.body(), cuts, direct);
        } catch (FormwireException e) {
            return e.code() + "@" + e.offset();
        }
    }

    @Provide
    Arbitrary<Vector> vectors() {
        return Arbitraries.of(VECTORS);
    }

    @Property(tries = 2000)
    void anySplitOfAnyVectorGivesTheSameResult(@ForAll("vectors") Vector v,
            @ForAll @Size(max = 12) List<@net.jqwik.api.constraints.DoubleRange(min = 0, max = 1) Double> at,
            @ForAll boolean direct) {
        int[] cuts = at.stream().mapToInt(d -> (int) (d * v.body().length)).filter(i -> i > 0 && i < v.body().length)
                .distinct().sorted().toArray();
        Object whole = outcome(v, new int[0], false);
        Object split = outcome(v, cuts, direct);
        if (whole instanceof String) {
            assertEquals(whole, split);
            return;
        }
        @SuppressWarnings("unchecked")
        List<Bodies.P> a = (List<Bodies.P>) whole;
        assertTrue(split instanceof List, () -> "split gave " + split);
        @SuppressWarnings("unchecked")
        List<Bodies.P> b = (List<Bodies.P>) split;
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.get(i).name(), b.get(i).name());
            assertEquals(a.get(i).filename(), b.get(i).filename());
            assertArrayEquals(a.get(i).body(), b.get(i).body());
        }
    }

    /** Every lenient flag of MP-R-02 that bit i of {@code flags} names (registry order) turned on in a copy of o. */
    static MultipartOptions withFlags(MultipartOptions o, int flags) {
        MultipartOptions c = o.clone();
        List<String> names = dev.formwire.Limits.Multipart.LENIENT_OPTIONS;
        for (int i = 0; i < names.size(); i++) {
            if ((flags & (1 << i)) != 0) {
                assertTrue(c.setFlag(names.get(i), true), names.get(i));
            }
        }
        return c;
    }

    /** The outcome as text: {@code name|filename|hex body} per part, or the error. */
    static String render(Object outcome) {
        if (outcome instanceof String s) {
            return s;
        }
        StringBuilder sb = new StringBuilder();
        for (Object o : (List<?>) outcome) {
            Bodies.P p = (Bodies.P) o;
            sb.append(p.name()).append('|').append(p.filename()).append('|')
                    .append(java.util.HexFormat.of().formatHex(p.body())).append('\n');
        }
        return sb.toString();
    }

    static Object outcome(String ct, byte[] body, MultipartOptions o, int[] cuts, boolean direct) {
        return outcome(new Vector("", ct, body, o), cuts, direct);
    }

    static int[] cuts(List<Double> at, int n) {
        return at.stream().mapToInt(d -> (int) (d * n)).filter(i -> i > 0 && i < n).distinct().sorted().toArray();
    }

    /** MP-P-08 with any of the twelve lenient flags on top of each vector's own options. */
    @Property(tries = 3000)
    void anySplitWithAnyLenientFlagsGivesTheSameResult(@ForAll("vectors") Vector v,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 4095) int flags,
            @ForAll @Size(max = 12) List<@net.jqwik.api.constraints.DoubleRange(min = 0, max = 1) Double> at,
            @ForAll boolean direct) {
        MultipartOptions o = withFlags(v.options(), flags);
        String whole = render(outcome(v.contentType(), v.body(), o, new int[0], false));
        assertEquals(whole, render(outcome(v.contentType(), v.body(), o, cuts(at, v.body().length), direct)));
    }

    /**
     * Bodies made of the pieces the lenient options read differently (CR, LF, delimiter lookalikes, padding,
     * obs-fold, 8-bit and continuation parameters), with any flags and small limits: whole, split anywhere and byte
     * by byte give one result (MP-P-08).
     */
    @Property(tries = 3000)
    void anySplitOfLenientPiecesGivesTheSameResult(
            @ForAll @Size(max = 24) List<@From("pieces") String> pieces,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 4095) int flags,
            @ForAll boolean small,
            @ForAll @Size(max = 6) List<@net.jqwik.api.constraints.DoubleRange(min = 0, max = 1) Double> at,
            @ForAll boolean direct) {
        byte[] body = String.join("", pieces).getBytes(StandardCharsets.ISO_8859_1);
        MultipartOptions o = withFlags(new MultipartOptions(), flags);
        if (small) {
            o.maxParts(3).maxHeaders(3).maxHeaderBytes(80).maxFieldBytes(12).maxFileBytes(20).maxTotalFieldBytes(20)
                    .maxTotalBytes(150);
        }
        String ct = "multipart/form-data; boundary=b";
        String whole = render(outcome(ct, body, o, new int[0], false));
        assertEquals(whole, render(outcome(ct, body, o, cuts(at, body.length), direct)), "split");
        int[] all = new int[Math.max(0, body.length - 1)];
        for (int i = 0; i < all.length; i++) {
            all[i] = i + 1;
        }
        assertEquals(whole, render(outcome(ct, body, o, all, false)), "byte by byte");
    }

    @Provide
    Arbitrary<String> pieces() {
        return Arbitraries.of("--b", "\r\n--b", "\r--b", "\n--b", "--", "-", "\r", "\n", "\r\n", " ", "\t", "x",
                "--b--", "\r\n--b-x", "\r\n--b\rx", "Content-Disposition: form-data; name=a",
                "Content-Disposition: form-field; name=\"a\"", "; filename=f", "; filename*0=a", "; filename*1*=%62",
                ";\u00a0x=1", "; filename*0*=''%41", "Content-Type: text/plain", "F\u00c3\u00b8: 1", "pre",
                "; name*0=x", "name=\"a\\\"b\"");
    }

    @Property(tries = 1)
    void theVectorsAreThere() {
        assertTrue(VECTORS.size() > 100, "only " + VECTORS.size() + " vectors");
        // The lenient flags reach the parser: every flag of the registry is drawn by some vector.
        for (String flag : dev.formwire.Limits.Multipart.LENIENT_OPTIONS) {
            assertTrue(VECTORS.stream().anyMatch(v -> v.id().startsWith("lenient/") && hasFlag(v.options(), flag)), flag);
        }
    }

    static boolean hasFlag(MultipartOptions o, String flag) {
        switch (flag) {
            case "allow_preamble": return o.allowPreamble();
            case "allow_lf": return o.allowLf();
            case "allow_obs_fold": return o.allowObsFold();
            case "allow_quoted_pairs": return o.allowQuotedPairs();
            case "allow_missing_disposition": return o.allowMissingDisposition();
            case "allow_any_disposition_type": return o.allowAnyDispositionType();
            case "allow_junk_after_close": return o.allowJunkAfterClose();
            case "allow_utf8_header_names": return o.allowUtf8HeaderNames();
            case "allow_cr": return o.allowCr();
            case "allow_near_delimiters": return o.allowNearDelimiters();
            case "allow_8bit_parameter_names": return o.allow8bitParameterNames();
            case "allow_rfc2231_continuations": return o.allowRfc2231Continuations();
            default: throw new IllegalArgumentException(flag);
        }
    }

    /** A field: name, value, and for a file its filename and bytes. */
    record Field(String name, String value, String filename, byte[] bytes) {}

    @Provide
    Arbitrary<String> adversarial() {
        // Control characters, quotes, CR/LF, the delimiter's own bytes, non-ASCII, and names that are joins of others.
        Arbitrary<String> chars = Arbitraries.strings().withChars("\r\n\"\\-;=%\u0000\u0001\u007f ab\u00e9\u4e2d")
                .withCharRange('\ud83d', '\ud83d').ofMaxLength(20)
                .map(s -> s.replace("\ud83d", "\ud83d\ude00")); // surrogates only in pairs (lone ones become U+FFFD)
        return Arbitraries.oneOf(chars, Arbitraries.of("__proto__", "constructor", "a", "a[b]", "a.b", "--", ""));
    }

    @Provide
    Arbitrary<Field> fields() {
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        return Combinators.combine(adversarial(), adversarial(), adversarial(), bytes, Arbitraries.of(true, false))
                .as((n, v, fn, b, file) -> file ? new Field(noNul(n), null, noNul(fn), b)
                        : new Field(noNul(n), v, null, null));
    }

    /**
     * The encoder writes NUL in a name or filename raw and the parser rejects NUL in a header (spec/multipart.md
     * MP-H-02 and the serializer's escaping rule: WPT requires both), so names and filenames draw no NUL; values do.
     */
    static String noNul(String s) {
        return s.replace("\u0000", "");
    }

    /** WHATWG multipart/form-data encoding of a name or filename: CR, LF and '"' percent-encoded. */
    static String escaped(String s) {
        return s.replace("\r", "%0D").replace("\n", "%0A").replace("\"", "%22");
    }

    /** WHATWG: a value's lone CR and LF become CRLF. */
    static String crlf(String s) {
        return s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n");
    }

    @Property(tries = 500)
    void encoderRoundTrip(@ForAll @Size(max = 8) List<@From("fields") Field> form) {
        MultipartEncoder e = new MultipartEncoder();
        for (Field f : form) {
            if (f.value() != null) {
                e.text(f.name(), f.value());
            } else {
                e.file(f.name(), f.filename(), "application/octet-stream", f.bytes());
            }
        }
        byte[] body = e.toByteArray();
        assertEquals(e.contentLength(), body.length);
        List<Bodies.P> parts = Bodies.parse(e.contentType(), body, new MultipartOptions());
        assertEquals(form.size(), parts.size());
        for (int i = 0; i < form.size(); i++) {
            Field f = form.get(i);
            Bodies.P p = parts.get(i);
            assertEquals(escaped(crlf(f.name())), p.name());
            if (f.value() != null) {
                assertNull(p.filename());
                assertEquals(crlf(f.value()), new String(p.body(), StandardCharsets.UTF_8));
            } else {
                assertNotNull(p.filename());
                assertEquals(escaped(f.filename()), p.filename());
                assertArrayEquals(f.bytes(), p.body());
            }
        }
    }
}
