package dev.formwire.testee;

import dev.formwire.FormwireException;
import dev.formwire.multipart.MultipartEncoder;
import dev.formwire.multipart.MultipartOptions;
import dev.formwire.multipart.MultipartParser;
import dev.formwire.multipart.Part;
import dev.formwire.urlencoded.Urlencoded;
import dev.formwire.urlencoded.UrlencodedOptions;
import dev.formwire.urlencoded.UrlencodedParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The multipart and urlencoded ops. */
public final class CoreOps implements OpProvider {
    /** Bodies up to this size are echoed as {@code body_b64} (for the runner's diffs). */
    private static final int ECHO_LIMIT = 64 * 1024;

    @Override
    public void register(Map<String, Op> ops) {
        ops.put("multipart.parse", req -> results(req, CoreOps::multipartParse));
        ops.put("urlencoded.parse", req -> results(req, CoreOps::urlencodedParse));
        ops.put("multipart.serialize", CoreOps::multipartSerialize);
        ops.put("urlencoded.serialize", CoreOps::urlencodedSerialize);
    }

    /** One parse of {@code input} cut at {@code cuts}: the JSON of one result. */
    public interface Parse {
        String run(Map<String, Object> req, byte[] input, int[] cuts) throws Exception;
    }

    /** Runs a parse op once per chunking: {@code "results":[...]}. */
    public static String results(Map<String, Object> req, Parse parse) throws Exception {
        Object b64 = req.get("input_b64");
        if (!(b64 instanceof String)) {
            return "\"error\":" + Json.error("TESTEE", 0, "missing input_b64");
        }
        byte[] input = Base64.getDecoder().decode((String) b64);
        Object cs = req.get("chunkings");
        List<?> chunkings = cs instanceof List ? (List<?>) cs : List.of(List.of());
        StringBuilder sb = new StringBuilder("\"results\":[");
        for (int k = 0; k < chunkings.size(); k++) {
            if (k > 0) {
                sb.append(',');
            }
            int[] cuts;
            try {
                cuts = cuts(chunkings.get(k), input.length);
            } catch (IllegalArgumentException e) {
                sb.append("{\"error\":").append(Json.error("TESTEE", 0, e.getMessage())).append('}');
                continue;
            }
            sb.append(parse.run(req, input, cuts));
        }
        return sb.append(']').toString();
    }

    static int[] cuts(Object c, int len) {
        if ("bytes".equals(c)) {
            int[] all = new int[Math.max(0, len - 1)];
            for (int i = 0; i < all.length; i++) {
                all[i] = i + 1;
            }
            return all;
        }
        if (!(c instanceof List)) {
            throw new IllegalArgumentException("bad chunking " + c);
        }
        List<?> l = (List<?>) c;
        int[] out = new int[l.size()];
        int prev = 0;
        for (int i = 0; i < out.length; i++) {
            long n = ((Number) l.get(i)).longValue();
            if (n <= prev || n >= len) {
                throw new IllegalArgumentException("cut " + n + " out of order or outside 1.." + (len - 1));
            }
            out[i] = (int) n;
            prev = (int) n;
        }
        return out;
    }

    private static String error(FormwireException e) {
        return "{\"error\":" + Json.error(e.code().name(), e.offset(), e.getMessage()) + "}";
    }

