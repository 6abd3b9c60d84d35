package dev.formwire.v8;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Properties: random value graphs (shared objects, cycles, every kind, adversarial keys, lone surrogates) decode back
 * to themselves and encode to stable bytes; mutated vector inputs decode or fail with a code, never otherwise.
 */
class RoundTripTest {
    static final String[] KEYS = {
        "", "\0", "a\0b", "__proto__", "constructor", "length", "0", "1", "01", "00", "-0", "-1", "1.5", "1e3",
        "4294967294", "4294967295", "4294967296", "2147483647", "2147483648", "9007199254740993", "\ud800",
        "a\udfffb", "\udc00\ud800", "\ud83d\ude00", "\u00e9", "\u20ac", "\uffff", " 1", "1 ", "k".repeat(1000),
        "\u20ac".repeat(300),
    };
    static final String[] ERRORS = {"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError",
        "TypeError", "URIError"};

    static final class Gen {
        final Random r;
        final List<Object> pool = new ArrayList<>();
        int depth;

        Gen(long seed) {
            r = new Random(seed);
        }

        String str() {
            switch (r.nextInt(5)) {
                case 0: return KEYS[r.nextInt(KEYS.length)];
                case 1: {
                    char[] cs = new char[r.nextInt(8)];
                    for (int i = 0; i < cs.length; i++) {
                        cs[i] = (char) r.nextInt(0x10000);
                    }
                    return new String(cs);
                }
                case 2: {
                    char[] cs = new char[r.nextInt(8)];
                    for (int i = 0; i < cs.length; i++) {
                        cs[i] = (char) r.nextInt(256);
                    }
                    return new String(cs);
                }
                default: return String.valueOf((char) ('a' + r.nextInt(26)));
            }
        }

        double num() {
            switch (r.nextInt(7)) {
                case 0: return Double.NaN;
                case 1: return -0.0;
                case 2: return r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                case 3: return r.nextInt();
                case 4: return Double.longBitsToDouble(r.nextLong());
                default: return r.nextInt(300) - 100;
            }
        }

        BigInteger big() {
            BigInteger x = new BigInteger(r.nextInt(160), r);
            return r.nextBoolean() ? x.negate() : x;
        }

        <T> T keep(T o) {
            pool.add(o);
            return o;
        }

        JsArrayBuffer buffer() {
            byte[] d = new byte[8 * r.nextInt(4)];
            r.nextBytes(d);
            return r.nextInt(3) == 0 ? new JsArrayBuffer(d, true, d.length + 8L * r.nextInt(3)) : new JsArrayBuffer(d);
        }

