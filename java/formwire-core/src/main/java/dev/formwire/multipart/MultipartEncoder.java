package dev.formwire.multipart;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Utf8;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The WHATWG {@code multipart/form-data} encoding algorithm (spec/multipart.md §7, UTF-8).
 *
 * <p>Entries are added in order; headers are built (and escaped: MP-S-02, MP-S-03) when an entry is added, bodies are
 * never copied: byte arrays are written as they are, files and streams are streamed. {@link #contentLength()} is known
 * before the first byte is written (MP-S-08). The boundary is fresh from {@link SecureRandom} (MP-S-09) unless given.
 *
 * <pre>{@code
 * MultipartEncoder form = new MultipartEncoder()
 *     .text("title", "holiday")
 *     .file("photo", "beach.jpg", "image/jpeg", Path.of("beach.jpg"));
 * HttpRequest req = HttpRequest.newBuilder(uri)
 *     .header("Content-Type", form.contentType())
 *     .POST(form.bodyPublisher())
 *     .build();
 * }</pre>
 */
public final class MultipartEncoder {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final char[] ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    /** 62 * 4: bytes at or above it are drawn again, so each of the 62 characters is equally likely. */
    private static final int ACCEPT_BELOW = 248;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String boundary;
    private final byte[] dashBoundary;
    /** Per entry: header bytes, then the body (byte[], Path, or a sized stream). */
    private final List<Object[]> entries = new ArrayList<>();
    private long length;

    /** An encoder with a fresh random boundary. */
    public MultipartEncoder() {
        this(randomBoundary(RANDOM), false);
    }

    private MultipartEncoder(String boundary, boolean check) {
        if (check) {
            checkBoundary(boundary);
        }
        this.boundary = boundary;
        this.dashBoundary = ("--" + boundary).getBytes(StandardCharsets.US_ASCII);
        this.length = dashBoundary.length + 4; // the close delimiter line `--B--` CRLF
    }

    /**
     * An encoder with a caller-given boundary: 1 to 70 characters of RFC 2046 bchars, not ending in a space.
     *
     * @throws FormwireException {@code MP_ENCODE_BOUNDARY} at offset 0 (MP-S-09)
     */
    public static MultipartEncoder withBoundary(String boundary) {
        return new MultipartEncoder(boundary, true);
    }

    /**
     * {@code ----formwire-} and 32 base-62 characters from {@code random}, each drawn by rejection sampling (MP-S-09:
     * about 190 bits of entropy, 45 characters of {@code [0-9A-Za-z-]}).
     */
    public static String randomBoundary(SecureRandom random) {
        StringBuilder sb = new StringBuilder(45).append("----formwire-");
        byte[] buf = new byte[48];
        int n = buf.length;
        while (sb.length() < 45) {
            if (n == buf.length) {
                random.nextBytes(buf);
                n = 0;
            }
            int b = buf[n++] & 0xFF;
            if (b < ACCEPT_BELOW) {
                sb.append(ALNUM[b % 62]);
            }
        }
        return sb.toString();
    }

    private static void checkBoundary(String b) {
        boolean ok = b.length() >= 1 && b.length() <= 70 && b.charAt(b.length() - 1) != ' ';
        for (int i = 0; ok && i < b.length(); i++) {
            char c = b.charAt(i);
            ok = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || "'()+_,-./:=? ".indexOf(c) >= 0;
        }
        if (!ok) {
            throw new FormwireException(ErrorCode.MP_ENCODE_BOUNDARY, 0, "not 1-70 RFC 2046 bchars");
        }
    }

    /** The boundary. */
    public String boundary() {
        return boundary;
    }

    /**
     * The Content-Type to send (MP-S-10): the boundary as is when it is a token, else quoted (a bchar boundary holds
     * no {@code "} or {@code \}, so nothing needs escaping).
     */
    public String contentType() {
        boolean token = true;
        for (int i = 0; i < boundary.length(); i++) {
            char c = boundary.charAt(i);
            token &= c < 128 && Ascii.TOKEN[c];
        }
        return "multipart/form-data; boundary=" + (token ? boundary : "\"" + boundary + "\"");
    }

    /** The exact number of bytes {@link #writeTo} writes (MP-S-08). */
    public long contentLength() {
        return length;
    }

    /** MP-S-02: newlines normalized to CRLF, then LF, CR and {@code "} percent-escaped. */
    static String escapeName(String s) {
        return escape(normalizeNewlines(s));
    }

    /** MP-S-03: the same three escapes, no newline normalization. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n': sb.append("%0A"); break;
                case '\r': sb.append("%0D"); break;
                case '"': sb.append("%22"); break;
                default: sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Every lone CR, lone LF and CRLF becomes CRLF (MP-S-02, MP-S-04). */
    static String normalizeNewlines(String s) {
        if (s.indexOf('\r') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r') {
                sb.append("\r\n");
                if (i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                    i++;
                }
            } else if (c == '\n') {
                sb.append("\r\n");
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private byte[] head(String name, String filename, String type) {
        StringBuilder sb = new StringBuilder(96);
        sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(escapeName(name))
                .append('"');
        if (filename != null) {
            sb.append("; filename=\"").append(escape(filename)).append('"');
        }
        sb.append("\r\n");
        if (type != null) {
            sb.append("Content-Type: ").append(type.isEmpty() ? "application/octet-stream" : type).append("\r\n");
        }
        sb.append("\r\n");
        return Utf8.encode(sb); // MP-S-07: lone surrogates become U+FFFD
    }

    private void checkType(String type) {
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                // MP-S-06: never written (header injection).
                throw new FormwireException(ErrorCode.MP_ENCODE_HEADER, entries.size(), "CR, LF or NUL in a type");
            }
        }
    }

    private MultipartEncoder add(byte[] head, Object body, long size) {
        entries.add(new Object[] {head, body, size});
        length += head.length + size + 2;
        return this;
    }

    /** A string entry (MP-S-04: newlines normalized to CRLF, no Content-Type). */
    public MultipartEncoder text(String name, String value) {
        byte[] v = Utf8.encode(normalizeNewlines(value));
        return add(head(name, null, null), v, v.length);
    }

    /** A File entry with in-memory bytes (written as they are, not copied). */
    public MultipartEncoder file(String name, String filename, String type, byte[] body) {
        checkType(type);
        return add(head(name, filename, type), body, body.length);
    }

    /** A File entry streamed from a file; its size is read now. */
    public MultipartEncoder file(String name, String filename, String type, Path path) throws IOException {
        checkType(type);
        return add(head(name, filename, type), path, Files.size(path));
    }

    /**
     * A File entry streamed from a source of exactly {@code size} bytes (more or fewer is an {@link IOException} when
     * writing: the announced length is never wrong, MP-S-08).
     */
    public MultipartEncoder file(String name, String filename, String type, long size, Supplier<InputStream> body) {
        checkType(type);
        if (size < 0) {
            throw new IllegalArgumentException("size < 0");
        }
        return add(head(name, filename, type), body, size);
    }

    /** A Blob entry: {@code filename="blob"} (MP-S-05). */
    public MultipartEncoder blob(String name, String type, byte[] body) {
        return file(name, "blob", type, body);
    }

    /** Writes the whole body. */
    public void writeTo(OutputStream out) throws IOException {
        for (Object[] e : entries) {
            out.write((byte[]) e[0]);
            writeBody(e[1], (Long) e[2], out);
            out.write(CRLF);
        }
        out.write(dashBoundary);
        out.write(new byte[] {'-', '-', '\r', '\n'});
    }

    @SuppressWarnings("unchecked")
    private static void writeBody(Object body, long size, OutputStream out) throws IOException {
        if (body instanceof byte[]) {
            out.write((byte[]) body);
            return;
        }
        try (InputStream in = body instanceof Path ? Files.newInputStream((Path) body)
                : ((Supplier<InputStream>) body).get()) {
            byte[] buf = new byte[64 * 1024];
            long left = size;
            int n;
            while ((n = in.read(buf, 0, (int) Math.min(buf.length, Math.max(left, 1)))) > 0) {
                if (n > left) {
                    throw new IOException("a streamed body is longer than its announced size " + size);
                }
                out.write(buf, 0, n);
                left -= n;
            }
            if (left != 0) {
                throw new IOException("a streamed body is shorter than its announced size " + size);
            }
        }
    }

    /** The whole body in one array (for small forms and tests). */
    public byte[] toByteArray() {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("body too large for one array: " + length);
        }
        // The exact length is known (MP-S-08): write straight into the result, no growing buffer and no final copy.
        byte[] result = new byte[(int) length];
        OutputStream out = new OutputStream() {
            int n;

            @Override
            public void write(int b) {
                result[n++] = (byte) b;
            }

            @Override
            public void write(byte[] b, int off, int len) {
                System.arraycopy(b, off, result, n, len);
                n += len;
            }
        };
        try {
            writeTo(out);
        } catch (IOException | IndexOutOfBoundsException e) {
            throw new IllegalStateException("a body source changed its length while being written", e);
        }
        return result;
    }

    /**
     * A {@link HttpRequest.BodyPublisher} with the exact content length: headers and byte arrays as they are, files
     * through {@code ofFile}, streams through {@code ofInputStream}.
     */
    @SuppressWarnings("unchecked")
    public HttpRequest.BodyPublisher bodyPublisher() {
        List<HttpRequest.BodyPublisher> ps = new ArrayList<>();
        try {
            for (Object[] e : entries) {
                ps.add(HttpRequest.BodyPublishers.ofByteArray((byte[]) e[0]));
                Object b = e[1];
                if (b instanceof byte[]) {
                    ps.add(HttpRequest.BodyPublishers.ofByteArray((byte[]) b));
                } else if (b instanceof Path) {
                    ps.add(HttpRequest.BodyPublishers.ofFile((Path) b));
                } else {
                    ps.add(HttpRequest.BodyPublishers.ofInputStream((Supplier<InputStream>) b));
                }
                ps.add(HttpRequest.BodyPublishers.ofByteArray(CRLF));
            }
        } catch (java.io.FileNotFoundException ex) {
            throw new UncheckedIOException(ex);
        }
        byte[] close = new byte[dashBoundary.length + 4];
        System.arraycopy(dashBoundary, 0, close, 0, dashBoundary.length);
        close[close.length - 4] = '-';
        close[close.length - 3] = '-';
        close[close.length - 2] = '\r';
        close[close.length - 1] = '\n';
        ps.add(HttpRequest.BodyPublishers.ofByteArray(close));
        HttpRequest.BodyPublisher all = HttpRequest.BodyPublishers.concat(ps.toArray(new HttpRequest.BodyPublisher[0]));
        return HttpRequest.BodyPublishers.fromPublisher(all, length);
    }
}
