package dev.formwire.v8;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/** Test helper: two value graphs are the same up to renaming objects (a bijection keeps their sharing). */
final class Graphs {
    private final IdentityHashMap<Object, Object> ab = new IdentityHashMap<>();
    private final IdentityHashMap<Object, Object> ba = new IdentityHashMap<>();

    static boolean equal(Object a, Object b) {
        return new Graphs().eq(a, b);
    }

    private static boolean sameNum(double x, double y) {
        return Double.isNaN(x) ? Double.isNaN(y) : Double.doubleToRawLongBits(x) == Double.doubleToRawLongBits(y);
    }

    private boolean props(Map<String, Object> p, Map<String, Object> r) {
        if (p.size() != r.size()) {
            return false;
        }
        Iterator<Map.Entry<String, Object>> i = p.entrySet().iterator();
        Iterator<Map.Entry<String, Object>> j = r.entrySet().iterator();
        while (i.hasNext()) {
            Map.Entry<String, Object> x = i.next();
            Map.Entry<String, Object> y = j.next();
            if (!x.getKey().equals(y.getKey()) || !eq(x.getValue(), y.getValue())) {
                return false;
            }
        }
        return true;
    }

    private boolean eq(Object a, Object b) {
        if (a == null || b == null || a instanceof Undefined || a instanceof Boolean || a instanceof String
                || a instanceof java.math.BigInteger) {
            return Objects.equals(a, b);
        }
        if (a instanceof Double) {
            return b instanceof Double && sameNum((Double) a, (Double) b);
        }
        if (ab.containsKey(a)) {
            return ab.get(a) == b;
        }
        if (ba.containsKey(b)) {
            return false;
        }
        ab.put(a, b);
        ba.put(b, a);
        if (a.getClass() != b.getClass()) {
            return false;
        }
        if (a instanceof JsObject) {
            return props(((JsObject) a).props, ((JsObject) b).props);
        }
        if (a instanceof JsArray) {
            JsArray x = (JsArray) a;
            JsArray y = (JsArray) b;
            if (x.length != y.length || !x.items.keySet().equals(y.items.keySet())) {
                return false;
            }
            for (Map.Entry<Long, Object> e : x.items.entrySet()) {
                if (!eq(e.getValue(), y.items.get(e.getKey()))) {
                    return false;
                }
            }
            return props(x.props, y.props);
        }
        if (a instanceof JsDate) {
            return sameNum(((JsDate) a).time, ((JsDate) b).time);
        }
        if (a instanceof JsRegExp) {
            return ((JsRegExp) a).source.equals(((JsRegExp) b).source) && ((JsRegExp) a).flags.equals(((JsRegExp) b).flags);
        }
        if (a instanceof JsMap) {
            JsMap x = (JsMap) a;
            JsMap y = (JsMap) b;
            if (x.keys.size() != y.keys.size()) {
                return false;
            }
            for (int k = 0; k < x.keys.size(); k++) {
                if (!eq(x.keys.get(k), y.keys.get(k)) || !eq(x.values.get(k), y.values.get(k))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof JsSet) {
            JsSet x = (JsSet) a;
            JsSet y = (JsSet) b;
            if (x.values.size() != y.values.size()) {
                return false;
            }
            for (int k = 0; k < x.values.size(); k++) {
                if (!eq(x.values.get(k), y.values.get(k))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof JsWrapper) {
            Object x = ((JsWrapper) a).value;
            Object y = ((JsWrapper) b).value;
            return x instanceof Double ? y instanceof Double && sameNum((Double) x, (Double) y) : x.equals(y);
        }
        if (a instanceof JsArrayBuffer) {
            JsArrayBuffer x = (JsArrayBuffer) a;
            JsArrayBuffer y = (JsArrayBuffer) b;
            return Arrays.equals(x.data, y.data) && x.resizable == y.resizable
                && (!x.resizable || x.maxByteLength == y.maxByteLength);
        }
        if (a instanceof JsView) {
            JsView x = (JsView) a;
            JsView y = (JsView) b;
            return x.kind == y.kind && x.byteOffset == y.byteOffset && x.byteLength == y.byteLength
                && x.lengthTracking == y.lengthTracking && eq(x.buffer, y.buffer);
        }
        if (a instanceof JsError) {
            JsError x = (JsError) a;
            JsError y = (JsError) b;
            return x.name.equals(y.name) && Objects.equals(x.message, y.message) && Objects.equals(x.stack, y.stack)
                && x.hasCause == y.hasCause && (!x.hasCause || eq(x.cause, y.cause));
        }
        return false;
    }
}
