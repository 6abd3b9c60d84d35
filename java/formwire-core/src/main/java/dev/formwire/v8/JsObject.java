package dev.formwire.v8;

import java.util.LinkedHashMap;

/**
 * A plain JS object: its own enumerable properties in JS enumeration order (SC-D-12: array-index keys ascending,
 * then the other keys in definition order). The encoder writes them in that order whatever order the map has.
 * Identity matters (shared references, cycles): equals is identity.
 */
public final class JsObject {
    /** Property key (a JS string, lone surrogates allowed) to value. */
    public final LinkedHashMap<String, Object> props;

    public JsObject() {
        this.props = new LinkedHashMap<>();
    }

    public JsObject(LinkedHashMap<String, Object> props) {
        this.props = props;
    }

    /** Sets a property and returns this. */
    public JsObject put(String key, Object value) {
        props.put(key, value);
        return this;
    }

    @Override
    public String toString() {
        return "JsObject(" + props.size() + " properties)";
    }
}
