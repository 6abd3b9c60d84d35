/**
 * High-level multipart API over the sans-IO core: an async iterable of parts with backpressured bodies, and a
 * `formData()` materializer (spec/multipart.md §6). Uses only Web APIs plus the optional native search.
 */
import { FormwireError } from './core/errors.js';
import {
  MultipartParser as CoreMultipartParser,
  PartInfo,
  boundaryFromContentType,
  indexOfFallback,
  keepShapes,
  KEEP_BOUNDARY,
  type Search,
  MULTIPART_DEFAULTS,
  type IndexOf,
  type MultipartHandler,
  type MultipartOptions,
} from './core/multipart.js';
import { encodeUtf8, type TextCodec } from './core/utf8.js';
import { parseMimeType } from './core/mime.js';
import { UrlencodedParser, type UrlencodedOptions } from './core/urlencoded.js';
import { sourceOf, toBytes, contentTypeOf, POLL_END, type BodySource, type ChunkSource } from './adapters/web.js';
import { bufferRuntime, nativeIndexOf, runtimeText, runtimeUtf8, NodeSource } from './adapters/node.js';
import { spillEnv, type SpillEnv, type SpillHandle, type SpillOptions } from './adapters/spill.js';

export type { SpillOptions } from './adapters/spill.js';

/** The runtime's substring search: Buffer's indexOf where there is a Buffer (Node, Bun, Deno), else the pure one. */
export const defaultIndexOf: IndexOf = nativeIndexOf ?? indexOfFallback;

/**
 * The delimiter search a parser uses by default for a boundary of `boundaryLength` bytes, chosen by construction
 * from what the runtime is (issue #20; measured in bench/, figures in CHANGELOG.md):
 * - `'scan'`, the core's pure-JS sampled pair scan (core/scan.ts), whose cost is about one step per boundary length
 *   of body: ahead of a byte-by-byte search where boundaries are long (browsers send 38 to 70 bytes). The default on
 *   Node from a 3-byte boundary on, on Bun from BUN_SCAN_FROM bytes on, on Deno (its Buffer.indexOf is the
 *   node:buffer polyfill, in JS), and where there is no Buffer.
 * - `'native'` (defaultIndexOf): on Bun for boundaries shorter than BUN_SCAN_FROM, where its native, vectorized
 *   Buffer.indexOf is ahead of a scan that moves fewer bytes per step, and on Node for boundaries of 1 or 2 bytes,
 *   where Node's search is a memchr loop that a scan moving 4 or 5 bytes per step cannot beat.
 * Override per parser with MultipartParser's fourth argument (`'scan'`, defaultIndexOf, or any IndexOf).
 */
export function searchFor(boundaryLength: number): 'scan' | 'native' {
  if (nativeIndexOf === null || bufferRuntime === 'deno') return 'scan';
  if (bufferRuntime === 'bun') return boundaryLength >= BUN_SCAN_FROM ? 'scan' : 'native';
  return boundaryLength <= 2 ? 'native' : 'scan';
}

/**
 * The boundary length from which Bun's default is the scan: where it overtook Bun's Buffer.indexOf on random bytes
 * on both CPUs measured (equal on one, ahead by a third and more on the other from 24 bytes on; figures in
 * CHANGELOG.md).
 */
const BUN_SCAN_FROM = 20;

/** The scan with Buffer.indexOf for stretches dense in delimiter near-misses (where Buffer.indexOf is native). */
const SCAN_NATIVE: Search = nativeIndexOf !== null && bufferRuntime !== 'deno' ? Object.freeze({ dense: nativeIndexOf }) : 'scan';

/** searchFor as a parser's fourth argument: defaultIndexOf, or the scan (with the native search for dense stretches). */
export function defaultSearch(boundaryLength: number): Search {
  return searchFor(boundaryLength) === 'native' ? defaultIndexOf : SCAN_NATIVE;
}

/**
 * The sans-IO core parser with the runtime's defaults: `new MultipartParser(boundary, handler)` (ts/README's core
 * example) searches with defaultSearch(boundary length) and decodes with the runtime's native text decoders, no extra argument
 * needed (issue #20). The pure core class stays in core/multipart.ts for other runtimes and explicit searches.
 */
