package dev.formwire.v8;

/**
 * A primitive wrapper object: {@code new Boolean(b)}, {@code new Number(d)}, {@code Object(bigint)} or
 * {@code new String(s)}; {@link #value} is the Boolean, Double, BigInteger or String.
 */
public final class JsWrapper {
    public final Object value;

    public JsWrapper(Object value) {
        if (!(value instanceof Boolean || value instanceof Double || value instanceof java.math.BigInteger
                || value instanceof String)) {
            throw new IllegalArgumentException("a wrapper holds a Boolean, Double, BigInteger or String");
        }
        this.value = value;
    }

    @Override
    public String toString() {
        return "JsWrapper(" + value + ")";
    }
}
