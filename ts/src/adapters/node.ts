/**
 * Node adapter pieces that need no `node:` import: the native substring search. Node's (and Bun's) `Buffer` is
 * looked up on globalThis so this module still loads on runtimes without it, where it yields null.
 */
import type { IndexOf } from '../core/multipart.js';
import { TextCodec, type Utf8Decode } from '../core/utf8.js';

type BufferIndexOf = (this: Uint8Array, n: Uint8Array, from: number) => number;

type BufferSlice = (this: Uint8Array, start: number, end: number) => string;
const g = globalThis as {
  Buffer?: { prototype: { indexOf: BufferIndexOf; utf8Slice?: BufferSlice; latin1Slice?: BufferSlice } };
  Bun?: unknown;
  Deno?: unknown;
};

/**
 * Whose `Buffer` this is (looked up by construction, once): Node's (C++ natives), Bun's (native), Deno's (the
 * node:buffer polyfill, written in JS), or none (browsers, workers).
 */
export const bufferRuntime: 'node' | 'bun' | 'deno' | null =
  g.Buffer === undefined ? null : g.Bun !== undefined ? 'bun' : g.Deno !== undefined ? 'deno' : 'node';

const native: BufferIndexOf | null = g.Buffer && typeof g.Buffer.prototype.indexOf === 'function' ? g.Buffer.prototype.indexOf : null;

/**
 * Window of one native search call. Node's search (src/string_search.h) starts each call in a memchr-driven mode
 * and, after about 4 × needle-length first-byte candidates, falls back for the rest of that call to a
 * Boyer-Moore-Horspool loop that is much slower on random bytes (bench/node/quick.mjs's bare rows compare the two;
 * figures in CHANGELOG.md). So long haystacks are
 * searched in windows of this size, overlapping by needle length - 1 bytes so no occurrence is missed (the
 * overlap rescans at most 0.3 % of the bytes; each window's search is linear).
 */
const WINDOW = 16384;

/**
 * `Buffer.prototype.indexOf` as an IndexOf, or null where there is no Buffer: in windows on Node (above), in one call
 * on Bun, whose search does not change algorithm within a call (and is slower per window).
 */
export const nativeIndexOf: IndexOf | null =
  native === null
    ? null
    : bufferRuntime === 'bun'
      ? (h: Uint8Array, n: Uint8Array, from: number): number => native.call(h, n, from)
      : (h: Uint8Array, n: Uint8Array, from: number): number => {
          const len = h.length;
          const span = WINDOW + n.length - 1;
          let w = from;
          while (len - w > span) {
            const k = native.call(new Uint8Array(h.buffer, h.byteOffset + w, span), n, 0);
            if (k >= 0) return w + k;
            w += WINDOW;
          }
          return native.call(h, n, w);
        };

const slice: BufferSlice | null = g.Buffer && typeof g.Buffer.prototype.utf8Slice === 'function' ? g.Buffer.prototype.utf8Slice : null;

/**
 * Buffer's native UTF-8 decoder (same results as TextDecoder: U+FFFD per maximal subpart, BOM kept; checked by the
 * tests), or null where there is no Buffer.
 */
export const nativeUtf8Decode: Utf8Decode | null =
  slice === null ? null : (b: Uint8Array, s: number, e: number): string => slice.call(b, s, e);

const latin1: BufferSlice | null =
  g.Buffer && typeof g.Buffer.prototype.latin1Slice === 'function' ? g.Buffer.prototype.latin1Slice : null;

/**
 * Buffer's native Latin-1 slice (a plain copy, one unit per byte), or null where there is no Buffer: the urlencoded
 * string parser makes its ASCII windows into strings with it instead of a UTF-8 decode.
 */
export const nativeLatin1Decode: Utf8Decode | null =
  latin1 === null ? null : (b: Uint8Array, s: number, e: number): string => latin1.call(b, s, e);

/**
 * The text decoding the package's entry points give their parsers: Buffer's native slices where there is a Buffer
 * (same results as TextDecoder, checked by the tests), else TextDecoder. Passed to each parser; never installed.
 */
export const runtimeText: TextCodec = new TextCodec({ utf8: nativeUtf8Decode, latin1: nativeLatin1Decode });

/** runtimeText's UTF-8 decoding as a function (for the urlencoded parsers' UE-P-08 step). */
export const runtimeUtf8 = (b: Uint8Array, s: number, e: number): string => runtimeText.decode(b, s, e);
