package dev.formwire.v8;

import java.util.LinkedHashMap;
import java.util.TreeMap;

/**
 * A JS array: its length (0 to 2^32-1), its present elements by index (below the length; a missing index is a
 * hole) and its other own properties (keys that are not array indices, never {@code length}).
 */
public final class JsArray {
    /** The length, 0 .. 2^32-1. */
    public long length;
    /** Present elements by index, ascending. */
    public final TreeMap<Long, Object> items = new TreeMap<>();
    /** Named properties in definition order. */
    public final LinkedHashMap<String, Object> props = new LinkedHashMap<>();

    public JsArray() {}

    /** A dense array of the given elements. */
    public static JsArray of(Object... elements) {
        JsArray a = new JsArray();
        for (Object e : elements) {
            a.items.put(a.length++, e);
        }
        return a;
    }

    @Override
    public String toString() {
        return "JsArray(length " + length + ", " + items.size() + " items)";
    }
}
