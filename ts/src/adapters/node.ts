/**
 * Node adapter pieces that need no `node:` import: the native substring search. Node's (and Bun's) `Buffer` is
 * looked up on globalThis so this module still loads on runtimes without it, where it yields null.
 */
import type { IndexOf } from '../core/multipart.js';
import { TextCodec, type Utf8Decode } from '../core/utf8.js';

type BufferIndexOf = (this: Uint8Array, n: Uint8Array, from: number) => number;

type BufferSlice = (this: Uint8Array, start: number, end: number) => string;
type BufferWrite = (this: Uint8Array, s: string, offset: number, length: number) => number;
const g = globalThis as {
  Buffer?: {
    prototype: { indexOf: BufferIndexOf; utf8Slice?: BufferSlice; latin1Slice?: BufferSlice; latin1Write?: BufferWrite };
    allocUnsafe?: (n: number) => Uint8Array<ArrayBuffer>;
  };
  Bun?: unknown;
  Deno?: unknown;
  process?: { getBuiltinModule?: (name: string) => unknown };
};

/**
 * Whose `Buffer` this is (looked up by construction, once): Node's (C++ natives), Bun's (native), Deno's (the
 * node:buffer polyfill, written in JS), or none (browsers, workers).
 */
export const bufferRuntime: 'node' | 'bun' | 'deno' | null =
  g.Buffer === undefined ? null : g.Bun !== undefined ? 'bun' : g.Deno !== undefined ? 'deno' : 'node';

/**
 * A Node built-in module by name from `process.getBuiltinModule` (Node 20.16+ and 22.3+, Bun, Deno), or undefined
 * where the runtime has none (browsers, older Node): no `import` or `require` a bundler could follow.
 */
export function builtinModule(name: string): unknown {
  const proc = g.process;
  return proc !== undefined && typeof proc.getBuiltinModule === 'function' ? proc.getBuiltinModule(name) : undefined;
}

/**
 * A Node built-in module by name (`node:fs`, ...), for the Node-only paths of the runtime-neutral entry points,
 * without an import a bundler could follow (a browser build must not pull `node:` modules in, and esbuild refuses
 * them): builtinModule where the runtime has it, else a dynamic import of a specifier that is not a literal.
 */
export async function nodeBuiltin<T>(name: string): Promise<T> {
  const m = builtinModule(name);
  if (m !== undefined) return m as T;
  // the comments keep webpack and Vite from warning about a specifier they cannot follow
  return (await import(/* webpackIgnore: true */ /* @vite-ignore */ name)) as T;
}

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

const latin1Write: BufferWrite | null =
  bufferRuntime === 'node' && typeof g.Buffer!.prototype.latin1Write === 'function' ? g.Buffer!.prototype.latin1Write : null;
/** A code unit above 0xFF. V8 answers this for a one-byte string without reading it (no such unit can be there). */
const NOT_LATIN1 = /[^\0-\xff]/;

/**
 * Writes `s` as Latin-1 (one byte per code unit) into out[at, at + s.length) and returns true, where every code
 * unit of `s` is at most 0xFF and the runtime is Node (Buffer's native write; V8 knows a one-byte string as such, so
 * the check costs nothing on the strings that pass it); else writes nothing and returns false.
 */
export function latin1Into(s: string, out: Uint8Array, at: number): boolean {
  if (latin1Write === null || NOT_LATIN1.test(s)) return false;
  return latin1Write.call(out, s, at, s.length) === s.length;
}

const unsafe = g.Buffer !== undefined && typeof g.Buffer.allocUnsafe === 'function' ? g.Buffer.allocUnsafe : null;

/**
 * An n-byte Uint8Array that the caller fills, every byte, before anything reads it: where there is a Buffer and from
 * 4 KiB on (below, Buffer.allocUnsafe slices a shared pool), the unzeroed ArrayBuffer of its own that
 * Buffer.allocUnsafe makes, seen as a plain Uint8Array; else a zero-filled one.
 */
