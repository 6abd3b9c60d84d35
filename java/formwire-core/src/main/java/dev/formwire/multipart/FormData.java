package dev.formwire.multipart;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Limits;
import dev.formwire.Utf8;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A whole form, as a browser's {@code formData()} gives it (MP-F-01..05): string entries decoded, files kept in memory
 * up to {@link Options#memoryThreshold} bytes and spilled to owner-only temporary files beyond. {@link #close()}
 * deletes every temporary file; so does a failed {@link #read} before it throws.
 *
 * <p>Memory is bounded by the parser's limits ({@code max_total_field_bytes} for all fields together) plus the
 * threshold per file; disk by {@link Options#maxDiskBytes} ({@code max_disk_bytes}, MP-L-06) and the parser's
 * {@code max_files} (MP-L-05). Exceeding any of them is a {@link dev.formwire.FormwireException} with its code (HTTP 413).
 */
public final class FormData implements Closeable {
    /** Spill settings (the parsing limits are the {@link MultipartOptions}). */
    public static final class Options {
        long memoryThreshold = 64 * 1024;
        long maxDiskBytes = Limits.Multipart.MAX_DISK_BYTES;
        Path tempDir;

        /** The defaults. */
        public Options() {}

        /** Files up to this many bytes stay in memory (default 64 KiB). */
        public Options memoryThreshold(long n) { memoryThreshold = n; return this; }
        /**
         * Most bytes written to temporary files for one form ({@code max_disk_bytes}, MP-L-06; default 10 GiB,
         * {@link MultipartOptions#UNLIMITED} turns it off): {@code MP_LIMIT_DISK_BYTES} beyond. The number of file
         * parts is the parser's {@code max_files} ({@link MultipartOptions#maxFiles}).
         */
        public Options maxDiskBytes(long n) {
            if (n < 0) {
                throw new IllegalArgumentException("a limit is >= 0 (UNLIMITED turns it off)");
            }
            maxDiskBytes = n;
            return this;
        }
        /** Where temporary files go (default: {@code java.io.tmpdir}). */
        public Options tempDir(Path dir) { tempDir = dir; return this; }
    }

    /** One entry: a string, or a file (in memory or in a temporary file). */
    public static final class Entry {
        private final String name;
        private final String value;
        private final String filename;
        private final String type;
        private final byte[] bytes;
        private final Path path;
        private final long size;

        Entry(String name, String value, String filename, String type, byte[] bytes, Path path, long size) {
            this.name = name;
            this.value = value;
            this.filename = filename;
            this.type = type;
            this.bytes = bytes;
            this.path = path;
            this.size = size;
        }

        /** The entry name. */
        public String name() { return name; }
        /** {@code true} for a File entry. */
        public boolean isFile() { return filename != null; }
        /** A string entry's value (MP-F-01), {@code null} for a file. */
        public String value() { return value; }
        /** A file's name (untrusted: never use it as a path), {@code null} for a string. */
        public String filename() { return filename; }
        /** A file's type (MP-F-03). */
        public String type() { return type; }
        /** A file's size in bytes. */
        public long size() { return size; }
        /** The temporary file holding a spilled file, or {@code null} when in memory. */
        public Path path() { return path; }

        /** A file's bytes, from memory or its temporary file. */
        public InputStream open() throws IOException {
            if (path != null) {
                return Files.newInputStream(path);
            }
            return new ByteArrayInputStream(bytes == null ? Utf8.encode(value) : bytes);
        }
    }

    private final List<Entry> entries;
    private final List<Path> temps;

    private FormData(List<Entry> entries, List<Path> temps) {
        this.entries = Collections.unmodifiableList(entries);
        this.temps = temps;
    }

    /** Every entry in body order, duplicates kept (MP-F-04). */
    public List<Entry> entries() {
        return entries;
    }

    /** The first entry with this name, or {@code null}. */
    public Entry get(String name) {
        for (Entry e : entries) {
            if (e.name.equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** Reads a whole form from a stream. */
    public static FormData read(InputStream in, String contentType, MultipartOptions limits, Options spill)
            throws IOException {
        List<Entry> entries = new ArrayList<>();
        List<Path> temps = new ArrayList<>();
        long disk = 0;
        boolean ok = false;
        try (MultipartReader r = new MultipartReader(in, contentType, limits)) {
            byte[] buf = new byte[64 * 1024];
            for (MultipartReader.PartInput p; (p = r.nextPart()) != null; ) {
                Part part = p.part();
                if (part.name() == null) {
                    // MP-F-05: a nameless part (allow_missing_disposition) is no entry; nextPart() reads and drops
                    // its body, and the parser has counted it for every limit.
                    continue;
                }
                if (!part.isFile()) {
                    entries.add(new Entry(part.name(), p.readString(), null, null, null, null, 0));
                    continue;
                }
                ByteArrayOutputStream mem = new ByteArrayOutputStream();
                OutputStream file = null;
                Path path = null;
                long size = 0;
                long diskBefore = disk; // MP-L-06: a file moved to disk counts from its first byte
                try {
                    for (int n; (n = p.read(buf)) > 0; ) {
                        size += n;
                        if (file == null && size > spill.memoryThreshold) {
                            path = createTemp(spill.tempDir);
                            temps.add(path);
                            file = Files.newOutputStream(path);
                            mem.writeTo(file);
                            disk += mem.size();
                            mem = null;
                        }
                        if (file != null) {
                            disk += n;
                            if (disk > spill.maxDiskBytes) { // MP-L-06: at the byte that makes it max_disk_bytes + 1
                                throw new FormwireException(ErrorCode.MP_LIMIT_DISK_BYTES,
                                        part.bodyOffset() + (spill.maxDiskBytes - diskBefore),
                                        "temporary files longer than max_disk_bytes");
                            }
                            file.write(buf, 0, n);
                        } else {
                            mem.write(buf, 0, n);
                        }
                    }
                } finally {
                    if (file != null) {
                        file.close();
                    }
                }
                entries.add(new Entry(part.name(), null, part.filename(), part.mimeType(),
                        mem == null ? null : mem.toByteArray(), path, size));
            }
            ok = true;
        } finally {
            if (!ok) {
                deleteAll(temps);
            }
        }
        return new FormData(entries, temps);
    }

    private static Path createTemp(Path dir) throws IOException {
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        FileAttribute<?>[] attrs = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        Path p = dir == null ? Files.createTempFile("formwire-", ".part", attrs)
                : Files.createTempFile(dir, "formwire-", ".part", attrs);
        if (!posix) {
            // Owner-only where POSIX permissions are not available.
            p.toFile().setReadable(false, false);
            p.toFile().setReadable(true, true);
            p.toFile().setWritable(false, false);
            p.toFile().setWritable(true, true);
        }
        return p;
    }

    private static void deleteAll(List<Path> temps) {
        for (Path p : temps) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // best effort: the others are still deleted
            }
        }
    }

    /** Deletes every temporary file of this form. */
    @Override
    public void close() {
        deleteAll(temps);
    }
}
