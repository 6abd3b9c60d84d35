package dev.formwire.urlencoded;

import dev.formwire.Utf8;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code application/x-www-form-urlencoded}: whole-input parse and the WHATWG serializer (UE-S). */
public final class Urlencoded {
    private Urlencoded() {}

    /** Parses a whole input with the default limits (UE-P-09: ordered pairs, duplicates kept). */
    public static List<Map.Entry<String, String>> parse(byte[] input) {
        return parse(input, new UrlencodedOptions());
    }

    /** Parses a whole input. @throws dev.formwire.FormwireException on an exceeded limit */
    public static List<Map.Entry<String, String>> parse(byte[] input, UrlencodedOptions options) {
        UrlencodedParser p = new UrlencodedParser(options);
        List<Map.Entry<String, String>> out = new ArrayList<>();
        p.feed(ByteBuffer.wrap(input));
        for (Map.Entry<String, String> e; (e = p.next()) != null; ) {
            out.add(e);
        }
        p.finish();
        for (Map.Entry<String, String> e; (e = p.next()) != null; ) {
            out.add(e);
        }
        return out;
    }

    /** Parses a string: its UTF-8 encoding (UE-P-01). */
    public static List<Map.Entry<String, String>> parse(String input) {
        return parse(Utf8.encode(input));
    }

    private static final boolean[] KEEP = new boolean[128];
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    static {
        for (int c = '0'; c <= '9'; c++) {
            KEEP[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            KEEP[c] = true;
            KEEP[c - 32] = true;
        }
        for (char c : "*-._".toCharArray()) {
            KEEP[c] = true; // UE-S-04
        }
    }

    /** Serializes pairs (UE-S-01..06): UTF-8, space as {@code +}, uppercase {@code %XX}, pairs joined by {@code &}. */
    public static String serialize(List<? extends Map.Entry<String, String>> pairs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pairs.size(); i++) {
            if (i > 0) {
                sb.append('&');
            }
            encode(sb, pairs.get(i).getKey());
            sb.append('=');
            encode(sb, pairs.get(i).getValue());
        }
        return sb.toString();
    }

    private static void encode(StringBuilder sb, String s) {
        for (byte x : Utf8.encode(s)) {
            int b = x & 0xFF;
            if (b < 128 && KEEP[b]) {
                sb.append((char) b);
            } else if (b == ' ') {
                sb.append('+'); // UE-S-03
            } else {
                sb.append('%').append((char) HEX[b >> 4]).append((char) HEX[b & 15]); // UE-S-05
            }
        }
    }
}
