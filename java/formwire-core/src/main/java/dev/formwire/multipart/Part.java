package dev.formwire.multipart;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The headers of one part, valid from {@link MultipartParser.Event#PART_START} on (immutable; keep it as long as you
 * like).
 *
 * <p>{@link #name()} and {@link #filename()} are UTF-8 with U+FFFD for invalid bytes, never percent-decoded and with
 * no path stripped (MP-H-10): a filename is untrusted input. {@code name*}/{@code filename*} are raw and never
 * override {@code name}/{@code filename} (MP-H-09).
 */
public final class Part {
    /** One header: lowercased name, OWS-trimmed value bytes (obs-folds joined by one SP). */
    public static final class Header {
        private final String name;
        private final byte[] value;

        Header(String name, byte[] value) {
            this.name = name;
            this.value = value;
        }

        /**
         * The name, ASCII-lowercased (a token; with {@code allow_utf8_header_names} bytes 80-FF too, shown as UTF-8
         * with U+FFFD, MP-H-11).
         */
        public String name() {
            return name;
        }

        /** The raw value bytes (a copy). */
        public byte[] valueBytes() {
            return value.clone();
        }

        byte[] rawValue() {
            return value;
        }

        /** The value as UTF-8 with U+FFFD for invalid bytes, for display. */
        public String value() {
            return dev.formwire.Utf8.decode(value);
        }
    }

    private final byte[] name;
    private final byte[] filename;
    private final byte[] nameStar;
    private final byte[] filenameStar;
    /** The part's header block as the parser keeps it (names lowercased, values trimmed) and the spans into it. */
    private final byte[] block;
    private final int[] spans;
    private final int cd;
    private final int ct;
    private final long bodyOffset;
    private volatile List<Header> headers;

    Part(Disposition d, byte[] block, int[] spans, int cd, int ct, long bodyOffset) {
        this.name = d.name;
        this.filename = d.filename;
        this.nameStar = d.nameStar;
        this.filenameStar = d.filenameStar;
        this.block = block;
        this.spans = spans;
        this.cd = cd;
        this.ct = ct;
        this.bodyOffset = bodyOffset;
    }

    private byte[] value(int h) {
        return java.util.Arrays.copyOfRange(block, spans[h * 4 + 2], spans[h * 4 + 3]);
    }

    private static String utf8(byte[] b) {
        return b == null ? null : dev.formwire.Utf8.decode(b);
    }

    /**
     * The {@code name} parameter (MP-H-10); {@code null} only for a nameless part (no or an empty
     * Content-Disposition, with {@code allow_missing_disposition}: MP-H-06), which form layers skip (MP-F-05).
     */
    public String name() {
        return utf8(name);
    }

    /** The raw bytes of {@code name} (a copy), {@code null} for a nameless part. */
    public byte[] nameBytes() {
        return name == null ? null : name.clone();
    }

    /** The {@code filename} parameter, {@code null} for a field (MP-H-08). */
    public String filename() {
        return utf8(filename);
    }

    /** The raw bytes of {@code filename} (a copy), or {@code null}. */
    public byte[] filenameBytes() {
        return filename == null ? null : filename.clone();
    }

    /** {@code true} when the part has a {@code filename}: a File entry (MP-F-02). */
    public boolean isFile() {
        return filename != null;
    }

    /** The raw, undecoded {@code name*} (RFC 8187) shown as UTF-8, or {@code null} (MP-H-09). */
    public String nameStar() {
        return utf8(nameStar);
    }

    /** The raw, undecoded {@code filename*} shown as UTF-8, or {@code null} (MP-H-09). */
    public String filenameStar() {
        return utf8(filenameStar);
    }

    /** The value of the last Content-Type header, as is, or {@code null} (MP-H-11). */
    public String contentType() {
        return ct < 0 ? null : dev.formwire.Utf8.decode(block, spans[ct * 4 + 2], spans[ct * 4 + 3] - spans[ct * 4 + 2]);
    }

    /**
     * The {@code type} a browser's {@code formData()} gives this part as a File (MP-F-03): {@code text/plain} without a
     * Content-Type, else Fetch's "extract a MIME type" over every Content-Type value, serialized, or {@code ""}.
     */
    public String mimeType() {
        if (ct < 0) {
            return "text/plain";
        }
        List<byte[]> values = new ArrayList<>();
        for (Header h : headers()) {
            if (h.name().equals("content-type")) {
                values.add(h.rawValue());
            }
        }
        MimeType m = MimeType.extract(values);
        return m == null ? "" : m.toString();
    }

    /** Every header, in order. */
    public List<Header> headers() {
        if (headers == null) {
            int n = spans.length / 4;
            List<Header> list = new ArrayList<>(n);
            for (int h = 0; h < n; h++) {
                int a = spans[h * 4];
                String hn = h == cd ? "content-disposition" : h == ct ? "content-type"
                        : dev.formwire.Utf8.decode(block, a, spans[h * 4 + 1] - a); // MP-H-11
                list.add(new Header(hn, value(h)));
            }
            headers = Collections.unmodifiableList(list);
        }
        return headers;
    }

    /** The absolute offset of the first body byte. */
    public long bodyOffset() {
        return bodyOffset;
    }

    @Override
    public String toString() {
        return "Part[name=" + name() + ", filename=" + filename() + ", contentType=" + contentType() + "]";
    }
}
