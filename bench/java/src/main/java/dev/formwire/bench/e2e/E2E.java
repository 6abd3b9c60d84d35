package dev.formwire.bench.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * The seed's scenario end to end (spring-framework PR #35366): one upload through a WebFlux application on Reactor
 * Netty at 127.0.0.1, posted by the JDK's HttpClient, to two server processes that differ only in their codec
 * configuration (WebFlux's default multipart reader, formwire's reader). Each request's cost is the server process's
 * CPU time (OperatingSystemMXBean, read over /stats before and after) beside the client's wall time; heap is the peak
 * in use during the request (sampled every 2 ms) and what is left after a full GC.
 *
 * <pre>
 * E2E compare OUT.json MIB REPS WARMUP XMX   200 MiB file, two servers, alternating, medians of REPS
 * E2E huge OUT.json BYTES XMX DIR            one generated body streamed to the formwire server, transferTo DIR
 * </pre>
 */
public final class E2E {
    static final String BOUNDARY = "formwire-e2e-7b0c2f5e9a4d4c61";
    static final String HEAD = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; "
            + "filename=\"upload.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n";
    static final String TAIL = "\r\n--" + BOUNDARY + "--\r\n";
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private E2E() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("compare")) {
            compare(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    args[5]);
        } else if (args[0].equals("huge")) {
            huge(Path.of(args[1]), Long.parseLong(args[2]), args[3], Path.of(args[4]));
        } else {
            throw new IllegalArgumentException("usage: E2E compare|huge ...");
        }
    }

    /** The file's bytes: a random 1 MiB block, each copy stamped with its index (no boundary can occur by chance). */
    static final class Content extends InputStream {
        final byte[] block = new byte[1 << 20];
        final byte[] head = HEAD.getBytes(StandardCharsets.US_ASCII);
        final byte[] tail = TAIL.getBytes(StandardCharsets.US_ASCII);
        final long fileBytes;
        final CRC32 crc = new CRC32();
        long pos;

        Content(long fileBytes) {
            this.fileBytes = fileBytes;
            new SplittableRandom(35366).nextBytes(block);
        }

        long length() {
            return head.length + fileBytes + tail.length;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos < head.length) {
                int n = (int) Math.min(len, head.length - pos);
                System.arraycopy(head, (int) pos, b, off, n);
                pos += n;
                return n;
            }
            long f = pos - head.length;
            if (f < fileBytes) {
                int inBlock = (int) (f & (block.length - 1));
                if (inBlock == 0) {
                    long index = f >>> 20;
                    for (int i = 0; i < 8; i++) {
                        block[i] = (byte) (index >>> (8 * i));
                    }
                }
                int n = (int) Math.min(Math.min(len, block.length - inBlock), fileBytes - f);
                System.arraycopy(block, inBlock, b, off, n);
                crc.update(b, off, n);
                pos += n;
                return n;
            }
            long t = f - fileBytes;
            if (t >= tail.length) {
                return -1;
            }
            int n = (int) Math.min(len, tail.length - t);
            System.arraycopy(tail, (int) t, b, off, n);
            pos += n;
            return n;
        }
    }

    /** A server process ({@link UploadServer}) and its port. */
    static final class Server implements AutoCloseable {
        final String mode;
        final Process process;
        final int port;

        Server(String mode, String xmx) throws IOException {
            this(mode, mode, System.getProperty("java.class.path"), xmx);
        }

        /** {@code label} names the rows; {@code reader} is UploadServer's argument; {@code cp} its class path. */
        Server(String label, String reader, String cp, String xmx) throws IOException {
            this.mode = label;
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(java, "-Xmx" + xmx, "-cp", cp,
                    UploadServer.class.getName(), reader).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int p = -1;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("port ")) {
                    p = Integer.parseInt(line.substring(5).trim());
                    break;
                }
            }
            if (p < 0) {
                throw new IOException(mode + " server did not start");
            }
            port = p;
        }

        long[] stats(boolean reset) throws Exception {
            String body = CLIENT.send(HttpRequest.newBuilder(uri("/stats" + (reset ? "?reset=1" : ""))).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return Arrays.stream(body.trim().split(" ")).mapToLong(Long::parseLong).toArray();
        }

        URI uri(String path) {
            return URI.create("http://127.0.0.1:" + port + path);
        }

        /** One upload: {wall ns, server CPU ns, heap peak, heap after GC}; the answer must be {@code want}. */
        double[] upload(String path, HttpRequest.BodyPublisher body, String want) throws Exception {
            long[] before = stats(true);
            long t0 = System.nanoTime();
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri(path))
                    .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY).POST(body).build(),
                    HttpResponse.BodyHandlers.ofString());
            long wall = System.nanoTime() - t0;
            long[] after = stats(false);
            if (r.statusCode() != 200 || !r.body().equals(want)) {
                throw new IllegalStateException(mode + " " + path + ": " + r.statusCode() + " " + r.body());
            }
            return new double[] {wall, after[0] - before[0], after[1], after[2], after[3]};
        }

        @Override
        public void close() throws Exception {
            process.getOutputStream().close();
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroy();
            }
        }
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static void compare(Path out, int mib, int reps, int warmup, String xmx) throws Exception {
        long fileBytes = (long) mib << 20;
        Path body = Files.createTempFile("formwire-e2e-", ".body");
        try {
            try (InputStream in = new Content(fileBytes); OutputStream o = Files.newOutputStream(body)) {
                in.transferTo(o);
            }
            String[] paths = {"/file-part", "/part-event"};
            Map<String, List<double[]>> runs = new LinkedHashMap<>();
            // Optionally a third server: WebFlux's default reader of the seed's Spring generation (6.1), own class path.
            String oldCp = System.getProperty("formwire.e2e.spring61.cp");
            try (Server spring = new Server("spring", xmx); Server formwire = new Server("formwire", xmx);
                    Server old = oldCp == null ? null : new Server("spring-6.1.14", "spring", oldCp, xmx)) {
                Server[] servers = old == null ? new Server[] {spring, formwire} : new Server[] {spring, formwire, old};
                for (int rep = 0; rep < warmup + reps; rep++) {
                    for (String path : paths) {
                        for (int k = 0; k < servers.length; k++) {
                            Server s = servers[(k + rep) % servers.length]; // rotate which goes first
                            String want = path.equals("/file-part") ? "upload.bin" : Long.toString(fileBytes);
                            double[] m = s.upload(path, HttpRequest.BodyPublishers.ofFile(body), want);
                            System.out.printf(Locale.ROOT, "%s %-13s %-11s wall %8.1f ms  cpu %8.1f ms  heap peak %6.1f MiB%n",
                                    rep < warmup ? "warm" : "run ", s.mode, path, m[0] / 1e6, m[1] / 1e6, m[2] / 1048576.0);
                            if (rep >= warmup) {
                                runs.computeIfAbsent(s.mode + " " + path, x -> new ArrayList<>()).add(m);
                            }
                        }
                    }
                    // The floor rows: the same upload read by no multipart reader, on the formwire server's JVM:
                    // drained (the /part-event floor), and written to a temp file then removed (the /file-part floor).
                    for (String floor : new String[] {"/drain", "/drain-file"}) {
                        double[] m = formwire.upload(floor, HttpRequest.BodyPublishers.ofFile(body),
                                Long.toString(Files.size(body)));
                        System.out.printf(Locale.ROOT, "%s %-13s %-11s wall %8.1f ms  cpu %8.1f ms  heap peak %6.1f MiB%n",
                                rep < warmup ? "warm" : "run ", "none", floor, m[0] / 1e6, m[1] / 1e6, m[2] / 1048576.0);
                        if (rep >= warmup) {
                            runs.computeIfAbsent("none " + floor, x -> new ArrayList<>()).add(m);
                        }
                    }
                }
            }
            StringBuilder json = new StringBuilder();
            json.append("{\n  \"file_mib\": ").append(mib).append(",\n  \"reps\": ").append(reps)
                    .append(",\n  \"server_xmx\": \"").append(xmx).append("\",\n  \"rows\": [\n");
            List<String> rows = new ArrayList<>();
            for (String key : List.of("spring-6.1.14 /file-part", "spring /file-part", "formwire /file-part",
                    "spring-6.1.14 /part-event", "spring /part-event", "formwire /part-event", "none /drain",
                    "none /drain-file")) {
                if (!runs.containsKey(key)) {
                    continue;
                }
                {
                    String mode = key.split(" ")[0];
                    String path = key.split(" ")[1];
                    List<double[]> r = runs.get(key);
                    rows.add(String.format(Locale.ROOT, "    {\"endpoint\": \"%s\", \"reader\": \"%s\", \"wall_ms\": %.3f, "
                            + "\"cpu_ms\": %.3f, \"heap_peak_mib\": %.1f, \"heap_after_gc_mib\": %.1f, "
                            + "\"wall_runs_ms\": %s, \"cpu_runs_ms\": %s}", path, mode,
                            median(col(r, 0)) / 1e6, median(col(r, 1)) / 1e6, max(col(r, 2)) / 1048576.0,
                            max(col(r, 3)) / 1048576.0, list(col(r, 0)), list(col(r, 1))));
                }
            }
            json.append(String.join(",\n", rows)).append("\n  ]\n}\n");
            Files.writeString(out, json.toString());
            System.out.print(json);
        } finally {
            Files.deleteIfExists(body);
        }
    }

    static List<Double> col(List<double[]> rows, int i) {
        List<Double> c = new ArrayList<>();
        for (double[] r : rows) {
            c.add(r[i]);
        }
        return c;
    }

    static double max(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    static String list(List<Double> ns) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ns.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", ns.get(i) / 1e6));
        }
        return sb.append(']').toString();
    }

    static void huge(Path out, long fileBytes, String xmx, Path dir) throws Exception {
        Path dest = dir.resolve("formwire-huge-" + ProcessHandle.current().pid() + ".bin");
        try (Server s = new Server("formwire", xmx)) {
            Content content = new Content(fileBytes);
            // Streamed: the client generates the body as it sends it (Content-Length known, nothing held).
            HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.fromPublisher(
                    HttpRequest.BodyPublishers.ofInputStream(() -> content), content.length());
            double[] m = s.upload("/transfer?to=" + dest, body, "saved");
            long sent = content.crc.getValue();
            long size = Files.size(dest);
            CRC32 crc = new CRC32();
            byte[] buf = new byte[1 << 20];
            try (InputStream in = Files.newInputStream(dest)) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    crc.update(buf, 0, n);
                }
            }
            boolean ok = size == fileBytes && crc.getValue() == sent;
            String json = String.format(Locale.ROOT, "{\n  \"file_bytes\": %d, \"body_bytes\": %d, \"server_xmx\": \"%s\","
                    + "\n  \"wall_s\": %.3f, \"server_cpu_s\": %.3f, \"throughput_mb_s\": %.1f,"
                    + "\n  \"heap_peak_mib\": %.1f, \"heap_after_gc_mib\": %.1f, \"heap_max_mib\": %.1f,"
                    + "\n  \"saved_bytes\": %d, \"crc32_sent\": \"%08x\", \"crc32_saved\": \"%08x\", \"match\": %b\n}\n",
                    fileBytes, content.length(), xmx, m[0] / 1e9, m[1] / 1e9, content.length() / (m[0] / 1e9) / 1e6,
                    m[2] / 1048576.0, m[3] / 1048576.0, m[4] / 1048576.0, size, sent, crc.getValue(), ok);
            Files.writeString(out, json);
            System.out.print(json);
            if (!ok) {
                throw new IllegalStateException("saved file differs from the upload");
            }
        } finally {
            Files.deleteIfExists(dest);
        }
    }
}
