package dev.formwire.v8;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One decode (SC-D rules): a single pass over the input with an explicit stack of open containers, so nesting is
 * bounded by max_depth only, never by the thread's stack. Nothing is reserved for a declared size before the bytes
 * it declares are known to be there (SC-L-04).
 */
final class Decoder {
    /** Returned by value() and step() when nothing is to be delivered (a container was pushed, a hole, ...). */
    private static final Object NONE = new Object();
    /** An id taken by an item whose object is not made yet. */
    private static final Object PENDING = new Object();

    private final byte[] b;
    private final int base;
    private final int end;
    private int p;
    private int version;
    private final boolean v13Flags;
    private final boolean ipc;
    private final long maxDepth;
    private final long maxValues;
    private final long maxBigint;
    private long values;
    private final List<Object> ids = new ArrayList<>();
    private final ArrayList<Frame> stack = new ArrayList<>();

    /** One open container (SC-D-29: o A a ; ' r). */
    private static final class Frame {
        final byte kind;
        JsObject obj;
        boolean unorder; // an object read an array-index key: ordered at its end (SC-D-12)
        JsArray arr;
        JsMap map;
        JsSet set;
        JsError err;
        long n; // pairs read (objects, array properties) or values read (Map, Set)
        long i; // dense array: next element index
        long wireLen;
        boolean inElems;
        String key;
        long idx = -1;
        boolean half;
        Object mapKey;
        HashMap<Object, Integer> members;
        int errSeen;

        Frame(byte kind) {
            this.kind = kind;
        }
    }

    Decoder(byte[] b, int base, int end, Options o, boolean v13Flags) {
        this.b = b;
        this.base = base;
        this.end = end;
        this.v13Flags = v13Flags;
        this.ipc = o.nodeIpc;
        this.maxDepth = o.maxDepth;
        this.maxValues = o.maxValues;
        this.maxBigint = o.maxBigintBytes;
    }

    int version() {
        return version;
    }

    private FormwireException fail(ErrorCode code, int at, String msg) {
        return new FormwireException(code, at - base, msg);
    }

    private FormwireException truncated() {
        return fail(ErrorCode.SC_TRUNCATED, end, "input ended inside a value");
    }

    Object decode() {
        header();
        Object v = run();
        int q = p;
        while (q < end && b[q] == Tags.PADDING) {
            q++;
        }
        if (q < end) {
            throw fail(ErrorCode.SC_TAG, q, "bytes after the top-level value"); // SC-D-28
        }
        return v;
    }

    // SC-D-03
    private void header() {
        if (end == base) {
            throw truncated();
        }
        if (b[base] != Tags.VERSION) {
            throw fail(ErrorCode.SC_VERSION, base, "no version header");
        }
        p = base + 1;
        long v = varint();
        if (v < 13 || v > 15) {
            throw fail(ErrorCode.SC_VERSION, base, "version " + v + " not in 13..15");
        }
        version = (int) v;
    }

    /** A u32 varint (SC-D-04: at most 5 bytes, the 5th ends it and carries no bits above 32). */
    private long varint() {
        int start = p;
        long v = 0;
        for (int i = 0; ; i++) {
            if (p >= end) {
                throw truncated();
            }
            int x = b[p++] & 0xFF;
            if (i == 4 && x > 0x0F) {
                throw fail(ErrorCode.SC_VARINT, start, "varint does not fit in u32");
            }
            v |= (long) (x & 0x7F) << (7 * i);
            if (x < 0x80) {
                return v;
            }
        }
    }

    /** A u8 varint (view and Error subtags): at most 2 bytes. */
    private int u8() {
        int start = p;
        if (start >= end) {
            throw truncated();
        }
        int x = b[start] & 0xFF;
        if (x < 0x80) {
            p++;
            return x;
        }
        if (start + 1 >= end) {
            throw truncated();
        }
        int y = b[start + 1] & 0xFF;
        if (y > 1) {
            throw fail(ErrorCode.SC_VARINT, start, "varint does not fit in u8");
        }
        p += 2;
        return (x & 0x7F) | (y << 7);
    }

    private double readDouble() {
        if (end - p < 8) {
            throw truncated();
        }
        long bits = 0;
        for (int k = 7; k >= 0; k--) {
            bits = (bits << 8) | (b[p + k] & 0xFF);
        }
        p += 8;
        return Double.longBitsToDouble(bits);
    }