export class MultipartParser extends CoreMultipartParser {
  constructor(
    boundary: Uint8Array | string,
    handler: MultipartHandler,
    options: MultipartOptions = {},
    search?: Search,
    text: TextCodec = runtimeText,
  ) {
    const b = typeof boundary === 'string' ? encodeUtf8(boundary) : boundary;
    super(b, handler, options, search ?? defaultSearch(b.length), text);
  }
}

const PART_END = 1;
const END = 2;

const DONE: IteratorResult<never> = Object.freeze({ done: true, value: undefined }) as IteratorResult<never>;
const EMPTY: unknown[] = [];

function concat(chunks: Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

/** chunk[a..b) as a view (the chunk itself when it is the whole range). */
function view(c: Uint8Array, a: number, b: number): Uint8Array {
  return a === 0 && b === c.length ? c : new Uint8Array(c.buffer, c.byteOffset + a, b - a);
}

/**
 * Something waiting for the driver's queue (a part's reader, a part iterator, the parts iterator, the batches
 * iterator): `pulled()` is its answer taken from the queue, or undefined while it needs more input.
 */
interface Puller {
  pulled(): unknown;
  /** The pull failed (a parse or source error, or a read past the end): told before the promise rejects. */
  failed(e: unknown): void;
}

/**
 * Pulls source chunks on demand and queues the parser's events (bounded by one source chunk). Queue entries:
 * a PartInfo; body data as three entries (chunk, start, end); PART_END; END.
 */
class Driver implements MultipartHandler {
  readonly parser: MultipartParser;
  private readonly src: ChunkSource;
  /** @internal */
  q: unknown[] = [];
  /** @internal */
  qh = 0;
  /** @internal */
  err: unknown = null;
  /** @internal */
  finished = false;
  /** @internal */
  cur: Part | null = null;
  /** A source chunk is on its way for `puller`; other callers meanwhile wait in `waiters`. */
  private pulling = false;
  private puller: Puller | null = null;
  private waiters: Array<() => void> = [];
  /** next()'s handlers, made once per driver (no closure per chunk). */
  private readonly onChunk = (r: IteratorResult<unknown>): unknown => this.arrived(r);
  private readonly onSourceError = (e: unknown): never => this.sourceFailed(e);

  constructor(boundary: Uint8Array, options: MultipartOptions, src: ChunkSource) {
    this.parser = new MultipartParser(boundary, this, options);
    this.src = src;
  }
  onPartStart(part: PartInfo): void {
    this.q.push(part);
  }
  onData(bytes: Uint8Array): void {
    this.q.push(bytes, 0, bytes.length);
  }
  onDataRange(chunk: Uint8Array, start: number, end: number): void {
    this.q.push(chunk, start, end);
  }
  onPartEnd(): void {
    this.q.push(PART_END);
  }
  onEnd(): void {
    this.q.push(END);
  }

  /**
   * `p`'s answer (called when `p.pulled()` found every queued event taken): feeds the parser source chunks until
   * `p.pulled()` has one, synchronously while the source has chunks at hand (`poll`: no promise per chunk but the
   * one returned), else through the source's `next()` (then the only promise added per chunk is the one returned).
   * Rejects with the parse or source error, after `p.failed`. A call made while a chunk is on its way waits for it.
   */
  pull(p: Puller): Promise<unknown> {
    if (this.pulling) return this.later(p);
    const src = this.src;
    for (;;) {
      let early: unknown = null;
      if (this.err !== null) early = this.err;
      else if (this.finished) early = new Error('formwire: read past the end of the body');
      if (early !== null) {
        p.failed(early);
        return Promise.reject(early);
      }
      this.q.length = 0;
      this.qh = 0;
      if (src.poll === undefined) break;
      let c: unknown;
      try {
        c = src.poll();
      } catch (e) {
        this.err = e;
        p.failed(e);
        return Promise.reject(e);
      }
      if (c === null) break;
      this.feed(c);
      let v: unknown;
      try {
        v = p.pulled();
      } catch (e) {
        return Promise.reject(e);
      }
      if (v !== undefined) return Promise.resolve(v);
      // nothing for p in that chunk (or a parse error with nothing queued before it: answered at the top)
    }
    this.pulling = true;
    this.puller = p;
    return src.next().then(this.onChunk, this.onSourceError);
  }

  /** A chunk, or POLL_END, to the parser; a parse error is kept (the events queued before it are delivered first). */
  private feed(c: unknown): void {
    try {
      if (c === POLL_END) {
        this.finished = true;
        this.src.finish();
        this.parser.end();
      } else {
        this.parser.write(toBytes(c));
      }
    } catch (e) {
      this.err = e;
      this.cancel();
    }
  }

  private arrived(r: IteratorResult<unknown>): unknown {
    const p = this.puller!;
    this.pulling = false;
    this.puller = null;
    this.feed(r.done ? POLL_END : r.value);
    this.wake();
    const v = p.pulled();
    return v !== undefined ? v : this.pull(p);
  }

  private sourceFailed(e: unknown): never {
    const p = this.puller!;
    this.pulling = false;
    this.puller = null;
    this.err = e;
    this.wake();
    p.failed(e);
    throw e;
  }

  /** Wait for the chunk on its way, then answer `p` (rare: two reads at once). */
  private later(p: Puller): Promise<unknown> {
    return new Promise<void>((resolve) => this.waiters.push(resolve)).then(() => {
      const v = p.pulled();
      return v !== undefined ? v : this.pull(p);
    });
  }

  private wake(): void {
    if (this.waiters.length > 0) {
      const w = this.waiters;
      this.waiters = [];
      for (const f of w) f();
    }
  }

  cancel(): void {
    this.src.return().catch(() => {});
  }
}

/** One part of a multipart body. Its body must be read before asking for the next part, or it is skipped. */
export class Part implements AsyncIterable<Uint8Array> {
  /** Header information: name, filename, headers, … */
  readonly info: PartInfo;
  /** @internal */
  readonly driver: Driver;
  private done = false;
  private skipped = false;
  private _body: ReadableStream<Uint8Array> | null = null;
  /**
   * @internal A body taken out of the queue whole (batches): flat (chunk, start, end) triples, read from `hi` on;
   * null while the body is read from the driver's queue.
   */
  held: unknown[] | null = null;
  private hi = 0;
  /** rest(): where the triples it found are (`rsrc[roff..)`). */
  private rsrc: unknown[] = EMPTY;
  private roff = 0;

  /** @internal */
  constructor(info: PartInfo, driver: Driver) {
    this.info = info;
    this.driver = driver;
  }

  /** The `name` parameter (MP-H-10); null for a nameless part (`allowMissingDisposition`, MP-H-06). */
  get name(): string | null {
    return this.info.name;
  }
  /** The `filename` parameter or null (MP-H-08). */
  get filename(): string | null {
    return this.info.filename;
  }
  /** Raw `name*` (never decoded, never overriding). */
  get nameStar(): string | null {
    return this.info.nameStar;
  }
  /** Raw `filename*` (never decoded, never overriding). */
  get filenameStar(): string | null {
    return this.info.filenameStar;
  }
  /** Last Content-Type header value, or null (MP-H-11). */
  get contentType(): string | null {
    return this.info.contentType;
  }
  /** For file parts, the File type per MP-F-03; null for text fields. */
  get type(): string | null {
    return this.info.type;
  }
  /** Every header as `[lowercased name, value]`, in order. */
  get headers(): [string, string][] {
    return this.info.headers;
  }

  /**
   * The rest of the body is already buffered (it ended inside the source chunks read so far): `text()`, `bytes()`
   * resolve without waiting for input, and `textSync()` / `bytesSync()` work. False once the part was skipped.
   */
  get complete(): boolean {
    if (this.skipped) return false;
    return this.done || this.held !== null || this.queuedEnd() >= 0;
  }

  /** @internal called when the iterator moves past this part */
  skip(): void {
    if (!this.done) this.skipped = true;
  }

  /** @internal The next buffered chunk of the body (a view), null at its end, or undefined when more input is needed. */
  take(): Uint8Array | null | undefined {
    if (this.skipped) throw new Error('formwire: part body read after moving to the next part');
    if (this.done) return null;
    const held = this.held;
    if (held !== null) {
      const k = this.hi;
      if (k === held.length) {
        this.done = true;
        return null;
      }
      this.hi = k + 3;
      return view(held[k] as Uint8Array, held[k + 1] as number, held[k + 2] as number);
    }
    const d = this.driver;
    const q = d.q;
    const h = d.qh;
    if (h === q.length) return undefined;
    const ev = q[h];
    if (ev instanceof Uint8Array) {
      d.qh = h + 3;
      return view(ev, q[h + 1] as number, q[h + 2] as number);
    }
    // PART_END (the parser emits nothing else inside a part)
    d.qh = h + 1;
    this.done = true;
    return null;
  }

  /** The next chunk of this part's body (a view of the source chunk), or null at the end. */
  read(): Promise<Uint8Array | null> {
    try {
      const v = this.take();
      if (v !== undefined) return Promise.resolve(v);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.driver.pull(this) as Promise<Uint8Array | null>;
  }

  /** @internal Puller (read()): the next chunk from the driver's queue. */
  pulled(): Uint8Array | null | undefined {
    return this.take();
  }

  /** @internal */
  failed(): void {}

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return new PartIterator(this);
  }

  /** The body as a backpressured ReadableStream (pulls from the source only when read). */
  get body(): ReadableStream<Uint8Array> {
    if (this._body === null) {
      this._body = new ReadableStream<Uint8Array>(
        {
          pull: async (controller) => {
            const v = await this.read();
            if (v === null) controller.close();
            else controller.enqueue(v);
          },
        },
        { highWaterMark: 0 },
      );
    }
    return this._body;
  }

  /** The queue index of this part's PART_END when the rest of its body is queued, else -1. */
  private queuedEnd(): number {
    if (this.skipped || this.done || this.held !== null) return -1;
    const q = this.driver.q;
    let k = this.driver.qh;
    while (k < q.length && q[k] instanceof Uint8Array) k += 3;
    return k < q.length && q[k] === PART_END ? k : -1;
  }

  /**
   * When the rest of the body is buffered: take it (the part is then read) and return how many (chunk, start,
   * end) triples it is, found at `rsrc[roff..)`; -1 when more input is needed.
   */
  private rest(): number {
    if (this.skipped) throw new Error('formwire: part body read after moving to the next part');
    if (this.done) return 0;
    const held = this.held;
    if (held !== null) {
      this.rsrc = held;
      this.roff = this.hi;
      this.hi = held.length;
      this.done = true;
      return (held.length - this.roff) / 3;
    }
    const end = this.queuedEnd();
    if (end < 0) return -1;
    const d = this.driver;
    this.rsrc = d.q;
    this.roff = d.qh;
    d.qh = end + 1;
    this.done = true;
    return (end - this.roff) / 3;
  }

  /** The k triples rest() found, as views. */
  private restViews(k: number): Uint8Array[] {
    const s = this.rsrc;
    const out: Uint8Array[] = [];
    for (let i = this.roff, e = this.roff + 3 * k; i < e; i += 3) out.push(view(s[i] as Uint8Array, s[i + 1] as number, s[i + 2] as number));
    this.rsrc = EMPTY;
    return out;
  }

  /** The k triples rest() found, decoded as UTF-8. */
  private restText(k: number): string {
    if (k === 0) return '';
    if (k === 1) {
      const s = this.rsrc;
      const o = this.roff;
      this.rsrc = EMPTY;
      return runtimeText.decode(s[o] as Uint8Array, s[o + 1] as number, s[o + 2] as number);
    }
    const chunks = this.restViews(k);
    let n = 0;
    for (const c of chunks) n += c.length;
    return runtimeText.decode(concat(chunks, n));
  }

  /** The whole body as a new Uint8Array. */
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const k = this.rest();
    const chunks = k >= 0 ? this.restViews(k) : [];
    if (k < 0) {
      for (;;) {
        const c = await this.read();
        if (c === null) break;
        chunks.push(c);
      }
    }
    let n = 0;
    for (const c of chunks) n += c.length;
    return concat(chunks, n);
  }

  /** The whole body as an ArrayBuffer. */
  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer as ArrayBuffer;
  }

  /** The whole body decoded as UTF-8 (U+FFFD for invalid bytes, BOM kept: MP-F-01). */
  text(): Promise<string> {
    let k: number;
    try {
      k = this.rest();
    } catch (e) {
      return Promise.reject(e);
    }
    // the whole body is already buffered: no async function frame
    if (k >= 0) return Promise.resolve(this.restText(k));
    return this.textSlow();
  }

  /** `text()` for a `complete` part, without a promise; throws when the body is not complete. */
  textSync(): string {
    const k = this.rest();
    if (k < 0) throw new Error('formwire: textSync() on a part whose body is not complete (see Part.complete)');
    return this.restText(k);
  }

  /** `bytes()` for a `complete` part, without a promise; throws when the body is not complete. */
  bytesSync(): Uint8Array<ArrayBuffer> {
    const k = this.rest();
    if (k < 0) throw new Error('formwire: bytesSync() on a part whose body is not complete (see Part.complete)');
    const chunks = this.restViews(k);
    let n = 0;
    for (const c of chunks) n += c.length;
    return concat(chunks, n);
  }

  private async textSlow(): Promise<string> {
    const first = await this.read();
    if (first === null) return '';
    const second = await this.read();
    if (second === null) return runtimeText.decode(first);
    const chunks = [first, second];
    let total = first.length + second.length;
    for (;;) {
      const c = await this.read();
      if (c === null) break;
      chunks.push(c);
      total += c.length;
    }
    return runtimeText.decode(concat(chunks, total));
  }
}

