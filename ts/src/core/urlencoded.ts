/**
 * application/x-www-form-urlencoded, WHATWG URL §5 exactly: the parser (streaming over bytes, and a fast path over
 * strings) and the serializer. The parser never fails on content; only the limits of spec/limits.md produce errors
 * (UE_LIMIT_PAIRS, UE_LIMIT_BYTES; offsets per spec/errors.md).
 *
 * No module-level mutable state: scratch buffers belong to a parser or to one call, and the runtime's faster text
 * decoders come in as a TextCodec argument (default: TextDecoder only).
 */
import { FormwireError } from './errors.js';
import { URLENCODED_DEFAULTS, type UrlencodedLimits } from './registry.js';
import { PORTABLE_TEXT, decodeUtf8, type TextCodec } from './utf8.js';

/** Limits (spec/limits.md, generated from spec/registry.json). `Infinity` (or null) = unlimited. */
export interface UrlencodedOptions extends UrlencodedLimits {}

/** spec/limits.md defaults (generated from spec/registry.json). */
export { URLENCODED_DEFAULTS };

function lim(v: number | null | undefined, d: number): number {
  if (v === undefined) return d;
  if (v === null) return Infinity;
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0) throw new RangeError(`invalid limit ${String(v)}`);
  return v;
}

const encoder = new TextEncoder();

const AMP = 0x26;
const EQ = 0x3d;
const PLUS = 0x2b;
const PCT = 0x25;

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** Hex digit values by byte, -1 for a byte that is not an ASCII hex digit (generated from hexVal). */
const HEX = new Int8Array(256);
for (let c = 0; c < 256; c++) HEX[c] = hexVal(c);

/**
 * How the percent-decoded bytes of a name or value become a string (UE-P-08 is UTF-8; an adapter whose incumbent
 * honours the request's `charset`, like busboy, passes that charset's decoder; the entry points pass the runtime's
 * fastest UTF-8 decoder).
 */
export type BytesDecoder = (bytes: Uint8Array, start: number, end: number) => string;

/** UE-P-06 `+` → SP, then UE-P-07 percent-decode (invalid `%` kept literally), then UE-P-08 UTF-8 decode. */
export function decodeBytes(buf: Uint8Array, a: number, b: number, decode: BytesDecoder = decodeUtf8): string {
  return decodeWith(buf, a, b, decode, null);
}

