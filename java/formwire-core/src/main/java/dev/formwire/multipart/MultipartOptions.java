package dev.formwire.multipart;

import dev.formwire.Limits;

/**
 * Parser options: the named lenient flags (MP-R-02) and every multipart limit of {@code spec/registry.json}.
 *
 * <p>A new instance is the strict profile with the default limits. {@link #UNLIMITED} turns a limit off. The setters
 * return {@code this}; {@link #set(String, long)} and {@link #setFlag(String, boolean)} take the registry's snake_case
 * names, for configuration files and bindings.
 */
public final class MultipartOptions implements Cloneable {
    /** The value of a limit that is off. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    boolean allowPreamble;
    boolean allowLf;
    boolean allowObsFold;
    boolean allowQuotedPairs;
    boolean allowMissingDisposition;
    boolean allowAnyDispositionType;
    boolean allowJunkAfterClose;
    boolean allowUtf8HeaderNames;
    boolean allowCr;
    boolean allowNearDelimiters;
    boolean allow8bitParameterNames;
    boolean allowRfc2231Continuations;
    long maxBoundaryBytes = Limits.Multipart.MAX_BOUNDARY_BYTES;
    long maxParts = Limits.Multipart.MAX_PARTS;
    long maxFiles = Limits.Multipart.MAX_FILES;
    long maxFields = Limits.Multipart.MAX_FIELDS;
    long maxHeaders = Limits.Multipart.MAX_HEADERS;
    long maxHeaderBytes = Limits.Multipart.MAX_HEADER_BYTES;
    long maxFieldBytes = Limits.Multipart.MAX_FIELD_BYTES;
    long maxFileBytes = Limits.Multipart.MAX_FILE_BYTES;
    long maxTotalBytes = Limits.Multipart.MAX_TOTAL_BYTES;
    long maxTotalFieldBytes = Limits.Multipart.MAX_TOTAL_FIELD_BYTES;

    /** The strict profile with the default limits. */
    public MultipartOptions() {}

    /** Skip bytes before the first delimiter (RFC 2046 preamble, MP-P-02). */
    public MultipartOptions allowPreamble(boolean on) { allowPreamble = on; return this; }
    /** Accept a bare LF as a line end in delimiter and header lines (MP-P-03, MP-P-06, MP-H-02). */
    public MultipartOptions allowLf(boolean on) { allowLf = on; return this; }
    /** Accept obs-fold continuation lines in part headers (MP-H-04). */
    public MultipartOptions allowObsFold(boolean on) { allowObsFold = on; return this; }
    /** Read Content-Disposition quoted-strings with quoted-pairs first (MP-H-07). */
    public MultipartOptions allowQuotedPairs(boolean on) { allowQuotedPairs = on; return this; }
    /**
     * A part with no Content-Disposition, or only an empty one, is a part with no name instead of an error
     * (MP-H-06); it counts as a field for every limit, and form layers skip it (MP-F-05).
     */
    public MultipartOptions allowMissingDisposition(boolean on) { allowMissingDisposition = on; return this; }
    /** Any token as the Content-Disposition type ({@code form-field}, ...), read as {@code form-data} (MP-H-07). */
    public MultipartOptions allowAnyDispositionType(boolean on) { allowAnyDispositionType = on; return this; }
    /** Every byte after {@code --B--} is epilogue, and the input may end anywhere after it (MP-P-05, MP-P-07). */
    public MultipartOptions allowJunkAfterClose(boolean on) { allowJunkAfterClose = on; return this; }
    /** Bytes 80-FF in part header names, besides token characters (UTF-8 names such as {@code Føø}; MP-H-01). */
    public MultipartOptions allowUtf8HeaderNames(boolean on) { allowUtf8HeaderNames = on; return this; }
    /** A bare CR ends delimiter and header lines; a body also ends at {@code CR--B} (MP-P-03, MP-P-06, MP-H-02). */
    public MultipartOptions allowCr(boolean on) { allowCr = on; return this; }
    /** Inside a body, {@code CRLF--B-x} and {@code CRLF--B CR x} are data, not MP_DELIMITER (MP-P-03, MP-P-04). */
    public MultipartOptions allowNearDelimiters(boolean on) { allowNearDelimiters = on; return this; }
    /** Bytes 80-FF in Content-Disposition parameter names; such a parameter is ignored (MP-H-07). */
    public MultipartOptions allow8bitParameterNames(boolean on) { allow8bitParameterNames = on; return this; }
    /** Without {@code filename}, RFC 2231 continuations {@code filename*0}, ... make the filename (MP-H-09). */
    public MultipartOptions allowRfc2231Continuations(boolean on) { allowRfc2231Continuations = on; return this; }
    /** Longest boundary in bytes (MP-B-04). */
    public MultipartOptions maxBoundaryBytes(long n) { maxBoundaryBytes = check(n); return this; }
    /** Most parts (MP-L-01). */
    public MultipartOptions maxParts(long n) { maxParts = check(n); return this; }
    /** Most parts with a {@code filename} (MP-L-05). */
    public MultipartOptions maxFiles(long n) { maxFiles = check(n); return this; }
    /** Most parts without {@code filename} (MP-L-05). */
    public MultipartOptions maxFields(long n) { maxFields = check(n); return this; }
    /** Most header lines per part (MP-H-05). */
    public MultipartOptions maxHeaders(long n) { maxHeaders = check(n); return this; }
    /** Most header bytes per part, the empty line excluded (MP-H-05). */
    public MultipartOptions maxHeaderBytes(long n) { maxHeaderBytes = check(n); return this; }
    /** Longest body of a part without {@code filename} (MP-L-02). */
    public MultipartOptions maxFieldBytes(long n) { maxFieldBytes = check(n); return this; }
    /** Longest body of a part with {@code filename} (MP-L-02). */
    public MultipartOptions maxFileBytes(long n) { maxFileBytes = check(n); return this; }
    /** Most input bytes, epilogue included (MP-L-03). */
    public MultipartOptions maxTotalBytes(long n) { maxTotalBytes = check(n); return this; }
    /** Most body bytes of all parts without {@code filename} together (MP-L-04). */
    public MultipartOptions maxTotalFieldBytes(long n) { maxTotalFieldBytes = check(n); return this; }

