package dev.formwire.v8;

/**
 * A typed array or DataView over {@link #buffer}. {@link #byteLength} is the current length; for a length-tracking
 * view (resizable buffers only) it is the buffer's length past the offset in whole elements, and the encoder does
 * not read it.
 */
public final class JsView {
    public final ViewKind kind;
    public final JsArrayBuffer buffer;
    public final int byteOffset;
    public final int byteLength;
    public final boolean lengthTracking;

    public JsView(ViewKind kind, JsArrayBuffer buffer, int byteOffset, int byteLength, boolean lengthTracking) {
        this.kind = kind;
        this.buffer = buffer;
        this.byteOffset = byteOffset;
        this.byteLength = byteLength;
        this.lengthTracking = lengthTracking;
    }

    @Override
    public String toString() {
        return kind + "(offset " + byteOffset + ", length " + byteLength + (lengthTracking ? ", tracking" : "") + ")";
    }
}