/**
 * `for await (const chunk of part)`: a class (methods on its prototype), not closures made per part, so the
 * optimized code of a caller's loop embeds no per-part function that a major GC could free (issue #20).
 */
class PartIterator implements AsyncIterator<Uint8Array>, Puller {
  private readonly part: Part;
  constructor(part: Part) {
    this.part = part;
  }
  pulled(): IteratorResult<Uint8Array> | undefined {
    const v = this.part.take();
    return v === undefined ? undefined : v === null ? DONE : { done: false, value: v };
  }
  failed(): void {}
  next(): Promise<IteratorResult<Uint8Array>> {
    let r: IteratorResult<Uint8Array> | undefined;
    try {
      r = this.pulled();
    } catch (e) {
      return Promise.reject(e);
    }
    if (r !== undefined) return Promise.resolve(r);
    return this.part.driver.pull(this) as Promise<IteratorResult<Uint8Array>>;
  }
  return(): Promise<IteratorResult<Uint8Array>> {
    return Promise.resolve(DONE);
  }
}

/** `parts.batches()`: a class for the same reason as PartIterator. */
class BatchIterator implements AsyncIterableIterator<Part[]>, Puller {
  private readonly parts: MultipartParts;
  constructor(parts: MultipartParts) {
    this.parts = parts;
  }
  pulled(): IteratorResult<Part[]> | undefined {
    return this.parts.takeBatch() ?? undefined;
  }
  failed(): void {
    this.parts.ended = true;
  }
  next(): Promise<IteratorResult<Part[]>> {
    const ps = this.parts;
    if (ps.ended) return Promise.resolve(DONE);
    for (const p of ps.batch) p.skip();
    ps.batch = EMPTY as Part[];
    const cur = ps.driver.cur;
    if (cur !== null) cur.skip();
    const r = ps.takeBatch();
    if (r !== null) return Promise.resolve(r);
    return ps.driver.pull(this) as Promise<IteratorResult<Part[]>>;
  }
  return(): Promise<IteratorResult<Part[]>> {
    return this.parts.return() as Promise<IteratorResult<never>>;
  }
  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * The async iterable of parts returned by parseMultipart. Iterate it part by part (`for await … of`), or in
 * batches with `batches()`; not both.
 */
export class MultipartParts implements AsyncIterableIterator<Part> {
  /** @internal */
  readonly driver: Driver;
  /** @internal */
  ended = false;
  /** @internal The parts of the batch last handed out (skipped when the next one is asked for). */
  batch: Part[] = [];
  constructor(driver: Driver) {
    this.driver = driver;
  }