    /** Checks n more bytes are there (SC-D-05, before anything is allocated) and returns their offset. */
    private int take(long n) {
        if (n > end - p) {
            throw truncated();
        }
        int s = p;
        p += (int) n;
        return s;
    }

    /** Skips padding (SC-D-06); the offset of the next byte, which must exist. */
    private int next() {
        int q = p;
        while (q < end && b[q] == Tags.PADDING) {
            q++;
        }
        if (q >= end) {
            throw truncated();
        }
        p = q;
        return q;
    }

    /** Skips padding and `?` verify-count prefixes (SC-D-06, SC-W-22): the tag's offset, not consumed. */
    private int valueTag() {
        while (true) {
            int q = next();
            if (b[q] != Tags.VERIFY_COUNT) {
                return q;
            }
            p = q + 1;
            varint();
        }
    }

    /** The depth check at a container's tag (SC-D-29). */
    private void open(int tp) {
        if (stack.size() + 1L > maxDepth) {
            throw fail(ErrorCode.SC_LIMIT_DEPTH, tp, "nesting deeper than max_depth");
        }
    }

    private Frame top() {
        return stack.get(stack.size() - 1);
    }

    private Frame pop() {
        return stack.remove(stack.size() - 1);
    }

    private Object run() {
        Object v = value();
        while (true) {
            if (v != NONE) {
                if (stack.isEmpty()) {
                    return v;
                }
                deliver(top(), v);
            }
            v = step(top());
        }
    }

    /** The value at a value position (SC-D-07); a container is pushed and NONE returned. */
    private Object value() {
        int tp = valueTag();
        if (++values > maxValues) {
            throw fail(ErrorCode.SC_LIMIT_VALUES, tp, "more than max_values values"); // SC-L-05
        }
        int t = b[tp] & 0xFF;
        p = tp + 1;
        switch (t) {
            case Tags.ONE_BYTE: case Tags.TWO_BYTE: case Tags.UTF8:
                return str(t, tp);
            case Tags.INT32: {
                long u = varint();
                return (double) (int) ((u >>> 1) ^ -(u & 1));
            }
            case Tags.UINT32:
                return (double) varint();
            case Tags.DOUBLE:
                return readDouble();
            case Tags.UNDEFINED:
                return Undefined.UNDEFINED;
            case Tags.NULL:
                return null;
            case Tags.TRUE:
                return Boolean.TRUE;
            case Tags.FALSE:
                return Boolean.FALSE;
            case Tags.BIGINT:
                return bigint(tp);
            case Tags.REF: {
                long id = varint();
                if (id >= ids.size() || ids.get((int) id) == PENDING) {
                    throw fail(ErrorCode.SC_REF, tp, "reference to an id not assigned yet");
                }
                Object o = ids.get((int) id);
                return o instanceof JsArrayBuffer ? maybeView((JsArrayBuffer) o) : o;
            }
            case Tags.OBJECT:
                openObject(tp, -1);
                return NONE;
            case Tags.DENSE: {
                open(tp);
                long n = varint();
                if (n > end - p) {
                    throw truncated(); // SC-D-14: every element takes at least one byte
                }
                Frame f = new Frame(Tags.DENSE);
                f.arr = new JsArray();
                f.arr.length = n;
                f.wireLen = n;
                f.inElems = n > 0;
                ids.add(f.arr);
                stack.add(f);
                return NONE;
            }
            case Tags.SPARSE: {
                open(tp);
                long n = varint();
                Frame f = new Frame(Tags.SPARSE);
                f.arr = new JsArray();
                f.arr.length = n;
                f.wireLen = n;
                ids.add(f.arr);
                stack.add(f);
                return NONE;
            }
            case Tags.MAP: {
                open(tp);
                Frame f = new Frame(Tags.MAP);
                f.map = new JsMap();
                ids.add(f.map);
                stack.add(f);
                return NONE;
            }
            case Tags.SET: {
                open(tp);
                Frame f = new Frame(Tags.SET);
                f.set = new JsSet();
                ids.add(f.set);
                stack.add(f);
                return NONE;
            }
            case Tags.ERROR: {
                open(tp);
                Frame f = new Frame(Tags.ERROR);
                f.err = new JsError();
                ids.add(f.err);
                stack.add(f);
                return NONE;
            }
            case Tags.DATE: {
                int id = reserve();
                return set(id, new JsDate(readDouble()));
            }
            case Tags.TRUE_OBJECT: case Tags.FALSE_OBJECT:
                return set(reserve(), new JsWrapper(t == Tags.TRUE_OBJECT));
            case Tags.NUMBER_OBJECT: {
                int id = reserve();
                return set(id, new JsWrapper(readDouble()));
            }
            case Tags.BIGINT_OBJECT: {
                int id = reserve();
                return set(id, new JsWrapper(bigint(tp)));
            }
            case Tags.STRING_OBJECT: {
                int id = reserve();
                return set(id, new JsWrapper(stringValue()));
            }
            case Tags.REGEXP:
                return regexp(tp);
            case Tags.ARRAY_BUFFER: case Tags.RESIZABLE_BUFFER:
                return maybeView(arrayBuffer(tp, t == Tags.RESIZABLE_BUFFER));
            case Tags.HOST:
                return host(tp);
            case Tags.VIEW:
                throw fail(ErrorCode.SC_VIEW, tp, "view not directly after an ArrayBuffer");
            case Tags.BUFFER_TRANSFER: case Tags.SHARED_BUFFER: case Tags.WASM_MODULE: case Tags.WASM_MEMORY:
                throw fail(ErrorCode.SC_UNSUPPORTED, tp, "tag only has meaning inside one process");
            case Tags.SHARED_OBJECT:
                if (version >= 15) {
                    throw fail(ErrorCode.SC_UNSUPPORTED, tp, "shared object tag only has meaning inside one process");
                }
                throw fail(ErrorCode.SC_TAG, tp, "shared object tag before version 15");
            default:
                throw fail(ErrorCode.SC_TAG, tp, "unexpected tag 0x" + Integer.toHexString(t));
        }
    }