/** decodeBytes with a scratch buffer for the decoded bytes (a new one when null or too small). */
function decodeWith(buf: Uint8Array, a: number, b: number, decode: BytesDecoder, scratch: Uint8Array | null): string {
  let plain = true;
  for (let i = a; i < b; i++) {
    const c = buf[i]!;
    if (c === PLUS || c === PCT || c >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) return decode(buf, a, b);
  const out = scratch !== null && scratch.length >= b - a ? scratch : new Uint8Array(b - a);
  let w = 0;
  for (let i = a; i < b; i++) {
    const c = buf[i]!;
    if (c === PLUS) out[w++] = 0x20;
    else if (c === PCT && i + 2 < b) {
      const h = hexVal(buf[i + 1]!);
      const l = hexVal(buf[i + 2]!);
      if (h >= 0 && l >= 0) {
        out[w++] = (h << 4) | l;
        i += 2;
      } else out[w++] = c;
    } else out[w++] = c;
  }
  return decode(out, 0, w);
}

/**
 * Streaming urlencoded parser: bytes in, `[name, value]` pairs out. Sequences that span chunks are copied (bounded
 * by maxBytes); `%`, `%X` and multi-byte UTF-8 split across chunks decode as if whole.
 */
export class UrlencodedParser {
  private readonly onPair: (name: string, value: string) => void;
  private readonly maxPairs: number;
  private readonly maxBytes: number;
  private fed = 0;
  private pairs = 0;
  private pending: Uint8Array = new Uint8Array(0);
  private pendingLen = 0;
  private error: FormwireError | null = null;
  private readonly decodeBytes: BytesDecoder;
  /** Decoded bytes of a name or value with `+` or `%` (grown to the longest). */
  private scratch = new Uint8Array(64);

  /** `decode` replaces UE-P-08's UTF-8 step (default: UTF-8, WHATWG, TextDecoder; the entry points pass theirs). */
  constructor(onPair: (name: string, value: string) => void, options: UrlencodedOptions = {}, decode: BytesDecoder = decodeUtf8) {
    this.onPair = onPair;
    this.decodeBytes = decode;
    this.maxPairs = lim(options.maxPairs, URLENCODED_DEFAULTS.maxPairs);
    this.maxBytes = lim(options.maxBytes, URLENCODED_DEFAULTS.maxBytes);
  }

  private fail(code: 'UE_LIMIT_PAIRS' | 'UE_LIMIT_BYTES', offset: number, msg: string): never {
    this.error = new FormwireError(code, offset, msg);
    throw this.error;
  }

  write(chunk: Uint8Array): void {
    if (this.error !== null) throw this.error; // UE-L-05
    const room = this.maxBytes - this.fed;
    if (chunk.length > room) {
      this.run(chunk.subarray(0, Math.max(0, room)));
      this.fail('UE_LIMIT_BYTES', this.maxBytes, 'input longer than maxBytes'); // UE-L-01, UE-L-03
    }
    this.run(chunk);
  }

  end(): void {
    if (this.error !== null) throw this.error; // UE-L-05
    if (this.pendingLen > 0) {
      this.sequence(this.pending, 0, this.pendingLen);
      this.pendingLen = 0;
    }
  }

  private count(start: number): void {
    if (this.pairs >= this.maxPairs) this.fail('UE_LIMIT_PAIRS', start, 'too many pairs');
    this.pairs++;
  }

  /** A complete non-empty sequence (already counted at its first byte). UE-P-04: split at the first `=`. */
  private sequence(buf: Uint8Array, a: number, b: number): void {
    let eq = a;
    while (eq < b && buf[eq] !== EQ) eq++;
    const name = this.decode(buf, a, eq);
    const value = eq < b ? this.decode(buf, eq + 1, b) : '';
    this.onPair(name, value);
  }

  private decode(buf: Uint8Array, a: number, b: number): string {
    if (this.scratch.length < b - a) this.scratch = new Uint8Array(Math.max(b - a, this.scratch.length * 2));
    return decodeWith(buf, a, b, this.decodeBytes, this.scratch);
  }

  private append(chunk: Uint8Array, a: number, b: number): void {
    const need = this.pendingLen + (b - a);
    if (need > this.pending.length) {
      const p = new Uint8Array(Math.max(need, this.pending.length * 2, 64));
      p.set(this.pending.subarray(0, this.pendingLen));
      this.pending = p;
    }
    this.pending.set(chunk.subarray(a, b), this.pendingLen);
    this.pendingLen = need;
  }

  private run(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    try {
      while (i < n) {
        const amp = chunk.indexOf(AMP, i); // UE-P-02: '&' is the only separator
        const end = amp < 0 ? n : amp;
        // UE-L-02: a pair is counted at its first byte, as soon as that byte is fed (UE-P-12).
        if (this.pendingLen === 0 && end > i) this.count(this.fed + i);
        if (amp < 0) {
          this.append(chunk, i, n);
          break;
        }
        if (this.pendingLen > 0) {
          this.append(chunk, i, amp);
          this.sequence(this.pending, 0, this.pendingLen);
          this.pendingLen = 0;
        } else if (amp > i) {
          this.sequence(chunk, i, amp);
        } // else UE-P-03: an empty sequence is skipped
        i = amp + 1;
      }
    } finally {
      this.fed += n;
    }
  }
}

/** Parse urlencoded bytes (whole). */
export function parseUrlencodedBytes(input: Uint8Array, options: UrlencodedOptions = {}, decode: BytesDecoder = decodeUtf8): [string, string][] {
  const out: [string, string][] = [];
  const p = new UrlencodedParser((n, v) => out.push([n, v]), options, decode);
  p.write(input);
  p.end();
  return out;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3; // BMP, or a lone surrogate (U+FFFD)
  }
  return n;
}

