package dev.formwire.v8;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.formwire.FormwireException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every shared clone vector (vectors/clone), fed whole: each decode case's value or error code and offset, each
 * encode case's exact bytes, and every encoding decoded back to the same value.
 */
class VectorsTest {
    static final Path DIR = Path.of("..", "..", "vectors", "clone");

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> vectors() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String verdict : new String[] {"accept", "reject"}) {
            try (Stream<Path> files = Files.list(DIR.resolve(verdict))) {
                for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                    if (!f.toString().endsWith(".json")) {
                        continue;
                    }
                    Map<String, Object> v = (Map<String, Object>) TestJson.parse(Files.readString(f));
                    Map<String, Object> in = (Map<String, Object>) v.get("input");
                    if (in.get("hex") != null) {
                        in.put("bytes", HexFormat.of().parseHex((String) in.get("hex")));
                    } else if (in.get("file") != null) {
                        in.put("bytes", Files.readAllBytes(f.resolveSibling((String) in.get("file"))));
                    }
                    out.add(v);
                }
            }
        }
        if (out.size() < 500) {
            throw new AssertionError("only " + out.size() + " clone vectors found in " + DIR.toAbsolutePath());
        }
        return out;
    }

    /** A vector's options: absent keys default, null turns a limit off. */
    static Options options(Object opts) {
        Options o = new Options();
        if (opts instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) opts).entrySet()) {
                String k = (String) e.getKey();
                if (k.equals("node_ipc")) {
                    o.nodeIpc(Boolean.TRUE.equals(e.getValue()));
                } else if (!o.set(k, e.getValue() == null ? Options.UNLIMITED : ((Number) e.getValue()).longValue())) {
                    throw new AssertionError("unknown option " + k);
                }
            }
        }
        return o;
    }

    @TestFactory
    Stream<DynamicTest> vectorsPass() throws IOException {
        return vectors().stream().map(v -> DynamicTest.dynamicTest((String) v.get("id"), () -> check(v)));
    }

    @SuppressWarnings("unchecked")
    static void check(Map<String, Object> v) {
        Map<String, Object> in = (Map<String, Object>) v.get("input");
        Map<String, Object> expect = (Map<String, Object>) v.get("expect");
        Options o = options(v.get("options"));
        Map<String, Object> err = (Map<String, Object>) expect.get("error");
        if ("clone-decode".equals(v.get("kind"))) {
            byte[] bytes = (byte[]) in.get("bytes");
            if (err != null) {
                FormwireException e = assertThrows(FormwireException.class, () -> V8.decode(bytes, o));
                assertEquals(err.get("code"), e.code().name());
                if (err.get("offset") != null) {
                    assertEquals(((Number) err.get("offset")).longValue(), e.offset(), e.getMessage());
                }
                return;
            }
            Object got = V8.decode(bytes, o);
            assertEquals(TestJson.canon(expect.get("value")), TestJson.canon(Neutral.describe(got)));
            byte[] again = V8.encode(got);
            assertTrue(Graphs.equal(got, V8.decode(again)), "re-encoding decodes to another value");
        } else if ("clone-encode".equals(v.get("kind"))) {
            Object val = Neutral.build(in.get("value"));
            if (err != null) {
                FormwireException e = assertThrows(FormwireException.class, () -> V8.encode(val, o));
                assertEquals(err.get("code"), e.code().name());
                return;
            }
            byte[] out = V8.encode(val, o);
            assertArrayEquals(HexFormat.of().parseHex((String) expect.get("hex")), out,
                () -> "got " + HexFormat.of().formatHex(out));
            assertEquals(TestJson.canon(in.get("value")), TestJson.canon(Neutral.describe(V8.decode(out))));
        } else {
            fail("unknown kind " + v.get("kind"));
        }
    }
}
