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
     * Parses {@code v[a..b)}; {@code null} when neither reading matches. {@code anyType}: any token as the
     * disposition type, not only {@code form-data} ({@code allow_any_disposition_type}, MP-H-07).
     */
    static Disposition parse(byte[] v, int a, int b, boolean quotedPairsFirst, boolean anyType) {
        Disposition d = browserForm(v, a, b);
        if (d != null) {
            return d;
        }
        d = read(v, a, b, quotedPairsFirst, anyType);
        return d != null ? d : read(v, a, b, !quotedPairsFirst, anyType);
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

    private static Disposition read(byte[] v, int start, int end, boolean quotedPairs, boolean anyType) {
        int t = tokenEnd(v, start, end);
        // MP-H-07: form-data; with allow_any_disposition_type any (non-empty) token, the rest read the same way.
        if (anyType ? t == start : !is(v, start, t, "form-data")) {
            return null;
        }
        Disposition d = new Disposition();
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
            i = tokenEnd(v, i, end);
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
            // MP-H-08, MP-H-09: case-insensitive names, no repeats.
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
            }
        }
        return d.name != null ? d : null;
    }
}
