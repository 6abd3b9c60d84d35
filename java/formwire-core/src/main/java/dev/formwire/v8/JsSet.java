package dev.formwire.v8;

import java.util.ArrayList;
import java.util.List;

/** A JS Set: values in insertion order, unique under SameValueZero. */
public final class JsSet {
    public final List<Object> values = new ArrayList<>();

    /** An empty Set. */
    public JsSet() {}

    public JsSet add(Object value) {
        values.add(value);
        return this;
    }

    @Override
    public String toString() {
        return "JsSet(" + values.size() + " values)";
    }
}
