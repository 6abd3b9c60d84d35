package dev.formwire.multipart;

import static dev.formwire.multipart.Bodies.ascii;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Flow;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncoderAndFormDataTest {
    @Test
    void whatwgLayoutAndEscaping() {
        MultipartEncoder e = MultipartEncoder.withBoundary("B")
                .text("a\nb\"", "x\ry\r\nz")
                .file("f", "q\n\"r.txt", "text/plain", ascii("hi"))
                .blob("b", "", new byte[] {0, 1});
        String want = "--B\r\nContent-Disposition: form-data; name=\"a%0D%0Ab%22\"\r\n\r\nx\r\ny\r\nz\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"q%0A%22r.txt\"\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\"b\"; filename=\"blob\"\r\nContent-Type: application/octet-stream\r\n\r\n\u0000\u0001\r\n"
                + "--B--\r\n";
        byte[] got = e.toByteArray();
        assertEquals(want, new String(got, StandardCharsets.ISO_8859_1));
        assertEquals(got.length, e.contentLength());
        assertEquals("multipart/form-data; boundary=B", e.contentType());
        assertEquals("multipart/form-data; boundary=\"a/b=c\"", MultipartEncoder.withBoundary("a/b=c").contentType());
    }

    @Test
    void loneSurrogatesBecomeReplacementCharacters() {
        byte[] got = MultipartEncoder.withBoundary("B").text("a\uD800", "\uDC00b").toByteArray();
        String s = new String(got, StandardCharsets.UTF_8);
        assertTrue(s.contains("name=\"a\uFFFD\""), s);
        assertTrue(s.contains("\r\n\r\n\uFFFDb\r\n"), s);
    }

    @Test
    void encoderErrors() {
        for (String bad : new String[] {"", "a ", "x".repeat(71), "a\"b", "é"}) {
            FormwireException e = assertThrows(FormwireException.class, () -> MultipartEncoder.withBoundary(bad));
            assertEquals(ErrorCode.MP_ENCODE_BOUNDARY, e.code());
            assertEquals(0, e.offset());
        }
        MultipartEncoder enc = MultipartEncoder.withBoundary("B").text("a", "b");
        FormwireException e = assertThrows(FormwireException.class, () -> enc.file("f", "x", "text/plain\r\nX: y", new byte[0]));
        assertEquals(ErrorCode.MP_ENCODE_HEADER, e.code());
        assertEquals(1, e.offset());
    }

    /** MP-S-09: 27-70 characters of [0-9A-Za-z-], fresh each time, each base-62 character equally likely. */
    @Test
    void randomBoundariesAreWellFormedAndUniform() {
        SecureRandom rnd = new SecureRandom();
        int[] counts = new int[128];
        java.util.Set<String> seen = new java.util.HashSet<>();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            String b = MultipartEncoder.randomBoundary(rnd);
            assertTrue(b.matches("^[0-9A-Za-z-]{27,70}$"), b);
            assertTrue(seen.add(b));
            for (char c : b.substring(13).toCharArray()) {
                counts[c]++;
            }
        }
        // Chi-square over the 62 characters (61 degrees of freedom): 99.99th percentile is about 112. A plain
        // modulo (no rejection) gives the first 8 characters 5/256 against 4/256 and fails this.
        double expected = n * 32.0 / 62;
        double chi = 0;
        String alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        for (char c : alnum.toCharArray()) {
            chi += Math.pow(counts[c] - expected, 2) / expected;
        }
        assertTrue(chi < 112, "chi-square " + chi);
        assertTrue(new MultipartEncoder().boundary().startsWith("----formwire-"));
    }

    @Test
    void roundTripThroughTheParserAndStreamedFiles(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("f.bin");
        byte[] big = new byte[300_000];
        new java.util.Random(1).nextBytes(big);
        Files.write(f, big);
        MultipartEncoder e = new MultipartEncoder().text("t", "v").file("f", "f.bin", "application/x", f)
                .file("s", "s.txt", "text/plain", 3, () -> new ByteArrayInputStream(ascii("abc")));
        byte[] body = e.toByteArray();
        assertEquals(e.contentLength(), body.length);
        List<Bodies.P> parts = Bodies.parse(e.contentType(), body, new MultipartOptions());
        assertEquals(3, parts.size());
        assertArrayEquals(big, parts.get(1).body());
        assertEquals("abc", parts.get(2).text());
        // A stream of another length than announced is an error, never a body of another length (MP-S-08).
        MultipartEncoder wrong = new MultipartEncoder().file("s", "s", "a/b", 4, () -> new ByteArrayInputStream(ascii("abc")));
        assertThrows(IOException.class, () -> wrong.writeTo(java.io.OutputStream.nullOutputStream()));
    }

    @Test
    void bodyPublisherHasTheLengthAndTheBytes() throws Exception {
        MultipartEncoder e = MultipartEncoder.withBoundary("B").text("a", "b").file("f", "x", "a/b", ascii("xyz"));
        var pub = e.bodyPublisher();
        assertEquals(e.contentLength(), pub.contentLength());
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        pub.subscribe(new Flow.Subscriber<ByteBuffer>() {
            @Override public void onSubscribe(Flow.Subscription s) { s.request(Long.MAX_VALUE); }
            @Override public void onNext(ByteBuffer b) { byte[] x = new byte[b.remaining()]; b.get(x); out.writeBytes(x); }
            @Override public void onError(Throwable t) { done.completeExceptionally(t); }
            @Override public void onComplete() { done.complete(null); }
        });
        done.get();
        assertArrayEquals(e.toByteArray(), out.toByteArray());
    }

    @Test
    void formDataSpillsAndDeletes(@TempDir Path dir) throws Exception {
        byte[] big = new byte[200_000];
        java.util.Arrays.fill(big, (byte) 'z');
        MultipartEncoder e = new MultipartEncoder().text("t", "h\u00e9").file("small", "s.txt", "", ascii("tiny"))
                .file("big", "b.bin", "Application/X", big);
        FormData fd = FormData.read(new ByteArrayInputStream(e.toByteArray()), e.contentType(), new MultipartOptions(),
                new FormData.Options().tempDir(dir));
        assertEquals("h\u00e9", fd.get("t").value());
        assertNull(fd.get("small").path());
        assertEquals("application/octet-stream", fd.get("small").type());
        Path spilled = fd.get("big").path();
        assertNotNull(spilled);
        assertEquals(200_000, Files.size(spilled));
        assertEquals("application/x", fd.get("big").type());
        if (Files.getFileStore(spilled).supportsFileAttributeView("posix")) {
            assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(spilled));
        }
        try (InputStream in = fd.get("big").open()) {
            assertArrayEquals(big, in.readAllBytes());
        }
        fd.close();
        assertTrue(empty(dir));
    }

    static boolean empty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    /** An upload that aborts in the middle of a spilled file leaves no temporary file behind. */
    @Test
    void abortedUploadFreesTempFiles(@TempDir Path dir) throws Exception {
        byte[] big = new byte[500_000];
        MultipartEncoder e = new MultipartEncoder().file("a", "a.bin", "a/b", big).file("b", "b.bin", "a/b", big);
        byte[] body = e.toByteArray();
        InputStream cut = new SequenceInputStream(new ByteArrayInputStream(body, 0, 800_000), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        });
        assertThrows(IOException.class, () -> FormData.read(cut, e.contentType(), new MultipartOptions(),
                new FormData.Options().tempDir(dir)));
        assertTrue(empty(dir));
        // A truncated body (a parse error) too.
        FormwireException t = assertThrows(FormwireException.class, () -> FormData.read(
                new ByteArrayInputStream(body, 0, 800_000), e.contentType(), new MultipartOptions(),
                new FormData.Options().tempDir(dir)));
        assertEquals(ErrorCode.MP_TRUNCATED, t.code());
        assertTrue(empty(dir));
    }

    /** 5,000 file parts: the default max_parts stops them, then max_files (MP-L-05); max_disk_bytes bounds the disk. */
    @Test
    void fiveThousandFileParts(@TempDir Path dir) throws Exception {
        MultipartEncoder e = new MultipartEncoder();
        for (int i = 0; i < 5000; i++) {
            e.file("f" + i, "f" + i + ".txt", "text/plain", ascii("0123456789"));
        }
        byte[] body = e.toByteArray();
        FormwireException p = assertThrows(FormwireException.class, () -> FormData.read(new ByteArrayInputStream(body),
                e.contentType(), new MultipartOptions(), new FormData.Options().tempDir(dir)));
        assertEquals(ErrorCode.MP_LIMIT_PARTS, p.code());
        assertTrue(empty(dir));
        FormwireException f = assertThrows(FormwireException.class, () -> FormData.read(
                new ByteArrayInputStream(body), e.contentType(), new MultipartOptions().maxParts(5000),
                new FormData.Options().tempDir(dir).memoryThreshold(0)));
        assertEquals(ErrorCode.MP_LIMIT_FILES, f.code());
        assertEquals(413, f.httpStatus());
        assertEquals(indexOf(body, "Content-Disposition", 1000), f.offset()); // file 1001's header block
        assertTrue(empty(dir));
        // Spilled from the first byte: file 11 (0-based 10) holds the 101st byte on disk, its first.
        FormwireException d = assertThrows(FormwireException.class, () -> FormData.read(
                new ByteArrayInputStream(body), e.contentType(), new MultipartOptions().maxParts(5000).maxFiles(5000),
                new FormData.Options().tempDir(dir).memoryThreshold(0).maxDiskBytes(100)));
        assertEquals(ErrorCode.MP_LIMIT_DISK_BYTES, d.code());
        assertEquals(413, d.httpStatus());
        assertEquals(indexOf(body, "0123456789", 10), d.offset());
        assertTrue(empty(dir));
        try (FormData all = FormData.read(new ByteArrayInputStream(body), e.contentType(),
                new MultipartOptions().maxParts(5000).maxFiles(5000), new FormData.Options().tempDir(dir))) {
            assertEquals(5000, all.entries().size());
            List<String> names = new ArrayList<>();
            all.entries().forEach(x -> names.add(x.filename()));
            assertEquals("f4999.txt", names.get(4999));
        }
    }

    /** The offset of the n-th (0-based) occurrence of an ASCII needle. */
    private static long indexOf(byte[] hay, String needle, int n) {
        byte[] nd = ascii(needle);
        outer:
        for (int i = 0; i + nd.length <= hay.length; i++) {
            for (int k = 0; k < nd.length; k++) {
                if (hay[i + k] != nd[k]) {
                    continue outer;
                }
            }
            if (n-- == 0) {
                return i;
            }
        }
        throw new AssertionError(needle + " not found");
    }
}