    private int reserve() {
        ids.add(PENDING);
        return ids.size() - 1;
    }

    private Object set(int id, Object o) {
        ids.set(id, o);
        return o;
    }

    private void openObject(int tp, int alias) {
        open(tp);
        Frame f = new Frame(Tags.OBJECT);
        f.obj = new JsObject();
        ids.add(f.obj);
        if (alias >= 0) {
            ids.set(alias, f.obj);
        }
        stack.add(f);
    }

    /** The payload of a string item whose tag t at tp is consumed (SC-D-10). */
    private String str(int t, int tp) {
        long n = varint();
        if (t == Tags.TWO_BYTE && (n & 1) != 0) {
            throw fail(ErrorCode.SC_STRING, tp, "two-byte string with an odd byte length");
        }
        int s = take(n);
        int len = (int) n;
        switch (t) {
            case Tags.ONE_BYTE:
                return new String(b, s, len, StandardCharsets.ISO_8859_1);
            case Tags.TWO_BYTE: {
                char[] cs = new char[len / 2];
                for (int k = 0; k < cs.length; k++) {
                    cs[k] = (char) ((b[s + 2 * k] & 0xFF) | (b[s + 2 * k + 1] & 0xFF) << 8);
                }
                return new String(cs);
            }
            default:
                if (!Wire.validUtf8(b, s, s + len)) {
                    throw fail(ErrorCode.SC_STRING, tp, "S string is not valid UTF-8");
                }
                return new String(b, s, len, StandardCharsets.UTF_8);
        }
    }

    /** A value that must be a string (SC-D-11); not counted as a value (SC-L-05). */
    private String stringValue() {
        int tp = valueTag();
        int t = b[tp] & 0xFF;
        if (t != Tags.ONE_BYTE && t != Tags.TWO_BYTE && t != Tags.UTF8) {
            throw fail(ErrorCode.SC_TAG, tp, "a string is required here");
        }
        p = tp + 1;
        return str(t, tp);
    }

    // SC-D-09
    private BigInteger bigint(int tp) {
        long bits = varint();
        long n = (bits >>> 1) & 0x3FFFFFFF;
        if (n == 0 && (bits & 1) != 0) {
            throw fail(ErrorCode.SC_TAG, tp, "BigInt with a sign and no digits");
        }
        if (n > maxBigint) {
            throw fail(ErrorCode.SC_LIMIT_BIGINT, tp, "BigInt longer than max_bigint_bytes"); // SC-L-06
        }
        int s = take(n);
        byte[] be = new byte[(int) n];
        for (int k = 0; k < n; k++) {
            be[be.length - 1 - k] = b[s + k];
        }
        BigInteger v = new BigInteger(1, be);
        return (bits & 1) != 0 ? v.negate() : v;
    }

