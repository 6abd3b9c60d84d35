/**
 * application/x-www-form-urlencoded, WHATWG URL §5 exactly: the parser (streaming over bytes, and a fast path over
 * strings) and the serializer. The parser never fails on content; only the limits of spec/limits.md produce errors
 * (UE_LIMIT_PAIRS, UE_LIMIT_BYTES; offsets per spec/errors.md).
 */
import { FormwireError } from './errors.js';
import { decodeUtf8 } from './utf8.js';

/** Limits (spec/limits.md). `Infinity` (or null) = unlimited. */
export interface UrlencodedOptions {
  maxPairs?: number | null;
  maxBytes?: number | null;
}

export const URLENCODED_DEFAULTS = Object.freeze({ maxPairs: 10000, maxBytes: 10485760 });

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

let scratch = new Uint8Array(256);

/** UE-P-06 `+` → SP, then UE-P-07 percent-decode (invalid `%` kept literally), then UE-P-08 UTF-8 decode. */
export function decodeBytes(buf: Uint8Array, a: number, b: number): string {
  let plain = true;
  for (let i = a; i < b; i++) {
    const c = buf[i]!;
    if (c === PLUS || c === PCT || c >= 0x80) {
      plain = false;
      break;
    }
  }
  if (plain) return decodeUtf8(buf, a, b);
  if (scratch.length < b - a) scratch = new Uint8Array(Math.max(b - a, scratch.length * 2));
  const out = scratch;
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
  return decodeUtf8(out, 0, w);
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

  constructor(onPair: (name: string, value: string) => void, options: UrlencodedOptions = {}) {
    this.onPair = onPair;
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
    const name = decodeBytes(buf, a, eq);
    const value = eq < b ? decodeBytes(buf, eq + 1, b) : '';
    this.onPair(name, value);
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
export function parseUrlencodedBytes(input: Uint8Array, options: UrlencodedOptions = {}): [string, string][] {
  const out: [string, string][] = [];
  const p = new UrlencodedParser((n, v) => out.push([n, v]), options);
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

function decodeSlow(s: string): string {
  const b = encoder.encode(s);
  return decodeBytes(b, 0, b.length);
}

/** Decode one name or value: s[a..b), which holds a '+' when plus, a '%' when pct. */
function decodeComponent(s: string, a: number, b: number, plus: boolean, pct: boolean): string {
  let v = s.slice(a, b);
  if (plus) v = v.replaceAll('+', ' ');
  if (!pct) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return decodeSlow(v);
  }
}

const toWellFormed: (s: string) => string =
  typeof (String.prototype as { toWellFormed?: unknown }).toWellFormed === 'function'
    ? (s) => (s as unknown as { toWellFormed(): string }).toWellFormed()
    : (s) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Parse a urlencoded string: UE-P-01, the same pairs as the bytes of its UTF-8 encoding. */
export function parseUrlencodedString(input: string, options: UrlencodedOptions = {}): [string, string][] {
  const maxPairs = lim(options.maxPairs, URLENCODED_DEFAULTS.maxPairs);
  const maxBytes = lim(options.maxBytes, URLENCODED_DEFAULTS.maxBytes);
  if (input.length * 3 > maxBytes && utf8Length(input) > maxBytes) {
    // Rejected anyway: the byte parser gives the exact error and offset.
    return parseUrlencodedBytes(encoder.encode(input), options);
  }
  // Lone surrogates become U+FFFD when the string is UTF-8 encoded; '&' and '=' are unaffected.
  const s = toWellFormed(input);
  const out: [string, string][] = [];
  const len = s.length;
  // Next occurrences of '=', '+', '%' at or after `start`: each is searched for once per occurrence (linear).
  let nextEq = -1;
  let nextPlus = -1;
  let nextPct = -1;
  let start = 0;
  while (start < len) {
    let amp = s.indexOf('&', start);
    if (amp < 0) amp = len;
    if (amp > start) {
      if (out.length >= maxPairs) {
        throw new FormwireError('UE_LIMIT_PAIRS', utf8Length(s.slice(0, start)), 'too many pairs');
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
      if (nextEq >= amp) {
        out.push([decodeComponent(s, start, amp, nextPlus < amp, nextPct < amp), '']);
      } else {
        const eq = nextEq;
        const name = decodeComponent(s, start, eq, nextPlus < eq, nextPct < eq);
        const v = eq + 1;
        if (nextPlus < v) {
          nextPlus = s.indexOf('+', v);
          if (nextPlus < 0) nextPlus = len;
        }
        if (nextPct < v) {
          nextPct = s.indexOf('%', v);
          if (nextPct < 0) nextPct = len;
        }
        out.push([name, decodeComponent(s, v, amp, nextPlus < amp, nextPct < amp)]);
      }
    }
    start = amp + 1;
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
