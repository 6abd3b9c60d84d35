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
import { setLatin1Decoder } from './core/utf8.js';
import { nativeLatin1Decode } from './adapters/node.js';

if (nativeLatin1Decode !== null) setLatin1Decoder(nativeLatin1Decode);

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
