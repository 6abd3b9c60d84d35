package dev.formwire.v8;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The neutral value description of {@code vectors/SCHEMA.md} (SC-N rules), the JSON form the conformance vectors and
 * testees use, as plain Java JSON values: {@code Map<String, Object>} (insertion-ordered), {@code List<Object>},
 * {@link Number}, {@link String}, {@link Boolean}. Both directions recurse over the graph: they are meant for values
 * {@link V8#decode} accepted (depth bounded by max_depth) and for test data. Test support, not in the published jar:
 * formwire-core's tests use it, and the conformance testee through formwire-core's test jar.
 */
public final class Neutral {
    private Neutral() {}

    /** Describes a value: objects numbered in first-visit depth-first order, a second visit as {@code ref}. */
    public static Object describe(Object v) {
        return new Out().d(v);
    }

    /** Builds the value graph a description describes; IllegalArgumentException for a malformed one. */
    public static Object build(Object json) {
        return new In().b(json);
    }

    static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static List<Object> units(String s) {
        List<Object> u = new ArrayList<>(s.length());
        for (int i = 0; i < s.length(); i++) {
            u.add((long) s.charAt(i));
        }
        return u;
    }

    private static Object strField(String s) {
        return wellFormed(s) ? s : map("u16", units(s));
    }

    private static Object numberOut(double x) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "Infinity" : "-Infinity";
        }
        if (x == 0 && Double.doubleToRawLongBits(x) != 0) {
            return "-0";
        }
        return x == Math.rint(x) && Math.abs(x) < 9.007199254740992E15 ? (Object) (long) x : (Object) x;
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static final class Out {
        final IdentityHashMap<Object, Long> ids = new IdentityHashMap<>();

        long take(Object o) {
            long id = ids.size();
            ids.put(o, id);
            return id;
        }

        Map<String, Object> strValue(String t, String s, Long id) {
            Map<String, Object> m = map("t", t);
            if (id != null) {
                m.put("id", id);
            }
            if (wellFormed(s)) {
                m.put("v", s);
            } else {
                m.put("u16", units(s));
            }
            return m;
        }

        List<Object> props(Map<String, Object> ps) {
            List<Object> out = new ArrayList<>(ps.size());
            for (Map.Entry<String, Object> e : ps.entrySet()) {
                List<Object> kv = new ArrayList<>(2);
                kv.add(strField(e.getKey()));
                kv.add(d(e.getValue()));
                out.add(kv);
            }
            return out;
        }

        Object d(Object v) {
            if (v == null) {
                return map("t", "null");
            }
            if (v == Undefined.UNDEFINED) {
                return map("t", "undefined");
            }
            if (v instanceof Boolean) {
                return map("t", "bool", "v", v);
            }
            if (v instanceof BigInteger) {
                return map("t", "bigint", "v", v.toString());
            }
            if (v instanceof Number) {
                return map("t", "number", "v", numberOut(((Number) v).doubleValue()));
            }
            if (v instanceof String) {
                return strValue("string", (String) v, null);
            }
            Long seen = ids.get(v);
            if (seen != null) {
                return map("t", "ref", "id", seen);
            }
            if (v instanceof JsView) {
                JsView x = (JsView) v;
                Object buf = d(x.buffer);
                return map("t", "view", "id", take(x), "kind", x.kind.name(), "buffer", buf, "byte_offset",
                    (long) x.byteOffset, "byte_length", (long) x.byteLength, "length_tracking", x.lengthTracking);
            }
            long id = take(v);
            if (v instanceof JsObject) {
                return map("t", "object", "id", id, "props", props(((JsObject) v).props));
            }
            if (v instanceof JsArray) {
                JsArray a = (JsArray) v;
                List<Object> items = new ArrayList<>(a.items.size());
                for (Map.Entry<Long, Object> e : a.items.entrySet()) {
                    List<Object> kv = new ArrayList<>(2);
                    kv.add(e.getKey());
                    kv.add(d(e.getValue()));
                    items.add(kv);
                }
                return map("t", "array", "id", id, "length", a.length, "items", items, "props", props(a.props));
            }
            if (v instanceof JsDate) {
                return map("t", "date", "id", id, "v", numberOut(((JsDate) v).time));
            }
            if (v instanceof JsRegExp) {
                JsRegExp r = (JsRegExp) v;
                return map("t", "regexp", "id", id, "source", strField(r.source), "flags", r.flags);
            }
            if (v instanceof JsMap) {
                JsMap m = (JsMap) v;
                List<Object> es = new ArrayList<>(m.keys.size());
                for (int i = 0; i < m.keys.size(); i++) {
                    List<Object> kv = new ArrayList<>(2);
                    kv.add(d(m.keys.get(i)));
                    kv.add(d(m.values.get(i)));
                    es.add(kv);
                }
                return map("t", "map", "id", id, "entries", es);
            }
            if (v instanceof JsSet) {
                List<Object> vs = new ArrayList<>();
                for (Object x : ((JsSet) v).values) {
                    vs.add(d(x));
                }
                return map("t", "set", "id", id, "values", vs);
            }
            if (v instanceof JsWrapper) {
                Object x = ((JsWrapper) v).value;
                if (x instanceof Boolean) {
                    return map("t", "boolean-object", "id", id, "v", x);
                }
                if (x instanceof Double) {
                    return map("t", "number-object", "id", id, "v", numberOut((Double) x));
                }
                if (x instanceof BigInteger) {
                    return map("t", "bigint-object", "id", id, "v", x.toString());
                }
                return strValue("string-object", (String) x, id);
            }
            if (v instanceof JsArrayBuffer) {
                JsArrayBuffer b = (JsArrayBuffer) v;
                Map<String, Object> m = map("t", "arraybuffer", "id", id, "base64",
                    Base64.getEncoder().encodeToString(b.data));
                if (b.resizable) {
                    m.put("max_byte_length", b.maxByteLength);
                }
                return m;
            }
            if (v instanceof JsError) {
                JsError e = (JsError) v;
                String name = Wire.errorSubtag(e.name) != 0 ? e.name : "Error";
                Map<String, Object> m = map("t", "error", "id", id, "name", name);
                if (e.message != null) {
                    m.put("message", strField(e.message));
                }
                if (e.stack != null) {
                    m.put("stack", strField(e.stack));
                }
                if (e.hasCause) {
                    m.put("cause", d(e.cause));
                }
                return m;
            }
            throw new IllegalArgumentException("cannot describe a " + v.getClass().getName());
        }
    }

    private static final class In {
        final Map<Long, Object> ids = new java.util.HashMap<>();

        static IllegalArgumentException bad(String what) {
            return new IllegalArgumentException("bad neutral value: " + what);
        }

        static double number(Object v) {
            if (v instanceof Number && !(v instanceof BigInteger)) {
                return ((Number) v).doubleValue();
            }
            if (v instanceof BigInteger) {
                return ((BigInteger) v).doubleValue();
            }
            switch (String.valueOf(v)) {
                case "NaN": return Double.NaN;
                case "Infinity": return Double.POSITIVE_INFINITY;
                case "-Infinity": return Double.NEGATIVE_INFINITY;
                case "-0": return -0.0;
                default: throw bad("number " + v);
            }
        }

        static long integer(Object v) {
            if (!(v instanceof Number)) {
                throw bad("integer " + v);
            }
            double d = ((Number) v).doubleValue();
            if (d < 0 || d != Math.rint(d) || d > 0xFFFFFFFFL) {
                throw bad("integer " + v);
            }
            return ((Number) v).longValue();
        }

        static String units(Object v) {
            if (!(v instanceof List)) {
                throw bad("u16 " + v);
            }
            List<?> l = (List<?>) v;
            char[] cs = new char[l.size()];
            for (int i = 0; i < cs.length; i++) {
                long c = integer(l.get(i));
                if (c > 0xFFFF) {
                    throw bad("code unit " + c);
                }
                cs[i] = (char) c;
            }
            return new String(cs);
        }

        static String strField(Object v) {
            if (v instanceof String) {
                return (String) v;
            }
            if (v instanceof Map) {
                return units(((Map<?, ?>) v).get("u16"));
            }
            throw bad("string field " + v);
        }

        static String string(Map<?, ?> m) {
            Object v = m.get("v");
            return v instanceof String ? (String) v : units(m.get("u16"));
        }

        <T> T reg(Map<?, ?> m, T o) {
            long id = integer(m.get("id"));
            if (ids.putIfAbsent(id, o) != null) {
                throw bad("id " + id + " used twice");
            }
            return o;
        }

        void props(Object v, Map<String, Object> into) {
            if (v == null) {
                return;
            }
            for (Object p : (List<?>) v) {
                List<?> kv = (List<?>) p;
                into.put(strField(kv.get(0)), b(kv.get(1)));
            }
        }

        Object b(Object j) {
            if (!(j instanceof Map)) {
                throw bad(String.valueOf(j));
            }
            Map<?, ?> m = (Map<?, ?>) j;
            String t = String.valueOf(m.get("t"));
            switch (t) {
                case "undefined": return Undefined.UNDEFINED;
                case "null": return null;
                case "bool": return (Boolean) m.get("v");
                case "number": return number(m.get("v"));
                case "bigint": return new BigInteger((String) m.get("v"));
                case "string": return string(m);
                case "ref": {
                    long id = integer(m.get("id"));
                    if (!ids.containsKey(id)) {
                        throw bad("ref to unknown id " + id);
                    }
                    return ids.get(id);
                }
                case "object": {
                    JsObject o = reg(m, new JsObject());
                    props(m.get("props"), o.props);
                    return o;
                }
                case "array": {
                    JsArray a = reg(m, new JsArray());
                    a.length = integer(m.get("length"));
                    Object items = m.get("items");
                    if (items != null) {
                        for (Object it : (List<?>) items) {
                            List<?> kv = (List<?>) it;
                            a.items.put(integer(kv.get(0)), b(kv.get(1)));
                        }
                    }
                    props(m.get("props"), a.props);
                    return a;
                }
                case "date": return reg(m, new JsDate(number(m.get("v"))));
                case "regexp": return reg(m, new JsRegExp(strField(m.get("source")), String.valueOf(m.get("flags"))));
                case "map": {
                    JsMap o = reg(m, new JsMap());
                    for (Object e : (List<?>) m.get("entries")) {
                        List<?> kv = (List<?>) e;
                        Object k = b(kv.get(0));
                        o.put(k, b(kv.get(1)));
                    }
                    return o;
                }
                case "set": {
                    JsSet o = reg(m, new JsSet());
                    for (Object e : (List<?>) m.get("values")) {
                        o.add(b(e));
                    }
                    return o;
                }
                case "boolean-object": return reg(m, new JsWrapper((Boolean) m.get("v")));
                case "number-object": return reg(m, new JsWrapper(number(m.get("v"))));
                case "bigint-object": return reg(m, new JsWrapper(new BigInteger((String) m.get("v"))));
                case "string-object": return reg(m, new JsWrapper(string(m)));
                case "arraybuffer": {
                    byte[] data = Base64.getDecoder().decode((String) m.get("base64"));
                    Object max = m.get("max_byte_length");
                    return reg(m, max == null ? new JsArrayBuffer(data) : new JsArrayBuffer(data, true, integer(max)));
                }
                case "view": {
                    Object buf = b(m.get("buffer"));
                    if (!(buf instanceof JsArrayBuffer)) {
                        throw bad("view buffer");
                    }
                    ViewKind kind;
                    try {
                        kind = ViewKind.valueOf(String.valueOf(m.get("kind")));
                    } catch (IllegalArgumentException e) {
                        throw bad("view kind " + m.get("kind"));
                    }
                    return reg(m, new JsView(kind, (JsArrayBuffer) buf, (int) integer(m.get("byte_offset")),
                        (int) integer(m.get("byte_length")), Boolean.TRUE.equals(m.get("length_tracking"))));
                }
                case "error": {
                    JsError e = reg(m, new JsError(String.valueOf(m.get("name")), null));
                    if (m.containsKey("message")) {
                        e.message = strField(m.get("message"));
                    }
                    if (m.containsKey("stack")) {
                        e.stack = strField(m.get("stack"));
                    }
                    if (m.containsKey("cause")) {
                        e.cause(b(m.get("cause")));
                    }
                    return e;
                }
                default:
                    throw bad("type " + t);
            }
        }
    }
}
