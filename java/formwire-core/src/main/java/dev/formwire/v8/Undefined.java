package dev.formwire.v8;

/** JS {@code undefined}. JS {@code null} is Java {@code null}. */
public enum Undefined {
    /** The one undefined value. */
    UNDEFINED;

    @Override
    public String toString() {
        return "undefined";
    }
}