        Object value() {
            if (!pool.isEmpty() && r.nextInt(8) == 0) {
                return pool.get(r.nextInt(pool.size()));
            }
            if (depth > 6 || r.nextInt(3) == 0) {
                switch (r.nextInt(7)) {
                    case 0: return Undefined.UNDEFINED;
                    case 1: return null;
                    case 2: return r.nextBoolean();
                    case 3: return num();
                    case 4: return big();
                    default: return str();
                }
            }
            depth++;
            try {
                switch (r.nextInt(13)) {
                    case 0: case 1: {
                        JsObject o = keep(new JsObject());
                        java.util.LinkedHashMap<String, Object> props = new java.util.LinkedHashMap<>();
                        for (int i = r.nextInt(6); i > 0; i--) {
                            props.putIfAbsent(str(), value());
                        }
                        // JS order: index keys ascending first
                        props.entrySet().stream().filter(e -> Wire.arrayIndex(e.getKey()) >= 0)
                            .sorted((x, y) -> Long.compare(Wire.arrayIndex(x.getKey()), Wire.arrayIndex(y.getKey())))
                            .forEach(e -> o.props.put(e.getKey(), e.getValue()));
                        props.entrySet().stream().filter(e -> Wire.arrayIndex(e.getKey()) < 0)
                            .forEach(e -> o.props.put(e.getKey(), e.getValue()));
                        return o;
                    }
                    case 2: case 3: {
                        JsArray a = keep(new JsArray());
                        a.length = r.nextInt(6) == 0 ? (r.nextLong() & 0xFFFFFFFFL) : r.nextInt(6);
                        boolean dense = r.nextBoolean() && a.length < 10;
                        for (long i = 0; i < a.length && i < 10; i++) {
                            if (dense || r.nextBoolean()) {
                                a.items.put(i, value());
                            }
                        }
                        if (a.length > 10 && r.nextBoolean()) {
                            a.items.put(a.length - 1, value());
                        }
                        for (int i = r.nextInt(3); i > 0; i--) {
                            String k = str();
                            if (Wire.arrayIndex(k) < 0 && !k.equals("length")) {
                                a.props.putIfAbsent(k, value());
                            }
                        }
                        return a;
                    }
                    case 4: {
                        JsMap m = keep(new JsMap());
                        Set<Object> seen = new HashSet<>();
                        for (int i = r.nextInt(5); i > 0; i--) {
                            Object k = value();
                            if (k instanceof Double && (Double) k == 0) {
                                k = 0.0;
                            }
                            if (seen.add(Wire.memberKey(k))) {
                                m.put(k, value());
                            }
                        }
                        return m;
                    }
                    case 5: {
                        JsSet s = keep(new JsSet());
                        Set<Object> seen = new HashSet<>();
                        for (int i = r.nextInt(5); i > 0; i--) {
                            Object v = value();
                            if (v instanceof Double && (Double) v == 0) {
                                v = 0.0;
                            }
                            if (seen.add(Wire.memberKey(v))) {
                                s.add(v);
                            }
                        }
                        return s;
                    }
                    case 6: {
                        JsError e = keep(new JsError(ERRORS[r.nextInt(ERRORS.length)], r.nextBoolean() ? str() : null));
                        if (r.nextBoolean()) {
                            e.stack = str();
                        }
                        if (r.nextBoolean()) {
                            e.cause(value());
                        }
                        return e;
                    }
                    case 7: return keep(new JsDate(r.nextBoolean() ? num() : r.nextLong() % 8_640_000_000_000_000L));
                    case 8: {
                        StringBuilder f = new StringBuilder();
                        for (char c : "dgimsuy".toCharArray()) {
                            if (r.nextInt(3) == 0) {
                                f.append(c);
                            }
                        }
                        return keep(new JsRegExp(str(), f.toString()));
                    }
                    case 9: {
                        Object[] prims = {r.nextBoolean(), num(), big(), str()};
                        return keep(new JsWrapper(prims[r.nextInt(4)]));
                    }
                    case 10: case 11: {
                        JsArrayBuffer buf = null;
                        for (Object p : pool) {
                            if (p instanceof JsArrayBuffer && r.nextBoolean()) {
                                buf = (JsArrayBuffer) p;
                            }
                        }
                        if (buf == null) {
                            buf = keep(buffer());
                        }
                        ViewKind kind = ViewKind.values()[r.nextInt(ViewKind.values().length)];
                        int es = kind.elementSize;
                        int off = r.nextInt(buf.data.length / es + 1) * es;
                        boolean tracking = buf.resizable && r.nextBoolean();
                        int len = tracking ? (buf.data.length - off) / es * es : r.nextInt((buf.data.length - off) / es + 1) * es;
                        return keep(new JsView(kind, buf, off, len, tracking));
                    }
                    default: return keep(buffer());
                }
            } finally {
                depth--;
            }
        }
    }

    @Test
    void randomGraphsRoundTrip() {
        for (long seed = 0; seed < 3000; seed++) {
            Object v = new Gen(seed).value();
            byte[] b = V8.encode(v);
            Object back = V8.decode(b);
            long s = seed;
            assertTrue(Graphs.equal(v, back), () -> "seed " + s + " decodes to another value");
            assertArrayEquals(b, V8.encode(back), "seed " + seed + ": encoding not stable");
        }
    }

