package dev.formwire.v8;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Nesting is bounded by max_depth only: a million levels with the limit raised decode and encode on the test
 * thread's ordinary stack (a recursive codec would overflow it long before).
 */
class DeepTest {
    static final int MILLION = 1_000_000;

    static byte[] nestedArrays(int n) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0xFF);
        b.write(0x0F);
        for (int i = 0; i < n; i++) {
            b.write('A');
            b.write(1);
        }
        b.write('_');
        for (int i = 0; i < n; i++) {
            b.write('$');
            b.write(0);
            b.write(1);
        }
        return b.toByteArray();
    }

    @Test
    void millionNestedArrays() {
        byte[] in = nestedArrays(MILLION);
        Options o = new Options().maxDepth(MILLION);
        Object deep = V8.decode(in, o);
        Object v = deep;
        int depth = 0;
        while (v instanceof JsArray) {
            JsArray a = (JsArray) v;
            assertEquals(1, a.items.size());
            v = a.items.get(0L);
            depth++;
        }
        assertEquals(MILLION, depth);
        assertSame(Undefined.UNDEFINED, v);
        assertArrayEquals(in, V8.encode(deep, o));
        Options lower = new Options().maxDepth(MILLION - 1);
        FormwireException e = assertThrows(FormwireException.class, () -> V8.decode(in, lower));
        assertEquals(ErrorCode.SC_LIMIT_DEPTH, e.code());
        assertEquals(2 + 2L * (MILLION - 1), e.offset());
        e = assertThrows(FormwireException.class, () -> V8.encode(deep, lower));
        assertEquals(ErrorCode.SC_LIMIT_DEPTH, e.code());
        assertEquals(2 + 2L * (MILLION - 1), e.offset());
    }

    @Test
    void millionMixedContainers() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0xFF);
        b.write(0x0F);
        for (int i = 0; i < MILLION; i++) {
            switch (i % 4) {
                case 0: b.write('o'); b.write('"'); b.write(1); b.write('k'); break;
                case 1: b.write(';'); b.write('T'); break;
                case 2: b.write('\''); break;
                default: b.write('r'); b.write('c');
            }
        }
        b.write('0');
        for (int i = MILLION - 1; i >= 0; i--) {
            switch (i % 4) {
                case 0: b.write('{'); b.write(1); break;
                case 1: b.write(':'); b.write(2); break;
                case 2: b.write(','); b.write(1); break;
                default: b.write('.');
            }
        }
        byte[] in = b.toByteArray();
        Options o = new Options().maxDepth(MILLION);
        assertArrayEquals(in, V8.encode(V8.decode(in, o), o));
        FormwireException e = assertThrows(FormwireException.class, () -> V8.decode(in));
        assertEquals(ErrorCode.SC_LIMIT_DEPTH, e.code());
    }

    /** Declared sizes are checked against the bytes left before any allocation (SC-L-04). */
    @Test
    void declaredSizesAllocateNothing() {
        byte[][] cases = {
            {(byte) 0xFF, 0x0F, '"', (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F},
            {(byte) 0xFF, 0x0F, 'c', (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F},
            {(byte) 0xFF, 0x0F, 'B', (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F},
            {(byte) 0xFF, 0x0F, 'A', (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F},
            {(byte) 0xFF, 0x0F, '\\', 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F},
            {(byte) 0xFF, 0x0F, 'Z', (byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07},
        };
        Options o = new Options().maxBigintBytes(Options.UNLIMITED);
        for (byte[] in : cases) {
            long before = used();
            FormwireException e = assertThrows(FormwireException.class, () -> V8.decode(in, o));
            assertEquals(ErrorCode.SC_TRUNCATED, e.code());
            assertEquals(in.length, e.offset());
            // a 4 GiB reservation would have thrown OutOfMemoryError or shown here
            assertEquals(true, used() - before < 64 << 20, "memory grew by " + (used() - before));
        }
        JsArray a = (JsArray) V8.decode(new byte[] {(byte) 0xFF, 0x0F, 'a', (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, 0x0F, '@', 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F});
        assertEquals(0xFFFFFFFFL, a.length);
        assertEquals(0, a.items.size());
    }

    private static long used() {
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
