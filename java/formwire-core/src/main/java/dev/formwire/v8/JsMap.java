package dev.formwire.v8;

import java.util.ArrayList;
import java.util.List;

/** A JS Map: keys and values in insertion order (parallel lists); keys unique under SameValueZero. */
public final class JsMap {
    public final List<Object> keys = new ArrayList<>();
    public final List<Object> values = new ArrayList<>();

    /** An empty Map. */
    public JsMap() {}

    /** Appends an entry (no SameValueZero check here; the encoder refuses repeated keys). */
    public JsMap put(Object key, Object value) {
        keys.add(key);
        values.add(value);
        return this;
    }

    @Override
    public String toString() {
        return "JsMap(" + keys.size() + " entries)";
    }
}