    public boolean allowPreamble() { return allowPreamble; }
    public boolean allowLf() { return allowLf; }
    public boolean allowObsFold() { return allowObsFold; }
    public boolean allowQuotedPairs() { return allowQuotedPairs; }
    public boolean allowMissingDisposition() { return allowMissingDisposition; }
    public boolean allowAnyDispositionType() { return allowAnyDispositionType; }
    public boolean allowJunkAfterClose() { return allowJunkAfterClose; }
    public boolean allowUtf8HeaderNames() { return allowUtf8HeaderNames; }
    public boolean allowCr() { return allowCr; }
    public boolean allowNearDelimiters() { return allowNearDelimiters; }
    public boolean allow8bitParameterNames() { return allow8bitParameterNames; }
    public boolean allowRfc2231Continuations() { return allowRfc2231Continuations; }
    public long maxBoundaryBytes() { return maxBoundaryBytes; }
    public long maxParts() { return maxParts; }
    public long maxFiles() { return maxFiles; }
    public long maxFields() { return maxFields; }
    public long maxHeaders() { return maxHeaders; }
    public long maxHeaderBytes() { return maxHeaderBytes; }
    public long maxFieldBytes() { return maxFieldBytes; }
    public long maxFileBytes() { return maxFileBytes; }
    public long maxTotalBytes() { return maxTotalBytes; }
    public long maxTotalFieldBytes() { return maxTotalFieldBytes; }

    private static long check(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("a limit is >= 0 (UNLIMITED turns it off)");
        }
        return n;
    }

    /**
     * Sets a limit by its registry name ({@code max_parts}, ...). Returns {@code false} for an unknown name.
     */
    public boolean set(String name, long value) {
        switch (name) {
            case Limits.Multipart.MAX_BOUNDARY_BYTES_NAME: maxBoundaryBytes(value); return true;
            case Limits.Multipart.MAX_PARTS_NAME: maxParts(value); return true;
            case Limits.Multipart.MAX_FILES_NAME: maxFiles(value); return true;
            case Limits.Multipart.MAX_FIELDS_NAME: maxFields(value); return true;
            case Limits.Multipart.MAX_HEADERS_NAME: maxHeaders(value); return true;
            case Limits.Multipart.MAX_HEADER_BYTES_NAME: maxHeaderBytes(value); return true;
            case Limits.Multipart.MAX_FIELD_BYTES_NAME: maxFieldBytes(value); return true;
            case Limits.Multipart.MAX_FILE_BYTES_NAME: maxFileBytes(value); return true;
            case Limits.Multipart.MAX_TOTAL_BYTES_NAME: maxTotalBytes(value); return true;
            case Limits.Multipart.MAX_TOTAL_FIELD_BYTES_NAME: maxTotalFieldBytes(value); return true;
            default: return false;
        }
    }

    /** Sets a lenient flag by its registry name ({@code allow_lf}, ...). Returns {@code false} for an unknown name. */
    public boolean setFlag(String name, boolean on) {
        switch (name) {
            case "allow_preamble": allowPreamble = on; return true;
            case "allow_lf": allowLf = on; return true;
            case "allow_obs_fold": allowObsFold = on; return true;
            case "allow_quoted_pairs": allowQuotedPairs = on; return true;
            case "allow_missing_disposition": allowMissingDisposition = on; return true;
            case "allow_any_disposition_type": allowAnyDispositionType = on; return true;
            case "allow_junk_after_close": allowJunkAfterClose = on; return true;
            case "allow_utf8_header_names": allowUtf8HeaderNames = on; return true;
            case "allow_cr": allowCr = on; return true;
            case "allow_near_delimiters": allowNearDelimiters = on; return true;
            case "allow_8bit_parameter_names": allow8bitParameterNames = on; return true;
            case "allow_rfc2231_continuations": allowRfc2231Continuations = on; return true;
            default: return false;
        }
    }

    @Override
    public MultipartOptions clone() {
        try {
            return (MultipartOptions) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
