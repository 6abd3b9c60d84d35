package dev.formwire.v8;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * One encode (SC-E rules): a depth-first walk with an explicit stack of open containers, writing each item as it is
 * first met; an object met again is a back-reference.
 */
final class Encoder {
    private final Out out = new Out();
    private final long maxDepth;
    private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
    private final ArrayList<Frame> stack = new ArrayList<>();

    /** A growable byte buffer (ByteArrayOutputStream's write methods are synchronized: one lock per byte). */
    private static final class Out {
        byte[] buf = new byte[64];
        int count;

        private void room(int n) {
            if (buf.length - count < n) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + n));
            }
        }

        void write(int b) {
            if (count == buf.length) {
                room(1);
            }
            buf[count++] = (byte) b;
        }

        void write(byte[] b, int off, int len) {
            room(len);
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        int size0() {
            return count;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, count);
        }
    }

    private static final class Frame {
        final byte kind;
        Iterator<Map.Entry<String, Object>> props;
        List<Map.Entry<String, Object>> ordered;
        Iterator<Map.Entry<Long, Object>> items;
        int i;
        int phase;
        boolean dense;
        long count;
        long length;
        JsMap map;
        JsSet set;
        JsError err;

        Frame(byte kind) {
            this.kind = kind;
        }
    }

    Encoder(Options o) {
        this.maxDepth = o.maxDepth;
    }

    private FormwireException fail(ErrorCode code, String msg) {
        return new FormwireException(code, out.size0(), msg);
    }

    private FormwireException bad(String msg) {
        return fail(ErrorCode.SC_DATA_CLONE, msg);
    }

    byte[] encode(Object v) {
        out.write(Tags.VERSION);
        out.write(Wire.VERSION); // SC-E-01
        value(v);
        while (!stack.isEmpty()) {
            step(stack.get(stack.size() - 1));
        }
        return out.toByteArray();
    }

    private void varint(long x) {
        while (x >= 0x80) {
            out.write((int) (x & 0x7F) | 0x80);
            x >>>= 7;
        }
        out.write((int) x);
    }

    private static int varintLen(long x) {
        int n = 1;
        while (x >= 0x80) {
            x >>>= 7;
            n++;
        }
        return n;
    }

    private void writeDouble(double d) {
        long bits = Double.isNaN(d) ? 0x7FF8000000000000L : Double.doubleToRawLongBits(d); // SC-E-03
        for (int k = 0; k < 8; k++) {
            out.write((int) (bits >>> (8 * k)));
        }
    }

    // SC-E-03
    private void number(double x) {
        if (x == Math.rint(x) && x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE
                && !(x == 0 && Double.doubleToRawLongBits(x) != 0)) {
            int n = (int) x;
            out.write(Tags.INT32);
            varint(((long) (n << 1) ^ (n >> 31)) & 0xFFFFFFFFL);
            return;
        }
        out.write(Tags.DOUBLE);
        writeDouble(x);
    }

    /** A string item (SC-E-05): one-byte when every code unit is <= 0xFF, else two-byte, aligned. */
    private void str(String s) {
        int n = s.length();
        boolean oneByte = true;
        for (int k = 0; k < n; k++) {
            if (s.charAt(k) > 0xFF) {
                oneByte = false;
                break;
            }
        }
        if (oneByte) {
            out.write(Tags.ONE_BYTE);
            varint(n);
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            out.write(b, 0, b.length);
            return;
        }
        long nb = 2L * n;
        if ((out.size0() + 1 + varintLen(nb)) % 2 == 1) {
            out.write(0);
        }
        out.write(Tags.TWO_BYTE);
        varint(nb);
        // by hand: String.getBytes(UTF_16LE) would replace lone surrogates
        byte[] b = new byte[2 * n];
        for (int k = 0; k < n; k++) {
            char c = s.charAt(k);
            b[2 * k] = (byte) c;
            b[2 * k + 1] = (byte) (c >>> 8);
        }
        out.write(b, 0, b.length);
    }

    // SC-E-04
    private void bigint(int tag, BigInteger x) {
        byte[] be = x.abs().toByteArray(); // big-endian, maybe a leading 0
        int start = 0;
        while (start < be.length && be[start] == 0) {
            start++;
        }
        int len = be.length - start;
        int n = (len + 7) / 8 * 8;
        if (n > 0x3FFFFFFF) {
            throw bad("BigInt too long");
        }
        out.write(tag);
        varint(((long) n << 1) | (x.signum() < 0 ? 1 : 0));
        for (int k = be.length - 1; k >= start; k--) {
            out.write(be[k]);
        }
        for (int k = len; k < n; k++) {
            out.write(0);
        }
    }

    /** A property key (SC-E-06): an array index as a number, any other key as a string. */
    private void key(String k) {
        long i = Wire.arrayIndex(k);
        if (i >= 0) {
            index(i);
        } else {
            str(k);
        }
    }

    private void index(long i) {
        if (i <= Integer.MAX_VALUE) {
            number(i);
        } else {
            out.write(Tags.DOUBLE);
            writeDouble(i);
        }
    }

    /** Writes a back-reference if o was written before; else o takes the next id (SC-E-02). */
    private boolean ref(Object o) {
        Integer id = ids.get(o);
        if (id != null) {
            out.write(Tags.REF);
            varint(id);
            return true;
        }
        ids.put(o, ids.size());
        return false;
    }

    private void open() {
        if (stack.size() + 1L > maxDepth) {
            throw fail(ErrorCode.SC_LIMIT_DEPTH, "nesting deeper than max_depth");
        }
    }

    private void value(Object v) {
        if (v == null) {
            out.write(Tags.NULL);
        } else if (v == Undefined.UNDEFINED) {
            out.write(Tags.UNDEFINED);
        } else if (v instanceof Boolean) {
            out.write((Boolean) v ? Tags.TRUE : Tags.FALSE);
        } else if (v instanceof String) {
            str((String) v);
        } else if (v instanceof BigInteger) {
            bigint(Tags.BIGINT, (BigInteger) v);
        } else if (v instanceof Double || v instanceof Float || v instanceof Integer || v instanceof Long
                || v instanceof Short || v instanceof Byte) {
            number(((Number) v).doubleValue());
        } else if (v instanceof JsView) {
            Integer id = ids.get(v);
            if (id != null) {
                out.write(Tags.REF);
                varint(id);
            } else {
                view((JsView) v);
            }
        } else if (ref(v)) {
            return;
        } else if (v instanceof JsObject) {
            open();
            Frame f = new Frame(Tags.OBJECT);
            f.ordered = ordered(((JsObject) v).props);
            f.count = f.ordered.size();
            out.write(Tags.OBJECT);
            stack.add(f);
        } else if (v instanceof JsArray) {
            open();
            array((JsArray) v);
        } else if (v instanceof JsMap) {
            open();
            JsMap m = (JsMap) v;
            if (m.keys.size() != m.values.size()) {
                throw bad("Map with unequal key and value lists");
            }
            unique(m.keys, "Map with a repeated key");
            Frame f = new Frame(Tags.MAP);
            f.map = m;
            out.write(Tags.MAP);
            stack.add(f);
        } else if (v instanceof JsSet) {
            open();
            JsSet s = (JsSet) v;
            unique(s.values, "Set with a repeated value");
            Frame f = new Frame(Tags.SET);
            f.set = s;
            out.write(Tags.SET);
            stack.add(f);
        } else if (v instanceof JsError) {
            open();
            JsError e = (JsError) v;
            out.write(Tags.ERROR);
            int sub = Wire.errorSubtag(e.name);
            if (sub != 0) {
                out.write(sub);
            }
            if (e.message != null) {
                out.write(Tags.ERROR_MESSAGE);
                str(e.message);
            }
            if (e.stack != null) {
                out.write(Tags.ERROR_STACK);
                str(e.stack);
            }
            Frame f = new Frame(Tags.ERROR);
            f.err = e;
            stack.add(f);
        } else if (v instanceof JsDate) {
            out.write(Tags.DATE);
            writeDouble(Wire.timeClip(((JsDate) v).time));
        } else if (v instanceof JsWrapper) {
            Object x = ((JsWrapper) v).value;
            if (x instanceof Boolean) {
                out.write((Boolean) x ? Tags.TRUE_OBJECT : Tags.FALSE_OBJECT);
            } else if (x instanceof Double) {
                out.write(Tags.NUMBER_OBJECT);
                writeDouble((Double) x);
            } else if (x instanceof BigInteger) {
                bigint(Tags.BIGINT_OBJECT, (BigInteger) x);
            } else {
                out.write(Tags.STRING_OBJECT);
                str((String) x);
            }
        } else if (v instanceof JsRegExp) {
            JsRegExp re = (JsRegExp) v;
            long bits = regexpBits(re.flags);
            out.write(Tags.REGEXP);
            str(re.source);
            varint(bits);
        } else if (v instanceof JsArrayBuffer) {
            arrayBuffer((JsArrayBuffer) v);
        } else {
            throw bad("not a formwire v8 value: " + v.getClass().getName());
        }
    }

    private void unique(List<Object> vs, String msg) {
        HashSet<Object> seen = new HashSet<>();
        for (Object x : vs) {
            if (!seen.add(Wire.memberKey(x))) {
                throw bad(msg);
            }
        }
    }

    /** Properties in JS enumeration order (SC-E-06): index keys ascending, then the others in order. */
    private static List<Map.Entry<String, Object>> ordered(Map<String, Object> props) {
        List<Map.Entry<String, Object>> idx = new ArrayList<>();
        List<Map.Entry<String, Object>> rest = new ArrayList<>(props.size());
        for (Map.Entry<String, Object> e : props.entrySet()) {
            (Wire.arrayIndex(e.getKey()) >= 0 ? idx : rest).add(e);
        }
        if (idx.isEmpty()) {
            return rest;
        }
        idx.sort((x, y) -> Long.compare(Wire.arrayIndex(x.getKey()), Wire.arrayIndex(y.getKey())));
        idx.addAll(rest);
        return idx;
    }

    // SC-E-07
    private void array(JsArray a) {
        if (a.length < 0 || a.length > 0xFFFFFFFFL) {
            throw bad("array length out of range");
        }
        if (!a.items.isEmpty() && (a.items.firstKey() < 0 || a.items.lastKey() >= a.length)) {
            throw bad("array items must be below the length");
        }
        for (String k : a.props.keySet()) {
            if (Wire.arrayIndex(k) >= 0 || k.equals("length")) {
                throw bad("array property named like an index or length");
            }
        }
        Frame f = new Frame(Tags.DENSE);
        f.dense = a.items.size() == a.length;
        f.items = a.items.entrySet().iterator();
        f.props = a.props.entrySet().iterator();
        f.count = a.props.size() + (f.dense ? 0 : a.items.size());
        f.length = a.length;
        out.write(f.dense ? Tags.DENSE : Tags.SPARSE);
        varint(a.length);
        stack.add(f);
    }

    private long regexpBits(String flags) {
        long bits = 0;
        for (int k = 0; k < flags.length(); k++) {
            int at = -1;
            for (int j = 0; j < Wire.FLAG_CHARS.length; j++) {
                if (Wire.FLAG_CHARS[j] == flags.charAt(k)) {
                    at = j;
                }
            }
            if (at < 0) {
                throw bad("unknown RegExp flag");
            }
            if ((bits & Wire.FLAG_BITS[at]) != 0) {
                throw bad("repeated RegExp flag");
            }
            bits |= Wire.FLAG_BITS[at];
        }
        if ((bits & 16) != 0 && (bits & 256) != 0) {
            throw bad("RegExp flags u and v together");
        }
        return bits;
    }

    // SC-E-11
    private void arrayBuffer(JsArrayBuffer b) {
        if (b.resizable) {
            if (b.maxByteLength < b.data.length || b.maxByteLength > 0xFFFFFFFFL) {
                throw bad("resizable ArrayBuffer with a bad maximum");
            }
            out.write(Tags.RESIZABLE_BUFFER);
            varint(b.data.length);
            varint(b.maxByteLength);
        } else {
            out.write(Tags.ARRAY_BUFFER);
            varint(b.data.length);
        }
        out.write(b.data, 0, b.data.length);
    }

    // SC-E-12: the buffer (or a reference to it), then the view
    private void view(JsView v) {
        if (v.kind == null || v.buffer == null) {
            throw bad("view without a kind or buffer");
        }
        int es = v.kind.elementSize;
        long bl = v.buffer.data.length;
        long n = v.byteLength;
        if (v.lengthTracking) {
            if (!v.buffer.resizable) {
                throw bad("length-tracking view of a fixed-length buffer");
            }
            n = 0;
        }
        if (v.byteOffset < 0 || n < 0 || v.byteOffset > bl || n > bl - v.byteOffset) {
            throw bad("view out of its buffer");
        }
        if (v.byteOffset % es != 0 || n % es != 0) {
            throw bad("view misaligned for its element size");
        }
        value(v.buffer);
        ids.put(v, ids.size());
        out.write(Tags.VIEW);
        out.write(v.kind.subtag);
        varint(v.byteOffset);
        varint(n);
        varint((v.lengthTracking ? 1 : 0) | (v.buffer.resizable ? 2 : 0));
    }

    /** Writes the next item of the top container, or its end. */
    private void step(Frame f) {
        switch (f.kind) {
            case Tags.OBJECT:
                if (f.i < f.ordered.size()) {
                    Map.Entry<String, Object> e = f.ordered.get(f.i++);
                    key(e.getKey());
                    value(e.getValue());
                    return;
                }
                stack.remove(stack.size() - 1);
                out.write(Tags.OBJECT_END);
                varint(f.count);
                return;
            case Tags.DENSE:
                if (f.phase == 0) {
                    if (f.items.hasNext()) {
                        Map.Entry<Long, Object> e = f.items.next();
                        if (!f.dense) {
                            index(e.getKey());
                        }
                        value(e.getValue());
                        return;
                    }
                    f.phase = 1;
                }
                if (f.props.hasNext()) {
                    Map.Entry<String, Object> e = f.props.next();
                    str(e.getKey());
                    value(e.getValue());
                    return;
                }
                stack.remove(stack.size() - 1);
                out.write(f.dense ? Tags.DENSE_END : Tags.SPARSE_END);
                varint(f.count);
                varint(f.length);
                return;
            case Tags.MAP:
                if (f.i < 2 * f.map.keys.size()) {
                    int k = f.i / 2;
                    Object x = f.i % 2 == 0 ? zeroKey(f.map.keys.get(k)) : f.map.values.get(k);
                    f.i++;
                    value(x);
                    return;
                }
                stack.remove(stack.size() - 1);
                out.write(Tags.MAP_END);
                varint(2L * f.map.keys.size());
                return;
            case Tags.SET:
                if (f.i < f.set.values.size()) {
                    value(zeroKey(f.set.values.get(f.i++)));
                    return;
                }
                stack.remove(stack.size() - 1);
                out.write(Tags.SET_END);
                varint(f.set.values.size());
                return;
            default:
                if (f.phase == 0 && f.err.hasCause) {
                    f.phase = 1;
                    out.write(Tags.ERROR_CAUSE);
                    value(f.err.cause);
                    return;
                }
                stack.remove(stack.size() - 1);
                out.write(Tags.ERROR_END);
        }
    }

    /** A Map key or Set value -0 is +0 (Map.prototype.set). */
    private static Object zeroKey(Object v) {
        return v instanceof Double && (Double) v == 0 ? (Object) 0.0 : v;
    }
}
