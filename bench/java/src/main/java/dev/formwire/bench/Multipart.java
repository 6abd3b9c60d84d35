package dev.formwire.bench;

import dev.formwire.Utf8;
import dev.formwire.multipart.MultipartOptions;
import dev.formwire.multipart.MultipartParser;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpPostMultipartRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.fileupload2.core.MultipartInput;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.io.Content;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ReactiveHttpInputMessage;
import org.springframework.http.codec.multipart.DefaultPartHttpMessageReader;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import reactor.core.publisher.Flux;

/**
 * One multipart parse per implementation, each returning {parts, body bytes} so a run can be checked against the
 * manifest. Every implementation gets the body in 64 KiB chunks (or a stream over it) and counts body bytes; W2
 * implementations also decode each field value to a String, which a form API has to do.
 */
final class Multipart {
    private Multipart() {}

    /** formwire's sans-IO parser: counts body bytes (views: nothing is copied). */
    static long[] formwire(byte[] body, boolean strings) {
        MultipartParser p = MultipartParser.forContentType(Inputs.CONTENT_TYPE,
                new MultipartOptions().maxParts(MultipartOptions.UNLIMITED).maxFields(MultipartOptions.UNLIMITED)
                        .maxFiles(MultipartOptions.UNLIMITED).maxTotalFieldBytes(MultipartOptions.UNLIMITED));
        long parts = 0;
        long bytes = 0;
        byte[] field = new byte[256];
        int flen = 0;
        boolean isField = false;
        long chars = 0;
        for (int off = 0; ; off += Inputs.CHUNK) {
            boolean last = off >= body.length;
            if (last) {
                p.finish();
            } else {
                p.feed(ByteBuffer.wrap(body, off, Math.min(Inputs.CHUNK, body.length - off)));
            }
            for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) {
                switch (e) {
                    case PART_START:
                        parts++;
                        isField = strings && !p.part().isFile();
                        flen = 0;
                        break;
                    case DATA: {
                        int n = p.dataLength();
                        bytes += n;
                        if (isField) {
                            if (flen + n > field.length) {
                                field = java.util.Arrays.copyOf(field, Math.max(field.length * 2, flen + n));
                            }
                            p.copyData(0, field, flen, n);
                            flen += n;
                        }
                        break;
                    }
                    case PART_END:
                        if (isField) {
                            chars += Utf8.decode(field, 0, flen).length();
                        }
                        break;
                    default:
                        break;
                }
            }
            if (last) {
                break;
            }
        }
        return new long[] {parts, bytes, chars};
    }

    /** A counting sink. */
    static final class Count extends OutputStream {
        long n;

        @Override
        public void write(int b) {
            n++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            n += len;
        }
    }

    /** Commons FileUpload 2 MultipartInput (its streaming core), default buffer. */
    static long[] commons(byte[] body, boolean strings) throws IOException {
        MultipartInput in = MultipartInput.builder().setInputStream(new ByteArrayInputStream(body))
                .setBoundary(Inputs.BOUNDARY.getBytes(StandardCharsets.ISO_8859_1)).get();
        long parts = 0;
        long bytes = 0;
        long chars = 0;
        boolean next = in.skipPreamble();
        while (next) {
            String headers = in.readHeaders();
            parts++;
            if (strings && !headers.contains("filename=")) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                bytes += in.readBodyData(b);
                chars += b.toString(StandardCharsets.UTF_8).length();
            } else {
                Count c = new Count();
                in.readBodyData(c);
                bytes += c.n;
            }
            next = in.readBoundary();
        }
        return new long[] {parts, bytes, chars};
    }

    /** Netty HttpPostMultipartRequestDecoder, parts in memory (no disk). */
    static long[] netty(byte[] body) {
        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        req.headers().set(HttpHeaderNames.CONTENT_TYPE, Inputs.CONTENT_TYPE);
        HttpPostMultipartRequestDecoder d = new HttpPostMultipartRequestDecoder(new DefaultHttpDataFactory(false), req);
        long parts = 0;
        long bytes = 0;
        try {
            for (int off = 0; off < body.length; off += Inputs.CHUNK) {
                int n = Math.min(Inputs.CHUNK, body.length - off);
                boolean last = off + n >= body.length;
                HttpContent c = last ? new DefaultLastHttpContent(Unpooled.wrappedBuffer(body, off, n))
                        : new DefaultHttpContent(Unpooled.wrappedBuffer(body, off, n));
                d.offer(c);
                c.release();
                while (d.hasNext()) {
                    InterfaceHttpData x = d.next();
                    parts++;
                    if (x instanceof FileUpload) {
                        bytes += ((FileUpload) x).length();
                    } else {
                        bytes += ((io.netty.handler.codec.http.multipart.Attribute) x).length();
                    }
                    d.removeHttpDataFromClean(x);
                    x.release();
                }
            }
        } finally {
            d.destroy();
        }
        return new long[] {parts, bytes, 0};
    }

    /** Jetty 12 MultiPart.Parser (sans-IO), chunks counted in its listener. */
    static long[] jetty(byte[] body) {
        long[] r = new long[3];
        MultiPart.Parser p = new MultiPart.Parser(Inputs.BOUNDARY, new MultiPart.Parser.Listener() {
            @Override
            public void onPartBegin() {
                r[0]++;
            }

            @Override
            public void onPartContent(Content.Chunk chunk) {
                // Not released: these chunks are unpooled, and releasing them here made 12.0.15 report 2,293,760
                // fewer body bytes of W1 than the body holds.
                r[1] += chunk.remaining();
            }

            @Override
            public void onFailure(Throwable t) {
                throw new IllegalStateException(t);
            }
        });
        p.setMaxParts(-1);
        for (int off = 0; off < body.length; off += Inputs.CHUNK) {
            int n = Math.min(Inputs.CHUNK, body.length - off);
            p.parse(Content.Chunk.from(ByteBuffer.wrap(body, off, n), off + n >= body.length));
        }
        return r;
    }

    /** Spring's DefaultPartHttpMessageReader over a Flux of 64 KiB buffers, field values collected. */
    static long[] spring(byte[] body) {
        List<DataBuffer> chunks = new ArrayList<>();
        for (int off = 0; off < body.length; off += Inputs.CHUNK) {
            int n = Math.min(Inputs.CHUNK, body.length - off);
            chunks.add(DefaultDataBufferFactory.sharedInstance.wrap(ByteBuffer.wrap(body, off, n)));
        }
        HttpHeaders h = new HttpHeaders();
        h.set(HttpHeaders.CONTENT_TYPE, Inputs.CONTENT_TYPE);
        ReactiveHttpInputMessage msg = new ReactiveHttpInputMessage() {
            @Override
            public HttpHeaders getHeaders() {
                return h;
            }

            @Override
            public Flux<DataBuffer> getBody() {
                return Flux.fromIterable(chunks);
            }
        };
        DefaultPartHttpMessageReader reader = new DefaultPartHttpMessageReader();
        List<Part> parts = reader.read(ResolvableType.forClass(Part.class), msg, Map.of()).collectList().block();
        long bytes = 0;
        long chars = 0;
        for (Part p : parts) {
            String v = ((FormFieldPart) p).value();
            bytes += v.getBytes(StandardCharsets.UTF_8).length;
            chars += v.length();
        }
        return new long[] {parts.size(), bytes, chars};
    }

    /** The floor: every byte of the body copied once, in 64 KiB chunks, into a cache-resident buffer. */
    static long[] arraycopy(byte[] body, byte[] scratch) {
        long bytes = 0;
        for (int off = 0; off < body.length; off += Inputs.CHUNK) {
            int n = Math.min(Inputs.CHUNK, body.length - off);
            System.arraycopy(body, off, scratch, 0, n);
            bytes += scratch[n - 1] == 0 ? n : n; // read the copy so it cannot be dropped
        }
        return new long[] {0, bytes, 0};
    }
}