export function allocFilled(n: number): Uint8Array<ArrayBuffer> {
  if (unsafe !== null && n >= 4096) {
    const b = unsafe(n);
    return new Uint8Array(b.buffer, b.byteOffset, n);
  }
  return new Uint8Array(n);
}

/**
 * The text decoding the package's entry points give their parsers: Buffer's native slices where there is a Buffer
 * (same results as TextDecoder, checked by the tests), else TextDecoder. Passed to each parser; never installed.
 */
export const runtimeText: TextCodec = new TextCodec({
  utf8: nativeUtf8Decode,
  latin1: nativeLatin1Decode,
  // JavaScriptCore's String.fromCharCode with n arguments costs more than Bun's native slice from 3 bytes on
  shortMax: bufferRuntime === 'bun' ? 2 : 32,
});

/** runtimeText's UTF-8 decoding as a function (for the urlencoded parsers' UE-P-08 step). */
export const runtimeUtf8 = (b: Uint8Array, s: number, e: number): string => runtimeText.decode(b, s, e);

/**
 * The parts of a Node `stream.Readable` (an `http.IncomingMessage`, `fs.ReadStream`, `Readable.from()`, …) that
 * NodeSource uses, duck-typed so that this module needs no `node:` import.
 */
interface NodeReadable {
  read(): unknown;
  on(event: string, listener: (...args: any[]) => void): unknown;
  removeListener(event: string, listener: (...args: any[]) => void): unknown;
  destroy(error?: Error | null): unknown;
  readonly destroyed: boolean;
  readonly readableEnded?: boolean;
  readonly readableLength: number;
  readonly errored?: unknown;
  socket?: unknown;
  req?: { upgradeOrConnect?: unknown };
  abort?: () => void;
  setHeader?: unknown;
  _consuming?: unknown;
  _dumped?: unknown;
}

/** A Node Readable (Node's, or the node:stream of Bun and Deno, which share its JS): read through its own read(). */
export function isNodeReadable(x: unknown): x is NodeReadable {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    typeof s.read === 'function' &&
    typeof s.on === 'function' &&
    typeof s.removeListener === 'function' &&
    typeof s.destroy === 'function' &&
    typeof s.pipe === 'function' &&
    typeof s.destroyed === 'boolean' &&
    typeof s.readableLength === 'number' &&
    typeof s._readableState === 'object'
  );
}

/** What NodeSource.poll() returns when the body has ended (a chunk is never this object). */
export const POLL_END: object = Object.freeze({});

const DONE_RESULT: IteratorResult<never> = Object.freeze({ done: true, value: undefined }) as IteratorResult<never>;

function nodeError(message: string, name: string, code: string): Error {
  const e = new Error(message) as Error & { code: string };
  e.name = name;
  e.code = code;
  return e;
}

/**
 * A Node Readable as the drivers' chunk source, read from the stream's own side: `poll()` takes a chunk the stream
 * holds now with `read()` (no promise, no async frame), and only when it has none does `next()` wait for its
 * 'readable' event. The same reads, errors and cleanup as Node's own async iterator, which the drivers used before
 * (issue #20: its async generator and a promise per chunk were most of parseMultipart's time over the core): a
 * chunk is what `read()` returns; the stream's 'error' is the error; a 'close' before 'end' is a premature close
 * (`ERR_STREAM_PREMATURE_CLOSE`); an early `return()` destroys the stream with an `AbortError` unless it has ended
 * (for a server request without closing its socket, so a response can still be written), as `for await` does.
 */
