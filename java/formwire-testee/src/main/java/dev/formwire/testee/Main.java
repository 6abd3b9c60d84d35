package dev.formwire.testee;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The Java conformance testee: JSON lines in, one response line per request out (conformance/PROTOCOL.md). No test
 * logic: each op decodes the request, calls formwire's public API and encodes the result.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        Map<String, Op> ops = new TreeMap<>();
        for (OpProvider p : ServiceLoader.load(OpProvider.class)) {
            p.register(ops);
        }
        ops.put("hello", req -> {
            StringBuilder sb = new StringBuilder("\"ok\":{\"lang\":\"java\",\"version\":\"0.1.0\",\"ops\":[");
            boolean first = true;
            for (String name : ops.keySet()) {
                if (!name.equals("hello")) {
                    if (!first) {
                        sb.append(',');
                    }
                    Json.str(sb, name);
                    first = false;
                }
            }
            return sb.append("]}").toString();
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            String id = "null";
            String body;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> req = (Map<String, Object>) Json.parse(line);
                Object rid = req.get("id");
                id = rid == null ? "null" : rid.toString();
                Op op = ops.get(String.valueOf(req.get("op")));
                body = op == null ? "\"error\":" + Json.error("TESTEE", 0, "unknown op " + req.get("op")) : op.handle(req);
            } catch (Exception | StackOverflowError e) {
                StringWriter sw = new StringWriter();
                e.printStackTrace(new PrintWriter(sw));
                System.err.println(sw);
                body = "\"error\":" + Json.error("TESTEE", 0, String.valueOf(e));
            }
            out.write("{\"id\":");
            out.write(id);
            out.write(',');
            out.write(body);
            out.write("}\n");
            out.flush();
        }
    }
}
