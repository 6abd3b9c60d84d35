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

        /** The lowercased name (a token: ASCII). */
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
    private final List<Header> headers;
    private final Header contentType;
    private final long bodyOffset;

    Part(Disposition d, List<Header> headers, Header contentType, long bodyOffset) {
        this.name = d.name;
        this.filename = d.filename;
        this.nameStar = d.nameStar;
        this.filenameStar = d.filenameStar;
        this.headers = Collections.unmodifiableList(headers); // a fresh list per part, owned here
        this.contentType = contentType;
        this.bodyOffset = bodyOffset;
    }

    private static String utf8(byte[] b) {
        return b == null ? null : dev.formwire.Utf8.decode(b);
    }

    /** The {@code name} parameter (MP-H-10). */
    public String name() {
        return utf8(name);
    }

    /** The raw bytes of {@code name} (a copy). */
    public byte[] nameBytes() {
        return name.clone();
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
        return contentType == null ? null : contentType.value();
    }

    /**
     * The {@code type} a browser's {@code formData()} gives this part as a File (MP-F-03): {@code text/plain} without a
     * Content-Type, else Fetch's "extract a MIME type" over every Content-Type value, serialized, or {@code ""}.
     */
    public String mimeType() {
        if (contentType == null) {
            return "text/plain";
        }
        List<byte[]> values = new ArrayList<>();
        for (Header h : headers) {
            if (h.name().equals("content-type")) {
                values.add(h.rawValue());
            }
        }
        MimeType m = MimeType.extract(values);
        return m == null ? "" : m.toString();
    }

    /** Every header, in order. */
    public List<Header> headers() {
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
