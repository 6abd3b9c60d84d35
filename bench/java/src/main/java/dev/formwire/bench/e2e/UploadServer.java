package dev.formwire.bench.e2e;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;

import com.sun.management.OperatingSystemMXBean;
import dev.formwire.multipart.MultipartOptions;
import dev.formwire.spring.webflux.FormwireCodecs;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FilePartEvent;
import org.springframework.http.codec.multipart.FormPartEvent;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.codec.multipart.PartEvent;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The seed's WebFlux application (spring-framework PR #35366) on Reactor Netty at 127.0.0.1: {@code /file-part} takes
 * the {@code file} part as a {@link FilePart} and does nothing with it, {@code /part-event} streams {@link PartEvent}s
 * and releases each buffer (it answers the byte count so the client can check it), {@code /transfer?to=PATH} saves the
 * file with {@link FilePart#transferTo}, {@code /drain} reads the body with no multipart reader (the floor: what
 * the transport alone costs), {@code /drain-file} writes the body to a temporary file with no multipart reader, then
 * removes it (the floor of {@code /file-part}, whose readers all spill the 200 MiB file to disk). {@code /stats} reports this process's CPU time and heap.
 *
 * <p>Usage: {@code UploadServer spring|formwire}. The only difference between the two is the codec configuration:
 * {@code spring} keeps WebFlux's default multipart reader, {@code formwire} calls {@link FormwireCodecs#install}.
 * Prints {@code port N} once listening; stops when stdin closes.
 */
public final class UploadServer {
    private UploadServer() {}

    public static void main(String[] args) throws Exception {
        boolean formwire = args[0].equals("formwire");
        // A large upload needs the file limit raised (10 GiB by default) like any server with its own upload policy.
        MultipartOptions options = new MultipartOptions().maxFileBytes(64L << 30).maxTotalBytes(64L << 30);
        Consumer<ServerCodecConfigurer> codecs = c -> {
            if (formwire) {
                FormwireCodecs.install(c, options);
            }
        };
        HeapSampler heap = new HeapSampler();
        RouterFunction<ServerResponse> routes = RouterFunctions
                .route(POST("/file-part"), req -> req.multipartData()
                        .flatMap(m -> ServerResponse.ok().bodyValue(((FilePart) m.getFirst("file")).filename())))
                .andRoute(POST("/part-event"), req -> {
                    AtomicLong n = new AtomicLong();
                    return req.bodyToFlux(PartEvent.class).doOnNext(ev -> {
                        if (ev instanceof FormPartEvent) {
                            throw new IllegalStateException("unexpected event " + ev);
                        }
                        n.addAndGet(((FilePartEvent) ev).content().readableByteCount());
                        DataBufferUtils.release(ev.content());
                    }).then(Mono.defer(() -> ServerResponse.ok().bodyValue(Long.toString(n.get()))));
                })
                // The floor: the same request with no multipart reader at all, the body's buffers counted and released.
                .andRoute(POST("/drain"), req -> req.bodyToFlux(DataBuffer.class)
                        .reduce(0L, (n, d) -> {
                            long k = n + d.readableByteCount();
                            DataBufferUtils.release(d);
                            return k;
                        })
                        .flatMap(n -> ServerResponse.ok().bodyValue(Long.toString(n))))
                // The /file-part floor: the body's buffers written to a temp file as they arrive (one blocking
                // FileChannel write per buffer, no copy, no scheduler hop), then the file removed.
                .andRoute(POST("/drain-file"), req -> Mono.using(
                        () -> {
                            Path f = Files.createTempFile("formwire-e2e-floor-", ".bin");
                            return new Object[] {f, FileChannel.open(f, StandardOpenOption.WRITE)};
                        },
                        st -> req.bodyToFlux(DataBuffer.class).reduce(0L, (n, d) -> {
                            long k = n + d.readableByteCount();
                            try (DataBuffer.ByteBufferIterator it = d.readableByteBuffers()) {
                                while (it.hasNext()) {
                                    ByteBuffer b = it.next();
                                    while (b.hasRemaining()) {
                                        ((FileChannel) st[1]).write(b);
                                    }
                                }
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            } finally {
                                DataBufferUtils.release(d);
                            }
                            return k;
                        }),
                        st -> {
                            try {
                                ((FileChannel) st[1]).close();
                                Files.delete((Path) st[0]);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        })
                        .flatMap(n -> ServerResponse.ok().bodyValue(Long.toString(n))))
                .andRoute(POST("/transfer"), req -> {
                    Path to = Path.of(req.queryParam("to").orElseThrow());
                    return req.multipartData().flatMap(m -> {
                        Part p = m.getFirst("file");
                        return ((FilePart) p).transferTo(to).then(p.delete());
                    }).then(ServerResponse.ok().bodyValue("saved"));
                })
                .andRoute(GET("/stats"), req -> {
                    if (req.queryParam("reset").isPresent()) {
                        heap.reset();
                    }
                    return ServerResponse.ok().bodyValue(heap.report());
                });
        HandlerStrategies strategies = HandlerStrategies.builder().codecs(codecs::accept).build();
        ServerCodecConfigurer exchangeCodecs = ServerCodecConfigurer.create();
        codecs.accept(exchangeCodecs);
        // Both places WebFlux reads bodies from: the handler strategies (bodyToFlux) and the exchange's codec
        // configurer (multipartData()).
        HttpHandler handler = WebHttpHandlerBuilder.webHandler(RouterFunctions.toWebHandler(routes, strategies))
                .exceptionHandlers(h -> h.addAll(strategies.exceptionHandlers()))
                .codecConfigurer(exchangeCodecs)
                .build();
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
        heap.start();
        System.out.println("port " + server.port());
        System.out.flush();
        while (System.in.read() >= 0) {
            // runs until the harness closes stdin
        }
        server.disposeNow();
    }

    /** Heap in use, sampled every 2 ms (the peak between two resets), and the process CPU time. */
    static final class HeapSampler extends Thread {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private volatile long peak;
        private long afterGc;

        HeapSampler() {
            super("heap-sampler");
            setDaemon(true);
        }

        @Override
        public void run() {
            while (true) {
                long used = memory.getHeapMemoryUsage().getUsed();
                if (used > peak) {
                    peak = used;
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        synchronized void reset() {
            System.gc();
            afterGc = memory.getHeapMemoryUsage().getUsed();
            peak = afterGc;
        }

        /** {@code cpu_ns heap_peak heap_after_gc heap_max}, taken before this call's own GC. */
        synchronized String report() {
            long p = peak;
            long cpu = os.getProcessCpuTime();
            System.gc();
            long after = memory.getHeapMemoryUsage().getUsed();
            return cpu + " " + p + " " + after + " " + memory.getHeapMemoryUsage().getMax() + " " + afterGc;
        }
    }
}