    // SC-D-19
    private JsRegExp regexp(int tp) {
        int id = reserve();
        String source = stringValue();
        long bits = varint();
        if ((bits & ~(long) Wire.KNOWN_FLAG_BITS) != 0) {
            throw fail(ErrorCode.SC_TAG, tp, "unknown RegExp flag bits");
        }
        if ((bits & 16) != 0 && (bits & 256) != 0) {
            throw fail(ErrorCode.SC_TAG, tp, "RegExp flags u and v together");
        }
        StringBuilder f = new StringBuilder();
        for (int k = 0; k < Wire.FLAG_BITS.length; k++) {
            if ((bits & Wire.FLAG_BITS[k]) != 0) {
                f.append(Wire.FLAG_CHARS[k]);
            }
        }
        JsRegExp re = new JsRegExp(source, f.toString());
        ids.set(id, re);
        return re;
    }

    // SC-D-21
    private JsArrayBuffer arrayBuffer(int tp, boolean resizable) {
        int id = reserve();
        long n = varint();
        long max = n;
        if (resizable) {
            max = varint();
            if (n > max) {
                throw fail(ErrorCode.SC_TAG, tp, "resizable buffer longer than its maximum");
            }
        }
        int s = take(n);
        byte[] data = new byte[(int) n];
        System.arraycopy(b, s, data, 0, (int) n);
        JsArrayBuffer ab = new JsArrayBuffer(data, resizable, max);
        ids.set(id, ab);
        return ab;
    }

    /** The view that directly follows buf (SC-D-22), or buf. */
    private Object maybeView(JsArrayBuffer buf) {
        int q = p;
        while (q < end && b[q] == Tags.PADDING) {
            q++;
        }
        if (q >= end || b[q] != Tags.VIEW) {
            return buf;
        }
        p = q + 1;
        return view(buf, q);
    }

    // SC-D-22, the checks in the spec's order
    private JsView view(JsArrayBuffer buf, int tp) {
        int sub = u8();
        long off = varint();
        long n = varint();
        long bl = buf.data.length;
        if (off > bl || n > bl - off) {
            throw fail(ErrorCode.SC_VIEW, tp, "view out of bounds");
        }
        long flags = version >= 14 || v13Flags ? varint() : 0;
        ViewKind kind = ViewKind.bySubtag(sub);
        if (kind == null) {
            throw fail(ErrorCode.SC_VIEW, tp, "unknown view subtag");
        }
        int es = kind.elementSize;
        if (off % es != 0 || n % es != 0) {
            throw fail(ErrorCode.SC_VIEW, tp, "view misaligned for its element size");
        }
        boolean tracking = (flags & 1) != 0;
        boolean rab = (flags & 2) != 0;
        if ((tracking || rab) && !buf.resizable) {
            throw fail(ErrorCode.SC_VIEW, tp, "view flags need a resizable buffer");
        }
        if (buf.resizable && !rab) {
            throw fail(ErrorCode.SC_VIEW, tp, "view of a resizable buffer without the flag");
        }
        if (tracking) {
            n = (bl - off) / es * es;
        }
        JsView v = new JsView(kind, buf, (int) off, (int) n, tracking);
        ids.add(v);
        return v;
    }

    // SC-D-26, SC-D-27
    private Object host(int tp) {
        if (ipc) {
            long sub = varint();
            if (sub == 1) {
                int id = reserve();
                int ip = valueTag();
                if (b[ip] != Tags.OBJECT) {
                    throw fail(ErrorCode.SC_HOST, tp, "IPC host object sub-tag 1 must be followed by an object");
                }
                p = ip + 1;
                openObject(ip, id);
                return NONE;
            }
            if (sub != 0) {
                throw fail(ErrorCode.SC_HOST, tp, "unknown IPC host object sub-tag");
            }
        }
        int id = reserve();
        long type = varint();
        long n = varint();
        int s = take(n);
        if (type >= Wire.NODE_HOST_KINDS.length) {
            throw fail(ErrorCode.SC_HOST, tp, "host object type is not a Node typed array");
        }
        ViewKind kind = Wire.NODE_HOST_KINDS[(int) type];
        if (n % kind.elementSize != 0) {
            throw fail(ErrorCode.SC_HOST, tp, "host view length is not a multiple of its element size");
        }
        byte[] data = new byte[(int) n];
        System.arraycopy(b, s, data, 0, (int) n);
        JsView v = new JsView(kind, new JsArrayBuffer(data), 0, (int) n, false);
        ids.set(id, v);
        return v;
    }

