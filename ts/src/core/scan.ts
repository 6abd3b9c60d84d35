/**
 * The core's own delimiter search (MP-P-04: the body needle `CRLF "--" B`, or `LF "--" B` with allow_lf), pure JS:
 * a sampled pair scan. An occurrence of the needle (length L) covers L - 1 consecutive byte pairs, so it holds
 * exactly one of the pairs that start at every (L - 1)-th position. The scan reads only those pairs (one 16-bit load
 * per L - 1 bytes), moves on when a pair is not one of the needle's (a set of 65,536 bits), and otherwise checks the
 * starts that pair allows (the needle's positions of that pair, from a small hash table), leftmost first.
 *
 * Linear on any input: at most L - 1 starts per sample, each checked in O(1) unless the bytes there begin with the
 * needle's first two bytes (CR LF, or LF `-`), and such prefix matches never overlap (neither CR nor LF occurs in B,
 * and `-` `-` follows the LF only at the needle's start), so the long comparisons add up to O(n).
 *
 * Where most samples are needle pairs (bodies dense in delimiter near-misses, bench X2), the per-sample work is no
 * longer small: after DENSE_HITS such samples in one call, more than one in DENSE_RATIO, the rest of the call goes to
 * the `dense` search when the runtime gave one (its native substring search).
 */
import type { IndexOf } from './multipart.js';

const DENSE_HITS = 32;
const DENSE_RATIO = 4;

export class DelimiterScan {
  private readonly needle: Uint8Array;
  /** Bit w set: the pair (w & 0xff, w >> 8) occurs in the needle. */
  private readonly bits = new Int32Array(2048);
  /**
   * Pair table (open addressing, at most half full): the pair of each used slot (-1: free) and its last position in
   * the needle; slots are the top `shift`-complement bits of a multiplicative hash.
   */
  private readonly keys: Int32Array;
  private readonly head: Int32Array;
  private readonly shift: number;
  /** The position of the same pair before position k in the needle, or -1. */
  private readonly next: Int32Array;
  private readonly dense: IndexOf | null;

  /** `needle`: at least 3 bytes (the needle is at least `LF "--"` plus one boundary byte). */
  constructor(needle: Uint8Array, dense: IndexOf | null = null) {
    this.needle = needle;
    this.dense = dense;
    const L = needle.length;
    let lg = 8;
    while (1 << lg < 2 * Math.min(L, 65536)) lg++;
    this.shift = 32 - lg;
    const mask = (1 << lg) - 1;
    this.keys = new Int32Array(1 << lg).fill(-1);
    this.head = new Int32Array(1 << lg);
    this.next = new Int32Array(L);
    for (let k = 0; k + 1 < L; k++) {
      const w = needle[k]! | (needle[k + 1]! << 8);
      this.bits[w >>> 5]! |= 1 << (w & 31);
      let x = Math.imul(w, 0x9e3779b1) >>> this.shift;
      while (this.keys[x] !== -1 && this.keys[x] !== w) x = (x + 1) & mask;
      this.next[k] = this.keys[x] === w ? this.head[x]! : -1;
      this.keys[x] = w;
      this.head[x] = k;
    }
  }

  /** The first index >= from at which the needle occurs in h, or -1. `dv` views the same bytes as h. */
  find(h: Uint8Array, dv: DataView, from: number): number {
    const S = this.needle.length - 1;
    const last = h.length - S - 1; // the last possible start
    if (from > last) return -1;
    const bits = this.bits;
    // Samples at from + S - 1, from + 2S - 1, ...: the starts j in (p - S, p] have their sample at p.
    const end = last + S - 1;
    const S3 = 3 * S;
    let hits = 0;
    let p = from + S - 1;
    // The pair test alone in the inner loop, four samples a step (bit w of the set is bit w & 31 of its word, and
    // `>>>` takes the count mod 32): nothing else in it, so its checks and loads stay out of the loop. The rest (the
    // pair's starts, the dense hand-over) runs per sample in the loop after it, and in methods of their own.
    for (;;) {
      while (p + S3 <= end) {
        const a = dv.getUint16(p, true);
        const b = dv.getUint16(p + S, true);
        const c = dv.getUint16(p + 2 * S, true);
        const d = dv.getUint16(p + S3, true);
        if ((((bits[a >>> 5]! >>> a) | (bits[b >>> 5]! >>> b) | (bits[c >>> 5]! >>> c) | (bits[d >>> 5]! >>> d)) & 1) !== 0) break;
        p += S3 + S;
      }
      // the four samples the step stopped at, or the last ones
      for (const stop = p + S3 < end ? p + S3 : end; p <= stop; p += S) {
        const w = dv.getUint16(p, true);
        if (((bits[w >>> 5]! >>> w) & 1) === 0) continue;
        // no start before p - S + 1 holds the needle: the dense search takes over from there
        if (++hits > DENSE_HITS && this.dense !== null && hits * DENSE_RATIO * S > p - from) return this.toDense(h, p - S + 1 > from ? p - S + 1 : from);
        const j = this.starts(h, w, p, from, last);
        if (j >= 0) return j;
      }
      if (p > end) return -1;
    }
  }

  private toDense(h: Uint8Array, from: number): number {
    return this.dense!(h, this.needle, from);
  }

  /** The leftmost start j in [from, last], p - S < j <= p, at which the needle occurs; its pair at p is w. */
  private starts(h: Uint8Array, w: number, p: number, from: number, last: number): number {
    const nd = this.needle;
    const S = nd.length - 1;
    const keys = this.keys;
    const head = this.head;
    const next = this.next;
    const mask = keys.length - 1;
    const first = nd[0]!;
    const lastByte = nd[S]!;
    let x = Math.imul(w, 0x9e3779b1) >>> this.shift;
    while (keys[x] !== w) x = (x + 1) & mask; // present: its bit is set
    // positions k of the pair from the largest down: starts j = p - k from the leftmost up
    for (let k = head[x]!; k >= 0; k = next[k]!) {
      const j = p - k;
      if (j < from) continue;
      if (j > last) break;
      if (h[j] !== first || h[j + S] !== lastByte) continue;
      let t = 1;
      while (t < S && h[j + t] === nd[t]) t++;
      if (t === S) return j;
    }
    return -1;
  }
}
