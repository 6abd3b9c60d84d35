/**
 * Conformance testee (conformance/PROTOCOL.md): JSON lines on stdin, one response line per request on stdout.
 * No test logic: decode the request, call formwire's public API, encode the result.
 */
import { createHash, type Hash } from 'node:crypto';
import { createInterface } from 'node:readline';
import {
  FormwireError,
  MultipartParser,
  PartInfo,
  UrlencodedParser,
  boundaryFromContentType,
  encodeFormData,
  serializeUrlencoded,
  type MultipartHandler,
  type MultipartOptions,
  type UrlencodedOptions,
} from '../src/index.js';
import { serialize, deserialize, type DeserializeOptions } from '../src/clone/index.js';
import { OPTION_NAMES } from '../src/core/registry.js';
import { describe as describeNeutral, build as buildNeutral, type Neutral } from './neutral.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Chunking = number[] | 'bytes';

const VERSION = '0.1.0';
const OPS = ['multipart.parse', 'multipart.serialize', 'urlencoded.parse', 'urlencoded.serialize', 'clone.decode', 'clone.encode'];

// Spec option names -> TypeScript names, from the generated registry (multipart.parse and urlencoded.parse share it).
const CAMEL: Record<string, string> = { ...OPTION_NAMES.multipart, ...OPTION_NAMES.urlencoded };

function options(o: { [k: string]: Json } | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o ?? {})) {
    const name = CAMEL[k];
    if (name === undefined) throw new Error(`unknown option ${k}`);
    out[name] = v === null ? Infinity : v;
  }
  return out;
}

/** Feed the input in the given chunking (no array of views is built: inputs can be many MiB fed byte by byte). */
function feed(input: Uint8Array, c: Chunking, write: (chunk: Uint8Array) => void): void {
  if (c === 'bytes') {
    for (let i = 0; i < input.length; i++) write(input.subarray(i, i + 1));
    return;
  }
  let at = 0;
  for (const cut of c) {
    write(input.subarray(at, cut));
    at = cut;
  }
  write(input.subarray(at));
}

function errorResult(e: unknown): Json {
  if (e instanceof FormwireError) return { error: { code: e.code, offset: e.offset, message: e.message } };
  const coded = e as { code?: unknown; offset?: unknown; message?: unknown };
  if (e !== null && typeof e === 'object' && typeof coded.code === 'string' && coded.code.startsWith('SC_')) {
    return { error: { code: coded.code, offset: typeof coded.offset === 'number' ? coded.offset : -1, message: String(coded.message) } };
  }
  const err = e as Error;
  return { error: { code: 'INTERNAL', offset: -1, message: String(err && err.stack ? err.stack : e) } };
}

interface PartOut {
  info: PartInfo;
  hash: Hash;
  size: number;
  kept: Uint8Array[] | null;
  /** small views are gathered here before hashing (byte-by-byte feeding makes millions of 1-byte views) */
  buf: Uint8Array;
  blen: number;
}

class Collector implements MultipartHandler {
  parts: PartOut[] = [];
  cur: PartOut | null = null;
  onPartStart(info: PartInfo): void {
    this.cur = { info, hash: createHash('sha256'), size: 0, kept: [], buf: new Uint8Array(8192), blen: 0 };
    this.parts.push(this.cur);
  }
  onData(bytes: Uint8Array): void {
    const c = this.cur!;
    if (c.blen + bytes.length > c.buf.length) {
      c.hash.update(c.buf.subarray(0, c.blen));
      c.blen = 0;
    }
    if (bytes.length >= c.buf.length) c.hash.update(bytes);
    else {
      c.buf.set(bytes, c.blen);
      c.blen += bytes.length;
    }
    c.size += bytes.length;
    if (c.kept !== null) {
      if (c.size > 65536) c.kept = null;
      else c.kept.push(bytes.slice());
    }
  }
  onPartEnd(): void {
    const c = this.cur!;
    c.hash.update(c.buf.subarray(0, c.blen));
    c.blen = 0;
    this.cur = null;
  }
  onEnd(): void {}
}

function multipartParse(req: { [k: string]: Json }): Json {
  const input = Buffer.from(req.input_b64 as string, 'base64');
  const opts = options(req.options as { [k: string]: Json }) as MultipartOptions;
  const results: Json[] = [];
  for (const c of req.chunkings as Chunking[]) {
    try {
      const boundary = boundaryFromContentType(req.content_type as string, opts.maxBoundaryBytes);
      const col = new Collector();
      const p = new MultipartParser(boundary, col, opts); // the runtime's default search (searchFor)
      feed(input, c, (chunk) => p.write(chunk));
      p.end();
      results.push({
        ok: {
          parts: col.parts.map((x) => {
            const out: { [k: string]: Json } = {
              name: x.info.name,
              filename: x.info.filename,
              name_star: x.info.nameStar,
              filename_star: x.info.filenameStar,
              content_type: x.info.contentType,
              type: x.info.type,
              headers: x.info.headers,
              size: x.size,
              sha256: x.hash.digest('hex'),
            };
            if (x.kept !== null) out.body_b64 = Buffer.concat(x.kept).toString('base64');
            return out;
          }),
        },
      });
    } catch (e) {
      results.push(errorResult(e));
    }
  }
  return { results };
}

