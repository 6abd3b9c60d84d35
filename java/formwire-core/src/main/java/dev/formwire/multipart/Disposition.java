package dev.formwire.multipart;

/**
 * The Content-Disposition value grammar (MP-H-07..09):
 * {@code disposition-type *( OWS ";" OWS [ parameter ] ) OWS},
 * {@code parameter = token OWS "=" OWS ( token / quoted-string )}.
 *
 * <p>A quoted-string has two readings (MP-H-07): literal ({@code \} is an ordinary byte, as the WHATWG serializer
 * writes) and quoted-pair (RFC 9110 §5.6.4, as Go's and httpx's writers do). One reading applies to the whole value;
 * the literal one is tried first unless {@code allow_quoted_pairs} reverses the order.
 */
final class Disposition {
    byte[] name;
    byte[] filename;
    byte[] nameStar;
    byte[] filenameStar;

    /** The part of MP-H-06 with no (or an empty) Content-Disposition: every parameter null. */
    static final Disposition NAMELESS = new Disposition();

    /**
     * Parses {@code v[a..b)} with the options' reading order and their lenient grammar (allow_quoted_pairs,
     * allow_any_disposition_type, allow_8bit_parameter_names, allow_rfc2231_continuations); {@code null} when
     * neither reading matches.
     */
    static Disposition parse(byte[] v, int a, int b, MultipartOptions o) {
        Disposition d = browserForm(v, a, b);
        if (d != null) {
            return d;
        }
        d = read(v, a, b, o.allowQuotedPairs, o);
        return d != null ? d : read(v, a, b, !o.allowQuotedPairs, o);
    }