  /** @internal Puller (next()): the next part or the end from the driver's queue. */
  pulled(): IteratorResult<Part> | undefined {
    return this.take() ?? undefined;
  }

  /** @internal */
  failed(): void {
    this.ended = true;
  }

  /** The next queued part (skipping the rest of an unread one), the end, or null when the queue is empty. */
  private take(): IteratorResult<Part> | null {
    const d = this.driver;
    const q = d.q;
    let h = d.qh;
    while (h < q.length) {
      const ev = q[h];
      if (ev instanceof PartInfo) {
        d.qh = h + 1;
        const p = new Part(ev, d);
        d.cur = p;
        return { done: false, value: p };
      }
      if (ev === END) {
        d.qh = h + 1;
        this.ended = true;
        return DONE;
      }
      // data and end of a part nobody read: skipped
      h += ev instanceof Uint8Array ? 3 : 1;
    }
    d.qh = h;
    return null;
  }

  next(): Promise<IteratorResult<Part>> {
    if (this.ended) return Promise.resolve(DONE);
    const cur = this.driver.cur;
    if (cur !== null) cur.skip();
    // Fast path: the next part is already queued (many small parts per source chunk): no async function frame.
    const r = this.take();
    if (r !== null) return Promise.resolve(r);
    return this.driver.pull(this) as Promise<IteratorResult<Part>>;
  }

