/** Test helpers: run the core parser over a chunking and describe the result as plain data. */
import {
  FormwireError,
  MultipartParser,
  PartInfo,
  boundaryFromContentType,
  indexOfFallback,
  type MultipartHandler,
  type MultipartOptions,
  type Search,
} from '../src/index.js';
import type { TextCodec } from '../src/core/utf8.js';
import { runtimeText } from '../src/adapters/node.js';

export interface OutPart {
  name: string | null;
  filename: string | null;
  nameStar: string | null;
  filenameStar: string | null;
  contentType: string | null;
  type: string | null;
  headers: [string, string][];
  body: string; // latin1 of the body bytes
}

export type Outcome = { parts: OutPart[] } | { error: { code: string; offset: number } };

export const te = new TextEncoder();

/** Bytes of a string where every char is one byte (latin1). */
export function bin(s: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function latin1(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

class Collect implements MultipartHandler {
  parts: OutPart[] = [];
  chunks: Uint8Array[] = [];
  cur: PartInfo | null = null;
  ended = false;
  onPartStart(p: PartInfo): void {
    this.cur = p;
    this.chunks = [];
  }
  onData(b: Uint8Array): void {
    if (this.cur === null) throw new Error('data outside a part');
    this.chunks.push(b.slice());
  }
  onPartEnd(): void {
    const p = this.cur!;
    let body = '';
    for (const c of this.chunks) body += latin1(c);
    this.parts.push({
      name: p.name,
      filename: p.filename,
      nameStar: p.nameStar,
      filenameStar: p.filenameStar,
      contentType: p.contentType,
      type: p.type,
      headers: p.headers,
      body,
    });
    this.cur = null;
  }
  onEnd(): void {
    this.ended = true;
  }
}

/** Split points → chunks. */
export function split(input: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const c of cuts) {
    out.push(input.subarray(at, c));
    at = c;
  }
  out.push(input.subarray(at));
  return out;
}

export function run(
  input: Uint8Array,
  contentType: string,
  options: MultipartOptions = {},
  chunks: Uint8Array[] = [input],
  search: Search | undefined = undefined,
  text: TextCodec = runtimeText,
): Outcome {
  try {
    const c = new Collect();
    const p = new MultipartParser(boundaryFromContentType(contentType, options.maxBoundaryBytes), c, options, search, text);
    for (const ch of chunks) p.write(ch);
    p.end();
    if (!c.ended) throw new Error('no end event');
    return { parts: c.parts };
  } catch (e) {
    if (e instanceof FormwireError) return { error: { code: e.code, offset: e.offset } };
    throw e;
  }
}

/** Every chunking the runner uses for small inputs: whole, byte by byte, every single split point. */
export function allChunkings(input: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [[input]];
  out.push(Array.from({ length: input.length }, (_, i) => input.subarray(i, i + 1)));
  for (let i = 1; i < input.length; i++) out.push(split(input, [i]));
  return out;
}

/** A seeded PRNG (splitmix64 truncated to 32 bits of output). */
export function rng(seed: number): () => number {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    z = z ^ (z >> 31n);
    return Number(z & 0xffffffffn) / 4294967296;
  };
}

export { indexOfFallback };

/**
 * Options for a test that runs a Node/V8 harness (a child with V8's flags, read through its traces): Bun's and Deno's
 * binaries take neither the flags nor print the traces (Bun runs the child and prints none, so a check for "no trace
 * lines" would hold without checking anything), so such a test is skipped there.
 */
const onNode = (globalThis as { Bun?: unknown }).Bun === undefined && (globalThis as { Deno?: unknown }).Deno === undefined;
export const nodeV8Only = { skip: !onNode && 'Node/V8 only (V8 flags and traces)' };
