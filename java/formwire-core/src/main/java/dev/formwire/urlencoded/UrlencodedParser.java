package dev.formwire.urlencoded;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Utf8;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

/**
 * A streaming WHATWG {@code application/x-www-form-urlencoded} parser (spec/urlencoded.md UE-P, UE-L).
 *
 * <p>Feed chunks with {@link #feed(ByteBuffer)} and pull pairs with {@link #next()} until it returns {@code null};
 * call {@link #finish()} and pull the last pair. Content never fails (UE-P-10); only the limits do, with
 * {@code UE_LIMIT_PAIRS} / {@code UE_LIMIT_BYTES} at their offsets, whatever the chunking (UE-P-11, UE-L-03). Memory:
 * the bytes of one pair (bounded by {@code max_bytes}).
 */
public final class UrlencodedParser {
    private final UrlencodedOptions opts;
    private ByteBuffer in;
    private boolean eof;
    private boolean finished;
    private long consumed;
    private long pairs;
    private FormwireException error;
    /** The raw bytes of the current pair so far. */
    private byte[] raw = new byte[64];
    private int rawLen;
    private boolean inPair;

    /** A parser with the given limits. */
    public UrlencodedParser(UrlencodedOptions options) {
        this.opts = options.clone();
    }

    /** A parser with the default limits. */
    public UrlencodedParser() {
        this(new UrlencodedOptions());
    }

    /** Feeds one chunk (position to limit); its position advances as {@link #next()} reads it. */
    public void feed(ByteBuffer chunk) {
        if (eof) {
            throw new IllegalStateException("finish() was called");
        }
        if (in != null && in.hasRemaining()) {
            throw new IllegalStateException("the previous chunk is not used up: call next() until null");
        }
        in = chunk;
    }

    /** Ends the input; the last pair is then produced by {@link #next()} (UE-P-10: never an error). */
    public void finish() {
        if (in != null && in.hasRemaining()) {
            throw new IllegalStateException("the previous chunk is not used up: call next() until null");
        }
        eof = true;
    }

    /** Bytes consumed so far. */
    public long offset() {
        return consumed;
    }

    /**
     * The next complete pair, or {@code null} when more input (or {@link #finish()}) is needed, or after the last.
     *
     * @throws FormwireException on an exceeded limit (then on every later call, UE-L-05)
     */
    public Map.Entry<String, String> next() {
        if (error != null) {
            throw error;
        }
        while (in != null && in.hasRemaining()) {
            long room = opts.maxBytes - consumed;
            int n = (int) Math.min(in.remaining(), Math.max(0, room));
            if (n == 0) {
                throw fail(ErrorCode.UE_LIMIT_BYTES, opts.maxBytes); // UE-L-01
            }
            Map.Entry<String, String> p = in.hasArray() ? runArray(n) : runDirect(n);
            if (p != null) {
                return p;
            }
        }
        if (eof && !finished) {
            finished = true;
            if (inPair) {
                inPair = false;
                return pair();
            }
        }
        return null;
    }

    private Map.Entry<String, String> runArray(int n) {
        byte[] a = in.array();
        int start = in.arrayOffset() + in.position();
        int end = start + n;
        int i = start;
        while (i < end) {
            byte b = a[i];
            if (b == '&') {
                i++;
                if (inPair) {
                    inPair = false;
                    advance(i - start);
                    return pair();
                }
                continue;
            }
            if (!inPair) {
                startPair(consumed + (i - start));
            }
            // The run up to the next `&` is part of this pair.
            int j = i;
            while (j < end && a[j] != '&') {
                j++;
            }
            append(a, i, j);
            i = j;
        }
        advance(i - start);
        return null;
    }

    private Map.Entry<String, String> runDirect(int n) {
        byte[] tmp = new byte[Math.min(n, 8192)];
        in.get(in.position(), tmp, 0, tmp.length);
        ByteBuffer saved = in;
        in = ByteBuffer.wrap(tmp);
        Map.Entry<String, String> p = runArray(tmp.length);
        int used = in.position();
        in = saved;
        in.position(in.position() + used);
        return p;
    }

    private void advance(int n) {
        in.position(in.position() + n);
        consumed += n;
    }

    /** UE-L-02: a pair starts at {@code off}. */
    private void startPair(long off) {
        if (pairs >= opts.maxPairs) {
            in.position(in.position() + (int) (off - consumed));
            consumed = off;
            throw fail(ErrorCode.UE_LIMIT_PAIRS, off);
        }
        pairs++;
        inPair = true;
        rawLen = 0;
    }

    private void append(byte[] a, int from, int to) {
        int k = to - from;
        if (rawLen + k > raw.length) {
            raw = Arrays.copyOf(raw, Math.max(raw.length * 2, rawLen + k));
        }
        System.arraycopy(a, from, raw, rawLen, k);
        rawLen += k;
    }

    private FormwireException fail(ErrorCode code, long off) {
        error = new FormwireException(code, off);
        return error;
    }

    private Map.Entry<String, String> pair() {
        int eq = -1;
        for (int i = 0; i < rawLen; i++) {
            if (raw[i] == '=') {
                eq = i;
                break;
            }
        }
        // UE-P-04: split at the first `=`.
        String name = eq < 0 ? decode(raw, 0, rawLen) : decode(raw, 0, eq);
        String value = eq < 0 ? "" : decode(raw, eq + 1, rawLen);
        return Map.entry(name, value);
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** UE-P-06, UE-P-07, UE-P-08: `+` to space, percent-decode (invalid escapes literal), UTF-8 decode. */
    static String decode(byte[] b, int from, int to) {
        byte[] out = null;
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '+' || c == '%') {
                if (out == null) {
                    out = new byte[to - from];
                    System.arraycopy(b, from, out, 0, i - from);
                    n = i - from;
                }
                if (c == '+') {
                    out[n++] = ' ';
                    continue;
                }
                int h;
                int l;
                if (i + 2 < to && (h = hex(b[i + 1])) >= 0 && (l = hex(b[i + 2])) >= 0) {
                    out[n++] = (byte) (h << 4 | l);
                    i += 2;
                } else {
                    out[n++] = '%';
                }
            } else if (out != null) {
                out[n++] = c;
            }
        }
        return out == null ? Utf8.decode(b, from, to - from) : Utf8.decode(out, 0, n);
    }
}