    private static MultipartOptions multipartOptions(Map<String, Object> req) {
        MultipartOptions o = new MultipartOptions();
        Object opts = req.get("options");
        if (opts instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) opts).entrySet()) {
                String k = (String) e.getKey();
                Object v = e.getValue();
                boolean known;
                if (v instanceof Boolean) {
                    known = o.setFlag(k, (Boolean) v);
                } else if (v == null) {
                    known = o.set(k, MultipartOptions.UNLIMITED);
                } else if (v instanceof Long) {
                    known = o.set(k, (Long) v);
                } else {
                    known = o.set(k, MultipartOptions.UNLIMITED); // larger than a long: unreachable
                }
                if (!known) {
                    throw new IllegalArgumentException("unknown multipart option " + k);
                }
            }
        }
        return o;
    }

    /** One part being collected. */
    private static final class Collect {
        final StringBuilder json = new StringBuilder(256);
        final MessageDigest sha;
        long size;
        byte[] echo = new byte[256];
        int echoLen;

        Collect(Part p) throws Exception {
            sha = MessageDigest.getInstance("SHA-256");
            json.append("{\"name\":");
            Json.str(json, p.name()).append(",\"filename\":");
            Json.str(json, p.filename()).append(",\"name_star\":");
            Json.str(json, p.nameStar()).append(",\"filename_star\":");
            Json.str(json, p.filenameStar()).append(",\"content_type\":");
            Json.str(json, p.contentType()).append(",\"type\":");
            Json.str(json, p.isFile() ? p.mimeType() : null).append(",\"headers\":[");
            for (int i = 0; i < p.headers().size(); i++) {
                Part.Header h = p.headers().get(i);
                if (i > 0) {
                    json.append(',');
                }
                json.append('[');
                Json.str(json, h.name()).append(',');
                Json.str(json, h.value()).append(']');
            }
            json.append("],");
        }

        void data(ByteBuffer d) {
            int n = d.remaining();
            size += n;
            if (echo != null) {
                if (echoLen + n > ECHO_LIMIT) {
                    echo = null;
                } else {
                    if (echoLen + n > echo.length) {
                        echo = java.util.Arrays.copyOf(echo, Math.max(echo.length * 2, echoLen + n));
                    }
                    d.duplicate().get(echo, echoLen, n);
                    echoLen += n;
                }
            }
            sha.update(d);
        }

        String finish() {
            byte[] digest = sha.digest();
            json.append("\"size\":").append(size).append(",\"sha256\":\"");
            for (byte b : digest) {
                json.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
            }
            json.append('"');
            if (echo != null) {
                json.append(",\"body_b64\":\"")
                        .append(Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(echo, echoLen))).append('"');
            }
            return json.append('}').toString();
        }
    }

    private static String multipartParse(Map<String, Object> req, byte[] input, int[] cuts) throws Exception {
        MultipartOptions opts;
        try {
            opts = multipartOptions(req);
        } catch (IllegalArgumentException e) {
            return "{\"error\":" + Json.error("TESTEE", 0, e.getMessage()) + "}";
        }
        Object ct = req.get("content_type");
        List<String> parts = new ArrayList<>();
        try {
            MultipartParser p = MultipartParser.forContentType(ct == null ? "" : (String) ct, opts);
            Collect[] cur = new Collect[1];
            int prev = 0;
            for (int k = 0; k <= cuts.length; k++) {
                int next = k < cuts.length ? cuts[k] : input.length;
                p.feed(ByteBuffer.wrap(input, prev, next - prev));
                drain(p, cur, parts);
                prev = next;
            }
            p.finish();
            drain(p, cur, parts);
        } catch (FormwireException e) {
            return error(e);
        }
        return "{\"ok\":{\"parts\":[" + String.join(",", parts) + "]}}";
    }

    private static void drain(MultipartParser p, Collect[] cur, List<String> parts) throws Exception {
        for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) {
            switch (e) {
                case PART_START:
                    cur[0] = new Collect(p.part());
                    break;
                case DATA:
                    cur[0].data(p.data());
                    break;
                case PART_END:
                    parts.add(cur[0].finish());
                    cur[0] = null;
                    break;
                default:
                    break;
            }
        }
    }

    private static UrlencodedOptions urlencodedOptions(Map<String, Object> req) {
        UrlencodedOptions o = new UrlencodedOptions();
        Object opts = req.get("options");
        if (opts instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) opts).entrySet()) {
                Object v = e.getValue();
                long n = v == null ? UrlencodedOptions.UNLIMITED : v instanceof Long ? (Long) v : UrlencodedOptions.UNLIMITED;
                if (!o.set((String) e.getKey(), n)) {
                    throw new IllegalArgumentException("unknown urlencoded option " + e.getKey());
                }
            }
        }
        return o;
    }

    private static String urlencodedParse(Map<String, Object> req, byte[] input, int[] cuts) {
        UrlencodedOptions opts;
        try {
            opts = urlencodedOptions(req);
        } catch (IllegalArgumentException e) {
            return "{\"error\":" + Json.error("TESTEE", 0, e.getMessage()) + "}";
        }
        List<Map.Entry<String, String>> pairs = new ArrayList<>();
        try {
            if (cuts.length == 0) {
                pairs = Urlencoded.parse(input, opts); // whole input: the buffer API
            } else {
                UrlencodedParser p = new UrlencodedParser(opts);
                int prev = 0;
                for (int k = 0; k <= cuts.length; k++) {
                    int next = k < cuts.length ? cuts[k] : input.length;
                    p.feed(ByteBuffer.wrap(input, prev, next - prev));
                    for (Map.Entry<String, String> e; (e = p.next()) != null; ) {
                        pairs.add(e);
                    }
                    prev = next;
                }
                p.finish();
                for (Map.Entry<String, String> e; (e = p.next()) != null; ) {
                    pairs.add(e);
                }
            }
        } catch (FormwireException e) {
            return error(e);
        }
        StringBuilder sb = new StringBuilder("{\"ok\":{\"pairs\":[");
        for (int i = 0; i < pairs.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('[');
            Json.str(sb, pairs.get(i).getKey()).append(',');
            Json.str(sb, pairs.get(i).getValue()).append(']');
        }
        return sb.append("]}}").toString();
    }

    private static byte[] body(Object b) {
        Map<?, ?> m = (Map<?, ?>) b;
        if (m.get("base64") instanceof String) {
            return Base64.getDecoder().decode((String) m.get("base64"));
        }
        if (m.get("text") instanceof String) {
            return ((String) m.get("text")).getBytes(StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("unsupported body " + b);
    }

    private static String multipartSerialize(Map<String, Object> req) {
        try {
            Object b = req.get("boundary");
            MultipartEncoder enc = b instanceof String ? MultipartEncoder.withBoundary((String) b) : new MultipartEncoder();
            for (Object o : (List<?>) req.get("entries")) {
                Map<?, ?> e = (Map<?, ?>) o;
                String name = (String) e.get("name");
                if (e.get("file") instanceof Map) {
                    Map<?, ?> f = (Map<?, ?>) e.get("file");
                    enc.file(name, (String) f.get("filename"), (String) f.get("type"), body(f.get("body")));
                } else if (e.get("blob") instanceof Map) {
                    Map<?, ?> f = (Map<?, ?>) e.get("blob");
                    enc.blob(name, (String) f.get("type"), body(f.get("body")));
                } else {
                    enc.text(name, (String) e.get("value"));
                }
            }
            long len = enc.contentLength(); // PROTOCOL.md: known before the body is produced
            byte[] bytes = enc.toByteArray();
            StringBuilder sb = new StringBuilder("\"ok\":{\"content_type\":");
            Json.str(sb, enc.contentType()).append(",\"content_length\":").append(len).append(",\"body_b64\":\"")
                    .append(Base64.getEncoder().encodeToString(bytes)).append("\"}");
            return sb.toString();
        } catch (FormwireException e) {
            return "\"error\":" + Json.error(e.code().name(), e.offset(), e.getMessage());
        }
    }

    private static String urlencodedSerialize(Map<String, Object> req) {
        List<Map.Entry<String, String>> pairs = new ArrayList<>();
        for (Object o : (List<?>) req.get("pairs")) {
            List<?> p = (List<?>) o;
            pairs.add(new AbstractMap.SimpleEntry<>((String) p.get(0), (String) p.get(1)));
        }
        StringBuilder sb = new StringBuilder("\"ok\":{\"text\":");
        return Json.str(sb, Urlencoded.serialize(pairs)).append('}').toString();
    }
}