    /** A property key (SC-D-12, SC-D-13); sets keyIdx to its array index or -1, keyTag to its tag offset. */
    private long keyIdx;
    private int keyTag;

    private String key() {
        int tp = valueTag();
        keyTag = tp;
        int t = b[tp] & 0xFF;
        p = tp + 1;
        switch (t) {
            case Tags.ONE_BYTE: case Tags.TWO_BYTE: case Tags.UTF8: {
                String s = str(t, tp);
                keyIdx = Wire.arrayIndex(s);
                return s;
            }
            case Tags.INT32: {
                long u = varint();
                int n = (int) ((u >>> 1) ^ -(u & 1));
                keyIdx = n >= 0 ? n : -1;
                return Integer.toString(n);
            }
            case Tags.UINT32: {
                long u = varint();
                keyIdx = u <= 0xFFFFFFFEL ? u : -1;
                return Long.toString(u);
            }
            case Tags.DOUBLE: {
                double v = readDouble();
                if (Double.isNaN(v) || Double.isInfinite(v) || v != Math.rint(v) || Math.abs(v) > 9007199254740991.0) {
                    throw fail(ErrorCode.SC_KEY, tp, "a number key must be a safe integer");
                }
                long n = (long) v;
                keyIdx = n >= 0 && n <= 0xFFFFFFFEL ? n : -1;
                return Long.toString(n);
            }
            default:
                throw fail(ErrorCode.SC_KEY, tp, "a property key must be a string or a number");
        }
    }

    /** Consumes the end tag if it is next (after padding); its offset, or -1. */
    private int endTag(int tag) {
        int q = next();
        if ((b[q] & 0xFF) != tag) {
            return -1;
        }
        p = q + 1;
        return q;
    }

    /** Advances the top container by one item; returns a value to deliver to the (new) top, or NONE. */
    private Object step(Frame f) {
        switch (f.kind) {
            case Tags.OBJECT: {
                int ep = endTag(Tags.OBJECT_END);
                if (ep >= 0) {
                    if (varint() != f.n) {
                        throw fail(ErrorCode.SC_COUNT, ep, "object end count does not match");
                    }
                    if (f.unorder) {
                        finishObject(f.obj.props);
                    }
                    pop();
                    return f.obj;
                }
                String name = key();
                if (f.obj.props.containsKey(name)) {
                    throw fail(ErrorCode.SC_KEY, keyTag, "duplicate property");
                }
                f.unorder |= keyIdx >= 0;
                f.key = name;
                return value();
            }
            case Tags.DENSE: case Tags.SPARSE: {
                if (f.inElems) {
                    int q = next();
                    if (b[q] == Tags.HOLE) {
                        p = q + 1;
                        f.i++;
                        f.inElems = f.i < f.wireLen;
                        return NONE;
                    }
                    return value();
                }
                int ep = endTag(f.kind == Tags.DENSE ? Tags.DENSE_END : Tags.SPARSE_END);
                if (ep >= 0) {
                    long count = varint();
                    long n = varint();
                    if (count != f.n || n != f.wireLen) {
                        throw fail(ErrorCode.SC_COUNT, ep, "array end does not match");
                    }
                    pop();
                    return f.arr;
                }
                String name = key();
                JsArray a = f.arr;
                if (keyIdx >= 0) {
                    if (a.items.containsKey(keyIdx)) {
                        throw fail(ErrorCode.SC_KEY, keyTag, "array index defined twice");
                    }
                    if (keyIdx >= a.length) {
                        a.length = keyIdx + 1; // V8 DefineOwnProperty grows the array
                    }
                } else {
                    if (name.equals("length")) {
                        throw fail(ErrorCode.SC_KEY, keyTag, "an array already has a length");
                    }
                    if (a.props.containsKey(name)) {
                        throw fail(ErrorCode.SC_KEY, keyTag, "duplicate property");
                    }
                }
                f.key = name;
                f.idx = keyIdx;
                return value();
            }
            case Tags.MAP: {
                if (!f.half) {
                    int ep = endTag(Tags.MAP_END);
                    if (ep >= 0) {
                        if (varint() != f.n) {
                            throw fail(ErrorCode.SC_COUNT, ep, "map end count does not match");
                        }
                        pop();
                        return f.map;
                    }
                }
                return value();
            }
            case Tags.SET: {
                int ep = endTag(Tags.SET_END);
                if (ep >= 0) {
                    if (varint() != f.n) {
                        throw fail(ErrorCode.SC_COUNT, ep, "set end count does not match");
                    }
                    pop();
                    return f.set;
                }
                return value();
            }
            default: { // Tags.ERROR, SC-D-24
                int sp = p;
                int sub = u8();
                int bit;
                switch (sub) {
                    case Tags.ERROR_END:
                        pop();
                        return f.err;
                    case Tags.ERROR_EVAL: case Tags.ERROR_RANGE: case Tags.ERROR_REFERENCE:
                    case Tags.ERROR_SYNTAX: case Tags.ERROR_TYPE: case Tags.ERROR_URI:
                        bit = 1;
                        break;
                    case Tags.ERROR_MESSAGE:
                        bit = 2;
                        break;
                    case Tags.ERROR_CAUSE:
                        bit = 4;
                        break;
                    case Tags.ERROR_STACK:
                        bit = 8;
                        break;
                    default:
                        throw fail(ErrorCode.SC_TAG, sp, "unknown Error subtag");
                }
                if ((f.errSeen & bit) != 0) {
                    throw fail(ErrorCode.SC_TAG, sp, "repeated Error subtag");
                }
                f.errSeen |= bit;
                switch (bit) {
                    case 1:
                        f.err.name = Wire.errorName(sub);
                        return NONE;
                    case 2:
                        f.err.message = stringValue();
                        return NONE;
                    case 8:
                        f.err.stack = stringValue();
                        return NONE;
                    default:
                        return value();
                }
            }
        }
    }

