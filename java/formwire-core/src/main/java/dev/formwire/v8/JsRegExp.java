package dev.formwire.v8;

/** A JS RegExp: its source (as the {@code source} getter returns it) and flags, a subset of "dgimsuvy". */
public final class JsRegExp {
    public final String source;
    public final String flags;

    public JsRegExp(String source, String flags) {
        this.source = source;
        this.flags = flags;
    }

    @Override
    public String toString() {
        return "/" + source + "/" + flags;
    }
}
