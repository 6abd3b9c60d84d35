package dev.formwire.testee;

import dev.formwire.FormwireException;
import dev.formwire.v8.Neutral;
import dev.formwire.v8.Options;
import dev.formwire.v8.V8;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The clone ops (conformance/PROTOCOL.md): clone.decode and clone.encode over dev.formwire.v8, neutral JSON values. */
public final class CloneOps implements OpProvider {
    @Override
    public void register(Map<String, Op> ops) {
        // the decoder is not streaming (SC-D-01): every chunking decodes the whole input
        ops.put("clone.decode", req -> CoreOps.results(req, (r, input, cuts) -> decode(r, input)));
        ops.put("clone.encode", CloneOps::encode);
    }

    private static Options options(Map<String, Object> req) {
        Options o = new Options();
        Object opts = req.get("options");
        if (opts instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) opts).entrySet()) {
                String k = String.valueOf(e.getKey());
                Object v = e.getValue();
                if (k.equals("node_ipc")) {
                    o.nodeIpc(Boolean.TRUE.equals(v));
                } else if (!o.set(k, v instanceof Long ? (Long) v : Options.UNLIMITED)) {
                    throw new IllegalArgumentException("unknown clone option " + k);
                }
            }
        }
        return o;
    }

    private static String decode(Map<String, Object> req, byte[] input) {
        try {
            Object v = V8.decode(input, options(req));
            StringBuilder sb = new StringBuilder("{\"ok\":{\"value\":");
            write(sb, Neutral.describe(v));
            return sb.append("}}").toString();
        } catch (FormwireException e) {
            return "{\"error\":" + Json.error(e.code().name(), e.offset(), e.getMessage()) + "}";
        }
    }

    private static String encode(Map<String, Object> req) {
        try {
            byte[] out = V8.encode(Neutral.build(req.get("value")), options(req));
            return "\"ok\":{\"hex\":\"" + HexFormat.of().formatHex(out) + "\"}";
        } catch (FormwireException e) {
            return "\"error\":" + Json.error(e.code().name(), e.offset(), e.getMessage());
        }
    }

    /** JSON text of a neutral value (strings in it are well-formed: lone surrogates travel as u16 lists). */
    private static void write(StringBuilder sb, Object v) {
        if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                Json.str(sb, String.valueOf(e.getKey())).append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object x : (List<?>) v) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                write(sb, x);
            }
            sb.append(']');
        } else if (v instanceof String) {
            Json.str(sb, (String) v);
        } else {
            sb.append(v); // Long, Double (finite: Neutral writes NaN and infinities as strings), Boolean, null
        }
    }
}
