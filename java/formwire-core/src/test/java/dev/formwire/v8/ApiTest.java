package dev.formwire.v8;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Limits;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The public surface: ByteBuffer and slice input, options by registry name, HTTP statuses, identity. */
class ApiTest {
    // Node: v8.serialize({ a: [1, , 3], s: new Set(["x"]) })
    static final byte[] SAMPLE = {(byte) 0xFF, 0x0F, 'o', '"', 1, 'a', 'a', 3, 'I', 0, 'I', 2, 'I', 4, 'I', 6, '@', 2,
        3, '"', 1, 's', '\'', '"', 1, 'x', ',', 1, '{', 2};

    @Test
    void decodesHeapDirectAndSlicedBuffers() {
        byte[] padded = new byte[SAMPLE.length + 7];
        System.arraycopy(SAMPLE, 0, padded, 5, SAMPLE.length);
        ByteBuffer heap = ByteBuffer.wrap(padded, 5, SAMPLE.length).slice();
        ByteBuffer direct = ByteBuffer.allocateDirect(SAMPLE.length).put(SAMPLE).flip();
        for (Object v : new Object[] {V8.decode(heap, null), V8.decode(direct, null),
            V8.decode(padded, 5, 5 + SAMPLE.length, null)}) {
            JsObject o = (JsObject) v;
            JsArray a = (JsArray) o.props.get("a");
            assertEquals(3, a.length);
            assertEquals(2, a.items.size());
            assertEquals(3.0, a.items.get(2L));
            assertEquals(java.util.List.of("x"), ((JsSet) o.props.get("s")).values);
            assertArrayEquals(SAMPLE, V8.encode(v));
        }
        assertEquals(0, direct.position(), "decode leaves the buffer's position alone");
        // offsets count from the slice's start
        FormwireException e = assertThrows(FormwireException.class,
            () -> V8.decode(padded, 5, 5 + 10, null));
        assertEquals(ErrorCode.SC_TRUNCATED, e.code());
        assertEquals(10, e.offset());
        assertEquals(400, e.httpStatus());
    }

    @Test
    void optionsByRegistryName() {
        Options o = new Options();
        assertEquals(Limits.Clone.MAX_DEPTH, o.maxDepth());
        assertEquals(Limits.Clone.MAX_VALUES, o.maxValues());
        for (String name : Limits.Clone.NAMES) {
            assertTrue(o.set(name, 7), name);
        }
        assertFalse(o.set("max_parts", 7));
        assertEquals(7, o.maxBigintBytes());
        assertThrows(IllegalArgumentException.class, () -> new Options().maxDepth(-1));
        FormwireException e = assertThrows(FormwireException.class,
            () -> V8.decode(SAMPLE, new Options().maxValues(3)));
        assertEquals(ErrorCode.SC_LIMIT_VALUES, e.code());
        assertEquals(14, e.offset()); // the value of the second element of "a" (after its key I 4)
        assertEquals(413, e.httpStatus());
        assertTrue(e.isLimit());
        e = assertThrows(FormwireException.class, () -> V8.decode(SAMPLE, new Options().maxBytes(SAMPLE.length - 1)));
        assertEquals(ErrorCode.SC_LIMIT_BYTES, e.code());
        assertEquals(0, e.offset());
    }

    @Test
    void identityAndCyclesSurvive() {
        JsObject shared = new JsObject().put("k", BigInteger.TEN.negate());
        JsObject root = new JsObject();
        root.put("a", shared).put("b", shared).put("self", root);
        JsError err = new JsError("RangeError", "m");
        err.cause(err);
        root.put("e", err);
        JsObject back = (JsObject) V8.decode(V8.encode(root));
        assertSame(back.props.get("a"), back.props.get("b"));
        assertSame(back, back.props.get("self"));
        JsError e2 = (JsError) back.props.get("e");
        assertSame(e2, e2.cause);
        assertEquals("RangeError", e2.name);
        assertEquals(BigInteger.TEN.negate(), ((JsObject) back.props.get("a")).props.get("k"));
    }
}