const toWellFormed: (s: string) => string =
  typeof (String.prototype as { toWellFormed?: unknown }).toWellFormed === 'function'
    ? (s) => (s as unknown as { toWellFormed(): string }).toWellFormed()
    : (s) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string has no lone surrogate (so its UTF-8 encoding is lossless); no copy either way. */
const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function'
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

// ---------------------------------------------------------------------------------------------------------------
// The string fast path.
//
// The input is cut into windows of about WINDOW characters, each ending at an `&`. TextEncoder.encodeInto copies a
// window to bytes and tells, for free, whether it is all ASCII. A name or value without `+` or `%` is a substring of
// the input (a SlicedString from 13 characters on in V8: no copy, but it keeps the input alive, as any substring of
// it would). The others are decoded into one of two batches per window, and cut out of the batch's string once the
// window is done: in an ASCII window, one with `+` but no `%` is ASCII after UE-P-06 and is moved by plusPart to the
// one-byte batch at the start of the window's bytes, its `+` made SP on the way; one with `%` (or, in a window that is
// not ASCII, with `+` too) is decoded by decodeInto, this module's WHATWG percent and UTF-8 decoder, into the UTF-16
// batch.
// So a parse makes at most two strings per window besides its results, instead of one per decoded name or value (each
// string built from computed characters costs a runtime call, or a rope of pieces that the garbage collector traces
// and that is flattened later), and allocates little besides its result: what the garbage collector has to copy
// while the result is alive is mostly the result itself. Windows keep the batch strings and the scratch buffers small
// (young-generation objects, not large-object-space ones that every parse would add to the old generation).
// Measured against per-component slice + `replaceAll('+', ' ')` + `decodeURIComponent` on bench W4
// (bench/run --workload W4 --lang ts, bench/node/urlencoded.mjs); figures in CHANGELOG.md.

/** Window length in UTF-16 code units; a window ends at an `&` (it holds whole sequences). */
const WINDOW = 16384;
/** Scratch buffers grown past this (for a sequence longer than a window) are dropped after the parse. */
const MAX_SCRATCH = 65536;

/**
 * The scratch of one string parse (allocated per call, sized to the input): the window's bytes and the two batches.
 */
class Batches {
  /** The window's bytes; its start holds the one-byte batch. */
  win: Uint8Array;
  winView: DataView;
  /** A non-ASCII window's name or value, UTF-8 encoded. */
  tmp = new Uint8Array(0);
  /** The UTF-16 batch. */
  units: Uint16Array;
  /**
   * Per decoded name or value of the window: ((pair index * 2 + (0 name, 1 value)) * 2 + (0 one-byte, 1 UTF-16
   * batch)), then its range in that batch.
   */
  fixes = new Int32Array(3 * 64);
  /** Lengths of the one-byte batch (in `win`), of the UTF-16 batch (`units`) and of `fixes`. */
  w1 = 0;
  w2 = 0;
  nf = 0;

  constructor(len: number) {
    this.win = new Uint8Array(Math.min(len, WINDOW + 256));
    this.winView = new DataView(this.win.buffer);
    this.units = new Uint16Array(Math.min(len, 4096));
  }

  /** Drop buffers grown for a long name or value (kept scratch stays young-generation sized). */
  trim(): void {
    if (this.win.length > MAX_SCRATCH) {
      this.win = new Uint8Array(WINDOW + 256);
      this.winView = new DataView(this.win.buffer);
    }
    if (this.tmp.length > MAX_SCRATCH) this.tmp = new Uint8Array(0);
    if (this.units.length > MAX_SCRATCH) this.units = new Uint16Array(4096);
    if (this.fixes.length > MAX_SCRATCH) this.fixes = new Int32Array(3 * 64);
  }

  /** Room for a window of n bytes (longer than WINDOW only when one sequence is). */
  window(n: number): void {
    if (this.win.length < n) {
      this.win = new Uint8Array(n);
      this.winView = new DataView(this.win.buffer);
    }
  }

