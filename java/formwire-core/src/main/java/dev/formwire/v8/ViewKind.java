package dev.formwire.v8;

/** The constructor of a typed array or DataView, with its V8 subtag (SC-W-19) and element size. */
public enum ViewKind {
    Int8Array('b', 1), Uint8Array('B', 1), Uint8ClampedArray('C', 1), Int16Array('w', 2), Uint16Array('W', 2),
    Int32Array('d', 4), Uint32Array('D', 4), Float16Array('h', 2), Float32Array('f', 4), Float64Array('F', 8),
    BigInt64Array('q', 8), BigUint64Array('Q', 8), DataView('?', 1);

    final byte subtag;
    /** Bytes per element (1 for DataView). */
    public final int elementSize;

    ViewKind(char subtag, int elementSize) {
        this.subtag = (byte) subtag;
        this.elementSize = elementSize;
    }

    private static final ViewKind[] BY_SUBTAG = new ViewKind[256];

    static {
        for (ViewKind k : values()) {
            BY_SUBTAG[k.subtag & 0xFF] = k;
        }
    }

    static ViewKind bySubtag(int sub) {
        return sub >= 0 && sub < 256 ? BY_SUBTAG[sub] : null;
    }
}
