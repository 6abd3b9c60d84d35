package dev.formwire.v8;

/** Shared pieces of the wire format (spec/structured-clone.md). */
final class Wire {
    private Wire() {}

    static final int VERSION = 15;

    /** RegExp flag bits (SC-W-15) in text order "dgimsuvy". */
    static final char[] FLAG_CHARS = {'d', 'g', 'i', 'm', 's', 'u', 'v', 'y'};
    static final int[] FLAG_BITS = {128, 1, 2, 4, 32, 16, 256, 8};
    static final int KNOWN_FLAG_BITS = 1 | 2 | 4 | 8 | 16 | 32 | 128 | 256;

    /** Node's host-object view types (SC-W-23) by type number; 10 is Node's Buffer. */
    static final ViewKind[] NODE_HOST_KINDS = {ViewKind.Int8Array, ViewKind.Uint8Array, ViewKind.Uint8ClampedArray,
        ViewKind.Int16Array, ViewKind.Uint16Array, ViewKind.Int32Array, ViewKind.Uint32Array, ViewKind.Float32Array,
        ViewKind.Float64Array, ViewKind.DataView, ViewKind.Uint8Array, ViewKind.BigInt64Array,
        ViewKind.BigUint64Array, ViewKind.Float16Array};

    /** ECMA TimeClip (SC-D-17). */
    static double timeClip(double t) {
        if (Double.isNaN(t) || Double.isInfinite(t) || Math.abs(t) > 8.64e15) {
            return Double.NaN;
        }
        double r = t < 0 ? Math.ceil(t) : Math.floor(t);
        return r == 0 ? 0.0 : r;
    }

    /** The index a canonical array-index key 0 .. 2^32-2 names, else -1. */
    static long arrayIndex(String s) {
        int n = s.length();
        if (n == 0 || n > 10 || (n > 1 && s.charAt(0) == '0')) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v <= 0xFFFFFFFEL ? v : -1;
    }

    /** The prototype subtag of an Error name (SC-W-20), 0 for Error and any other name. */
    static int errorSubtag(String name) {
        switch (name == null ? "" : name) {
            case "EvalError": return Tags.ERROR_EVAL;
            case "RangeError": return Tags.ERROR_RANGE;
            case "ReferenceError": return Tags.ERROR_REFERENCE;
            case "SyntaxError": return Tags.ERROR_SYNTAX;
            case "TypeError": return Tags.ERROR_TYPE;
            case "URIError": return Tags.ERROR_URI;
            default: return 0;
        }
    }

    static String errorName(int sub) {
        switch (sub) {
            case Tags.ERROR_EVAL: return "EvalError";
            case Tags.ERROR_RANGE: return "RangeError";
            case Tags.ERROR_REFERENCE: return "ReferenceError";
            case Tags.ERROR_SYNTAX: return "SyntaxError";
            case Tags.ERROR_TYPE: return "TypeError";
            case Tags.ERROR_URI: return "URIError";
            default: return null;
        }
    }

    /** The key that identifies a value under SameValueZero (SC-D-20): -0 as +0, numbers as Double, objects by identity. */
    static Object memberKey(Object v) {
        if (v instanceof Number && !(v instanceof java.math.BigInteger)) {
            double d = ((Number) v).doubleValue();
            return d == 0 ? 0.0 : d; // Double.equals makes every NaN alike
        }
        return v;
    }

    /** Well-formed UTF-8 (Unicode 3.9 table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF). */
    static boolean validUtf8(byte[] b, int off, int end) {
        int i = off;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                if (c == 0xE0) {
                    lo = 0xA0;
                } else if (c == 0xED) {
                    hi = 0x9F;
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                if (c == 0xF0) {
                    lo = 0x90;
                } else if (c == 0xF4) {
                    hi = 0x8F;
                }
            } else {
                return false;
            }
            if (end - i - 1 < n) {
                return false;
            }
            int d = b[i + 1] & 0xFF;
            if (d < lo || d > hi) {
                return false;
            }
            for (int k = 2; k <= n; k++) {
                int e = b[i + k] & 0xFF;
                if (e < 0x80 || e > 0xBF) {
                    return false;
                }
            }
            i += n + 1;
        }
        return true;
    }
}
