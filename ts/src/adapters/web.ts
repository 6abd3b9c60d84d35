/**
 * Web-platform adapter: turns every supported body type into an async iterator of Uint8Array chunks.
 * Uses only standard Web APIs (ReadableStream, Request/Response, Blob), so it runs on Node 18+, Deno, Bun and browsers.
 */

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

class ReaderIterator implements AsyncIterator<Uint8Array> {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  constructor(stream: ReadableStream<Uint8Array>) {
    this.reader = stream.getReader();
  }
  async next(): Promise<IteratorResult<Uint8Array>> {
    const r = await this.reader.read();
    if (r.done) {
      this.reader.releaseLock();
      return { done: true, value: undefined };
    }
    return { done: false, value: toBytes(r.value) };
  }
  async return(): Promise<IteratorResult<Uint8Array>> {
    await this.reader.cancel().catch(() => {});
    return { done: true, value: undefined };
  }
}

class OnceIterator implements AsyncIterator<Uint8Array> {
  private value: Uint8Array | null;
  constructor(value: Uint8Array) {
    this.value = value;
  }
  async next(): Promise<IteratorResult<Uint8Array>> {
    const v = this.value;
    if (v === null) return { done: true, value: undefined };
    this.value = null;
    return { done: false, value: v };
  }
  async return(): Promise<IteratorResult<Uint8Array>> {
    this.value = null;
    return { done: true, value: undefined };
  }
}

class MapIterator implements AsyncIterator<Uint8Array> {
  constructor(private readonly it: AsyncIterator<unknown> | Iterator<unknown>) {}
  async next(): Promise<IteratorResult<Uint8Array>> {
    const r = await this.it.next();
    if (r.done) return { done: true, value: undefined };
    return { done: false, value: toBytes(r.value) };
  }
  async return(): Promise<IteratorResult<Uint8Array>> {
    if (typeof this.it.return === 'function') await this.it.return();
    return { done: true, value: undefined };
  }
}

/** An async iterator over the chunks of any supported body. */
export function chunksOf(body: BodySource): AsyncIterator<Uint8Array> {
  if (body instanceof Uint8Array || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || typeof body === 'string') {
    return new OnceIterator(toBytes(body));
  }
  if (isBodyHolder(body)) {
    const s = body.body;
    return s === null ? new OnceIterator(new Uint8Array(0)) : new ReaderIterator(s);
  }
  if (isReadableStream(body)) return new ReaderIterator(body);
  if (typeof Blob !== 'undefined' && body instanceof Blob) return new ReaderIterator(body.stream() as ReadableStream<Uint8Array>);
  const b = body as { [Symbol.asyncIterator]?: () => AsyncIterator<unknown>; [Symbol.iterator]?: () => Iterator<unknown> };
  if (typeof b[Symbol.asyncIterator] === 'function') return new MapIterator(b[Symbol.asyncIterator]!());
  if (typeof b[Symbol.iterator] === 'function') return new MapIterator(b[Symbol.iterator]!());
  throw new TypeError('formwire: unsupported body type');
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
