package dev.formwire.spring.webflux;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import dev.formwire.Utf8;
import dev.formwire.multipart.MultipartOptions;
import dev.formwire.multipart.MultipartParser;
import dev.formwire.multipart.Part;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.PartEvent;
import reactor.core.publisher.Flux;

/**
 * The one place that drives formwire's sans-IO parser from a {@code Flux<DataBuffer>}: one upstream buffer at a time
 * ({@code concatMap} with a prefetch of 1), so downstream demand is upstream demand (backpressure end to end).
 */
final class Events {
    private Events() {}

    static final DefaultDataBufferFactory FACTORY = DefaultDataBufferFactory.sharedInstance;

    /**
     * A formwire error as the type Spring's reader raises for the same case: too many parts a {@code DecodingException},
     * other limits a {@code DataBufferLimitException}, malformed input a {@code DecodingException}; each implements
     * {@link FormwireError} (code, offset, status) and has the {@link FormwireException} as cause.
     */
    static Throwable toSpring(Throwable t) {
        if (!(t instanceof FormwireException)) {
            return t;
        }
        FormwireException e = (FormwireException) t;
        if (e.code() == ErrorCode.MP_LIMIT_PARTS) {
            return new FormwirePartCountException(e);
        }
        if (e.isLimit()) {
            return new FormwireLimitException(e);
        }
        return new FormwireDecodingException(e);
    }

    static Flux<PartEvent> parse(Flux<DataBuffer> body, String contentType, MultipartOptions options) {
        return Flux.defer(() -> {
            State st = new State(MultipartParser.forContentType(contentType, options));
            return body.concatMap(buf -> st.emit(st.feed(buf)), 1)
                    .concatWith(Flux.defer(() -> st.emit(st.finish())));
        }).onErrorMap(Events::toSpring)
                // Events queued when the consumer cancels or an error arrives still hold buffers: release them.
                .doOnDiscard(FileEvent.class, e -> DataBufferUtils.release(e.content()));
    }

    /**
     * A part's name for Spring's {@code name()}, which is never null: a nameless part (no Content-Disposition,
     * allowMissingDisposition, MP-H-06) throws {@link IllegalStateException} "No name available", as Spring's
     * {@code Part.name()} and {@code PartEvent.name()} do for the same part.
     */
    static String named(String name) {
        if (name == null) {
            throw new IllegalStateException("No name available");
        }
        return name;
    }

    static HttpHeaders headers(Part p) {
        HttpHeaders h = new HttpHeaders();
        for (Part.Header x : p.headers()) {
            h.add(x.name(), x.value());
        }
        return HttpHeaders.readOnlyHttpHeaders(h);
    }

    /** The parser and the part being read, for one request. */
    private static final class State {
        final MultipartParser parser;
        Part part;
        HttpHeaders headers;
        ByteArrayOutputStream field;
        byte[] scratch = new byte[16 * 1024];
        DataBufferFactory factory = FACTORY;
        FormwireException failed;

        State(MultipartParser parser) {
            this.parser = parser;
        }

        List<PartEvent> feed(DataBuffer buf) {
            // The socket buffer is copied into one reused array (the parser reads arrays); file bytes then go out in
            // buffers of the request's own factory (pooled on Netty), released by the consumer as with Spring's
            // reader: no heap garbage per chunk, so the heap stays flat however large the upload.
            int n = buf.readableByteCount();
            if (scratch.length < n) {
                scratch = new byte[Math.max(n, 2 * scratch.length)];
            }
            factory = buf.factory();
            try {
                buf.read(scratch, 0, n);
            } finally {
                DataBufferUtils.release(buf);
            }
            parser.feed(ByteBuffer.wrap(scratch, 0, n));
            return drain();
        }

        List<PartEvent> finish() {
            parser.finish();
            return drain();
        }

        /** The events of one chunk, then the error that ended it (the events before an error are delivered). */
        Flux<PartEvent> emit(List<PartEvent> events) {
            Flux<PartEvent> f = Flux.fromIterable(events);
            return failed == null ? f : f.concatWith(Flux.error(failed));
        }

        List<PartEvent> drain() {
            List<PartEvent> out = new ArrayList<>();
            try {
                drain(out);
            } catch (FormwireException e) {
                failed = e;
            }
            return out;
        }

        void drain(List<PartEvent> out) {
            for (MultipartParser.Event e; (e = parser.next()) != MultipartParser.Event.NEED_INPUT; ) {
                switch (e) {
                    case PART_START:
                        part = parser.part();
                        headers = headers(part);
                        field = part.isFile() ? null : new ByteArrayOutputStream();
                        break;
                    case DATA:
                        if (field != null) {
                            ByteBuffer d = parser.data();
                            byte[] x = new byte[d.remaining()];
                            d.get(x);
                            field.writeBytes(x); // bounded by max_field_bytes and max_total_field_bytes
                        } else {
                            ByteBuffer d = parser.data();
                            DataBuffer copy = factory.allocateBuffer(d.remaining());
                            copy.write(d);
                            out.add(new FileEvent(part, headers, copy, false));
                        }
                        break;
                    case PART_END:
                        if (field != null) {
                            out.add(new FormEvent(part, headers, Utf8.decode(field.toByteArray())));
                            field = null;
                        } else {
                            out.add(new FileEvent(part, headers, FACTORY.allocateBuffer(0), true));
                        }
                        break;
                    default:
                        // END: nothing more to emit, but the epilogue (MP-P-05) is read on to NEED_INPUT, or the
                        // rest of this buffer would still be unread when the next one is fed.
                        break;
                }
            }
        }
    }

    /** A form field, whole (MP-F-01: UTF-8 with U+FFFD). */
    static final class FormEvent implements FormPartEvent {
        private final Part part;
        private final HttpHeaders headers;
        private final String value;

        FormEvent(Part part, HttpHeaders headers, String value) {
            this.part = part;
            this.headers = headers;
            this.value = value;
        }

        @Override
        public String name() {
            return named(part.name());
        }

        @Override
        public HttpHeaders headers() {
            return headers;
        }

        @Override
        public DataBuffer content() {
            return FACTORY.wrap(Utf8.encode(value));
        }

        @Override
        public boolean isLast() {
            return true;
        }

        @Override
        public String value() {
            return value;
        }

        Part part() {
            return part;
        }
    }

    /** A slice of a file part's body; the last event of a part has empty content and {@code isLast()}. */
    static final class FileEvent implements FilePartEvent {
        private final Part part;
        private final HttpHeaders headers;
        private final DataBuffer content;
        private final boolean last;

        FileEvent(Part part, HttpHeaders headers, DataBuffer content, boolean last) {
            this.part = part;
            this.headers = headers;
            this.content = content;
            this.last = last;
        }

        @Override
        public String name() {
            return part.name();
        }

        @Override
        public String filename() {
            return part.filename();
        }

        @Override
        public HttpHeaders headers() {
            return headers;
        }

        @Override
        public DataBuffer content() {
            return content;
        }

        @Override
        public boolean isLast() {
            return last;
        }

        Part part() {
            return part;
        }
    }
}
