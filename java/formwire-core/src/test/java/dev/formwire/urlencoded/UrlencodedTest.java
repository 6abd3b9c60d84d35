package dev.formwire.urlencoded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Limits;
import dev.formwire.Utf8;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UrlencodedTest {
    @Test
    void whatwgParse() {
        assertEquals(List.of(Map.entry("a b", "c+d"), Map.entry("%", "%zz"), Map.entry("a", "b=c"), Map.entry("x", "")),
                Urlencoded.parse("&&a+b=c%2Bd&%=%zz&&a=b=c&x&"));
        assertEquals(List.of(Map.entry("\uFEFFt", "\u00e9")), Urlencoded.parse(new byte[] {(byte) 0xEF, (byte) 0xBB,
                (byte) 0xBF, 't', '=', (byte) 0xC3, '%', 'A', '9'}));
    }

    /** UE-L-01: the 10 MiB default applies: 10485761 bytes fed whole fail at 10485760. */
    @Test
    void defaultMaxBytes() {
        byte[] big = new byte[(int) Limits.Urlencoded.MAX_BYTES + 1];
        java.util.Arrays.fill(big, (byte) 'a');
        FormwireException e = assertThrows(FormwireException.class, () -> Urlencoded.parse(big));
        assertEquals(ErrorCode.UE_LIMIT_BYTES, e.code());
        assertEquals(Limits.Urlencoded.MAX_BYTES, e.offset());
        assertEquals(413, e.httpStatus());
    }

    @Test
    void pairLimitAtTheFirstByteOfTheExtraPairWhateverTheChunking() {
        byte[] in = "a=1&&b=2&c=3".getBytes(StandardCharsets.US_ASCII);
        for (int cut = 1; cut < in.length; cut++) {
            UrlencodedParser p = new UrlencodedParser(new UrlencodedOptions().maxPairs(2));
            p.feed(ByteBuffer.wrap(in, 0, cut));
            int n = 0;
            FormwireException e = null;
            try {
                while (p.next() != null) {
                    n++;
                }
                p.feed(ByteBuffer.wrap(in, cut, in.length - cut));
                while (p.next() != null) {
                    n++;
                }
            } catch (FormwireException x) {
                e = x;
            }
            assertEquals(ErrorCode.UE_LIMIT_PAIRS, e.code(), "cut " + cut);
            assertEquals(9, e.offset());
            assertEquals(2, n);
        }
    }

    /** UE-S-01: lone surrogates serialize as U+FFFD. */
    @Test
    void serialize() {
        assertEquals("a%EF%BF%BDb=+%7E*-._%2B%25%0A", Urlencoded.serialize(List.of(Map.entry("a\uD800b", " ~*-._+%\n"))));
        assertEquals("", Urlencoded.serialize(List.of()));
        assertEquals("=", Urlencoded.serialize(List.of(Map.entry("", ""))));
    }

    /** WHATWG UTF-8 decode: one U+FFFD per maximal subpart (the JDK's decoder gives one for ED A0 80). */
    @Test
    void utf8Decode() {
        assertEquals("\uFFFD\uFFFD\uFFFD", Utf8.decode(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}));
        assertEquals("\uFFFD\uFFFD", Utf8.decode(new byte[] {(byte) 0xC0, (byte) 0xAF}));
        assertEquals("\uFFFDA", Utf8.decode(new byte[] {(byte) 0xE2, (byte) 0x82, 'A'}));
        assertEquals("\uFFFD\uFFFD\uFFFD\uFFFD", Utf8.decode(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}));
        assertEquals("\uD83D\uDE00", Utf8.decode(new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}));
    }
}
