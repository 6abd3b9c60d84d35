package dev.formwire.testee;

import java.util.Map;

/** One protocol op (conformance/PROTOCOL.md). */
@FunctionalInterface
public interface Op {
    /**
     * Answers a request: the members of the response object after {@code "id"}, as JSON text, e.g.
     * {@code "ok":{...}}, {@code "error":{...}} or {@code "results":[...]}.
     */
    String handle(Map<String, Object> request) throws Exception;
}