  growUnits(need: number): void {
    const u = new Uint16Array(Math.max(need, this.units.length * 2));
    u.set(this.units.subarray(0, this.w2));
    this.units = u;
  }

  /**
   * UE-P-06..08 on the bytes b[i..j) (`+` → SP, percent-decode, UTF-8 decode without BOM with U+FFFD per maximal
   * subpart, as WHATWG's UTF-8 decoder), appended to the UTF-16 batch. Gives what decodeBytes gives for the same bytes.
   */
  decodeInto(b: Uint8Array, i: number, j: number): void {
    // Each input byte gives at most one code unit: a 4-byte sequence (2 units) is at least 4 bytes, a U+FFFD at least 1.
    if (this.units.length < this.w2 + (j - i)) this.growUnits(this.w2 + (j - i));
    const out = this.units;
    let w = this.w2;
    let need = 0; // bytes still expected in the current sequence
    let cp = 0;
    let lo = 0x80; // bounds of the next continuation byte
    let hi = 0xbf;
    while (i < j) {
      let c = b[i++]!;
      if (c === PCT) {
        // UE-P-07: two hex digits make a byte; any other '%' is the byte '%'
        if (i + 1 < j) {
          const h = HEX[b[i]!]!;
          const l = HEX[b[i + 1]!]!;
          if ((h | l) >= 0) {
            c = (h << 4) | l;
            i += 2;
          }
        }
      } else if (c < 0x80) {
        if (c === PLUS) c = 0x20; // UE-P-06
        if (need === 0) {
          out[w++] = c; // the common case: an ASCII byte outside a sequence
          continue;
        }
      }
      if (need !== 0) {
        if (c >= lo && c <= hi) {
          lo = 0x80;
          hi = 0xbf;
          cp = (cp << 6) | (c & 0x3f);
          if (--need === 0) {
            if (cp > 0xffff) {
              cp -= 0x10000;
              out[w++] = 0xd800 | (cp >> 10);
              out[w++] = 0xdc00 | (cp & 0x3ff);
            } else out[w++] = cp;
          }
          continue;
        }
        // An unexpected byte ends the sequence with one U+FFFD and is then decoded on its own.
        need = 0;
        lo = 0x80;
        hi = 0xbf;
        out[w++] = 0xfffd;
      }
      if (c < 0x80) out[w++] = c;
      else if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        cp = c & 0x1f;
      } else if (c >= 0xe0 && c <= 0xef) {
        if (c === 0xe0) lo = 0xa0; // overlong
        else if (c === 0xed) hi = 0x9f; // surrogates
        need = 2;
        cp = c & 0x0f;
      } else if (c >= 0xf0 && c <= 0xf4) {
        if (c === 0xf0) lo = 0x90; // overlong
        else if (c === 0xf4) hi = 0x8f; // above U+10FFFF
        need = 3;
        cp = c & 0x07;
      } else out[w++] = 0xfffd;
    }
    if (need !== 0) out[w++] = 0xfffd; // truncated sequence at the end of the name or value
    this.w2 = w;
  }

  addFix(slot: number, from: number, to: number): void {
    if (this.nf + 3 > this.fixes.length) {
      const f = new Int32Array(this.fixes.length * 2);
      f.set(this.fixes);
      this.fixes = f;
    }
    const fx = this.fixes;
    fx[this.nf++] = slot;
    fx[this.nf++] = from;
    fx[this.nf++] = to;
  }

  /**
   * Decode the name or value s[i..j) into the UTF-16 batch for `slot` (see `fixes`). `bytes` holds the window's
   * bytes from string index `a` on when the window is ASCII, else null.
   */
  decodePart(s: string, bytes: Uint8Array | null, a: number, i: number, j: number, slot: number): void {
    const w0 = this.w2;
    if (bytes !== null) this.decodeInto(bytes, i - a, j - a);
    else {
      // UE-P-01: the component's own UTF-8 encoding (the input is well-formed: lossless), then the byte decoder.
      const n = j - i;
      if (this.tmp.length < n * 3) this.tmp = new Uint8Array(n * 3);
      this.decodeInto(this.tmp, 0, encoder.encodeInto(s.slice(i, j), this.tmp).written);
    }
    this.addFix(slot * 2 + 1, w0, this.w2);
  }

  /**
   * UE-P-06 alone on the name or value [i..j) of an ASCII window's bytes (`+` but no `%`: ASCII in, ASCII out): moved
   * to the end of the one-byte batch at the start of `win` (never past the bytes still to read), `+` made SP on the
   * way, four bytes at a time: in a word x, the bytes equal to 0x2B are those where y = x ^ 0x2B2B2B2B is 0; every
   * byte of y is below 0x80 (ASCII), so y + 0x7F7F7F7F carries into no other byte and sets bit 7 of exactly the
   * non-zero ones; and 0x2B ^ 0x0B = 0x20.
   */
  plusPart(i: number, j: number, slot: number): void {
    const b = this.win;
    const v = this.winView;
    const w0 = this.w1;
    let w = w0;
    for (; i + 4 <= j; i += 4, w += 4) {
      const x = v.getUint32(i, true);
      const y = x ^ 0x2b2b2b2b;
      const m = ~(y + 0x7f7f7f7f) & 0x80808080;
      v.setUint32(w, x ^ ((m >>> 7) * 0x0b), true); // read before written: w <= i
    }
    for (; i < j; i++) {
      const c = b[i]!;
      b[w++] = c === PLUS ? 0x20 : c;
    }
    this.w1 = w;
    this.addFix(slot * 2, w0, w);
  }
}