  /**
   * Every queued part as one batch (parts whose bodies ended inside the source chunks read so far take their
   * body along and are `complete`; a part whose body goes on stays in the queue and ends the batch), the end, or
   * null when the queue holds no part.
   */
  /** @internal */
  takeBatch(): IteratorResult<Part[]> | null {
    const d = this.driver;
    const q = d.q;
    let h = d.qh;
    const out: Part[] = [];
    while (h < q.length) {
      const ev = q[h];
      if (ev instanceof PartInfo) {
        const p = new Part(ev, d);
        out.push(p);
        let k = h + 1;
        while (k < q.length && q[k] instanceof Uint8Array) k += 3;
        if (k < q.length && q[k] === PART_END) {
          p.held = k === h + 1 ? EMPTY : q.slice(h + 1, k);
          h = k + 1;
          continue;
        }
        // its body goes on past the queue: read from the queue (the batch's last part)
        d.qh = h + 1;
        d.cur = p;
        this.batch = out;
        return { done: false, value: out };
      }
      if (ev === END) {
        if (out.length > 0) break; // the end is answered by the next call
        d.qh = h + 1;
        this.ended = true;
        return DONE;
      }
      // data and end of a part nobody read: skipped
      h += ev instanceof Uint8Array ? 3 : 1;
    }
    d.qh = h;
    if (out.length === 0) return null;
    d.cur = null;
    this.batch = out;
    return { done: false, value: out };
  }

