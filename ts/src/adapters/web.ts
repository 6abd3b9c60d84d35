/**
 * Web-platform adapter: turns every supported body type into an async iterator of Uint8Array chunks.
 * Uses only standard Web APIs (ReadableStream, Request/Response, Blob), so it runs on Node 18+, Deno, Bun and browsers;
 * a Node Readable (duck-typed, no `node:` import) is read through its own read() by adapters/node.ts's NodeSource.
 */

import { NodeSource, POLL_END, isNodeReadable } from './node.js';

export { POLL_END } from './node.js';

/** Anything formwire can read a body from. */
export type BodySource =
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array>
  | Request
  | Response
  | Blob
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | string;

const encoder = new TextEncoder();

/** A chunk as a Uint8Array view (no copy for typed arrays). */
export function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return encoder.encode(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw new TypeError('formwire: body chunks must be Uint8Array, ArrayBuffer, ArrayBufferView or string');
}

function isReadableStream(x: unknown): x is ReadableStream<Uint8Array> {
  return typeof ReadableStream !== 'undefined' && x instanceof ReadableStream;
}

function isBodyHolder(x: unknown): x is Request | Response {
  return (
    (typeof Request !== 'undefined' && x instanceof Request) || (typeof Response !== 'undefined' && x instanceof Response)
  );
}

/**
 * A body as a pull source of raw chunks for the drivers. `next()` resolves to `{ done, value }` with `value` any chunk
 * type `toBytes` takes; for a web stream it is the reader's own `read()` promise (no promise or async frame added per
 * chunk). After `done` the driver calls `finish()`; to stop early it calls `return()`.
 */
export interface ChunkSource {
  next(): Promise<IteratorResult<unknown>>;
  /**
   * Where the source can answer without waiting: a chunk it holds now, POLL_END when the body has ended, or null
   * when nothing is there yet (then `next()` waits for it); throws the source's error. The drivers call it first, so
   * a source that has its chunks at hand costs no promise per chunk.
   */
  poll?(): unknown;
  finish(): void;
  return(): Promise<unknown>;
}

class ReaderSource implements ChunkSource {
  private readonly reader: ReadableStreamDefaultReader<unknown>;
  constructor(stream: ReadableStream<unknown>) {
    this.reader = stream.getReader();
  }
  next(): Promise<IteratorResult<unknown>> {
    return this.reader.read() as Promise<IteratorResult<unknown>>;
  }
  finish(): void {
    this.reader.releaseLock();
  }
  return(): Promise<unknown> {
    return this.reader.cancel().catch(() => {});
  }
}

class OnceSource implements ChunkSource {
  private value: Uint8Array | null;
  constructor(value: Uint8Array) {
    this.value = value;
  }
  poll(): unknown {
    const v = this.value;
    if (v === null) return POLL_END;
    this.value = null;
    return v;
  }
  next(): Promise<IteratorResult<unknown>> {
    const v = this.value;
    if (v === null) return Promise.resolve({ done: true, value: undefined });
    this.value = null;
    return Promise.resolve({ done: false, value: v });
  }
  finish(): void {}
  return(): Promise<unknown> {
    this.value = null;
    return Promise.resolve();
  }
}

class AsyncIterSource implements ChunkSource {
  constructor(private readonly it: AsyncIterator<unknown>) {}
  next(): Promise<IteratorResult<unknown>> {
    return this.it.next();
  }
  finish(): void {}
  return(): Promise<unknown> {
    try {
      return Promise.resolve(typeof this.it.return === 'function' ? this.it.return() : undefined);
    } catch (e) {
      return Promise.reject(e);
    }
  }
}

class SyncIterSource implements ChunkSource {
  constructor(private readonly it: Iterator<unknown>) {}
  poll(): unknown {
    const r = this.it.next();
    return r.done ? POLL_END : r.value;
  }
  next(): Promise<IteratorResult<unknown>> {
    try {
      return Promise.resolve(this.it.next());
    } catch (e) {
      return Promise.reject(e);
    }
  }
  finish(): void {}
  return(): Promise<unknown> {
    try {
      if (typeof this.it.return === 'function') this.it.return();
    } catch {
      // as an async iterator's return would
    }
    return Promise.resolve();
  }
}

/** A pull source over the chunks of any supported body. */
export function sourceOf(body: BodySource): ChunkSource {
  if (body instanceof Uint8Array || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || typeof body === 'string') {
    return new OnceSource(toBytes(body));
  }
  if (isBodyHolder(body)) {
    const s = body.body;
    return s === null ? new OnceSource(new Uint8Array(0)) : new ReaderSource(s);
  }
  if (isReadableStream(body)) return new ReaderSource(body);
  // a Node Readable (http.IncomingMessage, ...): read with its own read(), not through its async iterator
  if (isNodeReadable(body)) return new NodeSource(body);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return new ReaderSource(body.stream());
  const b = body as { [Symbol.asyncIterator]?: () => AsyncIterator<unknown>; [Symbol.iterator]?: () => Iterator<unknown> };
  if (typeof b[Symbol.asyncIterator] === 'function') return new AsyncIterSource(b[Symbol.asyncIterator]!());
  if (typeof b[Symbol.iterator] === 'function') return new SyncIterSource(b[Symbol.iterator]!());
  throw new TypeError('formwire: unsupported body type');
}

/** An async iterator over the chunks of any supported body, as Uint8Array. */
export function chunksOf(body: BodySource): AsyncIterator<Uint8Array> {
  const src = sourceOf(body);
  return {
    async next(): Promise<IteratorResult<Uint8Array>> {
      const r = await src.next();
      if (r.done) {
        src.finish();
        return { done: true, value: undefined };
      }
      return { done: false, value: toBytes(r.value) };
    },
    async return(): Promise<IteratorResult<Uint8Array>> {
      await src.return();
      return { done: true, value: undefined };
    },
  };
}

/**
 * The Content-Type of a Request/Response, or of a Node IncomingMessage (`headers['content-type']`), when the caller
 * did not give one.
 */
export function contentTypeOf(body: unknown): string | null {
  if (isBodyHolder(body)) return body.headers.get('content-type');
  const h = (body as { headers?: unknown } | null)?.headers;
  if (typeof h === 'object' && h !== null) {
    const v = (h as Record<string, unknown>)['content-type'];
    if (typeof v === 'string') return v;
  }
  return null;
}
