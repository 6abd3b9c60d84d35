package dev.formwire.testee;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small JSON reader (objects as LinkedHashMap, arrays as List, integers as Long) and string writer. */
public final class Json {
    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    /** Parses one JSON text. */
    public static Object parse(String text) {
        Json j = new Json(text);
        j.ws();
        Object v = j.value();
        j.ws();
        if (j.i != text.length()) {
            throw new IllegalArgumentException("trailing characters at " + j.i);
        }
        return v;
    }

    private void ws() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
    }

    private IllegalArgumentException bad() {
        return new IllegalArgumentException("bad JSON at " + i);
    }

    private Object value() {
        if (i >= s.length()) {
            throw bad();
        }
        char c = s.charAt(i);
        switch (c) {
            case '{': {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    if (s.charAt(i++) != ':') {
                        throw bad();
                    }
                    ws();
                    m.put(k, value());
                    ws();
                    char d = s.charAt(i++);
                    if (d == '}') {
                        return m;
                    }
                    if (d != ',') {
                        throw bad();
                    }
                }
            }
            case '[': {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    ws();
                    l.add(value());
                    ws();
                    char d = s.charAt(i++);
                    if (d == ']') {
                        return l;
                    }
                    if (d != ',') {
                        throw bad();
                    }
                }
            }
            case '"':
                return string();
            case 't':
                return lit("true", Boolean.TRUE);
            case 'f':
                return lit("false", Boolean.FALSE);
            case 'n':
                return lit("null", null);
            default:
                return number();
        }
    }

    private Object lit(String word, Object v) {
        if (!s.startsWith(word, i)) {
            throw bad();
        }
        i += word.length();
        return v;
    }

    private Object number() {
        int st = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        String t = s.substring(st, i);
        if (t.isEmpty()) {
            throw bad();
        }
        if (t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                return new java.math.BigInteger(t);
            }
        }
        return Double.parseDouble(t);
    }

    private String string() {
        if (s.charAt(i) != '"') {
            throw bad();
        }
        i++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'u':
                    sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                    break;
                default: sb.append(e);
            }
        }
    }

    /** Appends {@code v} as a JSON string ({@code null} as null). */
    public static StringBuilder str(StringBuilder out, String v) {
        if (v == null) {
            return out.append("null");
        }
        out.append('"');
        for (int k = 0; k < v.length(); k++) {
            char c = v.charAt(k);
            if (c == '"') {
                out.append("\\\"");
            } else if (c == '\\') {
                out.append("\\\\");
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"');
    }

    /** {@code {"code":..,"offset":..,"message":..}}. */
    public static String error(String code, long offset, String message) {
        StringBuilder sb = new StringBuilder("{\"code\":");
        str(sb, code).append(",\"offset\":").append(offset).append(",\"message\":");
        return str(sb, message).append('}').toString();
    }
}
