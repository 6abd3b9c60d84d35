package dev.formwire.v8;

/** A JS ArrayBuffer. A resizable one has {@link #resizable} set and a maximum length >= its length. */
public final class JsArrayBuffer {
    public final byte[] data;
    public final boolean resizable;
    public final long maxByteLength;

    /** A fixed-length buffer over {@code data} (not copied). */
    public JsArrayBuffer(byte[] data) {
        this(data, false, data.length);
    }

    public JsArrayBuffer(byte[] data, boolean resizable, long maxByteLength) {
        this.data = data;
        this.resizable = resizable;
        this.maxByteLength = maxByteLength;
    }

    @Override
    public String toString() {
        return "JsArrayBuffer(" + data.length + (resizable ? ", max " + maxByteLength : "") + ")";
    }
}
