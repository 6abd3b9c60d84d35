package dev.formwire.multipart;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A blocking adapter: the parts of a body read from an {@link InputStream}, one 64 KiB buffer, each part's body an
 * {@code InputStream} that reads straight out of that buffer.
 *
 * <pre>{@code
 * try (MultipartReader reader = new MultipartReader(request.getInputStream(), contentType, new MultipartOptions())) {
 *     for (MultipartReader.PartInput p; (p = reader.nextPart()) != null; ) {
 *         if (p.part().isFile()) {
 *             p.transferTo(Files.newOutputStream(dir.resolve(UUID.randomUUID().toString())));
 *         } else {
 *             String value = p.readString();
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>{@link #nextPart()} skips what is left of the previous part. It is a part iterator: with
 * {@code allow_missing_disposition} it also returns nameless parts ({@code part().name() == null}, MP-H-06), which
 * {@link FormData#read} skips (MP-F-05). A {@link dev.formwire.FormwireException} (bad input,
 * a limit) comes out of whichever call meets it; {@link IOException}s are the stream's. The stream is read to its
 * end (the epilogue still counts towards {@code max_total_bytes}, MP-P-05).
 */
public final class MultipartReader implements Closeable {
    private final InputStream in;
    private final MultipartParser parser;
    private final byte[] buf;
    private boolean ended;
    private boolean done;
    private PartInput current;

    /** A reader with the Content-Type of the request (MP-B-01..04, checked now). */
    public MultipartReader(InputStream in, String contentType, MultipartOptions options) {
        this(in, MultipartParser.forContentType(contentType, options), 64 * 1024);
    }

    MultipartReader(InputStream in, MultipartParser parser, int bufferSize) {
        this.in = in;
        this.parser = parser;
        this.buf = new byte[bufferSize];
    }

    /** The next event, reading the stream when the parser needs input; NEED_INPUT only at the very end. */
    private MultipartParser.Event pull() throws IOException {
        while (true) {
            MultipartParser.Event e = parser.next();
            if (e != MultipartParser.Event.NEED_INPUT || ended) {
                return e;
            }
            int n = in.read(buf);
            if (n < 0) {
                ended = true;
                parser.finish();
            } else if (n > 0) {
                parser.feed(ByteBuffer.wrap(buf, 0, n));
            }
        }
    }

    /**
     * The next part, or {@code null} after the last one (the body was then complete and valid: the close delimiter
     * was seen and the stream ended).
     */
    public PartInput nextPart() throws IOException {
        if (current != null) {
            current.skipRest();
            current = null;
        }
        if (done) {
            return null;
        }
        while (true) {
            MultipartParser.Event e = pull();
            switch (e) {
                case PART_START:
                    current = new PartInput(parser.part());
                    return current;
                case END:
                    // Read the epilogue to the end: it counts (MP-L-03), and the stream must really end.
                    while (pull() != MultipartParser.Event.NEED_INPUT) {
                        // nothing else can come after END
                    }
                    done = true;
                    return null;
                case NEED_INPUT:
                    done = true;
                    return null;
                default:
                    break; // DATA of a skipped part is consumed by skipRest
            }
        }
    }

    /** Closes the underlying stream. */
    @Override
    public void close() throws IOException {
        in.close();
    }

    /** One part: its headers and its body as a stream (valid until the next {@link #nextPart()}). */
    public final class PartInput extends InputStream {
        private final Part part;
        private int off;
        private int left;
        private boolean end;

        PartInput(Part part) {
            this.part = part;
        }

        /** The part's headers. */
        public Part part() {
            return part;
        }

        private boolean fill() throws IOException {
            while (left == 0) {
                if (end || current != this) {
                    return false;
                }
                MultipartParser.Event e = pull();
                if (e == MultipartParser.Event.DATA) {
                    off = parser.dataOffset();
                    left = parser.dataLength();
                } else {
                    end = true; // PART_END
                    return false;
                }
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            if (!fill()) {
                return -1;
            }
            left--;
            return parser.dataArray()[off++] & 0xFF;
        }

        @Override
        public int read(byte[] b, int at, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, left);
            System.arraycopy(parser.dataArray(), off, b, at, n);
            off += n;
            left -= n;
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = 0;
            while (s < n && fill()) {
                int k = (int) Math.min(n - s, left);
                off += k;
                left -= k;
                s += k;
            }
            return s;
        }

        @Override
        public int available() {
            return left;
        }

        void skipRest() throws IOException {
            while (fill()) {
                left = 0;
            }
        }

        /** The body as a string: UTF-8 with U+FFFD (MP-F-01). Bounded by {@code max_field_bytes} for fields. */
        public String readString() throws IOException {
            return dev.formwire.Utf8.decode(readAllBytes());
        }
    }
}