function urlencodedParse(req: { [k: string]: Json }): Json {
  const input = Buffer.from(req.input_b64 as string, 'base64');
  const opts = options(req.options as { [k: string]: Json }) as UrlencodedOptions;
  const results: Json[] = [];
  for (const c of req.chunkings as Chunking[]) {
    try {
      const pairs: Json[] = [];
      const p = new UrlencodedParser((n, v) => pairs.push([n, v]), opts);
      feed(input, c, (chunk) => p.write(chunk));
      p.end();
      results.push({ ok: { pairs } });
    } catch (e) {
      results.push(errorResult(e));
    }
  }
  return { results };
}

/** A blob-like that keeps its type exactly as given (a real Blob lowercases it and drops CR/LF types). */
class RawBlob {
  readonly size: number;
  constructor(
    private readonly bytes: Uint8Array,
    readonly type: string,
    readonly name?: string,
  ) {
    this.size = bytes.length;
  }
  stream(): ReadableStream<Uint8Array> {
    const b = this.bytes;
    return new ReadableStream({
      start(c) {
        if (b.length > 0) c.enqueue(b);
        c.close();
      },
    });
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.bytes).buffer as ArrayBuffer;
  }
}

interface Entry {
  name: string;
  value?: string;
  file?: { filename: string; type: string; body: { base64: string } };
  blob?: { type: string; body: { base64: string } };
}

async function multipartSerialize(req: { [k: string]: Json }): Promise<Json> {
  try {
    const form: [string, string | RawBlob][] = [];
    for (const e of req.entries as unknown as Entry[]) {
      if (e.file) form.push([e.name, new RawBlob(Buffer.from(e.file.body.base64, 'base64'), e.file.type, e.file.filename)]);
      else if (e.blob) form.push([e.name, new RawBlob(Buffer.from(e.blob.body.base64, 'base64'), e.blob.type)]);
      else form.push([e.name, e.value!]);
    }
    const enc = encodeFormData(form, req.boundary === undefined || req.boundary === null ? {} : { boundary: req.boundary as string });
    const contentLength = enc.contentLength; // known before any byte is produced (MP-S-08)
    const body = await enc.bytes();
    return { ok: { content_type: enc.contentType, content_length: contentLength, body_b64: Buffer.from(body).toString('base64') } };
  } catch (e) {
    return errorResult(e);
  }
}

function urlencodedSerialize(req: { [k: string]: Json }): Json {
  try {
    return { ok: { text: serializeUrlencoded(req.pairs as [string, string][]) } };
  } catch (e) {
    return errorResult(e);
  }
}

function cloneOptions(o: { [k: string]: Json } | undefined): DeserializeOptions {
  const out: DeserializeOptions = {};
  if (!o) return out;
  if ('max_depth' in o) out.maxDepth = o.max_depth === null ? Infinity : (o.max_depth as number);
  if ('max_bytes' in o) out.maxBytes = o.max_bytes === null ? Infinity : (o.max_bytes as number);
  if ('max_values' in o) out.maxValues = o.max_values as number | null;
  if ('max_bigint_bytes' in o) out.maxBigintBytes = o.max_bigint_bytes as number | null;
  if ('node_ipc' in o) out.nodeIpc = o.node_ipc === true;
  return out;
}

function cloneDecode(req: { [k: string]: Json }): Json {
  const input = new Uint8Array(Buffer.from(req.input_b64 as string, 'base64'));
  const opts = cloneOptions(req.options as { [k: string]: Json } | undefined);
  const results: Json[] = [];
  for (const _ of (req.chunkings as Json[] | undefined) ?? [[]]) {
    try {
      results.push({ ok: { value: describeNeutral(deserialize(input, opts)) as unknown as Json } });
    } catch (e) {
      results.push(errorResult(e));
    }
  }
  return { results };
}

function cloneEncode(req: { [k: string]: Json }): Json {
  try {
    const opts = cloneOptions(req.options as { [k: string]: Json } | undefined);
    const bytes = serialize(buildNeutral(req.value as unknown as Neutral), opts.maxDepth === undefined ? undefined : { maxDepth: opts.maxDepth });
    return { ok: { hex: Buffer.from(bytes).toString('hex') } };
  } catch (e) {
    return errorResult(e);
  }
}

async function handle(req: { [k: string]: Json }): Promise<Json> {
  switch (req.op) {
    case 'hello':
      return { ok: { lang: 'ts', version: VERSION, ops: OPS } };
    case 'multipart.parse':
      return multipartParse(req);
    case 'multipart.serialize':
      return multipartSerialize(req);
    case 'urlencoded.parse':
      return urlencodedParse(req);
    case 'urlencoded.serialize':
      return urlencodedSerialize(req);
    case 'clone.decode':
      return cloneDecode(req);
    case 'clone.encode':
      return cloneEncode(req);
    default:
      return { error: { code: 'UNSUPPORTED_OP', offset: -1, message: `op not implemented: ${String(req.op)}` } };
  }
}

async function main(): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === '') continue;
    const req = JSON.parse(line) as { [k: string]: Json };
    const res = (await handle(req)) as { [k: string]: Json };
    process.stdout.write(JSON.stringify({ id: req.id, ...res }) + '\n');
  }
}

main().catch((e) => {
  process.stderr.write(String(e && (e as Error).stack ? (e as Error).stack : e) + '\n');
  process.exit(1);
});