  /**
   * Batched iteration: the parts that are available now, as arrays (in order; about one array per source chunk).
   * Every part of a batch but the last is `complete`, so `textSync()` / `bytesSync()` read it without a promise; the
   * last may be incomplete, to be read like any part. A batch's parts can be read in any order until the next
   * batch is asked for; then the unread ones are skipped.
   */
  batches(): AsyncIterableIterator<Part[]> {
    return new BatchIterator(this);
  }

  async return(): Promise<IteratorResult<Part>> {
    if (!this.ended) {
      this.ended = true;
      this.driver.cancel();
    }
    return DONE;
  }
  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Options of parseMultipart and formData. */
export interface ParseMultipartOptions extends MultipartOptions {}

function resolveContentType(body: BodySource, contentType: string | null | undefined): string {
  const ct = contentType ?? contentTypeOf(body);
  if (ct === null || ct === undefined) throw new FormwireError('MP_CONTENT_TYPE', 0, 'no Content-Type');
  return ct;
}

/**
 * Parse a multipart/form-data body as an async iterable of parts (spec/multipart.md §1-§5).
 * `contentType` may be omitted for a Request/Response (its header is used).
 */
export function parseMultipart(body: BodySource, contentType?: string | null, options: ParseMultipartOptions = {}): MultipartParts {
  const boundary = boundaryFromContentType(resolveContentType(body, contentType), options.maxBoundaryBytes ?? MULTIPART_DEFAULTS.maxBoundaryBytes);
  return new MultipartParts(new Driver(boundary, options, sourceOf(body)));
}

/** Options of formData(): the multipart options, and the urlencoded limits for urlencoded bodies. */
export interface FormDataOptions extends MultipartOptions, UrlencodedOptions {
  /**
   * Node: spill file parts above `threshold` bytes to temp files; they appear in the FormData as file-backed Files.
   * A temp file is removed when its File is garbage-collected, when the process exits, or at once when parsing fails.
   */
  spill?: SpillOptions | boolean;
}

const FileCtor: typeof File | undefined = (globalThis as { File?: typeof File }).File;

/** A File with lastModified 0 (MP-F-02); on runtimes without a File global (Node 18) FormData makes one. */
function appendFile(fd: FormData, name: string, parts: BlobPart[], filename: string, type: string): void {
  if (FileCtor !== undefined) fd.append(name, new FileCtor(parts, filename, { type, lastModified: 0 }));
  else fd.append(name, new Blob(parts, { type }), filename);
}

class FormDataBuilder implements MultipartHandler {
  readonly fd = new FormData();
  private cur: PartInfo | null = null;
  /** Body ranges of the current part: (chunk, start, end) triples, valid while the source chunks are. */
  private chunks: Uint8Array[] = [];
  private starts: number[] = [];
  private ends: number[] = [];
  private n = 0;
  private size = 0;
  /** Spilling: ordered actions run by flush() between source chunks (appends keep body order). */
  private readonly spill: SpillEnv | null;
  private actions: Array<() => Promise<void> | void> = [];
  private spilling: { path: string; handle: Promise<SpillHandle>; pending: Uint8Array[] } | null = null;
  private readonly made: string[] = [];
  /** MP-L-06: bytes of the spilled files so far, and before the current one. */
  private disk = 0;
  private diskBefore = 0;

