package dev.formwire.multipart;

import dev.formwire.ErrorCode;
import dev.formwire.FormwireException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sans-IO {@code multipart/form-data} parser (spec/multipart.md §1-§5).
 *
 * <p>Feed {@link ByteBuffer} chunks with {@link #feed(ByteBuffer)} and pull events with {@link #next()} until it
 * returns {@link Event#NEED_INPUT}; at the end of input call {@link #finish()} and pull again until
 * {@code NEED_INPUT} or {@link Event#END}. Body bytes ({@link Event#DATA}) are read-only views of the chunk fed (for
 * heap buffers; a direct buffer is read through a 64 KiB window); only the few bytes that may begin a delimiter at a
 * chunk edge are held back (MP-P-08). Chunking never changes the result. The buffer's position advances as bytes are
 * consumed: stop pulling early and the rest stays in it (backpressure), pull again later to go on.
 *
 * <p>Errors are {@link FormwireException}s with a code and an absolute offset; after one the parser is poisoned and
 * every call throws the same error. Memory: the boundary and one header block (at most {@code max_header_bytes}).
 * Time: linear in the input whatever the chunking.
 *
 * <pre>{@code
 * MultipartParser p = MultipartParser.forContentType(contentType, new MultipartOptions());
 * for (ByteBuffer chunk : chunks) {
 *     p.feed(chunk);
 *     for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) { ... }
 * }
 * p.finish();
 * for (MultipartParser.Event e; (e = p.next()) != MultipartParser.Event.NEED_INPUT; ) { ... }
 * }</pre>
 */
public final class MultipartParser {
    /** What {@link #next()} produced. */
    public enum Event {
        /** A part begins; {@link #part()} has its headers (MP-H-06..11). */
        PART_START,
        /** Body bytes of the current part: {@link #data()}. */
        DATA,
        /** The current part's body is complete. */
        PART_END,
        /** The close delimiter line is complete; what follows is the ignored epilogue (MP-P-05). */
        END,
        /** The chunk is used up: feed the next one (or call {@link #finish()}). After {@code END}, always this. */
        NEED_INPUT
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte SP = ' ';
    private static final byte HT = '\t';
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final int WINDOW = 64 * 1024;
    private static final byte[] CD = "Content-Disposition:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CD_LOWER = "content-disposition".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CT = "Content-Type:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CT_LOWER = "content-type".getBytes(StandardCharsets.US_ASCII);

    // States.
    private static final int START = 0;
    private static final int AFTER_BOUNDARY = 1;
    private static final int DASH = 2;
    private static final int PADDING = 3;
    private static final int LINE_CR = 4;
    private static final int HEADERS = 5;
    private static final int S_PART_START = 6;
    private static final int BODY = 7;
    private static final int S_PART_END = 8;
    private static final int CLOSE = 9;
    private static final int CLOSE_CR = 10;
    private static final int S_END = 11;
    private static final int EPILOGUE = 12;

    // Header-line states (MP-H-01..05).
    private static final int H_LINE_START = 0;
    private static final int H_LINE_START_CR = 1;
    private static final int H_LEAD = 2;
    private static final int H_NAME = 3;
    private static final int H_NAME_OWS = 4;
    private static final int H_VALUE_OWS = 5;
    private static final int H_VALUE = 6;
    private static final int H_VALUE_CR = 7;
    private static final int H_FOLD_OWS = 8;

    private final MultipartOptions opts;
    /** {@code CRLF "--" B}. */
    private final byte[] delim;
    /** Where the needle starts in {@code delim}: 0 ({@code CRLF--B}), or 1 ({@code LF--B}) with allow_lf. */
    private final int needleStart;
    private final int needleLen;
    private final long needleFirst;
    /** With allow_cr, {@code CR "--" B}, the other delimiter a body may end at (MP-P-06); else {@code null}. */
    private final byte[] crDelim;
    /**
     * With allow_near_delimiters, a delimiter and the byte after it that makes it a lookalike (MP-P-03):
     * {@code delim "-"}, {@code delim CR} and {@code crDelim "-"}, for holding one across chunks; else {@code null}.
     */
    private final byte[] delimDash;
    private final byte[] delimCr;
    private final byte[] crDelimDash;
    /** The bytes of the needles (findDelimiterCr skips a block whose last byte is none of them). */
    private final boolean[] inNeedle = new boolean[256];
    /**
     * findDelimiter's block filter: the byte pairs {@code (x, y)}, as bit {@code x | y << 8}, that can end a block
     * holding the start of a needle: two adjacent needle bytes, or any byte before the needle's first byte.
     */
    private final long[] blockEnds = new long[1024];
    /** Header-name bytes: tchar, and with allow_utf8_header_names also 80-FF (MP-H-01, MP-H-02). */
    private final boolean[] nameChars;

    // Input.
    private ByteBuffer in;
    private byte[] arr;
    private int arrBase;
    private int pos;
    private int end;
    private boolean over;
    private boolean eof;
    private byte[] window;
    /** Absolute offset of {@code arr[arrBase]}. */
    private long chunkBase;

    private int state = START;
    private FormwireException error;
    /** Held bytes: {@code heldPat[heldBase..heldBase + held)}, a prefix of a delimiter (or of a lookalike). */
    private int held = 2;
    private int heldBase;
    private byte[] heldPat;
    /** {@code heldPat} is a delimiter and its lookalike byte: the next byte decides (allow_near_delimiters). */
    private boolean heldNear;
    private boolean heldVirtual = true;
    /** The length of the needle the last search found (with allow_cr two lengths are possible). */
    private int matchLen;
    /** allow_cr or allow_near_delimiters: the body search of {@link #scanLenient}. */
    private final boolean lenientScan;
    /** The state after PART_END: AFTER_BOUNDARY, or DASH / LINE_CR when a held lookalike check read that byte. */
    private int afterDelim = AFTER_BOUNDARY;
    private long parts;
    /** MP-L-05: parts with a filename / without, so far. */
    private long files;
    private long fields;
    /** Where the current part's header block starts (the offset of MP-L-01 and MP-L-05). */
    private long blockStart;
    private long totalFieldBytes;

    // Header block.
    private int hs;
    private long headerLimitOff;
    private long lineStart;
    private long lines;
    private int nameStart;
    private int nameEnd;
    private int valueStart;
    private int trimFloor;
    private boolean folding;
    private byte[] hbuf = new byte[256];
    private int hlen;
    /** Per header: nameStart, nameEnd, valueStart, valueEnd. */
    private int[] spans = new int[32];
    private long[] lineStarts = new long[8];
    private int nheaders;

    // Current part.
    private Part part;
    private boolean inPart;
    private long bodyStart;
    private long bodyLen;
    private long bodyLimit;
    private ErrorCode bodyCode;
    private boolean isField;

    // Current data event.
    private byte[] dataArr;
    private int dataOff;
    private int dataLen;

    /**
     * A parser for the boundary {@code B} (the bytes after {@code --}).
     *
     * @throws FormwireException {@code MP_BOUNDARY} (empty, or holding CR, LF or NUL: MP-B-03),
     *     {@code MP_LIMIT_BOUNDARY} (longer than {@code max_boundary_bytes}: MP-B-04), offset 0
     */
    public MultipartParser(byte[] boundary, MultipartOptions options) {
        checkBoundary(boundary);
        if (boundary.length > options.maxBoundaryBytes) {
            throw new FormwireException(ErrorCode.MP_LIMIT_BOUNDARY, 0);
        }
        this.opts = options.clone();
        delim = new byte[boundary.length + 4];
        delim[0] = CR;
        delim[1] = LF;
        delim[2] = '-';
        delim[3] = '-';
        System.arraycopy(boundary, 0, delim, 4, boundary.length);
        needleStart = opts.allowLf ? 1 : 0;
        needleLen = delim.length - needleStart;
        needleFirst = (delim[needleStart] & 0xFFL) * ONES;
        for (int i = needleStart; i < delim.length; i++) {
            inNeedle[delim[i] & 0xFF] = true;
            if (i > needleStart) {
                markPair(delim[i - 1] & 0xFF, delim[i] & 0xFF);
            }
        }
        for (int x = 0; x < 256; x++) {
            markPair(x, delim[needleStart] & 0xFF);
        }
        heldPat = delim;
        if (opts.allowCr) {
            // MP-P-06: CR "--" B; findDelimiterCr's blocks are then the shortest needle's length.
            crDelim = new byte[delim.length - 1];
            crDelim[0] = CR;
            System.arraycopy(delim, 2, crDelim, 1, delim.length - 2);
            inNeedle[CR] = true;
        } else {
            crDelim = null;
        }
        if (opts.allowNearDelimiters) {
            delimDash = withByte(delim, (byte) '-');
            delimCr = withByte(delim, CR);
            crDelimDash = crDelim == null ? null : withByte(crDelim, (byte) '-');
        } else {
            delimDash = delimCr = crDelimDash = null;
        }
        lenientScan = opts.allowCr || opts.allowNearDelimiters;
        nameChars = opts.allowUtf8HeaderNames ? Ascii.NAME_UTF8 : Ascii.TOKEN;
    }

    private static byte[] withByte(byte[] a, byte b) {
        byte[] r = Arrays.copyOf(a, a.length + 1);
        r[a.length] = b;
        return r;
    }

    /**
     * A parser from a request Content-Type, isomorphic-decoded (MP-B-01..04).
     *
     * @throws FormwireException {@code MP_CONTENT_TYPE}, {@code MP_BOUNDARY}, {@code MP_LIMIT_BOUNDARY}, offset 0
     */
    public static MultipartParser forContentType(String contentType, MultipartOptions options) {
        return new MultipartParser(boundary(contentType), options);
    }

    /**
     * The boundary of a request Content-Type (MP-B-01..03): the WHATWG MIME type parser, essence
     * {@code multipart/form-data}, the first {@code boundary} parameter, UTF-8 encoded.
     */
    public static byte[] boundary(String contentType) {
        MimeType m = contentType == null ? null : MimeType.parse(contentType);
        if (m == null || !m.type().equals("multipart") || !m.subtype().equals("form-data")) {
            throw new FormwireException(ErrorCode.MP_CONTENT_TYPE, 0);
        }
        String b = m.param("boundary");
        byte[] bytes = (b == null ? "" : b).getBytes(StandardCharsets.UTF_8);
        checkBoundary(bytes);
        return bytes;
    }

    private static void checkBoundary(byte[] b) {
        boolean bad = b.length == 0;
        for (byte x : b) {
            bad |= x == CR || x == LF || x == 0;
        }
        if (bad) {
            throw new FormwireException(ErrorCode.MP_BOUNDARY, 0);
        }
    }

    /** The boundary {@code B}. */
    public byte[] boundary() {
        return Arrays.copyOfRange(delim, 4, delim.length);
    }

    /** Bytes consumed so far (held-back bytes count as consumed). */
    public long offset() {
        return chunkBase + (pos - arrBase);
    }

    /** {@code true} once {@link Event#END} was produced. */
    public boolean isDone() {
        return state == EPILOGUE;
    }

    /** The current part (from its {@code PART_START} to the next one), or {@code null}. */
    public Part part() {
        return part;
    }

    /** The body bytes of the latest {@link Event#DATA}, as a read-only view (no copy). */
    public ByteBuffer data() {
        return ByteBuffer.wrap(dataArr, dataOff, dataLen).slice().asReadOnlyBuffer();
    }

    /** The length of the latest {@link Event#DATA}. */
    public int dataLength() {
        return dataLen;
    }

    /** Copies the latest {@link Event#DATA} to {@code dst[at..]}. */
    public void copyData(int from, byte[] dst, int at, int n) {
        if (from < 0 || n < 0 || from + n > dataLen) {
            throw new IndexOutOfBoundsException();
        }
        System.arraycopy(dataArr, dataOff + from, dst, at, n);
    }

    // Package-private zero-copy access for the adapters of this package (the array must not be written).
    byte[] dataArray() {
        return dataArr;
    }

    int dataOffset() {
        return dataOff;
    }

    /**
     * Feeds one chunk, from its position to its limit. The parser reads it as {@link #next()} is called and advances
     * its position; do not change the buffer until it has no bytes remaining.
     *
     * @throws IllegalStateException when the previous chunk still has unconsumed bytes, or after {@link #finish()}
     */
    public void feed(ByteBuffer chunk) {
        if (eof) {
            throw new IllegalStateException("finish() was called");
        }
        if (in != null && in.hasRemaining()) {
            throw new IllegalStateException("the previous chunk is not used up: call next() until NEED_INPUT");
        }
        chunkBase = offset();
        in = chunk;
        arr = null;
        pos = end = arrBase = 0;
    }

    /** Feeds {@code b[off..off+len)}: {@code feed(ByteBuffer.wrap(b, off, len))}. */
    public void feed(byte[] b, int off, int len) {
        feed(ByteBuffer.wrap(b, off, len));
    }

    /**
     * Ends the input: the next {@link #next()} calls produce {@link Event#END} if the input ended right after the
     * close delimiter (MP-P-05), or throw {@code MP_TRUNCATED} at the input length (MP-P-07).
     */
    public void finish() {
        if (in != null && in.hasRemaining()) {
            throw new IllegalStateException("the previous chunk is not used up: call next() until NEED_INPUT");
        }
        chunkBase = offset();
        in = null;
        arr = null;
        pos = end = arrBase = 0;
        eof = true;
    }

    /** Sets {@code arr/pos/end} from the input buffer (MP-L-03: only bytes before {@code max_total_bytes}). */
    private boolean load() {
        if (in == null || !in.hasRemaining()) {
            return false;
        }
        long base = chunkBase + (pos - arrBase);
        long room = opts.maxTotalBytes - base;
        int rem = in.remaining();
        int take = rem;
        over = false;
        if (rem > room) {
            take = (int) Math.max(0, room);
            over = true;
        }
        if (in.hasArray()) {
            arr = in.array();
            arrBase = in.arrayOffset() + in.position();
        } else {
            int w = Math.min(take, WINDOW);
            if (w < take) {
                over = false;
            }
            take = w;
            if (window == null || window.length < Math.max(w, 1)) {
                window = new byte[Math.max(w, 1)];
            }
            in.get(in.position(), window, 0, w);
            arr = window;
            arrBase = 0;
        }
        pos = arrBase;
        end = arrBase + take;
        chunkBase = base;
        return true;
    }

    private void sync() {
        if (in != null && arr != null) {
            int used = pos - arrBase;
            chunkBase += used;
            in.position(in.position() + used);
            arrBase = pos;
        }
    }

    /**
     * The next event.
     *
     * @throws FormwireException on bad input or an exceeded limit (then on every later call)
     */
    public Event next() {
        if (error != null) {
            throw error;
        }
        if (state == S_PART_END) {
            partEnd();
            return Event.PART_END;
        }
        while (true) {
            if (arr == null || pos == end) {
                if (arr != null && over) {
                    sync();
                    throw fail(ErrorCode.MP_LIMIT_TOTAL_BYTES, opts.maxTotalBytes);
                }
                sync();
                if (!load()) {
                    if (eof) {
                        return atEof();
                    }
                    // A state change that needs no byte (an event at the very end of a chunk).
                    int r = runNoInput();
                    return r < 0 ? Event.NEED_INPUT : toEvent(r);
                }
                if (pos == end && !over) {
                    continue;
                }
            }
            int r;
            try {
                r = run();
            } catch (FormwireException e) {
                sync();
                throw e;
            }
            if (r >= 0) {
                sync();
                return toEvent(r);
            }
        }
    }

    private static final int R_NONE = -1;
    private static final int R_PART_START = 0;
    private static final int R_DATA = 1;
    private static final int R_PART_END = 2;
    private static final int R_END = 3;

    private Event toEvent(int r) {
        switch (r) {
            case R_PART_START: return Event.PART_START;
            case R_DATA: return Event.DATA;
            case R_PART_END: return Event.PART_END;
            default: return Event.END;
        }
    }

    private int runNoInput() {
        switch (state) {
            case S_PART_START:
                state = BODY;
                return R_PART_START;
            case S_END:
                state = EPILOGUE;
                return R_END;
            default:
                return R_NONE;
        }
    }

    private void partEnd() {
        inPart = false;
        state = afterDelim;
        afterDelim = AFTER_BOUNDARY;
    }

    /** MP-P-05, MP-P-07: the input ended. */
    private Event atEof() {
        int r = runNoInput();
        if (r >= 0) {
            return toEvent(r);
        }
        if (state == CLOSE || (state == CLOSE_CR && opts.allowCr)) {
            // MP-P-05: with allow_cr the CR ended the close delimiter line.
            state = EPILOGUE;
            return Event.END;
        }
        if (state == EPILOGUE) {
            return Event.NEED_INPUT;
        }
        throw fail(ErrorCode.MP_TRUNCATED, offset());
    }

    private FormwireException fail(ErrorCode code, long off) {
        error = new FormwireException(code, off);
        return error;
    }

    private long off(int p) {
        return chunkBase + (p - arrBase);
    }

    private int run() {
        while (true) {
            switch (state) {
                case START:
                case BODY: {
                    int r = scan();
                    if (r >= 0) {
                        return r;
                    }
                    if (pos == end && (state == START || state == BODY)) {
                        return R_NONE;
                    }
                    break;
                }
                case S_PART_START:
                    state = BODY;
                    return R_PART_START;
                case S_PART_END:
                    partEnd();
                    return R_PART_END;
                case S_END:
                    state = EPILOGUE;
                    return R_END;
                case EPILOGUE:
                    pos = end; // MP-P-05: ignored, but counted (MP-L-03)
                    return R_NONE;
                case HEADERS:
                    if (!headersStep()) {
                        return R_NONE;
                    }
                    break;
                default:
                    if (pos == end) {
                        return R_NONE;
                    }
                    if (state == AFTER_BOUNDARY && pos + 1 < end && arr[pos] == CR && arr[pos + 1] == LF) {
                        pos++;
                        delimiterLineEnd();
                        break;
                    }
                    delimiterLine();
            }
        }
    }

    /** The rest of a delimiter line, one byte (MP-P-03, MP-P-05). */
    private void delimiterLine() {
        byte b = arr[pos];
        long off = off(pos);
        boolean lfOk = opts.allowLf;
        switch (state) {
            case AFTER_BOUNDARY:
                if (b == '-') {
                    state = DASH;
                } else if (b == SP || b == HT) {
                    state = PADDING;
                } else if (b == CR) {
                    state = LINE_CR;
                } else if (b == LF && lfOk) {
                    delimiterLineEnd();
                    return;
                } else {
                    throw fail(ErrorCode.MP_DELIMITER, off);
                }
                break;
            case DASH:
                if (b != '-') {
                    throw fail(ErrorCode.MP_DELIMITER, off);
                }
                // MP-P-05, MP-P-07: with allow_junk_after_close the epilogue starts right after `--B--`.
                state = opts.allowJunkAfterClose ? S_END : CLOSE;
                break;
            case PADDING:
                if (b == CR) {
                    state = LINE_CR;
                } else if (b == LF && lfOk) {
                    delimiterLineEnd();
                    return;
                } else if (b != SP && b != HT) {
                    throw fail(ErrorCode.MP_DELIMITER, off);
                }
                break;
            case LINE_CR:
                if (b != LF) {
                    if (opts.allowCr) {
                        partBegins(); // MP-P-03: the line ended at the CR; b is the header block's first byte
                        return;
                    }
                    throw fail(ErrorCode.MP_DELIMITER, off);
                }
                delimiterLineEnd();
                return;
            case CLOSE:
                if (b == CR) {
                    state = CLOSE_CR;
                } else if (b == LF && lfOk) {
                    state = S_END;
                } else if (b != SP && b != HT) {
                    throw fail(ErrorCode.MP_DELIMITER, off);
                }
                break;
            case CLOSE_CR:
                if (b != LF) {
                    if (opts.allowCr) {
                        state = S_END; // MP-P-05: the line ended at the CR; b is epilogue
                        return;
                    }
                    throw fail(ErrorCode.MP_DELIMITER, off);
                }
                state = S_END;
                break;
            default:
                throw new AssertionError(state);
        }
        pos++;
    }

    /** The LF of a (non-close) delimiter line at {@code pos}: a part begins. */
    private void delimiterLineEnd() {
        pos++;
        partBegins();
    }

    /** A (non-close) delimiter line ended before {@code pos}: a part's header block begins there. */
    private void partBegins() {
        long off = off(pos);
        parts++; // MP-L-01
        if (parts > opts.maxParts) {
            throw fail(ErrorCode.MP_LIMIT_PARTS, off);
        }
        blockStart = off;
        headerLimitOff = satAdd(off, opts.maxHeaderBytes);
        lines = 0;
        folding = false;
        hlen = 0;
        nheaders = 0;
        state = HEADERS;
        hs = H_LINE_START;
    }

    private static long satAdd(long a, long b) {
        long r = a + b;
        return r < a ? Long.MAX_VALUE : r;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Delimiter search (MP-P-01, MP-P-02, MP-P-04, MP-P-06, MP-P-08)

    private static boolean follower(byte b) {
        return b == '-' || b == SP || b == HT || b == CR || b == LF; // MP-P-04
    }

    /** Scans a body (or, in state START, the bytes before the first delimiter). */
    private int scan() {
        if (lenientScan) {
            return scanLenient();
        }
        boolean inBody = state == BODY;
        if (held > 0) {
            // Continue a delimiter match begun in an earlier chunk; it can only begin at the held bytes' first byte.
            int patLen = delim.length - heldBase;
            while (held < patLen) {
                if (pos == end) {
                    return R_NONE;
                }
                if (arr[pos] != delim[heldBase + held]) {
                    return heldMismatch(pos);
                }
                held++;
                pos++;
            }
            if (pos == end) {
                return R_NONE;
            }
            if (!follower(arr[pos])) {
                return heldMismatch(pos);
            }
            held = 0;
            heldVirtual = false;
            delimiterFound();
            return R_NONE;
        }
        boolean lfMode = opts.allowLf;
        int start = pos;
        int from = start;
        int m;
        while ((m = findDelimiter(from, end)) >= 0) {
            // With allow_lf a CR before `LF--B` belongs to the delimiter (MP-P-06).
            int d = lfMode && m > start && arr[m - 1] == CR ? m - 1 : m;
            int after = m + needleLen;
            if (after == end) {
                // The byte that decides MP-P-04 is in the next chunk.
                hold(d, end);
                pos = end;
                return bodyData(inBody, start, d);
            }
            if (follower(arr[after])) {
                pos = after;
                delimiterFound();
                return bodyData(inBody, start, d);
            }
            from = m + 1; // MP-P-04: `CRLF--BX` is body data
        }
        int h = tailStart(start, end);
        if (h < end) {
            hold(h, end);
        }
        pos = end;
        return bodyData(inBody, start, h);
    }

    /** {@link #scan} with allow_cr or allow_near_delimiters: two needle lengths, and lookalikes (MP-P-03). */
    private int scanLenient() {
        boolean inBody = state == BODY;
        if (held > 0) {
            return scanHeld(inBody);
        }
        boolean lfMode = opts.allowLf;
        boolean crMode = crDelim != null;
        int start = pos;
        int from = start;
        int m;
        while ((m = crMode ? findDelimiterCr(from, end) : findDelimiter(from, end)) >= 0) {
            // With allow_lf a CR before `LF--B` belongs to the delimiter (MP-P-06).
            int d = lfMode && m > start && arr[m] == LF && arr[m - 1] == CR ? m - 1 : m;
            int after = m + (crMode ? matchLen : needleLen);
            if (after == end) {
                // The byte that decides MP-P-04 is in the next chunk.
                hold(d, end);
                pos = end;
                return bodyData(inBody, start, d);
            }
            byte f = arr[after];
            if (follower(f)) {
                if (inBody && lookalikeByte(f)) {
                    if (after + 1 == end) {
                        hold(d, end); // the byte that decides MP-P-03's lookalike is in the next chunk
                        pos = end;
                        return bodyData(inBody, start, d);
                    }
                    if (!closesLookalike(f, arr[after + 1])) {
                        from = after + 1; // MP-P-03, allow_near_delimiters: body data; the search goes on after it
                        continue;
                    }
                }
                pos = after;
                delimiterFound();
                return bodyData(inBody, start, d);
            }
            from = m + 1; // MP-P-04: `CRLF--BX` is body data
        }
        int h = tailStart(start, end);
        if (h < end) {
            hold(h, end);
        }
        pos = end;
        return bodyData(inBody, start, h);
    }

    /**
     * MP-P-03 with allow_near_delimiters: inside a body, {@code "--" B} then this byte is a delimiter only if the
     * next byte is {@code -} (after {@code -}) or LF (after CR; with allow_cr a CR always ends the line).
     */
    private boolean lookalikeByte(byte f) {
        return delimDash != null && (f == '-' || (f == CR && crDelim == null));
    }

    private static boolean closesLookalike(byte f, byte g) {
        return f == '-' ? g == '-' : g == LF;
    }

    /** Continues a delimiter match begun in an earlier chunk (MP-P-08); it can only begin at the held bytes' first byte. */
    private int scanHeld(boolean inBody) {
        while (true) {
            byte[] pat = heldPat;
            int patLen = pat.length - heldBase;
            while (held < patLen) {
                if (pos == end) {
                    return R_NONE;
                }
                byte c = arr[pos];
                if (held == 1 && crDelim != null && pat == delim && heldBase == 0 && c != LF) {
                    pat = heldPat = crDelim; // allow_cr: a held CR not followed by LF can only begin CR "--" B
                    patLen = pat.length;
                }
                if (c != pat[heldBase + held]) {
                    return heldMismatch(pos);
                }
                held++;
                pos++;
            }
            if (pos == end) {
                return R_NONE;
            }
            byte f = arr[pos];
            if (heldNear) {
                byte look = pat[pat.length - 1];
                if (!closesLookalike(look, f)) {
                    return heldMismatch(pos); // MP-P-03: a lookalike, body data
                }
                // A delimiter after all; its line goes on after the byte already read.
                heldNear = false;
                held = 0;
                afterDelim = look == '-' ? DASH : LINE_CR;
                delimiterFound();
                return R_NONE;
            }
            if (!follower(f)) {
                return heldMismatch(pos);
            }
            if (inBody && lookalikeByte(f)) {
                heldPat = pat == crDelim ? crDelimDash : f == '-' ? delimDash : delimCr;
                heldNear = true;
                held++;
                pos++;
                continue;
            }
            held = 0;
            heldVirtual = false;
            delimiterFound();
            return R_NONE;
        }
    }

    private void markPair(int x, int y) {
        int k = x | y << 8;
        blockEnds[k >>> 6] |= 1L << k;
    }

    /**
     * The first complete needle in {@code arr[from..end)}, or -1.
     *
     * <p>Blocks of {@code needleLen} bytes: a needle that starts in {@code [p, p + needleLen)} covers the block's last
     * byte, and either starts there (that byte is the needle's first) or covers the byte before it too (the two are
     * adjacent needle bytes). So a block whose last two bytes are neither is skipped after one two-byte read; on
     * random bytes that is all but a few blocks in a thousand (a filter on the last byte alone lets one in eight
     * through, and each costs a mispredicted branch). Other blocks are scanned word at a time (eight bytes tested for
     * the needle's first byte, CR or LF with allow_lf, at once) and each candidate is verified with one compare.
     * Every byte is read a bounded number of times by the scan (the filter's two, a scanned block's words, which may
     * reach into the next block), and a verification that matches k bytes is followed by no candidate for k bytes (the
     * needle holds its first byte only once), so the search stays linear (MP-P-08); on typical file bodies it reads a
     * fraction of the bytes.
     */
    private int findDelimiter(int from, int end) {
        final byte[] a = arr;
        final int nl = needleLen;
        final long[] pairs = blockEnds;
        int p = from;
        while (p + nl <= end) {
            int q = p + nl - 2;
            int k = (a[q] & 0xFF) | (a[q + 1] & 0xFF) << 8;
            if ((pairs[k >>> 6] & (1L << k)) != 0) {
                int m = scanBlock(a, p, p + nl, end);
                if (m >= 0) {
                    return m;
                }
            }
            p += nl;
        }
        return -1;
    }

    /** Candidates starting in {@code [p, blockEnd)}, word at a time; words may read past the block up to {@code end}. */
    private int scanBlock(byte[] a, int p, int blockEnd, int end) {
        final byte first = delim[needleStart];
        while (p < blockEnd) {
            if (p + 8 <= end) {
                long x = (long) LONGS.get(a, p) ^ needleFirst;
                long t = (x - ONES) & ~x & HIGHS;
                while (t != 0) {
                    // The lowest flagged byte is an exact match; higher flags may be borrows, hence a[m] == first.
                    int m = p + (Long.numberOfTrailingZeros(t) >>> 3);
                    if (m >= blockEnd) {
                        return -1;
                    }
                    if (a[m] == first && verify(a, m, end)) {
                        return m;
                    }
                    t &= t - 1;
                }
                p += 8;
            } else {
                if (a[p] == first && verify(a, p, end)) {
                    return p;
                }
                p++;
            }
        }
        return -1;
    }

    /**
     * allow_cr's search (MP-P-06): the first complete {@code CRLF "--" B}, {@code CR "--" B} or, with allow_lf,
     * {@code LF "--" B} in {@code arr[from..end)}, or -1; {@code matchLen} is its length. Blocks the length of the
     * shortest needle are skipped when their last byte occurs in no needle; in the others every CR (and LF) is a
     * candidate, verified against the one needle its next byte allows. CR and LF occur in a needle only at its start
     * (the boundary holds neither), so a verification that matches k bytes is followed by no candidate for k bytes,
     * and the search stays linear (MP-P-08).
     */
    private int findDelimiterCr(int from, int end) {
        final byte[] a = arr;
        final byte[] cr = crDelim;
        final int nl = cr.length;
        final boolean lfMode = opts.allowLf;
        final boolean[] in = inNeedle;
        int p = from;
        while (p + nl <= end) {
            if (!in[a[p + nl - 1] & 0xFF]) {
                p += nl;
                continue;
            }
            for (int blockEnd = p + nl; p < blockEnd; p++) {
                byte c = a[p];
                if (c == CR) {
                    if (p + 1 < end && a[p + 1] == LF) {
                        int n = delim.length;
                        if (p + n <= end && Arrays.mismatch(a, p, p + n, delim, 0, n) < 0) {
                            matchLen = n;
                            return p;
                        }
                    } else if (p + nl <= end && Arrays.mismatch(a, p, p + nl, cr, 0, nl) < 0) {
                        matchLen = nl;
                        return p;
                    }
                } else if (c == LF && lfMode && p + nl <= end
                        && Arrays.mismatch(a, p, p + nl, delim, 1, delim.length) < 0) {
                    matchLen = nl;
                    return p;
                }
            }
        }
        return -1;
    }

    private boolean verify(byte[] a, int m, int end) {
        int nl = needleLen;
        return m + nl <= end && a[m + 1] == delim[needleStart + 1]
                && Arrays.mismatch(a, m, m + nl, delim, needleStart, delim.length) < 0;
    }

    /** Where a delimiter prefix begins at the end of {@code arr[lo..end)} ({@code end} when none). */
    private int tailStart(int lo, int end) {
        int n = delim.length;
        int window = Math.max(lo, end - (n - 1));
        if (crDelim != null) {
            return tailStartCr(lo, end, window);
        }
        if (!opts.allowLf) {
            for (int q = end - 1; q >= window; q--) {
                if (arr[q] == CR) {
                    return Arrays.mismatch(arr, q, end, delim, 0, end - q) < 0 ? q : end;
                }
            }
            return end;
        }
        for (int q = end - 1; q >= window; q--) {
            if (arr[q] == CR) {
                return q + 1 == end ? q : end; // a CR can only begin `CRLF--B` as the very last byte
            }
            if (arr[q] == LF) {
                if (Arrays.mismatch(arr, q, end, delim, 1, 1 + end - q) < 0) {
                    return q > lo && arr[q - 1] == CR ? q - 1 : q;
                }
                return end;
            }
        }
        return end;
    }

    /** {@link #tailStart} with allow_cr: a CR may also begin {@code CR "--" B} anywhere in the tail. */
    private int tailStartCr(int lo, int end, int window) {
        for (int q = end - 1; q >= window; q--) {
            if (arr[q] == CR) {
                byte[] pat = q + 1 < end && arr[q + 1] == LF ? delim : crDelim;
                return Arrays.mismatch(arr, q, end, pat, 0, end - q) < 0 ? q : end;
            }
            if (arr[q] == LF && opts.allowLf) {
                if (Arrays.mismatch(arr, q, end, delim, 1, 1 + end - q) < 0) {
                    return q > lo && arr[q - 1] == CR ? q - 1 : q;
                }
                return end;
            }
        }
        return end;
    }

    /** Holds {@code arr[from..end)}: a delimiter prefix, a whole delimiter, or a delimiter and its lookalike byte. */
    private void hold(int from, int end) {
        int n = end - from;
        byte[] pat = delim;
        int base = arr[from] == CR ? 0 : 1;
        if (crDelim != null && base == 0 && n > 1 && arr[from + 1] != LF) {
            pat = crDelim;
        }
        if (n > pat.length - base) {
            pat = pat == crDelim ? crDelimDash : arr[end - 1] == '-' ? delimDash : delimCr;
            heldNear = true;
        }
        heldPat = pat;
        heldBase = base;
        held = n;
    }

    /** The held bytes did not continue into a delimiter. */
    private int heldMismatch(int at) {
        int base = heldBase;
        int len = held;
        byte[] pat = heldPat;
        held = 0;
        heldNear = false;
        if (heldVirtual) {
            heldVirtual = false;
            if (!opts.allowPreamble) {
                // MP-P-02 strict: the body must begin with `--B`, and the line goes on as MP-P-03 says.
                throw fail(len == delim.length ? ErrorCode.MP_DELIMITER : ErrorCode.MP_PREAMBLE, off(at));
            }
            return R_NONE;
        }
        if (state == BODY) {
            countBody(len);
            dataArr = pat;
            dataOff = base;
            dataLen = len;
            return R_DATA;
        }
        return R_NONE;
    }

    private void delimiterFound() {
        state = state == BODY ? S_PART_END : AFTER_BOUNDARY;
    }

    private int bodyData(boolean inBody, int a, int b) {
        if (!inBody || a == b) {
            return R_NONE;
        }
        countBody(b - a);
        dataArr = arr;
        dataOff = a;
        dataLen = b - a;
        return R_DATA;
    }

    /** MP-L-02, MP-L-04: body bytes count once they are known not to be a delimiter. */
    private void countBody(int n) {
        long len = bodyLen + n;
        long fieldOff = Long.MAX_VALUE;
        if (len > bodyLimit) {
            fieldOff = satAdd(bodyStart, bodyLimit);
        }
        if (isField) {
            long total = totalFieldBytes + n;
            if (total > opts.maxTotalFieldBytes) {
                long totalOff = bodyStart + bodyLen + (opts.maxTotalFieldBytes - totalFieldBytes);
                if (totalOff < fieldOff) {
                    throw fail(ErrorCode.MP_LIMIT_TOTAL_FIELD_BYTES, totalOff);
                }
            }
            totalFieldBytes = total;
        }
        if (fieldOff != Long.MAX_VALUE) {
            throw fail(bodyCode, fieldOff);
        }
        bodyLen = len;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Header lines (MP-H-01..05)

    /** MP-H-05 (1) for a header-line byte at {@code off}. */
    private void headerByte(long off) {
        if (off >= headerLimitOff) {
            throw fail(ErrorCode.MP_LIMIT_HEADER_BYTES, headerLimitOff);
        }
    }

    private int headerRoom(long off) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, headerLimitOff - off));
    }

    private void push(byte b) {
        if (hlen == hbuf.length) {
            hbuf = Arrays.copyOf(hbuf, hlen * 2);
        }
        hbuf[hlen++] = b;
    }

    private void pushRange(byte[] src, int a, int b, boolean lower) {
        int n = b - a;
        if (hlen + n > hbuf.length) {
            hbuf = Arrays.copyOf(hbuf, Math.max(hbuf.length * 2, hlen + n));
        }
        if (lower) {
            for (int i = a; i < b; i++) {
                hbuf[hlen++] = Ascii.lower(src[i]);
            }
        } else {
            System.arraycopy(src, a, hbuf, hlen, n);
            hlen += n;
        }
    }

    /**
     * A whole header block in the common shape, in one pass: every line {@code token ":" OWS value CRLF} with nothing
     * that needs a second look (no OWS before the colon or at the start, no obs-fold, no NUL or bare CR/LF, within the
     * limits), then the empty line, all in this chunk. Fills {@code hbuf} and the spans exactly as the byte-at-a-time
     * path does and returns where the body begins; -1 (nothing kept) leaves the block to that path, which decides
     * everything else, errors included.
     */
    private int headersFast() {
        final byte[] a = arr;
        final boolean[] nameChar = nameChars;
        long room = headerLimitOff - off(pos);
        int limit = (int) Math.min(end, pos + Math.max(0, Math.min(room, Integer.MAX_VALUE)));
        int p = pos;
        long n = 0;
        while (true) {
            if (p + 1 < end && a[p] == CR && a[p + 1] == LF) {
                return p + 2; // the empty line (not counted against max_header_bytes)
            }
            if (++n > opts.maxHeaders) {
                return bail();
            }
            int ls = p;
            nameStart = hlen;
            // The names browsers send, spelled as they send them: one compare instead of a loop.
            if (p + CD.length < limit && Arrays.equals(a, p, p + CD.length, CD, 0, CD.length)) {
                pushRange(CD_LOWER, 0, CD_LOWER.length, false);
                p += CD.length - 1;
            } else if (p + CT.length < limit && Arrays.equals(a, p, p + CT.length, CT, 0, CT.length)) {
                pushRange(CT_LOWER, 0, CT_LOWER.length, false);
                p += CT.length - 1;
            } else {
                while (p < limit && nameChar[a[p] & 0xFF]) {
                    p++;
                }
                if (p == ls || p >= limit || a[p] != ':') {
                    return bail();
                }
                pushRange(a, ls, p, true);
            }
            nameEnd = hlen;
            p++;
            while (p < limit && (a[p] == SP || a[p] == HT)) {
                p++;
            }
            int v = p;
            while (p < limit && a[p] != CR && a[p] != LF && a[p] != 0) {
                p++;
            }
            // The CR and its LF are header-line bytes too.
            if (p + 1 >= limit || a[p] != CR || a[p + 1] != LF) {
                return bail();
            }
            int ve = p;
            while (ve > v && (a[ve - 1] == SP || a[ve - 1] == HT)) {
                ve--;
            }
            valueStart = hlen;
            trimFloor = hlen;
            pushRange(a, v, ve, false);
            lineStart = off(ls);
            folding = false;
            endLine();
            p += 2;
            if (p < end && (a[p] == SP || a[p] == HT)) {
                return bail(); // MP-H-04: a continuation line takes the slow path
            }
        }
    }

    private int bail() {
        hlen = 0;
        nheaders = 0;
        return -1;
    }

    /** Runs header lines; {@code true} when the block is complete. */
    private boolean headersStep() {
        boolean lfOk = opts.allowLf;
        if (hs == H_LINE_START && lines == 0) {
            int body = headersFast();
            if (body >= 0) {
                long cr = off(body - 2);
                pos = body;
                lines = nheaders;
                endBlock(cr, cr + 2);
                return true;
            }
        }
        while (true) {
            if (pos == end) {
                return false;
            }
            byte b = arr[pos];
            long off = off(pos);
            switch (hs) {
                case H_LINE_START:
                    if (b == CR) {
                        hs = H_LINE_START_CR; // the empty line, or a bare CR: decided by the next byte
                        pos++;
                        continue;
                    }
                    if (b == LF && lfOk) {
                        pos++;
                        endBlock(off, off + 1);
                        return true;
                    }
                    headerByte(off);
                    if ((b == SP || b == HT) && lines > 0) {
                        if (!opts.allowObsFold) { // MP-H-04
                            throw fail(ErrorCode.MP_OBS_FOLD, off);
                        }
                        push(SP);
                        trimFloor = hlen;
                        folding = true;
                        hs = H_FOLD_OWS;
                        pos++;
                        continue;
                    }
                    newLine(off);
                    if (b == SP || b == HT) {
                        hs = H_LEAD; // MP-H-01: the first line may start with OWS
                        pos++;
                    } else {
                        hs = H_NAME;
                    }
                    break;
                case H_LINE_START_CR: {
                    long cr = off - 1;
                    if (b == LF) {
                        pos++;
                        endBlock(cr, off + 1);
                        return true;
                    }
                    if (opts.allowCr) {
                        endBlock(cr, off); // MP-H-03: an empty line ended by a bare CR; b is the body's first byte
                        return true;
                    }
                    // A bare CR begins a header line: limits, then MP-H-02 (CR is not a token byte).
                    headerByte(cr);
                    newLine(cr);
                    throw fail(ErrorCode.MP_HEADER_NAME, cr);
                }
                case H_LEAD:
                    headerByte(off);
                    if (b == SP || b == HT) {
                        pos++;
                    } else {
                        hs = H_NAME;
                    }
                    break;
                case H_NAME: {
                    int stop = (int) Math.min(end, (long) pos + headerRoom(off));
                    int p = pos;
                    final boolean[] nameChar = nameChars;
                    while (p < stop && nameChar[arr[p] & 0xFF]) {
                        p++;
                    }
                    pushRange(arr, pos, p, true);
                    pos = p;
                    if (p == end) {
                        continue;
                    }
                    long o = off(p);
                    headerByte(o);
                    byte c = arr[p];
                    if (c == ':') {
                        if (hlen == nameStart) {
                            throw fail(ErrorCode.MP_HEADER_NAME, o);
                        }
                        nameEnd = hlen;
                        hs = H_VALUE_OWS;
                    } else if ((c == SP || c == HT) && hlen > nameStart) {
                        hs = H_NAME_OWS;
                    } else {
                        // MP-H-02: before the colon every other byte (CR, LF, NUL included) fails the name check.
                        throw fail(ErrorCode.MP_HEADER_NAME, o);
                    }
                    pos++;
                    break;
                }
                case H_NAME_OWS:
                    headerByte(off);
                    if (b == ':') {
                        nameEnd = hlen;
                        hs = H_VALUE_OWS;
                    } else if (b != SP && b != HT) {
                        throw fail(ErrorCode.MP_HEADER_NAME, off);
                    }
                    pos++;
                    break;
                case H_VALUE_OWS:
                case H_FOLD_OWS:
                    if (b == SP || b == HT) {
                        headerByte(off);
                        pos++;
                    } else {
                        if (hs == H_VALUE_OWS) {
                            valueStart = hlen;
                            trimFloor = valueStart;
                        }
                        hs = H_VALUE;
                    }
                    break;
                case H_VALUE: {
                    int stop = (int) Math.min(end, (long) pos + headerRoom(off));
                    int p = pos;
                    while (p < stop) {
                        byte c = arr[p];
                        if (c == 0 || c == CR || c == LF) {
                            break;
                        }
                        p++;
                    }
                    pushRange(arr, pos, p, false);
                    pos = p;
                    if (p == end) {
                        continue;
                    }
                    long o = off(p);
                    headerByte(o);
                    byte c = arr[p];
                    if (c == CR) {
                        hs = H_VALUE_CR;
                    } else if (c == LF && lfOk) {
                        endLine();
                        hs = H_LINE_START;
                    } else {
                        throw fail(ErrorCode.MP_HEADER_VALUE, o);
                    }
                    pos++;
                    break;
                }
                case H_VALUE_CR:
                    if (b != LF) {
                        if (opts.allowCr) {
                            endLine(); // MP-H-02: the line ended at the CR; b is the next line's first byte
                            hs = H_LINE_START;
                            break;
                        }
                        throw fail(ErrorCode.MP_HEADER_VALUE, off - 1);
                    }
                    headerByte(off);
                    endLine();
                    hs = H_LINE_START;
                    pos++;
                    break;
                default:
                    throw new AssertionError(hs);
            }
        }
    }

    /** MP-H-05 (2): a new header line begins at {@code off}. */
    private void newLine(long off) {
        lines++;
        if (lines > opts.maxHeaders) {
            throw fail(ErrorCode.MP_LIMIT_HEADERS, off);
        }
        lineStart = off;
        folding = false;
        nameStart = hlen;
    }

    /** A header line ended: trim trailing OWS (MP-H-01) and record it. */
    private void endLine() {
        while (hlen > trimFloor && (hbuf[hlen - 1] == SP || hbuf[hlen - 1] == HT)) {
            hlen--;
        }
        if (folding) {
            if (hlen == trimFloor) {
                hlen--; // MP-H-04: a continuation line empty after its OWS adds nothing, not even the SP
            }
            if (nheaders > 0) {
                spans[(nheaders - 1) * 4 + 3] = hlen;
            }
            folding = false;
            return;
        }
        if ((nheaders + 1) * 4 > spans.length) {
            spans = Arrays.copyOf(spans, spans.length * 2);
        }
        if (nheaders + 1 > lineStarts.length) {
            lineStarts = Arrays.copyOf(lineStarts, lineStarts.length * 2);
        }
        int i = nheaders * 4;
        spans[i] = nameStart;
        spans[i + 1] = nameEnd;
        spans[i + 2] = valueStart;
        spans[i + 3] = hlen;
        lineStarts[nheaders++] = lineStart;
    }

    private boolean nameIs(int h, String lower) {
        int a = spans[h * 4];
        int b = spans[h * 4 + 1];
        if (b - a != lower.length()) {
            return false;
        }
        for (int i = 0; i < b - a; i++) {
            if (hbuf[a + i] != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** MP-H-06: the empty line at {@code emptyLine} ended the block; the body begins at {@code start}. */
    private void endBlock(long emptyLine, long start) {
        int cd = -1;
        int ct = -1;
        for (int h = 0; h < nheaders; h++) {
            if (nameIs(h, "content-disposition")) {
                if (cd >= 0) {
                    throw fail(ErrorCode.MP_DISPOSITION, lineStarts[h]);
                }
                cd = h;
            } else if (nameIs(h, "content-type")) {
                ct = h;
            }
        }
        Disposition d;
        if (cd < 0 || spans[cd * 4 + 2] == spans[cd * 4 + 3]) {
            // MP-H-06: none, or one with an empty value (OWS trimmed, obs-folds joined): with
            // allow_missing_disposition a nameless part (a field for every limit), else an error.
            if (!opts.allowMissingDisposition) {
                throw cd < 0 ? fail(ErrorCode.MP_NO_DISPOSITION, emptyLine) : fail(ErrorCode.MP_DISPOSITION, lineStarts[cd]);
            }
            d = Disposition.NAMELESS;
        } else {
            d = Disposition.parse(hbuf, spans[cd * 4 + 2], spans[cd * 4 + 3], opts);
            if (d == null) {
                throw fail(ErrorCode.MP_DISPOSITION, lineStarts[cd]);
            }
        }
        // MP-L-05: a file part has a filename (MP-L-02's rule); the offset is MP-L-01's.
        if (d.filename != null) {
            if (++files > opts.maxFiles) {
                throw fail(ErrorCode.MP_LIMIT_FILES, blockStart);
            }
        } else if (++fields > opts.maxFields) {
            throw fail(ErrorCode.MP_LIMIT_FIELDS, blockStart);
        }
        // One copy of the header block per part; Header objects are made only if asked for (Part.headers()).
        part = new Part(d, Arrays.copyOf(hbuf, hlen), Arrays.copyOf(spans, nheaders * 4), cd, ct, start);
        inPart = true;
        bodyStart = start;
        bodyLen = 0;
        isField = d.filename == null;
        bodyLimit = isField ? opts.maxFieldBytes : opts.maxFileBytes;
        bodyCode = isField ? ErrorCode.MP_LIMIT_FIELD_BYTES : ErrorCode.MP_LIMIT_FILE_BYTES;
        state = S_PART_START;
    }

    /** {@code true} between a part's {@code PART_START} and its {@code PART_END}. */
    public boolean inPart() {
        return inPart;
    }
}