    private static final byte[] NAME = "form-data; name=\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] FILENAME = "; filename=\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * The exact shapes browsers send (WHATWG's serializer, MP-S-01), {@code form-data; name="N"} and
     * {@code form-data; name="N"; filename="F"}, without backslashes (where the two quoted-string readings could
     * differ): the result both readings give; {@code null} for anything else, which the full grammar decides.
     */
    private static Disposition browserForm(byte[] v, int a, int b) {
        int n = NAME.length;
        if (b - a < n + 1 || !java.util.Arrays.equals(v, a, a + n, NAME, 0, n)) {
            return null;
        }
        int q = a + n;
        while (q < b && v[q] != '"') {
            if (v[q] == '\\') {
                return null;
            }
            q++;
        }
        if (q == b) {
            return null;
        }
        Disposition d = new Disposition();
        d.name = java.util.Arrays.copyOfRange(v, a + n, q);
        int rest = q + 1;
        if (rest == b) {
            return d;
        }
        int f = FILENAME.length;
        if (b - rest < f + 1 || !java.util.Arrays.equals(v, rest, rest + f, FILENAME, 0, f) || v[b - 1] != '"') {
            return null;
        }
        for (int i = rest + f; i < b - 1; i++) {
            if (v[i] == '"' || v[i] == '\\') {
                return null;
            }
        }
        d.filename = java.util.Arrays.copyOfRange(v, rest + f, b - 1);
        return d;
    }

    private static int ows(byte[] v, int i, int end) {
        while (i < end && (v[i] == ' ' || v[i] == '\t')) {
            i++;
        }
        return i;
    }

    private static int tokenEnd(byte[] v, int i, int end) {
        while (i < end && Ascii.TOKEN[v[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    private static boolean is(byte[] v, int a, int b, String lower) {
        if (b - a != lower.length()) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            if (Ascii.lower(v[a + i]) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static Disposition read(byte[] v, int start, int end, boolean quotedPairs, MultipartOptions o) {
        int t = tokenEnd(v, start, end);
        // MP-H-07: form-data; with allow_any_disposition_type any (non-empty) token, the rest read the same way.
        if (o.allowAnyDispositionType ? t == start : !is(v, start, t, "form-data")) {
            return null;
        }
        // MP-H-07: with allow_8bit_parameter_names a parameter name may hold bytes 80-FF too.
        boolean[] nameChars = o.allow8bitParameterNames ? Ascii.NAME_UTF8 : Ascii.TOKEN;
        Disposition d = new Disposition();
        Continuations segs = null;
        int i = t;
        byte[] scratch = null;
        while (true) {
            i = ows(v, i, end);
            if (i == end) {
                break;
            }
            if (v[i] != ';') {
                return null;
            }
            i = ows(v, i + 1, end);
            if (i == end) {
                break;
            }
            if (v[i] == ';') {
                continue; // an empty parameter
            }
            int pn = i;
            boolean eightBit = false;
            while (i < end && nameChars[v[i] & 0xFF]) {
                eightBit |= v[i] < 0;
                i++;
            }
            if (i == pn) {
                return null;
            }
            int pe = i;
            i = ows(v, i, end);
            if (i == end || v[i] != '=') {
                return null;
            }
            i = ows(v, i + 1, end);
            byte[] value;
            if (i < end && v[i] == '"') {
                if (!quotedPairs) {
                    int close = -1;
                    for (int k = i + 1; k < end; k++) {
                        if (v[k] == '"') {
                            close = k;
                            break;
                        }
                    }
                    if (close < 0) {
                        return null;
                    }
                    value = java.util.Arrays.copyOfRange(v, i + 1, close);
                    i = close + 1;
                } else {
                    if (scratch == null) {
                        scratch = new byte[end - start];
                    }
                    int n = 0;
                    int k = i + 1;
                    boolean closed = false;
                    while (k < end) {
                        byte c = v[k++];
                        if (c == '\\') {
                            if (k == end) {
                                break;
                            }
                            scratch[n++] = v[k++];
                        } else if (c == '"') {
                            closed = true;
                            break;
                        } else {
                            scratch[n++] = c;
                        }
                    }
                    if (!closed) {
                        return null;
                    }
                    value = java.util.Arrays.copyOf(scratch, n);
                    i = k;
                }
            } else {
                int vs = i;
                i = tokenEnd(v, i, end);
                if (i == vs) {
                    return null;
                }
                value = java.util.Arrays.copyOfRange(v, vs, i);
            }
            // MP-H-08, MP-H-09: case-insensitive names, no repeats. A name with a byte 80-FF is none of them (MP-H-07).
            if (eightBit) {
                continue;
            }
            if (is(v, pn, pe, "name")) {
                if (d.name != null) {
                    return null;
                }
                d.name = value;
            } else if (is(v, pn, pe, "filename")) {
                if (d.filename != null) {
                    return null;
                }
                d.filename = value;
            } else if (is(v, pn, pe, "name*")) {
                if (d.nameStar != null) {
                    return null;
                }
                d.nameStar = value;
            } else if (is(v, pn, pe, "filename*")) {
                if (d.filenameStar != null) {
                    return null;
                }
                d.filenameStar = value;
            } else if (o.allowRfc2231Continuations) {
                int n = Continuations.index(v, pn, pe);
                if (n >= 0) {
                    if (segs == null) {
                        segs = new Continuations();
                    }
                    if (!segs.add(v, pn, pe, n, value)) {
                        return null; // MP-H-09: the same N twice (either form) is two readings
                    }
                }
            }
        }
        if (d.name == null) {
            return null;
        }
        // MP-H-09: a present filename wins; the continuations then give nothing.
        if (segs != null && d.filename == null && !segs.join(d)) {
            return null;
        }
        return d;
    }

    /**
     * RFC 2231 filename continuations (MP-H-09, allow_rfc2231_continuations): {@code filename*N} and
     * {@code filename*N*} by N, joined for N = 0, 1, ... up to the first missing one.
     */
    static final class Continuations {
        /** One {@code filename*N} or {@code filename*N*} parameter: N, extended ({@code *N*}), the value as read. */
        private static final class Seg {
            final int n;
            final boolean ext;
            final byte[] value;

            Seg(int n, boolean ext, byte[] value) {
                this.n = n;
                this.ext = ext;
                this.value = value;
            }
        }

        /** In the order written. */
        private final java.util.ArrayList<Seg> segs = new java.util.ArrayList<>();
        /** The N of each, as written (decimal without leading zeros, so equal text is equal N at any size). */
        private final java.util.HashSet<String> seen = new java.util.HashSet<>();

        private static final byte[] PREFIX = "filename*".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

        /**
         * N of a parameter named {@code filename*N} or {@code filename*N*} (ASCII case-insensitive, N decimal
         * without leading zeros), or -1. An N too large to be reached from 0 by the parameters of one header is
         * capped at {@link Integer#MAX_VALUE}: such a segment is never joined.
         */
        static int index(byte[] v, int a, int b) {
            int p = PREFIX.length;
            if (b - a <= p) {
                return -1;
            }
            for (int k = 0; k < p; k++) {
                if (Ascii.lower(v[a + k]) != PREFIX[k]) {
                    return -1;
                }
            }
            int ds = a + p;
            int de = v[b - 1] == '*' ? b - 1 : b;
            if (de == ds || (v[ds] == '0' && de - ds > 1)) {
                return -1;
            }
            long n = 0;
            for (int k = ds; k < de; k++) {
                if (v[k] < '0' || v[k] > '9') {
                    return -1;
                }
                n = Math.min(Integer.MAX_VALUE, n * 10 + (v[k] - '0'));
            }
            return (int) n;
        }

        /**
         * Adds parameter {@code v[a..b)} (its N is {@code n}, from {@link #index}); {@code false} when its N was
         * given before, in either form.
         */
        boolean add(byte[] v, int a, int b, int n, byte[] value) {
            boolean ext = v[b - 1] == '*';
            int ds = a + PREFIX.length;
            if (!seen.add(new String(v, ds, (ext ? b - 1 : b) - ds, java.nio.charset.StandardCharsets.ISO_8859_1))) {
                return false;
            }
            segs.add(new Seg(n, ext, value));
            return true;
        }

        /**
         * Sets {@code d.filename} from segments 0, 1, ... up to the first missing one; {@code false} when
         * {@code filename*0*} lacks {@code charset'language'}. Without segment 0 there is no filename.
         */
        boolean join(Disposition d) {
            // Only N below the number of segments can be reached from 0 without a gap.
            int k = segs.size();
            Seg[] byN = new Seg[k];
            for (Seg seg : segs) {
                if (seg.n < k) {
                    byN[seg.n] = seg;
                }
            }
            if (byN[0] == null) {
                return true;
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (int n = 0; n < k && byN[n] != null; n++) {
                boolean ext = byN[n].ext;
                byte[] s = byN[n].value;
                int from = 0;
                if (n == 0 && ext) {
                    // RFC 2231 charset'language' is removed; the charset is not used (read as UTF-8, MP-H-10).
                    int quotes = 0;
                    while (from < s.length && quotes < 2) {
                        if (s[from++] == '\'') {
                            quotes++;
                        }
                    }
                    if (quotes < 2) {
                        return false;
                    }
                }
                if (ext) {
                    percentDecode(s, from, out);
                } else {
                    out.write(s, from, s.length - from);
                }
            }
            d.filename = out.toByteArray();
            return true;
        }
        /** {@code %} and two hex digits is that byte; any other {@code %} stays as it is. */
        private static void percentDecode(byte[] s, int from, java.io.ByteArrayOutputStream out) {
            for (int k = from; k < s.length; k++) {
                int h;
                int l;
                if (s[k] == '%' && k + 2 < s.length && (h = hex(s[k + 1])) >= 0 && (l = hex(s[k + 2])) >= 0) {
                    out.write(h << 4 | l);
                    k += 2;
                } else {
                    out.write(s[k]);
                }
            }
        }

        private static int hex(byte c) {
            if (c >= '0' && c <= '9') {
                return c - '0';
            }
            int x = c | 0x20;
            return x >= 'a' && x <= 'f' ? x - 'a' + 10 : -1;
        }
    }
}
