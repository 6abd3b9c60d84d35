package dev.formwire.testee;

import java.util.Map;

/**
 * A set of ops, found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.formwire.testee.OpProvider}. Another area (e.g. the V8 codec) adds its ops from its own
 * class without touching the others.
 */
public interface OpProvider {
    /** Adds ops by protocol name ({@code multipart.parse}, {@code clone.decode}, ...). */
    void register(Map<String, Op> ops);
}