/**
 * A string parser that keeps its scratch between parses (allocating it per parse makes the garbage collector run
 * for the buffers' external memory). `parse` is synchronous and calls no user code, so one instance serves any
 * number of callers; the entry points keep one with the runtime's text decoding.
 */
export class UrlencodedStringParser {
  private readonly text: TextCodec;
  private readonly z = new Batches(WINDOW + 256);

  constructor(text: TextCodec = PORTABLE_TEXT) {
    this.text = text;
  }

  /** Parse a urlencoded string: UE-P-01, the same pairs as the bytes of its UTF-8 encoding. */
  parse(input: string, options: UrlencodedOptions = {}): [string, string][] {
    try {
      return parseWith(input, options, this.text, this.z);
    } finally {
      this.z.trim();
    }
  }
}

/** Parse a urlencoded string: UE-P-01, the same pairs as the bytes of its UTF-8 encoding (scratch for this call). */
export function parseUrlencodedString(input: string, options: UrlencodedOptions = {}, text: TextCodec = PORTABLE_TEXT): [string, string][] {
  return parseWith(input, options, text, new Batches(input.length));
}

function parseWith(input: string, options: UrlencodedOptions, text: TextCodec, z: Batches): [string, string][] {
  const maxPairs = lim(options.maxPairs, URLENCODED_DEFAULTS.maxPairs);
  const maxBytes = lim(options.maxBytes, URLENCODED_DEFAULTS.maxBytes);
  if (input.length * 3 > maxBytes && utf8Length(input) > maxBytes) {
    // Rejected anyway: the byte parser gives the exact error and offset.
    return parseUrlencodedBytes(encoder.encode(input), options, (b, x, y) => text.decode(b, x, y));
  }
  // Lone surrogates become U+FFFD when the string is UTF-8 encoded; '&' and '=' are unaffected.
  const s = isWellFormed(input) ? input : toWellFormed(input);
  const out: [string, string][] = [];
  const len = s.length;
  // Next occurrences of '=', '+', '%' at or after the current sequence: each searched for once per occurrence (linear).
  let nextEq = -1;
  let nextPlus = -1;
  let nextPct = -1;
  for (let a = 0; a < len; ) {
    let b = len - a > WINDOW ? s.indexOf('&', a + WINDOW) : len;
    if (b < 0) b = len;
    const n = b - a;
    z.window(n);
    const r = encoder.encodeInto(n === len ? s : s.slice(a, b), z.win);
    const bytes: Uint8Array | null = r.read === n && r.written === n ? z.win : null; // all ASCII, or not
    z.w1 = 0;
    z.w2 = 0;
    z.nf = 0;
    for (let start = a; start < b; ) {
      let amp = s.indexOf('&', start); // UE-P-02
      if (amp < 0) amp = len;
      if (amp > start) {
        // UE-P-03: empty sequences are skipped
        if (out.length >= maxPairs) {
          throw new FormwireError('UE_LIMIT_PAIRS', utf8Length(s.slice(0, start)), 'too many pairs'); // UE-L-02
        }
        if (nextEq < start) {
          nextEq = s.indexOf('=', start);
          if (nextEq < 0) nextEq = len;
        }
        if (nextPlus < start) {
          nextPlus = s.indexOf('+', start);
          if (nextPlus < 0) nextPlus = len;
        }
        if (nextPct < start) {
          nextPct = s.indexOf('%', start);
          if (nextPct < 0) nextPct = len;
        }
        const eq = nextEq < amp ? nextEq : amp; // UE-P-04
        let name = '';
        let value = '';
        if (nextPct < eq) z.decodePart(s, bytes, a, start, eq, out.length * 2);
        else if (nextPlus >= eq) name = s.slice(start, eq);
        else if (bytes !== null) z.plusPart(start - a, eq - a, out.length * 2);
        else z.decodePart(s, bytes, a, start, eq, out.length * 2);
        if (eq < amp) {
          const v = eq + 1;
          if (nextPlus < v) {
            nextPlus = s.indexOf('+', v);
            if (nextPlus < 0) nextPlus = len;
          }
          if (nextPct < v) {
            nextPct = s.indexOf('%', v);
            if (nextPct < 0) nextPct = len;
          }
          if (nextPct < amp) z.decodePart(s, bytes, a, v, amp, out.length * 2 + 1);
          else if (nextPlus >= amp) value = s.slice(v, amp);
          else if (bytes !== null) z.plusPart(v - a, amp - a, out.length * 2 + 1);
          else z.decodePart(s, bytes, a, v, amp, out.length * 2 + 1);
        }
        out.push([name, value]);
      }
      start = amp + 1;
    }
    if (z.nf > 0) {
      const one = z.w1 > 0 ? text.ascii(z.win, 0, z.w1) : '';
      const two = z.w2 > 0 ? text.units(z.units, z.w2) : '';
      const fixes = z.fixes;
      for (let k = 0; k < z.nf; k += 3) {
        const slot = fixes[k]!;
        out[slot >> 2]![(slot >> 1) & 1] = (slot & 1 ? two : one).slice(fixes[k + 1], fixes[k + 2]);
      }
    }
    a = b + 1;
  }
  return out;
}

// WHATWG application/x-www-form-urlencoded percent-encode set: everything but [A-Za-z0-9*-._]; space → '+'.
const EXTRA = /[!'()~]|%20/g;
const HAS_EXTRA = /[!'()~]|%20/;
const EXTRA_MAP: Record<string, string> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E', '%20': '+' };

/** UE-S-01..05: lone surrogates → U+FFFD, UTF-8, space → `+`, `A-Za-z0-9*-._` kept, the rest `%XX` uppercase. */
export function serializeComponent(s: string): string {
  const e = encodeURIComponent(toWellFormed(s));
  return HAS_EXTRA.test(e) ? e.replace(EXTRA, (m) => EXTRA_MAP[m]!) : e;
}

/** UE-S-06: `name=value` joined by `&` (WHATWG URL "application/x-www-form-urlencoded serializer", UTF-8). */
export function serializeUrlencoded(pairs: Iterable<readonly [string, string]>): string {
  let out = '';
  let first = true;
  for (const [n, v] of pairs) {
    if (!first) out += '&';
    first = false;
    out += serializeComponent(String(n)) + '=' + serializeComponent(String(v));
  }
  return out;
}
