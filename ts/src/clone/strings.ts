/**
 * String decoding for the V8 wire format: `"` Latin-1, `c` UTF-16LE (lone surrogates kept), `S` UTF-8 (strict).
 *
 * Latin-1: WHATWG's TextDecoder('latin1') is windows-1252, which maps bytes 0x80-0x9F to other characters (0x80 -> U+20AC).
 * Those 27 characters can only come from such bytes, so after a windows-1252 decode any of them is mapped back to
 * U+0080-U+009F. On long strings Buffer#latin1Slice is the fastest decoder (found on globalThis where the runtime has Buffer), then
 * TextDecoder('latin1'), then chunked String.fromCharCode.apply (figures in CHANGELOG.md).
 * Short Latin-1 strings (<= 16 bytes) use one String.fromCharCode call (`short`), which beats every decoder's fixed cost.
 */

import { copyBytes } from './kinds.js';
import { nativeLatin1Decode } from '../adapters/node.js';

const W1252: Record<string, number> = {
  '\u20ac': 0x80, '\u201a': 0x82, '\u0192': 0x83, '\u201e': 0x84, '\u2026': 0x85, '\u2020': 0x86, '\u2021': 0x87,
  '\u02c6': 0x88, '\u2030': 0x89, '\u0160': 0x8a, '\u2039': 0x8b, '\u0152': 0x8c, '\u017d': 0x8e, '\u2018': 0x91,
  '\u2019': 0x92, '\u201c': 0x93, '\u201d': 0x94, '\u2022': 0x95, '\u2013': 0x96, '\u2014': 0x97, '\u02dc': 0x98,
  '\u2122': 0x99, '\u0161': 0x9a, '\u203a': 0x9b, '\u0153': 0x9c, '\u017e': 0x9e, '\u0178': 0x9f,
};
const W1252_RE = new RegExp('[' + Object.keys(W1252).join('') + ']', 'g');
const W1252_TEST = new RegExp('[' + Object.keys(W1252).join('') + ']');
const fromW1252 = (ch: string): string => String.fromCharCode(W1252[ch]!);

let tdLatin1: TextDecoder | null = null;
let tdUtf16: TextDecoder | null = null;
let tdUtf8: TextDecoder | null = null;
try {
  tdLatin1 = new TextDecoder('latin1');
} catch {
  tdLatin1 = null;
}
try {
  tdUtf16 = new TextDecoder('utf-16le');
} catch {
  tdUtf16 = null;
}

const fcc = String.fromCharCode as (...codes: ArrayLike<number> & unknown[]) => string;
const CHUNK = 8192;

export type Latin1Decoder = (b: Uint8Array, start: number, end: number) => string;
// Runtime-detected (Buffer on globalThis, no node: import), so the public formwire/clone is as fast as
// formwire/clone/node on Node and Bun without an extra import (issue #20).
let latin1Fast: Latin1Decoder | null = nativeLatin1Decode;
/** Installs a faster exact Latin-1 decoder (e.g. Node's Buffer#latin1Slice). */
export function setLatin1Decoder(f: Latin1Decoder | null): void {
  latin1Fast = f;
}

function chunked(b: Uint8Array | Uint16Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i += CHUNK) {
    s += fcc.apply(null, b.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[]);
  }
  return s;
}

/**
 * Latin-1 bytes b[s, s + n) for n <= SHORT: one String.fromCharCode call with n arguments builds the string in one
 * step, cheaper than a loop of one-character concatenations and than Node's latin1Slice at these lengths (figures in
 * CHANGELOG.md). Only ever called with a Uint8Array, so the element loads stay monomorphic.
 */
export const SHORT = 16;
export function short(b: Uint8Array, s: number, n: number): string {
  const cc = String.fromCharCode;
  switch (n) {
    case 0: return '';
    case 1: return cc(b[s]);
    case 2: return cc(b[s], b[s + 1]);
    case 3: return cc(b[s], b[s + 1], b[s + 2]);
    case 4: return cc(b[s], b[s + 1], b[s + 2], b[s + 3]);
    case 5: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4]);
    case 6: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5]);
    case 7: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6]);
    case 8: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7]);
    case 9: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8]);
    case 10: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9]);
    case 11: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10]);
    case 12: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11]);
    case 13: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12]);
    case 14: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13]);
    case 15: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14]);
    case 16: return cc(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15]);
    default: throw new RangeError('short string longer than ' + SHORT);
  }
}

/** Latin-1 bytes b[start, end) as a string (each byte is one UTF-16 code unit). */
export function latin1(b: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= SHORT) return short(b, start, n);
  if (latin1Fast !== null) return latin1Fast(b, start, end);
  if (tdLatin1 !== null) {
    const s = tdLatin1.decode(b.subarray(start, end));
    return W1252_TEST.test(s) ? s.replace(W1252_RE, fromW1252) : s;
  }
  return chunked(b, start, end);
}

/** UTF-16LE code units b[start, start + 2n) as a string, lone surrogates kept. */
export function utf16(b: Uint8Array, start: number, n: number): string {
  let u: Uint16Array;
  if (((b.byteOffset + start) & 1) === 0) u = new Uint16Array(b.buffer, b.byteOffset + start, n);
  else u = new Uint16Array(copyBytes(b, start, start + 2 * n));
  if (n < 16) {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(u[i]!);
    return s;
  }
  if (n > 4096 && tdUtf16 !== null) {
    // TextDecoder replaces lone surrogates with U+FFFD: use it only when the result has none
    const s = tdUtf16.decode(u);
    if (s.indexOf('\ufffd') < 0) return s;
  }
  return chunked(u, 0, n);
}

/** Strict UTF-8 (a `S` string): null when the bytes are not valid UTF-8. A leading BOM is kept as U+FEFF. */
export function utf8(b: Uint8Array, start: number, end: number): string | null {
  if (tdUtf8 === null) tdUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    return tdUtf8.decode(b.subarray(start, end));
  } catch {
    return null;
  }
}