export class NodeSource {
  private readonly s: NodeReadable;
  /** undefined while the stream is open, null after its 'end', else its error. */
  private error: unknown = undefined;
  private started = false;
  private resolve: ((r: IteratorResult<unknown>) => void) | null = null;
  private reject: ((e: unknown) => void) | null = null;
  /** A 'readable' at the end (nothing buffered) was answered with a read (which makes the stream emit 'end'). */
  private endRead = false;
  private readonly onReadable = (): void => {
    if (this.resolve === null) return;
    if (this.s.readableLength === 0) {
      // 'readable' with nothing buffered only comes at the end; one read() after it is all 'end' needs. A consumer
      // faster than the stream's own ticks leaves one stale 'readable' per chunk read, all delivered at the end.
      if (this.endRead) return;
      this.endRead = true;
    }
    this.ready();
  };
  private readonly onEnd = (): void => this.closed(null);
  private readonly onError = (e: unknown): void => this.closed(e);
  private readonly onClose = (): void => this.closed(nodeError('Premature close', 'Error', 'ERR_STREAM_PREMATURE_CLOSE'));

  constructor(s: NodeReadable) {
    this.s = s;
  }

  /** Listen to the stream (on the first read, as Node's async iterator does). */
  private start(): void {
    this.started = true;
    const s = this.s;
    if (s.readableEnded === true) this.error = null;
    else if (s.destroyed) this.error = s.errored ?? nodeError('Premature close', 'Error', 'ERR_STREAM_PREMATURE_CLOSE');
    s.on('readable', this.onReadable);
    s.on('end', this.onEnd);
    s.on('error', this.onError);
    s.on('close', this.onClose);
  }

  private closed(e: unknown): void {
    if (this.error === undefined) this.error = e;
    this.ready();
  }

  /** A chunk the stream holds now, POLL_END after its end, or null when none is there yet; throws its error. */
  poll(): unknown {
    if (!this.started) this.start();
    const s = this.s;
    const c = s.destroyed ? null : s.read();
    if (c !== null) return c;
    const e = this.error;
    if (e === null) return POLL_END;
    if (e !== undefined) throw e;
    return null;
  }

  next(): Promise<IteratorResult<unknown>> {
    let c: unknown;
    try {
      c = this.poll();
    } catch (e) {
      return Promise.reject(e);
    }
    if (c === POLL_END) return Promise.resolve(DONE_RESULT);
    if (c !== null) return Promise.resolve({ done: false, value: c });
    return new Promise<IteratorResult<unknown>>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** The stream has something to say (data, its end or an error): answer a waiting next(). */
  private ready(): void {
    const resolve = this.resolve;
    if (resolve === null) return;
    let c: unknown;
    try {
      c = this.poll();
    } catch (e) {
      const reject = this.reject!;
      this.resolve = this.reject = null;
      reject(e);
      return;
    }
    if (c === null) return;
    this.resolve = this.reject = null;
    resolve(c === POLL_END ? DONE_RESULT : { done: false, value: c });
  }

  /**
   * The body was read to its end: the stream is left as it is (a server request's socket answers next), without the
   * listeners start() added, as Node's async iterator leaves a stream it does not destroy.
   */
  finish(): void {
    if (!this.started) return;
    const s = this.s;
    s.removeListener('readable', this.onReadable);
    s.removeListener('end', this.onEnd);
    s.removeListener('error', this.onError);
    s.removeListener('close', this.onClose);
  }

  /**
   * Stop early: destroy the stream as Node's async iterator's return() does (its listeners stay, to take the
   * destroy's own 'error' and 'close').
   */
  return(): Promise<unknown> {
    const s = this.s;
    // before the first read, and after the end or an error, there is nothing to stop (as for Node's iterator)
    if (this.started && this.error === undefined && !s.destroyed) {
      const err = s.readableEnded === true ? null : nodeError('The operation was aborted', 'AbortError', 'ABORT_ERR');
      if (typeof s._consuming === 'boolean' && typeof s._dumped === 'boolean' && s.req?.upgradeOrConnect === undefined) {
        // a server request (http.IncomingMessage): its socket stays open for the response
        s.socket = null;
        s.destroy(err);
      } else if (typeof s.setHeader === 'function' && typeof s.abort === 'function') s.abort();
      else s.destroy(err);
    }
    return Promise.resolve();
  }
}
