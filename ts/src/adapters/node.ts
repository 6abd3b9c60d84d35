/**
 * Node adapter pieces that need no `node:` import: the native substring search. Node's (and Bun's) `Buffer` is
 * looked up on globalThis so this module still loads on runtimes without it, where it yields null.
 */
import type { IndexOf } from '../core/multipart.js';

type BufferIndexOf = (this: Uint8Array, n: Uint8Array, from: number) => number;

const g = globalThis as { Buffer?: { prototype: { indexOf: BufferIndexOf } } };
const native: BufferIndexOf | null = g.Buffer && typeof g.Buffer.prototype.indexOf === 'function' ? g.Buffer.prototype.indexOf : null;

/** `Buffer.prototype.indexOf` (native, memchr-based) as an IndexOf, or null where there is no Buffer. */
export const nativeIndexOf: IndexOf | null =
  native === null ? null : (h: Uint8Array, n: Uint8Array, from: number): number => native.call(h, n, from);

