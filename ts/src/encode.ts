/**
 * encodeFormData: the WHATWG multipart/form-data serializer (spec/multipart.md §7) with the length known up front
 * and Blob bodies streamed from the Blob, never concatenated.
 */
import { checkBoundary, checkPartType, escapeFilename, escapeName, generateBoundary, normalizeNewlines } from './core/encode.js';
import { allocFilled } from './adapters/node.js';

/**
 * A file whose bytes are already in memory: no Blob is built, the bytes are written (or streamed) as they are.
 * `filename` defaults to `blob`, `type` to `application/octet-stream` (MP-S-05, MP-S-06).
 */
export interface BytesFile {
  readonly body: Uint8Array;
  readonly filename?: string;
  readonly type?: string;
}

/** One form value: a string, a Blob/File (or blob-like), or in-memory bytes with a filename. */
export type FormValue = string | Blob | BlobLike | BytesFile;

/** A form: a FormData, or any iterable of `[name, value]`. */
export type FormLike = FormData | Iterable<readonly [string, FormValue]>;

/** Options of encodeFormData. */
export interface EncodeOptions {
  /** Use this boundary (1-70 bchars, MP-S-09) instead of a fresh CSPRNG one. */
  boundary?: string;
}

/** An encoded body: read it once or many times; every read produces the same bytes. */
export interface EncodedFormData extends AsyncIterable<Uint8Array> {
  /** The boundary used. */
  readonly boundary: string;
  /** `multipart/form-data; boundary=…` (MP-S-10). */
  readonly contentType: string;
  /** The exact body length, known before any byte is produced (MP-S-08). */
  readonly contentLength: number;
  /** `{ 'content-type', 'content-length' }` for fetch or http.request. */
  readonly headers: { 'content-type': string; 'content-length': string };
  /** The body as a ReadableStream (usable as a fetch body with `duplex: 'half'`). */
  stream(): ReadableStream<Uint8Array>;
  /** The whole body in one new Uint8Array of `contentLength` bytes. */
  bytes(): Promise<Uint8Array<ArrayBuffer>>;
  /** The whole body as an ArrayBuffer. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

const encoder = new TextEncoder();

/**
 * A Blob, or any object shaped like one (`size`, `type`, `stream()`, `arrayBuffer()`; `name` makes it a File).
 * Real Blobs already have a lowercased, header-safe type; blob-likes are written as given and checked (MP-S-06).
 */
export interface BlobLike {
  readonly size: number;
  readonly type: string;
  readonly name?: string;
  stream(): ReadableStream<Uint8Array>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

function isBlob(v: unknown): v is BlobLike {
  if (typeof Blob !== 'undefined' && v instanceof Blob) return true;
  if (typeof v !== 'object' || v === null) return false;
  const b = v as BlobLike;
  return typeof b.size === 'number' && typeof b.type === 'string' && typeof b.stream === 'function' && typeof b.arrayBuffer === 'function';
}

/**
 * How much of a Blob the streamed body reads at a time. Node's `Blob.stream()` hands over an in-memory Blob as one
 * chunk of its whole size (Node 20), so a streamed body would hold a copy of every Blob at once; reading it as
 * `slice()`s (which share the Blob's bytes, so slicing copies nothing) bounds what the body holds by a few such chunks
 * whatever the Blob's size. (`slice().stream()` rather than `slice().arrayBuffer()`: Node copies twice for the latter.)
 */
export const STREAM_CHUNK_BYTES = 256 * 1024;

const sizeChanged = () => new Error('formwire: a Blob changed size while being encoded');

/**
 * A Blob's bytes as chunks of at most STREAM_CHUNK_BYTES (blob-likes without `slice()`: as their stream gives them),
 * exactly `blob.size` of them in all: Content-Length was announced from the sizes (MP-S-08), so a Blob that gives more
 * or fewer bytes is an error, never a body longer or shorter than its header says.
 */
async function* blobChunks(blob: BlobLike): AsyncGenerator<Uint8Array, void, undefined> {
  const slice = (blob as { slice?: (start: number, end: number) => BlobLike }).slice;
  const sliced = typeof slice === 'function' && blob.size > STREAM_CHUNK_BYTES;
  let o = 0;
  do {
    const before = o;
    const source = sliced ? slice.call(blob, o, Math.min(o + STREAM_CHUNK_BYTES, blob.size)) : blob;
    for await (const c of streamChunks(source)) {
      o += c.length;
      if (o > blob.size) throw sizeChanged();
      yield c;
    }
    if (o === before) break;
  } while (sliced && o < blob.size);
  if (o !== blob.size) throw sizeChanged();
}

async function* streamChunks(blob: BlobLike): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = (blob.stream() as ReadableStream<Uint8Array>).getReader();
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) return void (done = true);
      yield r.value;
    }
  } finally {
    if (!done) await reader.cancel(); // the body was abandoned: let the Blob's stream go
  }
}

const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function cryptoRandom(bytes: Uint8Array): void {
  const c = (globalThis as { crypto?: { getRandomValues?: (b: Uint8Array) => Uint8Array } }).crypto;
  if (c && typeof c.getRandomValues === 'function') {
    c.getRandomValues(bytes);
    return;
  }
  // Node 18 has no global crypto: the CommonJS build can still reach node:crypto through its module-scoped require
  // (`typeof require` is 'undefined' in ES modules, so the ESM build never takes this path). The name is not a
  // literal, so that a bundler building for browsers does not try to bundle node:crypto.
  if (typeof require === 'function') {
    const name = 'node:crypto';
    (require(name) as { webcrypto: { getRandomValues(b: Uint8Array): void } }).webcrypto.getRandomValues(bytes);
    return;
  }
  throw new Error('formwire: no crypto.getRandomValues in this runtime (Node 18 ESM: use Node 19+); pass options.boundary');
}

