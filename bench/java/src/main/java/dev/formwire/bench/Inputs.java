package dev.formwire.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The workload files of bench/lib/gen.py (the same bytes every language parses). */
final class Inputs {
    private Inputs() {}

    static final String BOUNDARY = "----PeerBenchFormBoundary7MA4YWxkTrZu0g";
    static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;
    static final int CHUNK = 64 * 1024;

    static Path dir() {
        return Path.of(System.getProperty("formwire.bench.dir", ".work/full"));
    }

    static byte[] read(String name) {
        try {
            return Files.readAllBytes(dir().resolve(name));
        } catch (IOException e) {
            throw new IllegalStateException("generate the inputs first (bench/run): " + e, e);
        }
    }

    /** w5.fields.json: [["name", "value"], ...] of alphanumerics (no escapes needed). */
    static List<String[]> fields() {
        String s = new String(read("w5.fields.json"), StandardCharsets.UTF_8);
        List<String[]> out = new ArrayList<>();
        int i = 0;
        while ((i = s.indexOf("[\"", i)) >= 0) {
            int a = s.indexOf('"', i + 2);
            int b = s.indexOf('"', a + 1);
            int c = s.indexOf('"', b + 1);
            out.add(new String[] {s.substring(i + 2, a), s.substring(b + 1, c)});
            i = c;
        }
        return out;
    }
}
