package dev.formwire.multipart;

import java.util.ArrayList;
import java.util.List;

/**
 * A WHATWG MIME type (MIME Sniffing §4.4 parse, §4.5 serialize) and Fetch's "extract a MIME type".
 *
 * <p>Used for the request Content-Type (MP-B-01, MP-B-02) and a file part's {@code type} (MP-F-03). Strings are
 * sequences of code points; header bytes are isomorphic-decoded first (each byte one code point).
 */
public final class MimeType {
    private final String type;
    private final String subtype;
    /** name, value, name, value, ... (names lowercase, first occurrence wins). */
    private final List<String> params = new ArrayList<>();

    private MimeType(String type, String subtype) {
        this.type = type;
        this.subtype = subtype;
    }

    /** The lowercase type ({@code text} in {@code text/html}). */
    public String type() {
        return type;
    }

    /** The lowercase subtype. */
    public String subtype() {
        return subtype;
    }

    /** {@code type/subtype}. */
    public String essence() {
        return type + "/" + subtype;
    }

    /** The value of a parameter (name lowercase), or {@code null}. */
    public String param(String name) {
        for (int i = 0; i < params.size(); i += 2) {
            if (params.get(i).equals(name)) {
                return params.get(i + 1);
            }
        }
        return null;
    }

    private void setParam(String name, String value) {
        for (int i = 0; i < params.size(); i += 2) {
            if (params.get(i).equals(name)) {
                params.set(i + 1, value);
                return;
            }
        }
        params.add(name);
        params.add(value);
    }

    /** HTTP whitespace: LF, CR, TAB, SP (Fetch §2.2). */
    private static boolean ws(int c) {
        return c == '\n' || c == '\r' || c == '\t' || c == ' ';
    }

    static boolean token(int c) {
        return c < 0x80 && Ascii.TOKEN[c];
    }

    private static boolean quotedToken(int c) {
        return c == 0x09 || (c >= 0x20 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF);
    }

    private static boolean allTokens(int[] s, int a, int b) {
        for (int i = a; i < b; i++) {
            if (!token(s[i])) {
                return false;
            }
        }
        return true;
    }

    private static String str(int[] s, int a, int b, boolean lower) {
        StringBuilder sb = new StringBuilder(b - a);
        for (int i = a; i < b; i++) {
            int c = s[i];
            if (lower && c >= 'A' && c <= 'Z') {
                c += 32;
            }
            sb.appendCodePoint(c);
        }
        return sb.toString();
    }

    /** Fetch "collect an HTTP quoted string" from the {@code "} at {@code pos}: {value or raw, new position}. */
    private static Object[] collectQuoted(int[] in, int end, int pos, boolean extract) {
        int start = pos;
        StringBuilder value = new StringBuilder();
        pos++;
        while (true) {
            while (pos < end && in[pos] != '"' && in[pos] != '\\') {
                value.appendCodePoint(in[pos++]);
            }
            if (pos >= end) {
                break;
            }
            int qb = in[pos++];
            if (qb == '\\') {
                if (pos >= end) {
                    value.append('\\');
                    break;
                }
                value.appendCodePoint(in[pos++]);
            } else {
                break;
            }
        }
        return new Object[] {extract ? value.toString() : str(in, start, pos, false), pos};
    }

    /** Parses a MIME type (MIME Sniffing §4.4); {@code null} is failure. */
    public static MimeType parse(String input) {
        int[] cps = input.codePoints().toArray();
        return parse(cps, 0, cps.length);
    }

