/**
 * Node adapter pieces that need no `node:` import: the native substring search. Node's (and Bun's) `Buffer` is
 * looked up on globalThis so this module still loads on runtimes without it, where it yields null.
 */
import type { IndexOf } from '../core/multipart.js';
import type { Utf8Decode } from '../core/utf8.js';

type BufferIndexOf = (this: Uint8Array, n: Uint8Array, from: number) => number;

type BufferSlice = (this: Uint8Array, start: number, end: number) => string;
const g = globalThis as { Buffer?: { prototype: { indexOf: BufferIndexOf; utf8Slice?: BufferSlice } } };
const native: BufferIndexOf | null = g.Buffer && typeof g.Buffer.prototype.indexOf === 'function' ? g.Buffer.prototype.indexOf : null;

/** `Buffer.prototype.indexOf` (native, memchr-based) as an IndexOf, or null where there is no Buffer. */
export const nativeIndexOf: IndexOf | null =
  native === null ? null : (h: Uint8Array, n: Uint8Array, from: number): number => native.call(h, n, from);


const slice: BufferSlice | null = g.Buffer && typeof g.Buffer.prototype.utf8Slice === 'function' ? g.Buffer.prototype.utf8Slice : null;

/**
 * Buffer's native UTF-8 decoder (same results as TextDecoder: U+FFFD per maximal subpart, BOM kept; checked by the
 * tests), or null where there is no Buffer.
 */
export const nativeUtf8Decode: Utf8Decode | null =
  slice === null ? null : (b: Uint8Array, s: number, e: number): string => slice.call(b, s, e);