class Encoded implements EncodedFormData {
  readonly boundary: string;
  readonly contentType: string;
  readonly contentLength: number;
  /** The encoded text before body k (texts[k]), and after the last body (texts[bodies.length]). */
  private readonly texts: Uint8Array[];
  private readonly blobs: Array<BlobLike | Uint8Array>;

  constructor(boundary: string, texts: Uint8Array[], blobs: Array<BlobLike | Uint8Array>) {
    this.boundary = boundary;
    // MP-S-10; a caller-given boundary that is not a token is quoted so that the header still parses.
    this.contentType = `multipart/form-data; boundary=${TOKEN_RE.test(boundary) ? boundary : `"${boundary}"`}`;
    this.texts = texts;
    this.blobs = blobs;
    let n = 0;
    for (const t of texts) n += t.length;
    for (const b of blobs) n += b instanceof Uint8Array ? b.length : b.size;
    this.contentLength = n;
  }

  get headers(): { 'content-type': string; 'content-length': string } {
    return { 'content-type': this.contentType, 'content-length': String(this.contentLength) };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    for (let k = 0; k < this.blobs.length; k++) {
      const text = this.texts[k]!;
      if (text.length > 0) yield text;
      const blob = this.blobs[k]!;
      if (blob instanceof Uint8Array) {
        if (blob.length > 0) yield blob;
        continue;
      }
      if (blob.size === 0) continue;
      yield* blobChunks(blob);
    }
    yield this.texts[this.blobs.length]!; // never empty: it ends with the close delimiter
  }

  stream(): ReadableStream<Uint8Array> {
    const it = this[Symbol.asyncIterator]();
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const r = await it.next();
          if (r.done) controller.close();
          else controller.enqueue(r.value);
        },
        async cancel() {
          await it.return(undefined);
        },
      },
      { highWaterMark: 0 },
    );
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    // One allocation; every byte is written once (texts, then each body straight from its reader's chunks), so the
    // zero-filling is skipped where the runtime allows it.
    const out = allocFilled(this.contentLength);
    let o = 0;
    for (let k = 0; k < this.blobs.length; k++) {
      const text = this.texts[k]!;
      out.set(text, o);
      o += text.length;
      const blob = this.blobs[k]!;
      if (blob instanceof Uint8Array) {
        out.set(blob, o);
        o += blob.length;
        continue;
      }
      if (blob.size === 0) continue;
      const end = o + blob.size;
      const reader = (blob.stream() as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        if (o + r.value.length > end) throw sizeChanged();
        out.set(r.value, o);
        o += r.value.length;
      }
      if (o !== end) throw sizeChanged();
    }
    out.set(this.texts[this.blobs.length]!, o);
    return out;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer as ArrayBuffer;
  }
}

function isBytesFile(v: unknown): v is BytesFile {
  return typeof v === 'object' && v !== null && (v as BytesFile).body instanceof Uint8Array;
}

/**
 * Serialize a form as multipart/form-data (WHATWG HTML "multipart/form-data encoding algorithm", UTF-8).
 * Throws FormwireError MP_ENCODE_BOUNDARY / MP_ENCODE_HEADER.
 */
export function encodeFormData(form: FormLike, options: EncodeOptions = {}): EncodedFormData {
  let boundary: string;
  if (options.boundary !== undefined) {
    checkBoundary(options.boundary);
    boundary = options.boundary;
  } else {
    boundary = generateBoundary(cryptoRandom);
  }
  // The text between bodies is built as one string (a rope: no copy per piece) and UTF-8 encoded once: one
  // encoder call per body instead of two per entry. Every piece ends and starts with ASCII, so concatenation never
  // pairs a lone surrogate of one piece with one of the next: each still becomes U+FFFD (MP-S-07).
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="`;
  const texts: Uint8Array[] = [];
  const blobs: Array<BlobLike | Uint8Array> = [];
  let text = '';
  let index = 0;
  for (const entry of form as Iterable<readonly [string, FormValue]>) {
    const name = escapeName(String(entry[0])); // MP-S-02
    const value = entry[1];
    if (typeof value === 'string') {
      text += head + name + '"\r\n\r\n' + normalizeNewlines(value) + '\r\n'; // MP-S-04
    } else if (isBytesFile(value)) {
      const type = value.type === undefined || value.type === '' ? 'application/octet-stream' : value.type;
      checkPartType(type, index);
      const fname = escapeFilename(value.filename === undefined ? 'blob' : String(value.filename));
      text += head + name + '"; filename="' + fname + '"\r\nContent-Type: ' + type + '\r\n\r\n';
      texts.push(encoder.encode(text));
      blobs.push(value.body);
      text = '\r\n';
    } else if (isBlob(value)) {
      const fname = escapeFilename(typeof value.name === 'string' ? value.name : 'blob'); // MP-S-05
      const type = value.type === '' ? 'application/octet-stream' : value.type; // MP-S-06
      checkPartType(type, index);
      text += head + name + '"; filename="' + fname + '"\r\nContent-Type: ' + type + '\r\n\r\n';
      texts.push(encoder.encode(text));
      blobs.push(value);
      text = '\r\n';
    } else {
      text += head + name + '"\r\n\r\n' + normalizeNewlines(String(value)) + '\r\n'; // MP-S-04
    }
    index++;
  }
  text += `--${boundary}--\r\n`;
  texts.push(encoder.encode(text));
  return new Encoded(boundary, texts, blobs);
}
