package dev.formwire.v8;

import dev.formwire.Limits;

/**
 * The clone limits of {@code spec/limits.md}, named as in {@code spec/registry.json}, and the node_ipc reading mode
 * (SC-D-27). Every limit is on by default.
 */
public final class Options implements Cloneable {
    /** The value of a limit that is off. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    long maxDepth = Limits.Clone.MAX_DEPTH;
    long maxBytes = Limits.Clone.MAX_BYTES;
    long maxValues = Limits.Clone.MAX_VALUES;
    long maxBigintBytes = Limits.Clone.MAX_BIGINT_BYTES;
    boolean nodeIpc;

    /** The default limits, node_ipc off. */
    public Options() {}

    /** Container nesting, decoding and encoding (SC-D-29, SC-E-14): SC_LIMIT_DEPTH. */
    public Options maxDepth(long n) { maxDepth = check(n); return this; }
    /** Input length accepted by decode (SC-D-02): SC_LIMIT_BYTES. */
    public Options maxBytes(long n) { maxBytes = check(n); return this; }
    /** Values one decode reads (SC-L-05): SC_LIMIT_VALUES. */
    public Options maxValues(long n) { maxValues = check(n); return this; }
    /** Digit bytes of one BigInt (SC-L-06): SC_LIMIT_BIGINT. */
    public Options maxBigintBytes(long n) { maxBigintBytes = check(n); return this; }
    /** Host objects carry child_process 'advanced' sub-tags (SC-D-27); off by default. */
    public Options nodeIpc(boolean on) { nodeIpc = on; return this; }

    public long maxDepth() { return maxDepth; }
    public long maxBytes() { return maxBytes; }
    public long maxValues() { return maxValues; }
    public long maxBigintBytes() { return maxBigintBytes; }
    public boolean nodeIpc() { return nodeIpc; }

    private static long check(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("a limit is >= 0 (UNLIMITED turns it off)");
        }
        return n;
    }

    /** Sets a limit by its registry name; {@code false} for an unknown name. */
    public boolean set(String name, long value) {
        switch (name) {
            case Limits.Clone.MAX_DEPTH_NAME: maxDepth(value); return true;
            case Limits.Clone.MAX_BYTES_NAME: maxBytes(value); return true;
            case Limits.Clone.MAX_VALUES_NAME: maxValues(value); return true;
            case Limits.Clone.MAX_BIGINT_BYTES_NAME: maxBigintBytes(value); return true;
            default: return false;
        }
    }

    @Override
    public Options clone() {
        try {
            return (Options) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
