package dev.formwire.v8;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.nio.ByteBuffer;

/**
 * The V8 ValueSerializer format, version 15 (spec/structured-clone.md): what structuredClone, postMessage and
 * {@code new v8.Serializer()} write in Node, Deno and Chrome, and Node's {@code v8.serialize} dialect.
 *
 * <p>Values: JS undefined is {@link Undefined#UNDEFINED}, null is {@code null}, booleans {@link Boolean}, numbers
 * {@link Double} (the encoder also takes Integer, Long, Float, Short, Byte), strings {@link String} (UTF-16, lone
 * surrogates kept), BigInts {@link java.math.BigInteger}, and {@link JsObject}, {@link JsArray}, {@link JsDate},
 * {@link JsRegExp}, {@link JsMap}, {@link JsSet}, {@link JsWrapper}, {@link JsArrayBuffer}, {@link JsView},
 * {@link JsError}. Identity is kept both ways: an object met twice is the same Java object, so shared references and
 * cycles survive. Neither direction recurses on the value: nesting is bounded by max_depth only.
 */
public final class V8 {
    private V8() {}

    /** Decodes with the default options. */
    public static Object decode(byte[] input) {
        return decode(input, 0, input.length, null);
    }

    /**
     * Decodes one value (SC-D rules); throws {@link FormwireException} with an SC_ code and offset. The result
     * shares no memory with the input.
     */
    public static Object decode(byte[] input, Options options) {
        return decode(input, 0, input.length, options);
    }

    /** Decodes the remaining bytes of a buffer (its position is not moved); offsets count from its position. */
    public static Object decode(ByteBuffer input, Options options) {
        if (input.hasArray()) {
            int start = input.arrayOffset() + input.position();
            return decode(input.array(), start, start + input.remaining(), options);
        }
        byte[] copy = new byte[input.remaining()];
        input.duplicate().get(copy);
        return decode(copy, 0, copy.length, options);
    }

    /** Decodes {@code input[from, to)}; error offsets count from {@code from}. */
    public static Object decode(byte[] input, int from, int to, Options options) {
        Options o = options == null ? new Options() : options;
        if (to - from > o.maxBytes) {
            throw new FormwireException(ErrorCode.SC_LIMIT_BYTES, 0, "input longer than max_bytes"); // SC-D-02
        }
        Decoder d = new Decoder(input, from, to, o, false);
        try {
            return d.decode();
        } catch (FormwireException e) {
            if (d.version() != 13 || e.isLimit()) {
                throw e;
            }
            // SC-D-23: V8 once wrote version-13 views with flags (crbug.com/1284506) and reads them both ways.
            try {
                return new Decoder(input, from, to, o, true).decode();
            } catch (FormwireException e2) {
                throw e;
            }
        }
    }

    /** Encodes with the default options. */
    public static byte[] encode(Object value) {
        return encode(value, null);
    }

    /**
     * The canonical encoding of a value (SC-E rules, raw dialect, version 15). A value outside the model (another
     * Java type, repeated Map keys, a view out of its buffer, ...) is SC_DATA_CLONE; nesting deeper than max_depth
     * is SC_LIMIT_DEPTH; offsets are the output length at that point.
     */
    public static byte[] encode(Object value, Options options) {
        return new Encoder(options == null ? new Options() : options).encode(value);
    }
}
