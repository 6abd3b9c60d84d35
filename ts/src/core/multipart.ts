/**
 * Sans-IO multipart/form-data parser (spec/multipart.md §1-§5). Bytes in through `write(chunk)`, events out through
 * a handler; `end()` says the input is complete. Runtime-free: only Uint8Array and TextDecoder/TextEncoder.
 *
 * Body bytes are reported as `subarray` views of the chunk being written. The only body bytes ever copied are the
 * at most `len(CRLF "--" B)` bytes held back across a chunk edge when they could start a delimiter (MP-P-08); those
 * are reported as fresh copies. Views are valid for as long as the caller keeps the chunk unchanged.
 *
 * No module-level mutable state: what a parse keeps (scratch, caches) belongs to its parser, and what the runtime
 * provides (the delimiter search, faster text decoders) comes in through the constructor.
 *
 * The part's header view (PartInfo) is in core/part.ts, the Content-Disposition reader in core/disposition.ts.
 */
import { FormwireError, type MultipartErrorCode } from './errors.js';
import { parseMimeType } from './mime.js';
import { MULTIPART_DEFAULTS, type MultipartFlags, type MultipartLimits } from './registry.js';
import { PORTABLE_TEXT, TextCodec, encodeUtf8 } from './utf8.js';
import { DelimiterScan } from './scan.js';
import { PartContext, PartInfo, RawBlock } from './part.js';
import * as part from './part.js';
import { D_8BIT_NAMES, D_ANY_TYPE, SEG, parseDisposition } from './disposition.js';

/**
 * Parser options: the lenient flags (MP-R-02) and limits (spec/limits.md), both generated from spec/registry.json.
 * `Infinity` means unlimited.
 */
export interface MultipartOptions extends MultipartFlags, MultipartLimits {}

/** spec/limits.md defaults (generated from spec/registry.json). */
export { MULTIPART_DEFAULTS };

/** A part's header view (core/part.ts), re-exported for the importers of this module. */
export { PartInfo };
/** @internal */
export { PartContext } from './part.js';

/** A substring search: the first index >= from at which needle occurs in haystack, or -1. */
export type IndexOf = (haystack: Uint8Array, needle: Uint8Array, from: number) => number;

/**
 * How a parser finds delimiters in bodies: a substring search (the runtime's native one, for example), `'scan'`,
 * the core's own pure-JS search (core/scan.ts), which reads one byte pair per needle length, or a ScanSearch.
 */
export type Search = IndexOf | 'scan' | ScanSearch;

/** The core's scan, handing stretches dense in needle pairs (delimiter near-misses) to `dense` (core/scan.ts). */
export interface ScanSearch {
  readonly dense: IndexOf;
}

/** Pure fallback search: find the needle's first byte with the engine's TypedArray indexOf, then compare. */
export const indexOfFallback: IndexOf = (h, n, from) => {
  const first = n[0]!;
  const last = n.length - 1;
  const lastByte = n[last]!;
  const stop = h.length - n.length;
  let i = from;
  while (i <= stop) {
    i = h.indexOf(first, i);
    if (i < 0 || i > stop) return -1;
    if (h[i + last] === lastByte) {
      let k = 1;
      while (k < last && h[i + k] === n[k]) k++;
      if (k >= last) return i;
    }
    i++;
  }
  return -1;
};

/** Receives the parser's events. Methods are called synchronously from `write()` / `end()`. */
export interface MultipartHandler {
  /** A part's header block was accepted (MP-H-06..11); its body follows. */
  onPartStart(part: PartInfo): void;
  /** Body bytes of the current part, in order. A view: copy it to keep it past the chunk's lifetime. */
  onData(bytes: Uint8Array): void;
  /** The current part's body is complete. */
  onPartEnd(): void;
  /** The close delimiter was seen and the input ended (called from `end()`). */
  onEnd(): void;
  /**
   * Optional, instead of onData: body bytes as `chunk[start..end)`, so that no view is allocated. The range is
   * valid while the chunk is.
   */
  onDataRange?(chunk: Uint8Array, start: number, end: number): void;
}

/** Size of a header slab. */
const SLAB = 65536;
/** Longest header line (bytes) the one-pass fast path handles. */
const FAST_LINE = 1024;

// ---------------------------------------------------------------------------------------------------------------
// Byte classes

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HT = 0x09;
const DASH = 0x2d;
const COLON = 0x3a;
const SEMI = 0x3b;
const DQUOTE = 0x22;
const BSLASH = 0x5c;

/** Hex digit values (-1: not a hex digit), for MP-H-09's percent-decoding. */
const HEX = new Int8Array(256).fill(-1);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) HEX[0x41 + c] = HEX[0x61 + c] = 10 + c;

// core/part.ts's tables and matchers as constants of this module: the loops below read them as they read the byte
// classes above (an imported binding is read through its module's cell at every use).
const CONTENT_DISPOSITION = part.CONTENT_DISPOSITION;
const FAST_CD = part.FAST_CD;
const FAST_CD_W = part.FAST_CD_W;
const FAST_CT = part.FAST_CT;
const FAST_CT_W = part.FAST_CT_W;
const FAST_FN = part.FAST_FN;
const FAST_FN_W = part.FAST_FN_W;
const QCHAR = part.QCHAR;
const TOKEN = part.TOKEN;
const VALUE_STOP = part.VALUE_STOP;
const VCHAR = part.VCHAR;
const eqWords = part.eqWords;
const isName = part.isName;
const wordsOf = part.wordsOf;

const NO_DV = new DataView(new ArrayBuffer(0));
const NO_SLAB = new Uint8Array(0);


// ---------------------------------------------------------------------------------------------------------------
// Content-Type → boundary (MP-B-01..04)

