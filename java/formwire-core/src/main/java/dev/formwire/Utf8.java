package dev.formwire;

/**
 * UTF-8 as WHATWG Encoding defines it, which the JDK's charset does not quite do.
 *
 * <p>{@link #decode} is "UTF-8 decode without BOM": one U+FFFD per maximal subpart of an ill-formed sequence (the
 * JDK gives one U+FFFD for {@code ED A0 80}, WHATWG three). {@link #encode} takes a string as a USVString: a lone
 * surrogate becomes U+FFFD (the JDK writes {@code ?}).
 */
public final class Utf8 {
    private Utf8() {}

    /** Decodes {@code b[off..off+len)} (UE-P-08, MP-H-10, MP-F-01); a BOM is kept. */
    public static String decode(byte[] b, int off, int len) {
        // Valid UTF-8 (the usual case) decodes the same either way, and the JDK's decoder is an intrinsic: use it,
        // and decode again by WHATWG's rules only when it replaced something.
        String fast = new String(b, off, len, java.nio.charset.StandardCharsets.UTF_8);
        return fast.indexOf('\uFFFD') < 0 ? fast : whatwg(b, off, len);
    }

    private static String whatwg(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        // ASCII prefix: no state needed.
        while (i < end && b[i] >= 0) {
            i++;
        }
        if (i == end) {
            return new String(b, off, len, java.nio.charset.StandardCharsets.ISO_8859_1);
        }
        StringBuilder sb = new StringBuilder(len);
        for (int k = off; k < i; k++) {
            sb.append((char) b[k]);
        }
        int needed = 0;
        int seen = 0;
        int cp = 0;
        int lower = 0x80;
        int upper = 0xBF;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (needed == 0) {
                i++;
                if (c < 0x80) {
                    sb.append((char) c);
                } else if (c >= 0xC2 && c <= 0xDF) {
                    needed = 1;
                    cp = c & 0x1F;
                } else if (c >= 0xE0 && c <= 0xEF) {
                    if (c == 0xE0) {
                        lower = 0xA0;
                    } else if (c == 0xED) {
                        upper = 0x9F;
                    }
                    needed = 2;
                    cp = c & 0xF;
                } else if (c >= 0xF0 && c <= 0xF4) {
                    if (c == 0xF0) {
                        lower = 0x90;
                    } else if (c == 0xF4) {
                        upper = 0x8F;
                    }
                    needed = 3;
                    cp = c & 0x7;
                } else {
                    sb.append('\uFFFD');
                }
                continue;
            }
            if (c < lower || c > upper) {
                // The byte that broke the sequence is decoded on its own (not consumed here).
                needed = seen = cp = 0;
                lower = 0x80;
                upper = 0xBF;
                sb.append('\uFFFD');
                continue;
            }
            i++;
            lower = 0x80;
            upper = 0xBF;
            cp = (cp << 6) | (c & 0x3F);
            if (++seen == needed) {
                sb.appendCodePoint(cp);
                needed = seen = cp = 0;
            }
        }
        if (needed != 0) {
            sb.append('\uFFFD');
        }
        return sb.toString();
    }

    /** Decodes a whole array. */
    public static String decode(byte[] b) {
        return decode(b, 0, b.length);
    }

    /** The number of bytes {@link #encode} writes for {@code s}. */
    public static int encodedLength(CharSequence s) {
        int n = 0;
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3; // BMP, or a lone surrogate written as U+FFFD
            }
        }
        return n;
    }

    /** Encodes {@code s} as a USVString: lone surrogates become U+FFFD (WebIDL; MP-S-07, UE-S-01). */
    public static byte[] encode(CharSequence s) {
        byte[] out = new byte[encodedLength(s)];
        int n = 0;
        int len = s.length();
        for (int i = 0; i < len; i++) {
            int c = s.charAt(i);
            if (c < 0x80) {
                out[n++] = (byte) c;
                continue;
            }
            if (Character.isSurrogate((char) c)) {
                if (Character.isHighSurrogate((char) c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                    c = Character.toCodePoint((char) c, s.charAt(++i));
                } else {
                    c = 0xFFFD;
                }
            }
            if (c < 0x800) {
                out[n++] = (byte) (0xC0 | (c >> 6));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            } else if (c < 0x10000) {
                out[n++] = (byte) (0xE0 | (c >> 12));
                out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            } else {
                out[n++] = (byte) (0xF0 | (c >> 18));
                out[n++] = (byte) (0x80 | ((c >> 12) & 0x3F));
                out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[n++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return out;
    }
}