    /** Index keys first, ascending, then the others in read order (SC-D-12). */
    private static void finishObject(LinkedHashMap<String, Object> props) {
        List<Map.Entry<String, Object>> idx = new ArrayList<>();
        List<Map.Entry<String, Object>> rest = new ArrayList<>();
        for (Map.Entry<String, Object> e : props.entrySet()) {
            (Wire.arrayIndex(e.getKey()) >= 0 ? idx : rest).add(new java.util.AbstractMap.SimpleEntry<>(e));
        }
        idx.sort((x, y) -> Long.compare(Wire.arrayIndex(x.getKey()), Wire.arrayIndex(y.getKey())));
        props.clear();
        for (Map.Entry<String, Object> e : idx) {
            props.put(e.getKey(), e.getValue());
        }
        for (Map.Entry<String, Object> e : rest) {
            props.put(e.getKey(), e.getValue());
        }
    }

    /** Gives a finished value to the container that asked for it. */
    private void deliver(Frame f, Object v) {
        switch (f.kind) {
            case Tags.OBJECT:
                f.obj.props.put(f.key, v);
                f.n++;
                return;
            case Tags.DENSE: case Tags.SPARSE: {
                JsArray a = f.arr;
                if (f.inElems) {
                    a.items.put(f.i, v);
                    f.i++;
                    f.inElems = f.i < f.wireLen;
                } else {
                    if (f.idx >= 0) {
                        a.items.put(f.idx, v);
                    } else {
                        a.props.put(f.key, v);
                    }
                    f.n++;
                }
                return;
            }
            case Tags.MAP: {
                f.n++;
                if (!f.half) {
                    f.mapKey = v;
                    f.half = true;
                    return;
                }
                f.half = false;
                Object k = f.mapKey;
                f.mapKey = null;
                if (k instanceof Double && (Double) k == 0) {
                    k = 0.0; // Map.prototype.set: -0 becomes +0
                }
                if (f.members == null) {
                    f.members = new HashMap<>();
                }
                Integer at = f.members.putIfAbsent(Wire.memberKey(k), f.map.keys.size());
                if (at != null) {
                    f.map.values.set(at, v);
                } else {
                    f.map.keys.add(k);
                    f.map.values.add(v);
                }
                return;
            }
            case Tags.SET: {
                f.n++;
                if (v instanceof Double && (Double) v == 0) {
                    v = 0.0;
                }
                if (f.members == null) {
                    f.members = new HashMap<>();
                }
                if (f.members.putIfAbsent(Wire.memberKey(v), f.set.values.size()) == null) {
                    f.set.values.add(v);
                }
                return;
            }
            default:
                f.err.cause = v;
                f.err.hasCause = true;
        }
    }
}
