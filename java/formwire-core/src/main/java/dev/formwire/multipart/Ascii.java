package dev.formwire.multipart;

/** Byte classes of RFC 9110. */
final class Ascii {
    private Ascii() {}

    /** RFC 9110 §5.6.2 tchar. */
    static final boolean[] TOKEN = new boolean[256];
    /** tchar and bytes 80-FF: header-name bytes with allow_utf8_header_names (MP-H-01). */
    static final boolean[] NAME_UTF8 = new boolean[256];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TOKEN[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TOKEN[c] = true;
            TOKEN[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TOKEN[c] = true;
        }
        for (int c = 0; c < 256; c++) {
            NAME_UTF8[c] = TOKEN[c] || c >= 0x80;
        }
    }

    static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }
}
