/**
 * High-level urlencoded API: strings and bytes synchronously, streams asynchronously.
 */
import {
  UrlencodedParser as CoreUrlencodedParser,
  decodeBytes,
  parseUrlencodedBytes,
  UrlencodedStringParser,
  serializeUrlencoded,
  type UrlencodedOptions,
} from './core/urlencoded.js';
import { chunksOf, type BodySource } from './adapters/web.js';
import { runtimeText, runtimeUtf8 } from './adapters/node.js';
import type { BytesDecoder } from './core/urlencoded.js';

export { serializeUrlencoded, type UrlencodedOptions };

/** The string parser of parseUrlencoded, with its scratch (see UrlencodedStringParser) and the runtime's decoding. */
const STRING_PARSER = new UrlencodedStringParser(runtimeText);

/** The sans-IO urlencoded parser with the runtime's text decoding by default (the pure core is core/urlencoded.ts). */
export class UrlencodedParser extends CoreUrlencodedParser {
  constructor(onPair: (name: string, value: string) => void, options: UrlencodedOptions = {}, decode: BytesDecoder = runtimeUtf8) {
    super(onPair, options, decode);
  }
}

/** UE-P-06..08 on bytes[a..b): one name or value decoded (`+` → SP, percent-decoding, UTF-8 with U+FFFD). */
export function decodeUrlencodedComponent(bytes: Uint8Array, a = 0, b = bytes.length): string {
  return decodeBytes(bytes, a, b, runtimeUtf8);
}

/**
 * Parse application/x-www-form-urlencoded input (WHATWG URL §5.1) into `[name, value]` pairs, in order.
 * A string or bytes parse synchronously; a stream, Request/Response, Blob or async iterable gives a Promise.
 */
export function parseUrlencoded(input: string | Uint8Array | ArrayBuffer, options?: UrlencodedOptions): [string, string][];
export function parseUrlencoded(input: BodySource, options?: UrlencodedOptions): Promise<[string, string][]>;
export function parseUrlencoded(input: BodySource, options: UrlencodedOptions = {}): [string, string][] | Promise<[string, string][]> {
  if (typeof input === 'string') return STRING_PARSER.parse(input, options);
  if (input instanceof Uint8Array) return parseUrlencodedBytes(input, options, runtimeUtf8);
  if (input instanceof ArrayBuffer) return parseUrlencodedBytes(new Uint8Array(input), options, runtimeUtf8);
  return parseUrlencodedStream(input, options);
}

async function parseUrlencodedStream(input: BodySource, options: UrlencodedOptions): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const p = new UrlencodedParser((n, v) => out.push([n, v]), options, runtimeUtf8);
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