  constructor(spill: SpillEnv | null) {
    this.spill = spill;
  }

  onPartStart(part: PartInfo): void {
    this.cur = part;
    this.n = 0;
    this.size = 0;
  }
  onData(bytes: Uint8Array): void {
    this.onDataRange(bytes, 0, bytes.length);
  }
  onDataRange(chunk: Uint8Array, start: number, end: number): void {
    const sp = this.spill;
    if (sp !== null && this.cur!.filename !== null) {
      if (this.spilling === null && this.size + (end - start) > sp.threshold) {
        const { path, handle } = sp.create();
        this.made.push(path);
        this.spilling = { path, handle, pending: this.views() };
        this.n = 0;
        this.diskBefore = this.disk;
        this.disk += this.size;
      }
      if (this.spilling !== null) {
        this.spilling.pending.push(chunk.subarray(start, end));
        this.size += end - start;
        this.disk += end - start;
        if (this.disk > sp.maxDiskBytes) {
          // MP-L-06: at the file's byte that makes the total max_disk_bytes + 1 (formData() then removes the files)
          throw new FormwireError('MP_LIMIT_DISK_BYTES', this.cur!.bodyOffset + sp.maxDiskBytes - this.diskBefore, 'temp files longer than maxDiskBytes');
        }
        return;
      }
    }
    const k = this.n++;
    this.chunks[k] = chunk;
    this.starts[k] = start;
    this.ends[k] = end;
    this.size += end - start;
  }
  private views(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let k = 0; k < this.n; k++) out.push(this.chunks[k]!.subarray(this.starts[k], this.ends[k]));
    return out;
  }
  onPartEnd(): void {
    const p = this.cur!;
    const name = p.name;
    if (name === null) {
      // MP-F-05: a nameless part (allowMissingDisposition) is no entry; it was counted, its body read and dropped
      this.cur = null;
      this.n = 0;
      return;
    }
    if (p.filename === null) {
      // MP-F-01
      const v = this.n === 0 ? '' : this.n === 1 ? runtimeText.decode(this.chunks[0]!, this.starts[0], this.ends[0]) : runtimeText.decode(concat(this.views(), this.size));
      if (this.spill === null) this.fd.append(name, v);
      else this.actions.push(() => this.fd.append(name, v));
    } else if (this.spilling !== null) {
      // MP-F-02, MP-F-03, from a temp file
      const sp = this.spilling;
      this.spilling = null;
      const env = this.spill!;
      const filename = p.filename;
      const type = p.type ?? '';
      this.actions.push(async () => {
        const h = await sp.handle;
        for (const v of sp.pending.splice(0)) await h.write(v);
        await h.close();
        const file = await env.adopt(sp.path, type, (blob) => (FileCtor !== undefined ? new FileCtor([blob], filename, { type, lastModified: 0 }) : blob));
        if (FileCtor !== undefined) this.fd.append(name, file);
        else this.fd.append(name, file, filename);
      });
    } else {
      // MP-F-02, MP-F-03
      const parts = this.views() as BlobPart[];
      const filename = p.filename;
      const type = p.type ?? '';
      if (this.spill === null) appendFile(this.fd, name, parts, filename, type);
      else {
        // the views are copied into the Blob now, while their chunk is alive
        const file = FileCtor !== undefined ? new FileCtor(parts, filename, { type, lastModified: 0 }) : new Blob(parts, { type });
        this.actions.push(() => (FileCtor !== undefined ? this.fd.append(name, file) : this.fd.append(name, file, filename)));
      }
    }
    this.cur = null;
    this.n = 0;
  }
  onEnd(): void {}

