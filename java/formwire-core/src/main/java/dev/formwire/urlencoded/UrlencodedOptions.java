package dev.formwire.urlencoded;

import dev.formwire.Limits;

/** The urlencoded limits (UE-L), named as in {@code spec/registry.json}. No option changes how bytes are read. */
public final class UrlencodedOptions implements Cloneable {
    /** The value of a limit that is off. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    long maxPairs = Limits.Urlencoded.MAX_PAIRS;
    long maxBytes = Limits.Urlencoded.MAX_BYTES;

    /** The default limits. */
    public UrlencodedOptions() {}

    /** Most pairs (UE-L-02). */
    public UrlencodedOptions maxPairs(long n) { maxPairs = check(n); return this; }
    /** Most input bytes (UE-L-01). */
    public UrlencodedOptions maxBytes(long n) { maxBytes = check(n); return this; }
    public long maxPairs() { return maxPairs; }
    public long maxBytes() { return maxBytes; }

    private static long check(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("a limit is >= 0 (UNLIMITED turns it off)");
        }
        return n;
    }

    /** Sets a limit by its registry name; {@code false} for an unknown name. */
    public boolean set(String name, long value) {
        switch (name) {
            case Limits.Urlencoded.MAX_PAIRS_NAME: maxPairs(value); return true;
            case Limits.Urlencoded.MAX_BYTES_NAME: maxBytes(value); return true;
            default: return false;
        }
    }

    @Override
    public UrlencodedOptions clone() {
        try {
            return (UrlencodedOptions) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