    static MimeType parse(int[] in, int lo, int hi) {
        while (lo < hi && ws(in[lo])) {
            lo++;
        }
        while (hi > lo && ws(in[hi - 1])) {
            hi--;
        }
        int pos = lo;
        while (pos < hi && in[pos] != '/') {
            pos++;
        }
        if (pos == lo || !allTokens(in, lo, pos)) {
            return null;
        }
        int typeEnd = pos;
        if (pos >= hi) {
            return null;
        }
        pos++;
        int subStart = pos;
        while (pos < hi && in[pos] != ';') {
            pos++;
        }
        int subEnd = pos;
        while (subEnd > subStart && ws(in[subEnd - 1])) {
            subEnd--;
        }
        if (subEnd == subStart || !allTokens(in, subStart, subEnd)) {
            return null;
        }
        MimeType m = new MimeType(str(in, lo, typeEnd, true), str(in, subStart, subEnd, true));
        while (pos < hi) {
            pos++;
            while (pos < hi && ws(in[pos])) {
                pos++;
            }
            int ns = pos;
            while (pos < hi && in[pos] != ';' && in[pos] != '=') {
                pos++;
            }
            String name = str(in, ns, pos, true);
            if (pos < hi) {
                if (in[pos] == ';') {
                    continue;
                }
                pos++;
            }
            if (pos >= hi) {
                break;
            }
            String value;
            if (in[pos] == '"') {
                Object[] r = collectQuoted(in, hi, pos, true);
                value = (String) r[0];
                pos = (Integer) r[1];
                while (pos < hi && in[pos] != ';') {
                    pos++;
                }
            } else {
                int vs = pos;
                while (pos < hi && in[pos] != ';') {
                    pos++;
                }
                int ve = pos;
                while (ve > vs && ws(in[ve - 1])) {
                    ve--;
                }
                if (ve == vs) {
                    continue;
                }
                value = str(in, vs, ve, false);
            }
            if (!name.isEmpty() && name.codePoints().allMatch(MimeType::token)
                    && value.codePoints().allMatch(MimeType::quotedToken) && m.param(name) == null) {
                m.params.add(name);
                m.params.add(value);
            }
        }
        return m;
    }

    /** MIME Sniffing §4.5 "serialize a MIME type". */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(type).append('/').append(subtype);
        for (int i = 0; i < params.size(); i += 2) {
            String v = params.get(i + 1);
            sb.append(';').append(params.get(i)).append('=');
            if (v.isEmpty() || !v.codePoints().allMatch(MimeType::token)) {
                sb.append('"');
                v.codePoints().forEach(c -> {
                    if (c == '"' || c == '\\') {
                        sb.append('\\');
                    }
                    sb.appendCodePoint(c);
                });
                sb.append('"');
            } else {
                sb.append(v);
            }
        }
        return sb.toString();
    }

    /**
     * Fetch "extract a MIME type" over the values of every Content-Type header in order (MP-F-03): {@code null} when
     * none parses. Values are header bytes, isomorphic-decoded; a piece holding a byte 80-FF is skipped.
     */
    public static MimeType extract(List<byte[]> values) {
        // get, decode, and split
        int total = 0;
        for (byte[] v : values) {
            total += v.length + 2;
        }
        int[] in = new int[total];
        int n = 0;
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                in[n++] = ',';
                in[n++] = ' ';
            }
            for (byte b : values.get(i)) {
                in[n++] = b & 0xFF;
            }
        }
        List<int[]> pieces = new ArrayList<>();
        int pos = 0;
        StringBuilder temp = new StringBuilder();
        while (true) {
            while (pos < n && in[pos] != '"' && in[pos] != ',') {
                temp.appendCodePoint(in[pos++]);
            }
            if (pos < n && in[pos] == '"') {
                Object[] r = collectQuoted(in, n, pos, false);
                temp.append((String) r[0]);
                pos = (Integer) r[1];
                if (pos < n) {
                    continue;
                }
            }
            int[] t = temp.codePoints().toArray();
            int a = 0;
            int b = t.length;
            while (a < b && (t[a] == ' ' || t[a] == '\t')) {
                a++;
            }
            while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t')) {
                b--;
            }
            pieces.add(java.util.Arrays.copyOfRange(t, a, b));
            temp.setLength(0);
            if (pos >= n) {
                break;
            }
            pos++;
        }
        String charset = null;
        String essence = null;
        MimeType mime = null;
        outer:
        for (int[] piece : pieces) {
            for (int c : piece) {
                if (c >= 0x80) {
                    continue outer;
                }
            }
            MimeType t = parse(piece, 0, piece.length);
            if (t == null) {
                continue;
            }
            String te = t.essence();
            if (te.equals("*/*")) {
                continue;
            }
            if (!te.equals(essence)) {
                charset = t.param("charset");
                essence = te;
            } else if (t.param("charset") == null && charset != null) {
                t.setParam("charset", charset);
            }
            mime = t;
        }
        return mime;
    }
}