/** MP-B-01..04: the boundary bytes `B` from a request Content-Type, or a FormwireError. */
export function boundaryFromContentType(
  contentType: string,
  maxBoundaryBytes: number | null = MULTIPART_DEFAULTS.maxBoundaryBytes,
): Uint8Array {
  const m = parseMimeType(contentType);
  if (m === null || m.type !== 'multipart' || m.subtype !== 'form-data') {
    throw new FormwireError('MP_CONTENT_TYPE', 0, 'not multipart/form-data');
  }
  const b = m.parameters.get('boundary');
  if (b === undefined || b === '' || /[\r\n\0]/.test(b)) throw new FormwireError('MP_BOUNDARY', 0, 'missing or invalid boundary');
  const bytes = encodeUtf8(b);
  if (bytes.length > lim(maxBoundaryBytes, MULTIPART_DEFAULTS.maxBoundaryBytes)) {
    throw new FormwireError('MP_LIMIT_BOUNDARY', 0, 'boundary too long');
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------------
// States

// Parser states, named as in spec/multipart.md § Parser states (header-line states: S_H_).
const S_START = 0; // matching "--" B at offset 0
const S_PREAMBLE = 1; // allow_preamble: skipping until a delimiter
const S_AFTER_BOUNDARY = 2; // right after "--" B
const S_DASH = 3; // after "--" B "-"
const S_CLOSE_PADDING = 4; // after "--" B "--": padding
const S_CLOSE_CR = 5; // close delimiter line: CR seen
const S_EPILOGUE = 6;
const S_PADDING = 7; // delimiter line: transport padding
const S_DELIMITER_CR = 8; // delimiter line: CR seen
const S_H_LINE_START = 9; // header line start
const S_H_LINE_START_CR = 10; // CR at a line start (empty line?)
const S_H_LEAD_OWS = 11; // leading OWS of the first header line
const S_H_NAME = 12;
const S_H_NAME_OWS = 13;
const S_H_VALUE_OWS = 14; // OWS after the colon
const S_H_VALUE = 15;
const S_H_VALUE_CR = 16;
const S_H_FOLD_OWS = 17; // OWS at the start of an obs-fold line
const S_BODY = 18;
const S_ERROR = 19;
const S_DONE = 20;
const S_NEAR = 21; // allow_near_delimiters: right after "--" B of a delimiter found inside a body
const S_NEAR_DASH = 22; // allow_near_delimiters: after "--" B "-" of such a delimiter
const S_NEAR_CR = 23; // allow_near_delimiters: after "--" B CR of such a delimiter (allow_cr off)

// How a delimiter found inside a body began, for allow_near_delimiters to give its bytes back as body data.
const NEAR_NEEDLE = 0; // the needle
const NEAR_CR_NEEDLE = 1; // a CR, then the needle (CRLF "--" B found as LF "--" B)
const NEAR_CR_LEAD = 2; // the needle with a CR for its first byte (allow_cr: CR "--" B)

function lim(v: number | null | undefined, d: number): number {
  if (v === undefined) return d;
  if (v === null) return Infinity;
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0) throw new RangeError(`invalid limit ${String(v)}`);
  return v;
}

/** The sans-IO multipart parser. */
export class MultipartParser {
  private readonly handler: MultipartHandler;
  /** The substring search, or null for the core's scan (built at its first use: small bodies never need it). */
  private readonly indexOf: IndexOf | null;
  private readonly searchArg: Search;
  private scanner: DelimiterScan | null = null;
  private readonly boundary: Uint8Array;
  /** Body needle: CRLF "--" B (strict) or LF "--" B (allow_lf). */
  private readonly needle: Uint8Array;
  /** wordsOf(needle) */
  private readonly needleW: Int32Array;
  /** Horspool shifts: for a byte c under the needle's last byte, how far the needle can move (no match skipped). */
  private readonly shift: Int32Array;
  private readonly lead: number;
  private readonly allowPreamble: boolean;
  private readonly allowLf: boolean;
  private readonly allowObsFold: boolean;
  private readonly allowQuotedPairs: boolean;
  private readonly allowMissingDisposition: boolean;
  private readonly allowAnyDispositionType: boolean;
  private readonly allowJunkAfterClose: boolean;
  private readonly allowUtf8HeaderNames: boolean;
  private readonly allowCr: boolean;
  private readonly allowNearDelimiters: boolean;
  private readonly allow8bitParameterNames: boolean;
  private readonly allowRfc2231Continuations: boolean;
  /** allow_cr: the second body needle, CR "--" B (empty otherwise); `needle` is then LF "--" B. */
  private readonly needleCr: Uint8Array;
  private scannerCr: DelimiterScan | null = null;
  private readonly maxParts: number;
  private readonly maxFiles: number;
  private readonly maxFields: number;
  private readonly maxHeaders: number;
  private readonly maxHeaderBytes: number;
  private readonly maxFieldBytes: number;
  private readonly maxTotalFieldBytes: number;
  private readonly maxFileBytes: number;
  private readonly maxTotalBytes: number;
  private readonly ranged: boolean;
  /** The runtime's text decoding, shared with this parser's PartInfos. */
  private readonly text: TextCodec;
  private readonly ctx: PartContext;
  /** parseDisposition's result ranges (see there). */
  private readonly pd = new Int32Array(8);

  private state = S_START;
  /** A DataView of the chunk being written (word comparisons), or NO_DV until dataView() makes it. */
  private dv: DataView = NO_DV;

  private dataView(chunk: Uint8Array): DataView {
    let d = this.dv;
    if (d === NO_DV) d = this.dv = new DataView(chunk.buffer, chunk.byteOffset, chunk.length);
    return d;
  }
  /** Global offset of the current chunk's first byte; after write() returns, the number of bytes fed. */
  private base = 0;
  /** S_START: bytes of "--" B matched. */
  private m = 0;
  /** Body: bytes of the needle held back from previous chunks (they equal needle[0..held)). */
  private held = 0;
  /** allow_lf: a CR held back before the held needle prefix (or at a chunk end). */
  private heldCR = false;
  /** allow_cr: the first held byte, CR or LF (the needles share every later byte). */
  private heldLead = 0;
  /** allow_near_delimiters: how the pending delimiter began (NEAR_* below). */
  private nearPre = NEAR_NEEDLE;
  private partCount = 0;
  /** MP-L-05: parts with a filename / without, so far. */
  private fileCount = 0;
  private fieldCount = 0;
  private bodyStart = 0;
  private bodyLen = 0;
  private bodyLimit = 0;
  private bodyCode: MultipartErrorCode = 'MP_LIMIT_FIELD_BYTES';
  /** MP-L-04: body bytes of the fields before the current part. */
  private fieldTotal = 0;
  private isFile = false;
  private discard = false;

  // header block
  private blockStart = 0;
  private hbLimit = 0; // blockStart + maxHeaderBytes
  private firstLine = true;
  private lineStart = 0;
  /**
   * Header slab: blocks of `name ":" value LF`, shared by the PartInfos that point into it. Allocated by `ensure()`
   * when the general header path first needs it (bodies whose blocks all take the fast path never do).
   */
  private hdr: Uint8Array = NO_SLAB;
  /** Where the current block starts in the slab. */
  private blockW = 0;
  private wpos = 0;
  /** Headers of the current block: hN of them; ranges[4k..4k+3] = nameStart, nameEnd, valueStart, valueEnd. */
  private hN = 0;
  private ranges: number[] = [];
  private lineStarts: number[] = [];
  private valEnd = 0;

  /**
   * `search` and `text` are what the runtime provides (the delimiter search, faster text decoders); the defaults
   * need nothing but Uint8Array and TextDecoder. The package's entry points pass their runtime's best.
   */
  constructor(
    boundary: Uint8Array | string,
    handler: MultipartHandler,
    options: MultipartOptions = {},
    search: Search = 'scan',
    text: TextCodec = PORTABLE_TEXT,
  ) {
    const b = typeof boundary === 'string' ? encodeUtf8(boundary) : boundary;
    if (b.length === 0 || b.includes(CR) || b.includes(LF) || b.includes(0)) {
      throw new FormwireError('MP_BOUNDARY', 0, 'empty boundary or boundary with CR, LF or NUL');
    }
    if (b.length > lim(options.maxBoundaryBytes, MULTIPART_DEFAULTS.maxBoundaryBytes)) {
      throw new FormwireError('MP_LIMIT_BOUNDARY', 0, 'boundary too long');
    }
    this.boundary = b;
    this.handler = handler;
    this.ranged = typeof handler.onDataRange === 'function';
    this.indexOf = typeof search === 'function' ? search : null;
    this.searchArg = search;
    this.text = text;
    this.ctx = new PartContext(text);
    this.allowPreamble = options.allowPreamble === true;
    this.allowLf = options.allowLf === true;
    this.allowObsFold = options.allowObsFold === true;
    this.allowQuotedPairs = options.allowQuotedPairs === true;
    this.allowMissingDisposition = options.allowMissingDisposition === true;
    this.allowAnyDispositionType = options.allowAnyDispositionType === true;
    this.allowJunkAfterClose = options.allowJunkAfterClose === true;
    this.allowUtf8HeaderNames = options.allowUtf8HeaderNames === true;
    this.allowCr = options.allowCr === true;
    this.allowNearDelimiters = options.allowNearDelimiters === true;
    this.allow8bitParameterNames = options.allow8bitParameterNames === true;
    this.allowRfc2231Continuations = options.allowRfc2231Continuations === true;
    this.maxParts = lim(options.maxParts, MULTIPART_DEFAULTS.maxParts);
    this.maxFiles = lim(options.maxFiles, MULTIPART_DEFAULTS.maxFiles);
    this.maxFields = lim(options.maxFields, MULTIPART_DEFAULTS.maxFields);
    this.maxHeaders = lim(options.maxHeaders, MULTIPART_DEFAULTS.maxHeaders);
    this.maxHeaderBytes = lim(options.maxHeaderBytes, MULTIPART_DEFAULTS.maxHeaderBytes);
    this.maxFieldBytes = lim(options.maxFieldBytes, MULTIPART_DEFAULTS.maxFieldBytes);
    this.maxTotalFieldBytes = lim(options.maxTotalFieldBytes, MULTIPART_DEFAULTS.maxTotalFieldBytes);
    this.maxFileBytes = lim(options.maxFileBytes, MULTIPART_DEFAULTS.maxFileBytes);
    this.maxTotalBytes = lim(options.maxTotalBytes, MULTIPART_DEFAULTS.maxTotalBytes);
    // MP-P-06: with allow_cr, CRLF "--" B is found as LF "--" B with the CR before it (as with allow_lf)
    const prefix = this.allowLf || this.allowCr ? [LF, DASH, DASH] : [CR, LF, DASH, DASH];
    const n = new Uint8Array(prefix.length + b.length);
    n.set(prefix);
    n.set(b, prefix.length);
    this.needle = n;
    let nc = NO_SLAB;
    if (this.allowCr) {
      nc = n.slice();
      nc[0] = CR;
    }
    this.needleCr = nc;
    this.needleW = wordsOf(n);
    const shift = new Int32Array(256).fill(n.length);
    for (let k = 0; k < n.length - 1; k++) shift[n[k]!] = n.length - 1 - k;
    this.shift = shift;
    this.lead = n[0]!;
  }

  /** Bytes fed so far. */
  get bytesFed(): number {
    return this.base;
  }

  private error: FormwireError | null = null;

  private fail(code: MultipartErrorCode, offset: number, msg: string): never {
    this.state = S_ERROR;
    this.error = new FormwireError(code, offset, msg);
    throw this.error;
  }

  /** Feed the next chunk. Throws FormwireError on bad input; the parser is then unusable. */
  write(chunk: Uint8Array): void {
    if (this.state === S_ERROR) throw this.error ?? new Error('multipart parser: write after a handler error');
    if (this.state === S_DONE) throw new Error('multipart parser: write after end');
    const room = this.maxTotalBytes - this.base;
    if (chunk.length > room) {
      // MP-L-03: every byte before max_total_bytes is processed first; an earlier error wins.
      if (room > 0) this.run(chunk.subarray(0, room));
      this.fail('MP_LIMIT_TOTAL_BYTES', this.maxTotalBytes, 'body longer than maxTotalBytes');
    }
    this.run(chunk);
  }

  /** The input is complete. Throws MP_TRUNCATED unless the close delimiter was seen (MP-P-07). */
  end(): void {
    if (this.state === S_ERROR) throw this.error ?? new Error('multipart parser: end after a handler error');
    if (this.state === S_DONE) return;
    // MP-P-05, MP-P-07: with allow_cr a CR ends the close delimiter line, so the input may end right after it
    if (this.state === S_EPILOGUE || this.state === S_CLOSE_PADDING || (this.state === S_CLOSE_CR && this.allowCr)) {
      this.state = S_DONE;
      this.handler.onEnd();
      return;
    }
    this.fail('MP_TRUNCATED', this.base, 'input ended before the close delimiter');
  }

  private run(input: Uint8Array): void {
    // One plain Uint8Array view per chunk keeps every element access in the hot loops monomorphic (a Node Buffer is a
    // Uint8Array subclass; mixing both makes V8 take slower paths).
    const chunk = input.constructor === Uint8Array ? input : new Uint8Array(input.buffer, input.byteOffset, input.length);
    const n = chunk.length;
    this.dv = NO_DV; // made by dataView() when a word comparison needs it (not per byte of a byte-by-byte feed)
    let i = 0;
    try {
      while (i < n) {
        switch (this.state) {
          case S_BODY:
          case S_PREAMBLE:
            i = this.allowCr ? this.bodyCr(chunk, i, n) : this.body(chunk, i, n);
            break;
          case S_EPILOGUE:
            i = n; // MP-P-05: ignored
            break;
          case S_START:
            i = this.start(chunk, i, n);
            break;
          case S_AFTER_BOUNDARY:
          case S_DASH:
          case S_CLOSE_PADDING:
          case S_CLOSE_CR:
          case S_PADDING:
          case S_DELIMITER_CR:
          case S_NEAR:
          case S_NEAR_DASH:
          case S_NEAR_CR:
            i = this.delimLine(chunk, i, n);
            break;
          default:
            i = this.headers(chunk, i, n);
            break;
        }
      }
    } catch (e) {
      this.state = S_ERROR;
      throw e;
    }
    this.base += n;
  }

  // MP-P-02: "--" B at offset 0 (strict), or a preamble (allow_preamble).
  private start(chunk: Uint8Array, i: number, n: number): number {
    const b = this.boundary;
    const total = b.length + 2;
    while (i < n) {
      const c = chunk[i]!;
      if (this.m < total) {
        const want = this.m < 2 ? DASH : b[this.m - 2]!;
        if (c === want) {
          this.m++;
          i++;
          continue;
        }
        if (!this.allowPreamble) this.fail('MP_PREAMBLE', this.base + i, 'body does not begin with --boundary');
        this.enterPreamble();
        return i; // re-examine this byte in the preamble scan
      }
      // MP-P-04: the byte after B decides
      if (this.allowPreamble && !isAfterB(c)) {
        this.enterPreamble();
        return i;
      }
      this.state = S_AFTER_BOUNDARY;
      return i;
    }
    return i;
  }

  private enterPreamble(): void {
    this.state = S_PREAMBLE;
    this.discard = true;
    this.held = 0;
    this.heldCR = false;
  }

  // MP-P-03, MP-P-05: the rest of a delimiter line.
  private delimLine(chunk: Uint8Array, i: number, n: number): number {
    while (i < n) {
      const c = chunk[i]!;
      const o = this.base + i;
      switch (this.state) {
        case S_AFTER_BOUNDARY:
          if (c === CR && i + 1 < n && chunk[i + 1] === LF) return this.delimEnd(i + 2); // the common `--B CRLF`
          if (c === DASH) this.state = S_DASH;
          else if (c === SP || c === HT) this.state = S_PADDING;
          else if (c === CR) this.state = S_DELIMITER_CR;
          else if (c === LF && this.allowLf) return this.delimEnd(i + 1);
          else this.fail('MP_DELIMITER', o, 'unexpected byte after the boundary');
          break;
        case S_DASH:
          if (c !== DASH) this.fail('MP_DELIMITER', o, 'expected "-" of a close delimiter');
          if (this.allowJunkAfterClose) {
            // MP-P-05, MP-P-07: everything after "--" B "--" is epilogue, and the input may end anywhere in it
            this.state = S_EPILOGUE;
            return i + 1;
          }
          this.state = S_CLOSE_PADDING;
          break;
        case S_CLOSE_PADDING:
          if (c === SP || c === HT) break;
          if (c === CR) this.state = S_CLOSE_CR;
          else if (c === LF && this.allowLf) {
            this.state = S_EPILOGUE;
            return i + 1;
          } else this.fail('MP_DELIMITER', o, 'junk after the close delimiter');
          break;
        case S_CLOSE_CR:
          if (c !== LF) {
            if (!this.allowCr) this.fail('MP_DELIMITER', o, 'CR not followed by LF after the close delimiter');
            // MP-P-05 with allow_cr: the CR ended the line; this byte is epilogue
            this.state = S_EPILOGUE;
            return i;
          }
          this.state = S_EPILOGUE;
          return i + 1;
        case S_PADDING:
          if (c === SP || c === HT) break;
          if (c === CR) this.state = S_DELIMITER_CR;
          else if (c === LF && this.allowLf) return this.delimEnd(i + 1);
          else this.fail('MP_DELIMITER', o, 'unexpected byte in transport padding');
          break;
        case S_DELIMITER_CR:
          if (c !== LF) {
            if (!this.allowCr) this.fail('MP_DELIMITER', o, 'CR not followed by LF in a delimiter line');
            return this.delimEnd(i); // MP-P-03 with allow_cr: the CR ended the line; this byte starts the headers
          }
          return this.delimEnd(i + 1);
        // MP-P-03 with allow_near_delimiters: after "--" B inside a body, `-` or a bare CR is decided by the next
        // byte; the part ends only once the delimiter is certain
        case S_NEAR:
          if (c === DASH) this.state = S_NEAR_DASH;
          else if (c === CR && !this.allowCr) this.state = S_NEAR_CR;
          else {
            this.handler.onPartEnd();
            this.state = S_AFTER_BOUNDARY;
            continue;
          }
          break;
        case S_NEAR_DASH:
          if (c !== DASH) return this.nearData(DASH, i);
          this.handler.onPartEnd();
          this.state = S_DASH;
          continue;
        case S_NEAR_CR:
          if (c !== LF) return this.nearData(CR, i);
          this.handler.onPartEnd();
          this.state = S_DELIMITER_CR;
          continue;
      }
      i++;
    }
    return i;
  }

  /** A delimiter line ended just before chunk index i: a new part's headers begin (MP-L-01). */
  private delimEnd(i: number): number {
    const o = this.base + i;
    this.partCount++;
    if (this.partCount > this.maxParts) this.fail('MP_LIMIT_PARTS', o, 'too many parts');
    this.state = S_H_LINE_START;
    this.blockStart = o;
    this.hbLimit = o + this.maxHeaderBytes;
    this.firstLine = true;
    this.blockW = this.wpos;
    this.hN = 0;
    this.discard = false;
    return i;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Headers (MP-H-01..05)

  /** Room for `extra` more bytes of the current block; a full slab is replaced, the block moved to the new one. */
  private ensure(extra: number): void {
    if (this.wpos + extra <= this.hdr.length) return;
    const used = this.wpos - this.blockW;
    let size = SLAB;
    while (size < 2 * (used + extra)) size *= 2;
    const h = new Uint8Array(size);
    h.set(this.hdr.subarray(this.blockW, this.wpos));
    const shift = this.blockW;
    const r = this.ranges;
    for (let k = 0; k < this.hN * 4; k++) r[k] = r[k]! - shift;
    this.valEnd -= shift;
    this.wpos = used;
    this.blockW = 0;
    this.hdr = h;
  }

  /** A header line (or its obs-fold continuation) ended: close its value with the LF separator. */
  private endLine(): void {
    this.ensure(1);
    this.hdr[this.valEnd] = LF;
    this.wpos = this.valEnd + 1;
  }

  /** MP-H-05 (1): the byte at offset o belongs to a header line. */
  private checkHeaderBytes(o: number): void {
    if (o >= this.hbLimit) this.fail('MP_LIMIT_HEADER_BYTES', this.hbLimit, 'header block too long');
  }

  /** A new header line (not an obs-fold continuation) starts at offset o. */
  private newLine(o: number): void {
    this.checkHeaderBytes(o);
    // MP-H-05 (2)
    if (this.hN >= this.maxHeaders) this.fail('MP_LIMIT_HEADERS', o, 'too many header lines');
    const k = this.hN++;
    this.lineStarts[k] = o;
    const r = this.ranges;
    r[4 * k] = this.wpos;
    r[4 * k + 1] = this.wpos;
    r[4 * k + 2] = 0;
    r[4 * k + 3] = 0;
    this.firstLine = false;
  }

  private headers(chunk: Uint8Array, i: number, n: number): number {
    const base = this.base;
    while (i < n) {
      const c = chunk[i]!;
      switch (this.state) {
        case S_H_LINE_START: {
          const o = base + i;
          if (TOKEN[c] !== 0) {
            if (c === 0x43 && this.hN === 0) {
              // The whole block in the browsers' shape (a part's first line starts with `C`).
              const j = this.fastBlock(chunk, i, n);
              if (j >= 0) return j;
            }
            // Fast path: a whole, valid `token ":" OWS value CRLF` line inside this chunk and within the limits is
            // recorded in one pass. Anything else falls through to the byte-by-byte machine below, which gives the
            // exact error and offset.
            const j = this.fastLine(chunk, i, n);
            if (j > i) {
              i = j;
              continue;
            }
          } else if (c === CR && i + 1 < n && chunk[i + 1] === LF) {
            return this.blockEnd(o, i + 2); // MP-H-03: the empty line
          }
          if (c === CR) {
            this.lineStart = o;
            this.state = S_H_LINE_START_CR;
            i++;
            continue;
          }
          if (c === LF && this.allowLf) return this.blockEnd(o, i + 1); // MP-H-03
          if ((c === SP || c === HT) && !this.firstLine) {
            // MP-H-04
            this.checkHeaderBytes(o);
            if (!this.allowObsFold) this.fail('MP_OBS_FOLD', o, 'obs-fold continuation line');
            this.state = S_H_FOLD_OWS;
            i++;
            continue;
          }
          this.newLine(o);
          if (c === SP || c === HT) {
            this.state = S_H_LEAD_OWS; // MP-H-01: leading OWS on the first line
            i++;
            continue;
          }
          if (TOKEN[c] === 0 && (c < 0x80 || !this.allowUtf8HeaderNames)) {
            this.fail('MP_HEADER_NAME', o, c === COLON ? 'empty header name' : 'invalid byte in a header name');
          }
          this.state = S_H_NAME;
          continue;
        }
        case S_H_LINE_START_CR: {
          if (c === LF) return this.blockEnd(this.lineStart, i + 1);
          // MP-H-03 with allow_cr: a bare CR is the empty line, and this byte is the body's first
          if (this.allowCr) return this.blockEnd(this.lineStart, i);
          // MP-H-05: a CR at a line start is taken as the start of the empty line (not counted by either limit);
          // without its LF it is the bare-CR MP_HEADER_NAME of MP-H-02.
          this.fail('MP_HEADER_NAME', this.lineStart, 'bare CR at the start of a header line');
        }
        case S_H_LEAD_OWS: {
          const o = base + i;
          this.checkHeaderBytes(o);
          if (c === SP || c === HT) {
            i++;
            continue;
          }
          if (TOKEN[c] === 0 && (c < 0x80 || !this.allowUtf8HeaderNames)) {
            this.fail('MP_HEADER_NAME', o, c === COLON ? 'empty header name' : 'invalid byte in a header name');
          }
          this.state = S_H_NAME;
          this.ranges[4 * this.hN - 4] = this.wpos;
          continue;
        }
        case S_H_NAME: {
          // fast scan of token bytes (MP-H-01: with allowUtf8HeaderNames, bytes 80-FF too; fastLine leaves such
          // names to this loop)
          const stop = Math.min(n, this.hbLimit - base);
          this.ensure(stop - i + 1);
          const hdr = this.hdr;
          let w = this.wpos;
          let j = i;
          while (j < stop) {
            const b = chunk[j]!;
            if (TOKEN[b] === 0 && (b < 0x80 || !this.allowUtf8HeaderNames)) break;
            hdr[w++] = b;
            j++;
          }
          this.wpos = w;
          if (j === n) return n;
          this.checkHeaderBytes(base + j);
          const b = chunk[j]!;
          this.ranges[4 * this.hN - 3] = w;
          if (b === COLON || b === SP || b === HT) {
            hdr[w] = COLON; // separator of the stored `name:value`
            this.wpos = w + 1;
          }
          if (b === COLON) this.state = S_H_VALUE_OWS;
          else if (b === SP || b === HT) this.state = S_H_NAME_OWS;
          else this.fail('MP_HEADER_NAME', base + j, 'invalid byte in a header name');
          i = j + 1;
          continue;
        }
        case S_H_NAME_OWS: {
          const o = base + i;
          this.checkHeaderBytes(o);
          if (c === COLON) this.state = S_H_VALUE_OWS;
          else if (c !== SP && c !== HT) this.fail('MP_HEADER_NAME', o, 'invalid byte in a header name');
          i++;
          continue;
        }
        case S_H_VALUE_OWS:
        case S_H_FOLD_OWS: {
          const o = base + i;
          this.checkHeaderBytes(o);
          if (c === SP || c === HT) {
            i++;
            continue;
          }
          if (this.state === S_H_FOLD_OWS) {
            if (c !== CR && !(c === LF && this.allowLf)) {
              // MP-H-04: the continuation is appended after one SP (over the LF separator)
              this.wpos = this.ranges[4 * this.hN - 1]!;
              this.ensure(1);
              this.hdr[this.wpos++] = SP;
              this.valEnd = this.wpos;
            }
          } else {
            const r = this.ranges;
            const k = 4 * this.hN;
            r[k - 2] = this.wpos;
            r[k - 1] = this.wpos;
            this.valEnd = this.wpos;
          }
          this.state = S_H_VALUE;
          continue;
        }
        case S_H_VALUE: {
          const stop = Math.min(n, this.hbLimit - base);
          this.ensure(stop - i);
          const hdr = this.hdr;
          let w = this.wpos;
          let ve = this.valEnd;
          let j = i;
          while (j < stop) {
            const b = chunk[j]!;
            if (VALUE_STOP[b] !== 0) break;
            hdr[w++] = b;
            if (b !== SP && b !== HT) ve = w;
            j++;
          }
          this.wpos = w;
          this.valEnd = ve;
          this.ranges[4 * this.hN - 1] = ve;
          if (j === n) return n;
          const o = base + j;
          this.checkHeaderBytes(o);
          const b = chunk[j]!;
          if (b === CR) {
            this.state = S_H_VALUE_CR;
            this.lineStart = o; // reused: offset of the CR
          } else if (b === LF) {
            if (!this.allowLf) this.fail('MP_HEADER_VALUE', o, 'bare LF in a header line');
            this.endLine();
            this.state = S_H_LINE_START;
          } else {
            this.fail('MP_HEADER_VALUE', o, 'NUL in a header line');
          }
          i = j + 1;
          continue;
        }
        case S_H_VALUE_CR: {
          if (c !== LF) {
            if (!this.allowCr) this.fail('MP_HEADER_VALUE', this.lineStart, 'CR not followed by LF in a header line');
            // MP-H-02 with allow_cr: the bare CR ended the line; this byte starts the next one
            this.endLine();
            this.state = S_H_LINE_START;
            continue;
          }
          this.checkHeaderBytes(base + i);
          this.endLine();
          this.state = S_H_LINE_START;
          i++;
          continue;
        }
        default:
          throw new Error('unreachable');
      }
    }
    return i;
  }

  /**
   * A complete header line starting at chunk index i (a token byte), committed only when it is valid and within
   * the limits (MP-H-01, MP-H-02, MP-H-05); returns the index after its CRLF, or i to take the slow path.
   */
  private fastLine(chunk: Uint8Array, i: number, n: number): number {
    // Copy while scanning; nothing is committed (wpos, hN) unless the whole line is accepted. Only bytes before the
    // header-bytes limit are looked at (MP-H-05 (1)), which also bounds the slab room needed.
    if (this.hN >= this.maxHeaders) return i; // MP-H-05 (2)
    const base = this.base;
    const lim = this.hbLimit - base;
    if (lim < n) n = lim;
    if (n - i > FAST_LINE) n = i + FAST_LINE; // longer lines take the slow path
    const room = n - i + 1;
    if (this.wpos + room > this.hdr.length) this.ensure(room);
    const h = this.hdr;
    const w0 = this.wpos;
    let w = w0;
    let j = i;
    while (j < n) {
      const b = chunk[j]!;
      if (TOKEN[b] === 0) break;
      h[w++] = b;
      j++;
    }
    if (j >= n || chunk[j] !== COLON) return i;
    const nameEnd = w;
    h[w++] = COLON;
    const valStart = w;
    let k = j + 1;
    while (k < n && (chunk[k] === SP || chunk[k] === HT)) k++;
    let ve = w;
    while (k < n) {
      const b = chunk[k]!;
      if (VALUE_STOP[b] !== 0) break;
      h[w++] = b;
      k++;
      if (b !== SP && b !== HT) ve = w;
    }
    if (k + 1 >= n || chunk[k] !== CR || chunk[k + 1] !== LF) return i;
    const kk = this.hN++;
    this.lineStarts[kk] = base + i;
    const r = this.ranges;
    r[4 * kk] = w0;
    r[4 * kk + 1] = nameEnd;
    r[4 * kk + 2] = valStart;
    r[4 * kk + 3] = ve;
    this.valEnd = ve;
    h[ve] = LF;
    this.wpos = ve + 1;
    this.firstLine = false;
    return k + 2;
  }

  /** MP-H-06: the empty line starting at offset `emptyAt` ended just before chunk index i. */
  private blockEnd(emptyAt: number, i: number): number {
    const r = this.ranges;
    const hdr = this.hdr;
    const n4 = this.hN * 4;
    let cd = -1;
    for (let k = 0; k < n4; k += 4) {
      if (isName(hdr, r[k]!, r[k + 1]!, CONTENT_DISPOSITION)) {
        if (cd >= 0) this.fail('MP_DISPOSITION', this.lineStarts[k >> 2]!, 'second Content-Disposition header');
        cd = k;
      }
    }
    if (cd < 0 || r[cd + 2] === r[cd + 3]) {
      // MP-H-06: no Content-Disposition, or only an empty one (OWS trimmed, folds joined)
      if (this.allowMissingDisposition) return this.namelessPart(i);
      if (cd < 0) this.fail('MP_NO_DISPOSITION', emptyAt, 'part without Content-Disposition');
    }
    const cdLine = this.lineStarts[cd >> 2]!;
    // MP-H-07..09: literal reading first, quoted-pairs when it fails (allow_quoted_pairs: the other way round)
    let qp = this.allowQuotedPairs;
    const flags = (this.allowAnyDispositionType ? D_ANY_TYPE : 0) | (this.allow8bitParameterNames ? D_8BIT_NAMES : 0);
    const segs = this.allowRfc2231Continuations ? [] : null;
    let p = parseDisposition(hdr, r[cd + 2]!, r[cd + 3]!, qp, flags, this.pd, segs);
    if (p === null) {
      qp = !qp;
      p = parseDisposition(hdr, r[cd + 2]!, r[cd + 3]!, qp, flags, this.pd, segs);
    }
    if (p === null) this.fail('MP_DISPOSITION', cdLine, 'invalid Content-Disposition');
    // MP-H-09: without a filename, its continuations give it (read before unescapeValues may move the block)
    const joined = segs !== null && segs.length > 0 && p[2]! < 0 ? this.joinFilename(segs, qp, cdLine) : null;
    let end = this.wpos;
    if (qp) end = this.unescapeValues(p);
    if (joined !== null) end = this.addFilename(joined, p, end);
    const h = this.hdr;
    const t = this.text;
    const name = t.decode(h, p[0]!, p[1]!);
    const filename = p[2]! < 0 ? null : t.decode(h, p[2]!, p[3]!);
    // MP-H-09: raw (no RFC 8187 or percent decoding), shown UTF-8 decoded like name
    const nameStar = p[4]! < 0 ? null : t.decode(h, p[4]!, p[5]!);
    const filenameStar = p[6]! < 0 ? null : t.decode(h, p[6]!, p[7]!);
    const part = new PartInfo(this.partCount - 1, this.blockStart, new RawBlock(h, this.blockW, end, p[0]!, p[1]!, p[2]!, p[3]!), name, filename, nameStar, filenameStar, null, this.ctx);
    this.blockW = this.wpos;
    this.startBody(part, this.base + i);
    return i;
  }

  /**
   * MP-H-06 with allowMissingDisposition: the block just ended (before chunk index i) gives a nameless part (name,
   * filename, name*, filename* null), a field for every limit (MP-L-02, MP-L-04, MP-L-05); its headers as stored.
   */
  private namelessPart(i: number): number {
    const part = new PartInfo(this.partCount - 1, this.blockStart, new RawBlock(this.hdr, this.blockW, this.wpos, -1, -1, -1, -1), null, null, null, null, null, this.ctx);
    this.blockW = this.wpos;
    this.startBody(part, this.base + i);
    return i;
  }

  /**
   * The whole header block in the shape browsers send, which MP-H-01..11 read exactly as the general path would:
   * `Content-Disposition: form-data; name="N"[; filename="F"]` CRLF, optionally `Content-Type: T` CRLF, then CRLF,
   * with N, F and T printable ASCII (no `"` in N or F; T not empty and without SP at either end, so it is its own
   * OWS-trimmed value), all inside this chunk and within the header limits (MP-H-05). On a match the part is started
   * and the index after the empty line returned; otherwise -1 with nothing committed (the general path takes over).
   */
  private fastBlock(chunk: Uint8Array, i: number, n: number): number {
    let p = i + FAST_CD.length;
    if (p >= n) return -1;
    const dv = this.dataView(chunk);
    if (!eqWords(dv, i, FAST_CD_W, FAST_CD.length)) return -1;
    const ns = p;
    while (p < n && QCHAR[chunk[p]!] !== 0) p++;
    if (p >= n || chunk[p] !== DQUOTE) return -1;
    const ne = p++;
    let fs = -1;
    let fe = -1;
    if (p + FAST_FN.length < n && chunk[p] === SEMI && eqWords(dv, p, FAST_FN_W, FAST_FN.length)) {
      p += FAST_FN.length;
      fs = p;
      while (p < n && QCHAR[chunk[p]!] !== 0) p++;
      if (p >= n || chunk[p] !== DQUOTE) return -1;
      fe = p++;
    }
    if (p + 1 >= n || chunk[p] !== CR || chunk[p + 1] !== LF) return -1;
    let lastLf = p + 1;
    let lines = 1;
    p += 2;
    let cs = -1;
    let ce = -1;
    if (p + FAST_CT.length < n && chunk[p] === 0x43 && eqWords(dv, p, FAST_CT_W, FAST_CT.length)) {
      p += FAST_CT.length;
      cs = p;
      while (p < n && VCHAR[chunk[p]!] !== 0) p++;
      ce = p;
      if (p + 1 >= n || chunk[p] !== CR || chunk[p + 1] !== LF || ce === cs || chunk[cs] === SP || chunk[ce - 1] === SP) return -1;
      lastLf = p + 1;
      lines = 2;
      p += 2;
    }
    if (p + 1 >= n || chunk[p] !== CR || chunk[p + 1] !== LF) return -1; // MP-H-03
    // MP-H-07: with allow_quoted_pairs a backslash may be an escape: the general path reads it
    if (this.allowQuotedPairs && (hasByte(chunk, ns, ne, BSLASH) || hasByte(chunk, fs, fe, BSLASH))) return -1;
    // MP-H-05: every header-line byte before the header-bytes limit, at most maxHeaders lines
    if (lines > this.maxHeaders || this.base + lastLf >= this.hbLimit) return -1;
    this.hN = lines;
    this.firstLine = false;
    const t = this.text;
    const filename = fs < 0 ? null : t.ascii(chunk, fs, fe);
    const ct = cs < 0 ? null : t.ascii(chunk, cs, ce);
    const part = new PartInfo(this.partCount - 1, this.blockStart, null, t.ascii(chunk, ns, ne), filename, null, null, ct, this.ctx);
    this.startBody(part, this.base + p + 2);
    return p + 2;
  }

  /**
   * MP-H-09 with allow_rfc2231_continuations: the filename bytes joined from the segments parseDisposition found
   * (SEG numbers each), for N = 0, 1, ... up to the first missing N; null without `filename*0`. A `*N*` segment is
   * percent-decoded, and `filename*0*` loses its charset'language' first (MP_DISPOSITION at `cdLine` without it).
   */
  private joinFilename(segs: number[], qp: boolean, cdLine: number): Uint8Array | null {
    const h = this.hdr;
    const count = segs.length / SEG;
    // segment k by its N; an N of count or more cannot be reached without a gap
    const byN = new Int32Array(count).fill(-1);
    let bound = 0;
    for (let k = 0; k < segs.length; k += SEG) {
      const ds = segs[k]!;
      const de = segs[k + 1]!;
      let v = 0;
      for (let d = ds; d < de && v < count; d++) v = v * 10 + (h[d]! - 0x30);
      if (v < count) byN[v] = k;
      bound += segs[k + 4]! - segs[k + 3]!;
    }
    if (byN[0]! < 0) return null;
    const out = new Uint8Array(bound);
    let w = 0;
    for (let nn = 0; nn < count && byN[nn]! >= 0; nn++) {
      const k = byN[nn]!;
      let vs = segs[k + 3]!;
      const ve = segs[k + 4]!;
      // the value as read: with the quoted-pair reading a backslash takes the next byte (tokens hold none)
      let val = h.subarray(vs, ve);
      if (qp && hasByte(h, vs, ve, BSLASH)) {
        const u = new Uint8Array(ve - vs);
        let m = 0;
        for (let x = vs; x < ve; x++) u[m++] = h[h[x] === BSLASH ? ++x : x]!;
        val = u.subarray(0, m);
      }
      vs = 0;
      if (segs[k + 2] === 1) {
        if (nn === 0) {
          // RFC 2231 charset'language' before the text
          const q1 = val.indexOf(0x27);
          const q2 = q1 < 0 ? -1 : val.indexOf(0x27, q1 + 1);
          if (q2 < 0) this.fail('MP_DISPOSITION', cdLine, "filename*0* without charset'language'");
          vs = q2 + 1;
        }
        for (let x = vs; x < val.length; x++) {
          const c = val[x]!;
          const hi = c === 0x25 && x + 2 < val.length ? HEX[val[x + 1]!]! : -1;
          const lo = hi >= 0 ? HEX[val[x + 2]!]! : -1;
          if (lo >= 0) {
            out[w++] = (hi << 4) | lo;
            x += 2;
          } else out[w++] = c;
        }
      } else {
        out.set(val, w);
        w += val.length;
      }
    }
    return out.subarray(0, w);
  }

  /**
   * MP-H-09: the joined filename stored after the block's headers (ending at `end`), `p`'s filename range pointed
   * there; returns where the headers end now (ensure() may have moved the block, and `p` with it).
   */
  private addFilename(bytes: Uint8Array, p: Int32Array, end: number): number {
    const before = this.hdr;
    const shift = this.blockW;
    this.ensure(bytes.length);
    if (this.hdr !== before) {
      for (let k = 0; k < 8; k++) if (p[k]! >= 0) p[k] -= shift;
      end -= shift;
    }
    p[2] = this.wpos;
    this.hdr.set(bytes, this.wpos);
    this.wpos += bytes.length;
    p[3] = this.wpos;
    return end;
  }

  /**
   * MP-H-07, quoted-pair reading: the value ranges in `p` (still escaped) are copied unescaped to the slab after the
   * block's headers and `p` is pointed there. Returns where the headers end (the copies are not headers).
   */
  private unescapeValues(p: Int32Array): number {
    let total = 0;
    for (let k = 0; k < 8; k += 2) if (p[k]! >= 0) total += p[k + 1]! - p[k]!;
    const tmp = new Uint8Array(total);
    let w = 0;
    for (let k = 0; k < 8; k += 2) {
      if (p[k]! < 0) continue;
      const s = w;
      for (let i = p[k]!; i < p[k + 1]!; i++) {
        // the quoted-pair reading never ends a value on a lone backslash
        if (this.hdr[i] === BSLASH) i++;
        tmp[w++] = this.hdr[i]!;
      }
      p[k] = s;
      p[k + 1] = w;
    }
    this.ensure(w);
    const end = this.wpos;
    this.hdr.set(tmp.subarray(0, w), end);
    for (let k = 0; k < 8; k += 2) {
      if (p[k]! >= 0) {
        p[k] += end;
        p[k + 1] += end;
      }
    }
    this.wpos = end + w;
    return end;
  }

  /** MP-H-06 passed: the part's body starts at offset `at`. */
  private startBody(part: PartInfo, at: number): void {
    // MP-L-05: a file part has a filename (MP-L-02's rule); the offset is MP-L-01's, its header block start
    if (part.filename !== null) {
      if (++this.fileCount > this.maxFiles) this.fail('MP_LIMIT_FILES', this.blockStart, 'too many file parts');
    } else if (++this.fieldCount > this.maxFields) {
      this.fail('MP_LIMIT_FIELDS', this.blockStart, 'too many field parts');
    }
    // MP-L-04: the previous part's body is complete; a field's counts
    if (!this.isFile) this.fieldTotal += this.bodyLen;
    this.isFile = part.filename !== null;
    if (this.isFile) {
      this.bodyLimit = this.maxFileBytes;
      this.bodyCode = 'MP_LIMIT_FILE_BYTES';
    } else {
      // MP-L-02 and MP-L-04 as one limit: the earlier byte wins, MP_LIMIT_FIELD_BYTES on a tie
      const room = this.maxTotalFieldBytes - this.fieldTotal;
      this.bodyLimit = this.maxFieldBytes <= room ? this.maxFieldBytes : room;
      this.bodyCode = this.maxFieldBytes <= room ? 'MP_LIMIT_FIELD_BYTES' : 'MP_LIMIT_TOTAL_FIELD_BYTES';
    }
    this.bodyStart = at;
    part.bodyOffset = at;
    this.bodyLen = 0;
    this.held = 0;
    this.heldCR = false;
    this.state = S_BODY;
    this.handler.onPartStart(part);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Bodies (MP-P-04, MP-P-06, MP-P-08, MP-L-02)

  /** Body bytes chunk[a..b). */
  private data(chunk: Uint8Array, a: number, b: number): void {
    if (this.discard) return;
    const len = this.bodyLen + (b - a);
    if (len > this.bodyLimit) this.fail(this.bodyCode, this.bodyStart + this.bodyLimit, 'part body too long');
    this.bodyLen = len;
    if (this.ranged) this.handler.onDataRange!(chunk, a, b);
    else this.handler.onData(new Uint8Array(chunk.buffer, chunk.byteOffset + a, b - a));
  }

  /** Release the held-back bytes as body data (they turned out not to start a delimiter). */
  private release(): void {
    const k = this.held;
    if (this.heldCR) {
      const out = new Uint8Array(k + 1);
      out[0] = CR;
      out.set(this.needle.subarray(0, k), 1);
      this.heldCR = false;
      this.held = 0;
      this.data(out, 0, out.length);
    } else if (k > 0) {
      this.held = 0;
      this.data(this.needle.slice(0, k), 0, k);
    }
  }

  /** A delimiter was found; the byte after B is at chunk index i; `pre` says how it began (NEAR_*). */
  private delimiterFound(i: number, pre: number): number {
    this.held = 0;
    this.heldCR = false;
    this.discard = false;
    if (this.state === S_BODY) {
      if (this.allowNearDelimiters) {
        // MP-P-03: inside a body, the rest of the line may still make it body data
        this.nearPre = pre;
        this.state = S_NEAR;
        return i;
      }
      this.handler.onPartEnd();
    }
    this.state = S_AFTER_BOUNDARY;
    return i;
  }

  /**
   * MP-P-03 with allow_near_delimiters: the delimiter lookalike just read (its line end, "--" B and `after`) is body
   * data, counted by every limit; the body goes on at chunk index i.
   */
  private nearData(after: number, i: number): number {
    const nd = this.needle;
    const k = this.nearPre === NEAR_CR_NEEDLE ? 1 : 0;
    const out = new Uint8Array(k + nd.length + 1);
    out.set(nd, k);
    if (k === 1 || this.nearPre === NEAR_CR_LEAD) out[0] = CR;
    out[out.length - 1] = after;
    this.state = S_BODY;
    this.data(out, 0, out.length);
    return i;
  }

  /** The first needle at or after chunk index `from`, or -1 (MP-P-04). */
  private find(chunk: Uint8Array, from: number): number {
    const f = this.indexOf;
    if (f !== null) return f(chunk, this.needle, from);
    let sc = this.scanner;
    if (sc === null) {
      const s = this.searchArg;
      sc = this.scanner = new DelimiterScan(this.needle, typeof s === 'object' ? s.dense : null);
    }
    return sc.find(chunk, this.dataView(chunk), from);
  }

  /** The search this parser was given. */
  get search(): Search {
    return this.searchArg;
  }

  private body(chunk: Uint8Array, i: number, n: number): number {
    const needle = this.needle;
    const L = needle.length;
    if (this.held > 0 || this.heldCR) {
      if (this.held === 0) {
        // allow_lf: only a CR is held
        if (chunk[i] === LF) {
          this.held = 1;
          i++;
        } else {
          this.release();
        }
      }
      if (this.held > 0) {
        let k = this.held;
        let t = i;
        while (k < L && t < n && chunk[t] === needle[k]) {
          k++;
          t++;
        }
        if (k < L) {
          if (t === n) {
            this.held = k;
            return n;
          }
          this.release();
          if (t > i) this.data(chunk, i, t);
          i = t;
        } else {
          if (t === n) {
            this.held = L;
            return n;
          }
          if (isAfterB(chunk[t]!)) return this.delimiterFound(t, this.heldCR ? NEAR_CR_NEEDLE : NEAR_NEEDLE);
          this.release();
          if (t > i) this.data(chunk, i, t);
          i = t;
        }
      }
    }
    // Normal scan from i.
    const lead = this.lead;
    const nw = this.needleW;
    const shift = this.shift;
    const last = L - 1;
    const lastByte = needle[last]!;
    let from = i;
    for (;;) {
      let j = -1;
      // Short distances (small parts): a Horspool scan in JS is cheaper than a call into the native search. It
      // looks at the byte under the needle's last byte and moves by that byte's shift, so no occurrence is skipped.
      const stopJs = Math.min(n - L, from + 64);
      let s = from;
      while (s <= stopJs) {
        const c = chunk[s + last]!;
        if (c === lastByte && chunk[s] === lead && eqWords(this.dataView(chunk), s, nw, L)) {
          j = s;
          break;
        }
        s += shift[c]!;
      }
      if (j < 0 && s <= n - L) j = this.find(chunk, s);
      if (j < 0) break;
      if (j + L < n) {
        if (isAfterB(chunk[j + L]!)) {
          let e = j;
          if (this.allowLf && e > i && chunk[e - 1] === CR) e--;
          if (e > i) this.data(chunk, i, e);
          return this.delimiterFound(j + L, e < j ? NEAR_CR_NEEDLE : NEAR_NEEDLE);
        }
        from = j + 1; // MP-P-04: `CRLF--BX` is data
        continue;
      }
      // The needle ends exactly at the chunk end: hold it until the byte after B arrives.
      let e = j;
      if (this.allowLf && e > i && chunk[e - 1] === CR) {
        e--;
        this.heldCR = true;
      }
      if (e > i) this.data(chunk, i, e);
      this.held = L;
      return n;
    }
    // No complete needle: hold back a tail that could start one, from the last lead byte (MP-P-08).
    let p = n - 1;
    const low = Math.max(i, n - L + 1);
    while (p >= low && chunk[p] !== lead) p--;
    let e = n;
    if (p >= low) {
      let k = 0;
      while (p + k < n && chunk[p + k] === needle[k]) k++;
      if (p + k === n) {
        e = p;
        this.held = k;
      }
    }
    if (this.allowLf && e > i && chunk[e - 1] === CR) {
      e--;
      this.heldCR = true;
    }
    if (e > i) this.data(chunk, i, e);
    return n;
  }

  /** allow_cr: the first `CR "--" B` at or after chunk index `from`, or -1, by the search find() uses. */
  private findCr(chunk: Uint8Array, from: number): number {
    const f = this.indexOf;
    if (f !== null) return f(chunk, this.needleCr, from);
    let sc = this.scannerCr;
    if (sc === null) {
      const s = this.searchArg;
      sc = this.scannerCr = new DelimiterScan(this.needleCr, typeof s === 'object' ? s.dense : null);
    }
    return sc.find(chunk, this.dataView(chunk), from);
  }

  /** allow_cr: release the held bytes (a CR before an LF lead, the lead, the needle bytes after it) as body data. */
  private releaseCr(): void {
    const c = this.heldCR ? 1 : 0;
    const out = new Uint8Array(c + this.held);
    out.set(this.needle.subarray(0, this.held), c);
    if (c === 1) out[0] = CR;
    out[c] = this.heldLead;
    this.held = 0;
    this.heldCR = false;
    this.data(out, 0, out.length);
  }

  /**
   * MP-P-02, MP-P-06 with allow_cr: a body (or the preamble) ends at the first of `CR "--" B`, `CRLF "--" B` and,
   * with allow_lf, `LF "--" B`, where MP-P-04 allows the byte after B. `CRLF "--" B` is found as `LF "--" B` with
   * the CR before it. The two searches (find, findCr) each only move forward through the chunk, and CR and LF occur
   * in neither needle but at its start, so held back (MP-P-08) is at most the tail from the chunk's last CR or LF
   * (with the CR before such an LF).
   */
  private bodyCr(chunk: Uint8Array, i: number, n: number): number {
    const needle = this.needle; // LF "--" B; CR "--" B differs in its first byte only
    const L = needle.length;
    if (this.held > 0) {
      if (this.held === 1 && this.heldLead === CR && chunk[i] === LF) {
        // CR then LF: held as the CR before an LF lead (CRLF "--" B, if anything)
        this.heldLead = LF;
        this.heldCR = true;
        i++;
      }
      let k = this.held;
      let t = i;
      while (k < L && t < n && chunk[t] === needle[k]) {
        k++;
        t++;
      }
      if (t === n) {
        this.held = k;
        return n;
      }
      if (k === L && isAfterB(chunk[t]!)) {
        const pre = this.heldLead === CR ? NEAR_CR_LEAD : this.heldCR ? NEAR_CR_NEEDLE : NEAR_NEEDLE;
        return this.delimiterFound(t, pre);
      }
      this.releaseCr();
      if (t > i) this.data(chunk, i, t);
      i = t;
    }
    const last = n - L;
    let from = i;
    let jl = -2; // the next LF "--" B at or after `from` (-1: none in this chunk; -2: not searched)
    let jc = -2; // the next CR "--" B
    for (;;) {
      if (jl !== -1 && jl < from) jl = from <= last ? this.find(chunk, from) : -1;
      if (jc !== -1 && jc < from) jc = from <= last ? this.findCr(chunk, from) : -1;
      const j = jl < 0 ? jc : jc < 0 || jl < jc ? jl : jc;
      if (j < 0) break;
      let s = j;
      let pre = NEAR_CR_LEAD;
      if (j === jl) {
        pre = NEAR_NEEDLE;
        if (j > i && chunk[j - 1] === CR) {
          s = j - 1;
          pre = NEAR_CR_NEEDLE;
        } else if (!this.allowLf) {
          from = j + 1; // strict LF "--" B is data
          continue;
        }
      }
      if (j + L < n) {
        if (isAfterB(chunk[j + L]!)) {
          if (s > i) this.data(chunk, i, s);
          return this.delimiterFound(j + L, pre);
        }
        from = j + 1; // MP-P-04: `CR--BX` is data
        continue;
      }
      // The needle ends exactly at the chunk end: hold it until the byte after B arrives.
      if (s > i) this.data(chunk, i, s);
      this.held = L;
      this.heldLead = chunk[j]!;
      this.heldCR = pre === NEAR_CR_NEEDLE;
      return n;
    }
    // No complete needle: hold back a tail that could start one, from the last CR or LF.
    let p = n - 1;
    const low = Math.max(i, n - L + 1);
    while (p >= low && chunk[p] !== CR && chunk[p] !== LF) p--;
    let e = n;
    if (p >= low) {
      let k = 1;
      while (p + k < n && chunk[p + k] === needle[k]) k++;
      const lead = chunk[p]!;
      const crBefore = lead === LF && p > i && chunk[p - 1] === CR;
      if (p + k === n && (lead === CR || crBefore || this.allowLf)) {
        e = crBefore ? p - 1 : p;
        this.held = k;
        this.heldLead = lead;
        this.heldCR = crBefore;
      }
    }
    if (e > i) this.data(chunk, i, e);
    return n;
  }
}

/** Whether buf[s..e) holds the byte c (false for an empty or absent range). */
function hasByte(buf: Uint8Array, s: number, e: number, c: number): boolean {
  for (let i = s; i < e; i++) if (buf[i] === c) return true;
  return false;
}

/** MP-P-04: bytes that may follow B in a delimiter. */
function isAfterB(c: number): boolean {
  return c === DASH || c === SP || c === HT || c === CR || c === LF;
}

/**
 * @internal The boundary of keepShapes' body: long enough for the default search of every runtime (the scan on
 * Node and Deno, whose DelimiterScan then stays alive with its parser too).
 */
export const KEEP_BOUNDARY = 'keep-shapes';

/**
 * @internal Parse a small body covering the parser's paths (a file part long enough to reach the delimiter search
 * past the short in-line scan) with `make`'s parser (boundary KEEP_BOUNDARY); return what keeps the shapes.
 */
export function keepShapes(make: (h: MultipartHandler) => MultipartParser): readonly object[] {
  const keep: object[] = [];
  const h: MultipartHandler = { onPartStart(i) { keep.push(i); }, onData() {}, onPartEnd() {}, onEnd() {} };
  const p = make(h);
  const d = '--' + KEEP_BOUNDARY;
  const body = encodeUtf8(
    d + '\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n' +
      d + '\r\nContent-Disposition: form-data; name="b"\r\nContent-Type: text/plain\r\n\r\nv\r\n' +
      d + '\r\nContent-Disposition: form-data; name="f"; filename="f.txt"\r\nContent-Type: text/plain\r\nX-K: 1\r\n\r\n' +
      'v'.repeat(300) + '\r\n' + d + '--\r\n',
  );
  p.write(body.subarray(0, 60));
  p.write(body.subarray(60));
  p.end();
  keep.push(p);
  return Object.freeze(keep);
}

/**
 * Instances of the per-parse classes, alive as long as the module. Why: an instance's shape (V8 map) is reached from
 * its constructor only through weak transitions, and fields that change representation (a limit of Infinity, a
 * header slab) move live instances to new shapes; when every parser and PartInfo of the last parse is garbage, a
 * major GC frees those shapes and throws away all optimized code that embeds them (`--trace-deopt`: "weak objects"),
 * so each parse after a GC starts cold again (issue #20). One parser that has been through a field, a file part and
 * the general header path keeps those shapes. Built once at load (last in the module: it parses); never used
 * afterwards. A subclass (the package's runtime-default parser) keeps its own with `keepShapes`.
 * @internal
 */
export const KEEP_SHAPES: readonly object[] = keepShapes((h) => new MultipartParser(KEEP_BOUNDARY, h));
