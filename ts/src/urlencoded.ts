/**
 * High-level urlencoded API: strings and bytes synchronously, streams asynchronously.
 */
import {
  UrlencodedParser,
  parseUrlencodedBytes,
  parseUrlencodedString,
  serializeUrlencoded,
  type UrlencodedOptions,
} from './core/urlencoded.js';
import { chunksOf, type BodySource } from './adapters/web.js';
import { setLatin1Decoder, type Utf8Decode } from './core/utf8.js';

// Node's (and Bun's) native Latin-1 slice, looked up on globalThis (no `node:` import): the string parser's ASCII
// windows become strings with a plain copy instead of a UTF-8 decode (a quarter of the time on 16 KiB windows).
type Latin1Slice = (this: Uint8Array, start: number, end: number) => string;
const latin1Slice = (globalThis as { Buffer?: { prototype: { latin1Slice?: Latin1Slice } } }).Buffer?.prototype.latin1Slice;
if (typeof latin1Slice === 'function') {
  const f: Utf8Decode = (b, s, e) => latin1Slice.call(b, s, e);
  setLatin1Decoder(f);
}

export { serializeUrlencoded, type UrlencodedOptions };

/**
 * Parse application/x-www-form-urlencoded input (WHATWG URL §5.1) into `[name, value]` pairs, in order.
 * A string or bytes parse synchronously; a stream, Request/Response, Blob or async iterable gives a Promise.
 */
export function parseUrlencoded(input: string | Uint8Array | ArrayBuffer, options?: UrlencodedOptions): [string, string][];
export function parseUrlencoded(input: BodySource, options?: UrlencodedOptions): Promise<[string, string][]>;
export function parseUrlencoded(input: BodySource, options: UrlencodedOptions = {}): [string, string][] | Promise<[string, string][]> {
  if (typeof input === 'string') return parseUrlencodedString(input, options);
  if (input instanceof Uint8Array) return parseUrlencodedBytes(input, options);
  if (input instanceof ArrayBuffer) return parseUrlencodedBytes(new Uint8Array(input), options);
  return parseUrlencodedStream(input, options);
}

async function parseUrlencodedStream(input: BodySource, options: UrlencodedOptions): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const p = new UrlencodedParser((n, v) => out.push([n, v]), options);
  const src = chunksOf(input);
  try {
    for (;;) {
      const r = await src.next();
      if (r.done) break;
      p.write(r.value);
    }
    p.end();
  } catch (e) {
    if (typeof src.return === 'function') Promise.resolve(src.return()).catch(() => {});
    throw e;
  }
  return out;
}

/** Parse into a URLSearchParams (same pairs, with formwire's limits and streaming). */
export function urlencodedSearchParams(input: string | Uint8Array | ArrayBuffer, options?: UrlencodedOptions): URLSearchParams;
export function urlencodedSearchParams(input: BodySource, options?: UrlencodedOptions): Promise<URLSearchParams>;
export function urlencodedSearchParams(input: BodySource, options: UrlencodedOptions = {}): URLSearchParams | Promise<URLSearchParams> {
  const r = parseUrlencoded(input as never, options) as [string, string][] | Promise<[string, string][]>;
  return Array.isArray(r) ? new URLSearchParams(r) : r.then((p) => new URLSearchParams(p));
}