    @Test
    void adversarialKeysKeepCodeUnitsAndOrder() {
        JsObject o = new JsObject();
        for (int i = KEYS.length - 1; i >= 0; i--) {
            o.put(KEYS[i], (double) i);
        }
        JsObject back = (JsObject) V8.decode(V8.encode(o));
        List<String> keys = new ArrayList<>(back.props.keySet());
        assertEquals(KEYS.length, keys.size());
        assertEquals(List.of("0", "1", "2147483647", "2147483648", "4294967294"), keys.subList(0, 5));
        assertEquals("\u20ac".repeat(300), keys.get(5));
        assertEquals("", keys.get(keys.size() - 1));
        for (Map.Entry<String, Object> e : back.props.entrySet()) {
            assertEquals(KEYS[(int) (double) (Double) e.getValue()], e.getKey());
        }
    }

    @Test
    void valuesOutsideTheModelAreDataCloneErrors() {
        JsArray unordered = new JsArray();
        unordered.length = 1;
        unordered.items.put(1L, 1.0);
        JsArray lengthProp = new JsArray();
        lengthProp.props.put("length", 1.0);
        JsArray indexProp = new JsArray();
        indexProp.props.put("3", 1.0);
        Object[] cases = {
            new Object(), new int[0], unordered, lengthProp, indexProp,
            new JsMap().put(Double.NaN, 1.0).put(Double.NaN, 2.0), new JsSet().add(0.0).add(-0.0),
            new JsSet().add(1).add(1.0), new JsRegExp("", "uv"), new JsRegExp("", "gg"), new JsRegExp("", "l"),
            new JsView(ViewKind.Uint16Array, new JsArrayBuffer(new byte[4]), 1, 0, false),
            new JsView(ViewKind.Uint8Array, new JsArrayBuffer(new byte[4]), 2, 3, false),
            new JsView(ViewKind.Uint8Array, new JsArrayBuffer(new byte[4]), 0, 0, true),
            new JsArrayBuffer(new byte[4], true, 3),
        };
        for (Object c : cases) {
            FormwireException e = assertThrows(FormwireException.class, () -> V8.encode(c), String.valueOf(c));
            assertEquals(ErrorCode.SC_DATA_CLONE, e.code());
        }
    }

    /**
     * Mutations of every vector input (seeded): a coded error with an offset inside the input, or a value that
     * re-encodes to itself; nothing else (no other exception, no StackOverflowError).
     */
    @Test
    void mutatedVectorsDecodeOrFailWithACode() throws Exception {
        List<byte[]> seeds = new ArrayList<>();
        for (Map<String, Object> v : VectorsTest.vectors()) {
            Object b = ((Map<?, ?>) v.get("input")).get("bytes");
            if (b instanceof byte[] && ((byte[]) b).length < 4096) {
                seeds.add((byte[]) b);
            }
        }
        Random r = new Random(1);
        Options o = new Options().maxDepth(64);
        int decoded = 0;
        // -Dformwire.v8.mutations=N for a longer run
        long count = Long.getLong("formwire.v8.mutations", 200_000);
        for (long n = 0; n < count; n++) {
            byte[] b = seeds.get(r.nextInt(seeds.size())).clone();
            for (int k = 1 + r.nextInt(3); k > 0 && b.length > 0; k--) {
                switch (r.nextInt(3)) {
                    case 0: b[r.nextInt(b.length)] = (byte) r.nextInt(256); break;
                    case 1: b = java.util.Arrays.copyOf(b, r.nextInt(b.length)); break;
                    default: {
                        int p = r.nextInt(b.length + 1);
                        byte[] c = new byte[b.length + 1];
                        System.arraycopy(b, 0, c, 0, p);
                        c[p] = (byte) "\0?^oA$@{:,.".charAt(r.nextInt(11));
                        System.arraycopy(b, p, c, p + 1, b.length - p);
                        b = c;
                    }
                }
            }
            o.nodeIpc(r.nextInt(4) == 0);
            Object v;
            try {
                v = V8.decode(b, o);
            } catch (FormwireException e) {
                assertTrue(e.offset() >= 0 && e.offset() <= b.length, e.getMessage());
                continue;
            }
            decoded++;
            byte[] enc = V8.encode(v, o);
            assertTrue(Graphs.equal(v, V8.decode(enc, o)), "re-encoding differs");
        }
        assertTrue(decoded > 1000, "only " + decoded + " mutants decoded");
    }
}