  /** Run queued appends in order and write the spilled bytes of the current chunk (before the next is read). */
  async flush(): Promise<void> {
    const acts = this.actions;
    this.actions = [];
    for (const a of acts) await a();
    const sp = this.spilling;
    if (sp !== null && sp.pending.length > 0) {
      const h = await sp.handle;
      for (const v of sp.pending.splice(0)) await h.write(v);
    }
  }

  /** Parsing failed: remove every temp file made so far. */
  async abort(): Promise<void> {
    const sp = this.spilling;
    if (sp !== null) {
      try {
        await (await sp.handle).close();
      } catch {
        // not opened
      }
    }
    for (const p of this.made) await this.spill!.remove(p);
  }
}

/** An application/x-www-form-urlencoded body as a FormData (what Response.formData() does for that type). */
async function urlencodedFormData(body: BodySource, options: UrlencodedOptions): Promise<FormData> {
  const fd = new FormData();
  const p = new UrlencodedParser((n, v) => fd.append(n, v), options, runtimeUtf8);
  const src = sourceOf(body);
  try {
    for (;;) {
      const r = await src.next();
      if (r.done) break;
      p.write(toBytes(r.value));
    }
    src.finish();
    p.end();
  } catch (e) {
    src.return().catch(() => {});
    throw e;
  }
  return fd;
}

/**
 * Parse a multipart/form-data body into a standard FormData, like `Response.formData()` but streaming, strict
 * (WPT profile) and with limits (spec/multipart.md §6). Like `Response.formData()`, an
 * application/x-www-form-urlencoded body is accepted too (WHATWG parser, `maxPairs` / `maxBytes`).
 */
export async function formData(body: BodySource, contentType?: string | null, options: FormDataOptions = {}): Promise<FormData> {
  const ct = resolveContentType(body, contentType);
  const mime = parseMimeType(ct);
  if (mime !== null && mime.type === 'application' && mime.subtype === 'x-www-form-urlencoded') {
    return urlencodedFormData(body, options);
  }
  const boundary = boundaryFromContentType(ct, options.maxBoundaryBytes ?? MULTIPART_DEFAULTS.maxBoundaryBytes);
  const spill = options.spill === undefined || options.spill === false ? null : await spillEnv(options.spill === true ? {} : options.spill);
  const b = new FormDataBuilder(spill);
  const parser = new MultipartParser(boundary, b, options);
  const src = sourceOf(body);
  try {
    for (;;) {
      // a chunk the source has at hand (no promise), else wait for one
      let c = src.poll !== undefined ? src.poll() : null;
      if (c === null) {
        const r = await src.next();
        c = r.done ? POLL_END : r.value;
      }
      if (c === POLL_END) break;
      parser.write(toBytes(c));
      if (spill !== null) await b.flush();
    }
    src.finish();
    parser.end();
    if (spill !== null) await b.flush();
  } catch (e) {
    src.return().catch(() => {});
    if (spill !== null) await b.abort();
    throw e;
  }
  return b.fd;
}

/** One of each of parseMultipart's per-parse objects (driver, parts iterator, part, part and batch iterators, Node source). */
function keepIteratorShapes(): readonly object[] {
  const d = new Driver(new TextEncoder().encode(KEEP_BOUNDARY), {}, sourceOf(new Uint8Array(0)));
  const parsed = keepShapes(() => d.parser);
  const parts = new MultipartParts(d);
  const part = new Part(parsed[0] as PartInfo, d);
  return [parsed, parts, part, new PartIterator(part), new BatchIterator(parts), new NodeSource({} as never)];
}

/**
 * @internal The shapes of this module's per-parse objects (the parser class, formData()'s builder, the iterator's
 * driver, parts, iterators and sources) after a small parse, kept across GC as core/multipart.ts keeps the core's
 * (issue #20: otherwise a major GC frees them with the last parse's objects and deoptimizes the code that embeds
 * them). Last in the module.
 */
export const KEEP_PARSER_SHAPES: readonly object[] = Object.freeze([
  keepShapes((h) => new MultipartParser(KEEP_BOUNDARY, h)),
  keepShapes(() => new MultipartParser(KEEP_BOUNDARY, new FormDataBuilder(null))),
  keepIteratorShapes(),
]);
