package dev.formwire.spring.webflux;

import dev.formwire.multipart.MultipartOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.HttpMessageReader;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Reads a {@code multipart/form-data} body as Spring {@link Part}s, parsed by formwire: {@link FormFieldPart}s and
 * {@link FilePart}s whose content is kept in memory up to {@link #maxInMemorySize} bytes and beyond that in an
 * owner-only temporary file (written on the bounded-elastic scheduler). Each part is emitted once its body is
 * complete, so parts are independent of each other (as {@code ServerRequest.multipartData()} needs).
 * {@link Part#delete()} removes a part's file; an error or a cancel removes every file of the request.
 *
 * <p>Install it as the default multipart reader (configuration only, handlers unchanged):
 * {@code configurer.defaultCodecs().multipartReader(new MultipartHttpMessageReader(new FormwirePartHttpMessageReader()))},
 * or with {@link FormwireCodecs#install}.
 */
public final class FormwirePartHttpMessageReader implements HttpMessageReader<Part> {
    private final MultipartOptions options;
    private int maxInMemorySize = 256 * 1024;
    private Path tempDir;

    /**
     * A drop-in for Spring's {@code DefaultPartHttpMessageReader}: the default limits with Spring's leniencies
     * ({@link FormwireCodecs#springCompatible}).
     */
    public FormwirePartHttpMessageReader() {
        this(FormwireCodecs.springCompatible(new MultipartOptions()));
    }

    /** With the given limits and lenient options, as given ({@code new MultipartOptions()}: the strict profile). */
    public FormwirePartHttpMessageReader(MultipartOptions options) {
        this.options = options.clone();
    }

    /** File parts up to this many bytes stay in memory (default 256 KiB, as Spring's reader). */
    public FormwirePartHttpMessageReader maxInMemorySize(int bytes) {
        this.maxInMemorySize = bytes;
        return this;
    }

    /** The directory of temporary files (default {@code java.io.tmpdir}). */
    public FormwirePartHttpMessageReader tempDir(Path dir) {
        this.tempDir = dir;
        return this;
    }

    @Override
    public List<MediaType> getReadableMediaTypes() {
        return List.of(MediaType.MULTIPART_FORM_DATA);
    }

    @Override
    public boolean canRead(ResolvableType elementType, MediaType mediaType) {
        return Part.class.equals(elementType.toClass())
                && (mediaType == null || MediaType.MULTIPART_FORM_DATA.isCompatibleWith(mediaType));
    }

    @Override
    public Flux<Part> read(ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Flux.defer(() -> {
            Collector c = new Collector();
            return Events.parse(message.getBody(), message.getHeaders().getFirst(HttpHeaders.CONTENT_TYPE), options)
                    .publishOn(Schedulers.boundedElastic(), 16) // file writes block; 16 events ahead at most
                    .<Part>handle((ev, sink) -> {
                        try {
                            Part p = c.accept(ev);
                            if (p != null) {
                                sink.next(p);
                            }
                        } catch (IOException e) {
                            sink.error(e);
                        }
                    })
                    .doOnError(e -> c.abort())
                    .doOnCancel(c::abort)
                    .doOnDiscard(Events.FileEvent.class, e -> DataBufferUtils.release(e.content()));
        });
    }

    @Override
    public Mono<Part> readMono(ResolvableType elementType, ReactiveHttpInputMessage message, Map<String, Object> hints) {
        return Mono.error(new UnsupportedOperationException("a multipart body holds many parts: use read()"));
    }

    /** Turns the events of one request into parts. */
    private final class Collector {
        final List<Path> temps = new ArrayList<>();
        List<byte[]> memory = new ArrayList<>();
        long memoryBytes;
        Path path;
        FileChannel file;
        long size;

        Part accept(PartEvent ev) throws IOException {
            if (ev instanceof Events.FormEvent) {
                Events.FormEvent f = (Events.FormEvent) ev;
                return new FieldPart(f.part().name(), f.headers(), f.value()); // null for a nameless part
            }
            Events.FileEvent f = (Events.FileEvent) ev;
            DataBuffer d = f.content();
            try {
                int n = d.readableByteCount();
                if (n > 0) {
                    size += n;
                    if (file == null && memoryBytes + n > maxInMemorySize) {
                        path = createTemp();
                        temps.add(path);
                        file = FileChannel.open(path, StandardOpenOption.WRITE);
                        for (byte[] m : memory) {
                            writeFully(ByteBuffer.wrap(m));
                        }
                        memory = null;
                    }
                    if (file != null) {
                        // Straight from the event's buffer to the file: no copy, no allocation per chunk.
                        try (DataBuffer.ByteBufferIterator it = d.readableByteBuffers()) {
                            while (it.hasNext()) {
                                writeFully(it.next());
                            }
                        }
                    } else {
                        byte[] b = new byte[n];
                        d.read(b);
                        memory.add(b);
                        memoryBytes += n;
                    }
                }
            } finally {
                DataBufferUtils.release(d);
            }
            if (!f.isLast()) {
                return null;
            }
            if (file != null) {
                file.close();
            }
            Part p = new StoredFilePart(f.name(), f.filename(), f.headers(), memory, path, size);
            memory = new ArrayList<>();
            memoryBytes = 0;
            path = null;
            file = null;
            size = 0;
            return p;
        }

        void writeFully(ByteBuffer b) throws IOException {
            while (b.hasRemaining()) {
                file.write(b);
            }
        }

        void abort() {
            try {
                if (file != null) {
                    file.close();
                }
            } catch (IOException ignored) {
                // the file is deleted next
            }
            for (Path p : temps) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: the others are still deleted
                }
            }
        }

        Path createTemp() throws IOException {
            boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
            FileAttribute<?>[] attrs = posix
                    ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                    : new FileAttribute<?>[0];
            return tempDir == null ? Files.createTempFile("formwire-", ".part", attrs)
                    : Files.createTempFile(tempDir, "formwire-", ".part", attrs);
        }
    }

    private static final class FieldPart implements FormFieldPart {
        private final String name;
        private final HttpHeaders headers;
        private final String value;

        FieldPart(String name, HttpHeaders headers, String value) {
            this.name = name;
            this.headers = headers;
            this.value = value;
        }

        /** The name; a nameless part (allowMissingDisposition) throws as Spring's parts do. */
        @Override
        public String name() {
            return Events.named(name);
        }

        @Override
        public HttpHeaders headers() {
            return headers;
        }

        @Override
        public Flux<DataBuffer> content() {
            return Flux.defer(() -> Flux.just(Events.FACTORY.wrap(dev.formwire.Utf8.encode(value))));
        }

        @Override
        public String value() {
            return value;
        }

        @Override
        public String toString() {
            return name == null ? "FormFieldPart" : "FormFieldPart{" + name + "}";
        }
    }

    private static final class StoredFilePart implements FilePart {
        private final String name;
        private final String filename;
        private final HttpHeaders headers;
        private final List<byte[]> memory;
        private final Path path;
        private final long size;

        StoredFilePart(String name, String filename, HttpHeaders headers, List<byte[]> memory, Path path, long size) {
            this.name = name;
            this.filename = filename;
            this.headers = headers;
            this.memory = memory;
            this.path = path;
            this.size = size;
        }

        @Override
        public String name() {
            return name;
        }

        /** The filename as sent (MP-H-10): untrusted, never use it as a path. */
        @Override
        public String filename() {
            return filename;
        }

        @Override
        public HttpHeaders headers() {
            return headers;
        }

        @Override
        public Flux<DataBuffer> content() {
            if (path != null) {
                return DataBufferUtils.read(path, Events.FACTORY, 64 * 1024);
            }
            return Flux.defer(() -> Flux.fromIterable(memory).map(Events.FACTORY::wrap));
        }

        @Override
        public Mono<Void> transferTo(Path dest) {
            return Mono.<Void>fromRunnable(() -> {
                try {
                    if (path != null) {
                        Files.copy(path, dest, StandardCopyOption.REPLACE_EXISTING);
                    } else {
                        try (OutputStream out = Files.newOutputStream(dest)) {
                            for (byte[] m : memory) {
                                out.write(m);
                            }
                        }
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).subscribeOn(Schedulers.boundedElastic());
        }

        @Override
        public Mono<Void> delete() {
            return Mono.<Void>fromRunnable(() -> {
                try {
                    if (path != null) {
                        Files.deleteIfExists(path);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).subscribeOn(Schedulers.boundedElastic());
        }

        /** The body size in bytes. */
        long size() {
            return size;
        }

        @Override
        public String toString() {
            return "FilePart{" + name + ", " + filename + ", " + size + " bytes}";
        }
    }
}
