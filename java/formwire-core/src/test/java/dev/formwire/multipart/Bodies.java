package dev.formwire.multipart;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: building bodies and parsing them with any chunking. */
final class Bodies {
    private Bodies() {}

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static String field(String b, String name, String value) {
        return "--" + b + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
    }

    static String file(String b, String name, String filename, String type, String value) {
        return "--" + b + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\"" + filename
                + "\"\r\nContent-Type: " + type + "\r\n\r\n" + value + "\r\n";
    }

    static String close(String b) {
        return "--" + b + "--\r\n";
    }

    /** A parsed part: name, filename, body. */
    record P(String name, String filename, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** Parses {@code input} cut at {@code cuts}; heap or direct buffers. */
    static List<P> parse(MultipartParser p, byte[] input, int[] cuts, boolean direct) {
        List<P> out = new ArrayList<>();
        ByteArrayOutputStream[] cur = new ByteArrayOutputStream[1];
        Part[] part = new Part[1];
        int prev = 0;
        for (int k = 0; k <= cuts.length; k++) {
            int next = k < cuts.length ? cuts[k] : input.length;
            ByteBuffer chunk;
            if (direct) {
                chunk = ByteBuffer.allocateDirect(next - prev);
                chunk.put(input, prev, next - prev).flip();
            } else {
                chunk = ByteBuffer.wrap(input, prev, next - prev);
            }
            p.feed(chunk);
            drain(p, cur, part, out);
            prev = next;
        }
        p.finish();
        drain(p, cur, part, out);
        return out;
    }

    static List<P> parse(String ct, byte[] input, MultipartOptions o) {
        return parse(MultipartParser.forContentType(ct, o), input, new int[0], false);
    }

    private static void drain(MultipartParser p, ByteArrayOutputStream[] cur, Part[] part, List<P> out) {
        for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) {
            switch (e) {
                case PART_START:
                    part[0] = p.part();
                    cur[0] = new ByteArrayOutputStream();
                    break;
                case DATA: {
                    ByteBuffer d = p.data();
                    byte[] b = new byte[d.remaining()];
                    d.get(b);
                    cur[0].writeBytes(b);
                    break;
                }
                case PART_END:
                    out.add(new P(part[0].name(), part[0].filename(), cur[0].toByteArray()));
                    break;
                default:
                    break;
            }
        }
    }

    /** A stream of {@code head}, then {@code n} bytes of {@code fill}, then {@code tail}, without holding the middle. */
    static InputStream generated(byte[] head, long n, byte fill, byte[] tail, long[] readCounter) {
        return new InputStream() {
            long pos;
            final long total = head.length + n + tail.length;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= total) {
                    return -1;
                }
                int k = 0;
                while (k < len && pos < total) {
                    long i = pos;
                    b[off + k] = i < head.length ? head[(int) i]
                            : i < head.length + n ? fill : tail[(int) (i - head.length - n)];
                    pos++;
                    k++;
                }
                readCounter[0] = pos;
                return k;
            }
        };
    }
}
