/**
 * parseMultipart and formData over a Node Readable (ts/README's `parseMultipart(req, …)`), read with the stream's own
 * read() instead of its async iterator (issue #20): backpressure, the stream's errors, premature close, early return
 * and malformed bodies destroying the source as `for await` over the stream does, sync and async pushes, and no
 * optimized code thrown away at a major GC after warm-up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart, formData, FormwireError } from '../src/index.js';
import { bin, nodeV8Only } from './helpers.js';

const CT = 'multipart/form-data; boundary=b';
const BODY =
  '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nfirst\r\n' +
  '--b\r\nContent-Disposition: form-data; name="f"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\x02\r\n' +
  '--b\r\nContent-Disposition: form-data; name="c"\r\n\r\nthird\r\n--b--\r\n';
const WANT = ['a|null|6669727374', 'f|x.bin|000102', 'c|null|7468697264'];

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** A Readable pushing the chunks: synchronously inside read() (data at hand), or later from setImmediate (a socket). */
function readable(chunks: Uint8Array[], async: boolean): Readable {
  let i = 0;
  const next = (s: Readable) => s.push(i < chunks.length ? chunks[i++] : null);
  return new Readable({
    read() {
      if (async) setImmediate(() => next(this));
      else next(this);
    },
  });
}

async function describe(parts: AsyncIterable<import('../src/index.js').Part>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of parts) out.push(`${p.name}|${p.filename}|${Buffer.from(await p.bytes()).toString('hex')}`);
  return out;
}

test('Node Readable: every chunking, sync and async pushes, strings (object mode): the same parts and FormData', async () => {
  const bytes = bin(BODY);
  for (const async of [false, true]) {
    for (const size of [1, 2, 3, 7, 64, 4096]) {
      const what = `${async ? 'async' : 'sync'} pushes of ${size} B`;
      assert.deepEqual(await describe(parseMultipart(readable(chunked(bytes, size), async), CT)), WANT, what);
      const fd = await formData(readable(chunked(bytes, size), async), CT);
      assert.deepEqual([...fd.keys()], ['a', 'f', 'c'], what);
      assert.equal(fd.get('c'), 'third', what);
      assert.deepEqual(new Uint8Array(await (fd.get('f') as File).arrayBuffer()), new Uint8Array([0, 1, 2]), what);
      // batches and reading a part's body as a web stream
      const names: string[] = [];
      for await (const batch of parseMultipart(readable(chunked(bytes, size), async), CT).batches()) {
        for (const p of batch) names.push(`${p.name}=${(await p.text()).length}`);
      }
      assert.deepEqual(names, ['a=5', 'f=3', 'c=5'], what);
    }
  }
  // a Readable in object mode yielding strings
  assert.deepEqual(await describe(parseMultipart(Readable.from([BODY.slice(0, 50), BODY.slice(50)]), CT)), WANT, 'strings');
});

test('Node Readable backpressure: a slow consumer holds the source (sync and async pushes)', async () => {
  const CHUNK = 65536;
  const TOTAL = 256; // chunks of the file part
  const head = bin('--b\r\nContent-Disposition: form-data; name="f"; filename="big"\r\n\r\n');
  const payload = new Uint8Array(CHUNK).fill(0x61);
  for (const async of [false, true]) {
    let produced = 0; // bytes pushed
    let n = 0;
    const next = (s: Readable) => {
      const c = n === 0 ? head : n <= TOTAL ? payload : n === TOTAL + 1 ? bin('\r\n--b--\r\n') : null;
      n++;
      if (c !== null) produced += c.length;
      s.push(c);
    };
    const source = new Readable({
      read() {
        if (async) setImmediate(() => next(this));
        else next(this);
      },
    });
    let consumed = 0;
    let maxAhead = 0;
    for await (const part of parseMultipart(source, CT)) {
      for await (const chunk of part) {
        consumed += chunk.length;
        maxAhead = Math.max(maxAhead, produced - head.length - consumed);
        if ((consumed & 0x3fffff) === 0) await new Promise((r) => setTimeout(r, 2)); // slow consumer
      }
    }
    assert.equal(consumed, CHUNK * TOTAL);
    // the chunk being read, the one in the parser's queue, the stream's own buffer (its highWaterMark) and one more
    assert.ok(maxAhead <= 4 * CHUNK, `${async ? 'async' : 'sync'}: producer ran ${maxAhead} bytes ahead`);
  }
});

test("Node Readable errors: the stream's error after the parts before it; a premature close as for await reports it", async () => {
  const first = bin(BODY.slice(0, BODY.indexOf('x.bin'))); // part a whole, f begun
  const failing = (how: (s: Readable) => void) => {
    let i = 0;
    return new Readable({
      read() {
        if (i++ === 0) this.push(first);
        else setImmediate(() => how(this));
      },
    });
  };
  const boom = new Error('boom');
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const p of parseMultipart(failing((s) => s.destroy(boom)), CT)) seen.push(`${p.name}=${await p.text()}`);
    })(),
    (e: unknown) => e === boom,
  );
  assert.deepEqual(seen, ['a=first']);
  await assert.rejects(formData(failing((s) => s.destroy(boom)), CT), (e: unknown) => e === boom);

  // destroyed without an error before its end: the error Node's own async iterator gives
  let nodeErr: unknown = null;
  try {
    for await (const _ of failing((s) => s.destroy()));
  } catch (e) {
    nodeErr = e;
  }
  assert.equal((nodeErr as { code?: string }).code, 'ERR_STREAM_PREMATURE_CLOSE');
  const premature = (e: unknown) =>
    e instanceof Error && (e as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE' && e.message === (nodeErr as Error).message;
  await assert.rejects(
    (async () => {
      for await (const p of parseMultipart(failing((s) => s.destroy()), CT)) await p.text();
    })(),
    premature,
  );
  await assert.rejects(formData(failing((s) => s.destroy()), CT), premature);
  // a stream destroyed before parsing starts
  const gone = readable([bin(BODY)], false);
  gone.destroy();
  await assert.rejects(formData(gone, CT), premature);
});

test("Node Readable cleanup: early return and malformed bodies destroy the source with an AbortError; a finished one is left alone, without formwire's listeners", async () => {
  const watch = (s: Readable) => {
    const errors: unknown[] = [];
    s.on('error', (e) => errors.push(e));
    return errors;
  };
  // early return after the first part (the rest still unread)
  const s1 = readable(chunked(bin(BODY), 16), true);
  const e1 = watch(s1);
  for await (const p of parseMultipart(s1, CT)) {
    assert.equal(p.name, 'a');
    break;
  }
  await new Promise((r) => setImmediate(r));
  assert.equal(s1.destroyed, true);
  assert.equal((e1[0] as Error | undefined)?.name, 'AbortError');
  // a malformed body: the parse error reaches the iterator, the source is destroyed
  const bad = BODY.replace('--b--\r\n', '--b--junk') + 'x'.repeat(100);
  const s2 = readable(chunked(bin(bad), 8), false);
  const e2 = watch(s2);
  await assert.rejects(
    (async () => {
      for await (const p of parseMultipart(s2, CT)) await p.text();
    })(),
    (e: unknown) => e instanceof FormwireError && e.code === 'MP_DELIMITER',
  );
  await new Promise((r) => setImmediate(r));
  assert.equal(s2.destroyed, true);
  assert.equal((e2[0] as Error | undefined)?.name, 'AbortError');
  const s3 = readable(chunked(bin(bad), 8), true);
  await assert.rejects(formData(s3, CT), (e: unknown) => e instanceof FormwireError && e.code === 'MP_DELIMITER');
  assert.equal(s3.destroyed, true);
  // read to the end: nothing to stop; an iterator never started does not touch the stream
  const s4 = readable(chunked(bin(BODY), 5), false);
  const e4 = watch(s4);
  const it = parseMultipart(s4, CT);
  assert.equal((await describe(it)).length, 3);
  await it.return();
  assert.deepEqual(e4, []);
  // ... and without formwire's listeners (the 'error' one left is watch()'s)
  for (const ev of ['readable', 'end', 'close']) assert.equal(s4.listenerCount(ev), 0, ev);
  assert.equal(s4.listenerCount('error'), 1);
  const s6 = readable(chunked(bin(BODY), 7), true);
  assert.equal((await formData(s6, CT)).get('c'), 'third');
  for (const ev of ['readable', 'end', 'error', 'close']) assert.equal(s6.listenerCount(ev), 0, `formData: ${ev}`);
  const s5 = readable([bin(BODY)], false);
  await parseMultipart(s5, CT).return();
  assert.equal(s5.destroyed, false);
});

test('http: leaving the parts early (or a 413) still answers on the same connection', async () => {
  const server = createServer(async (req, res) => {
    try {
      for await (const p of parseMultipart(req, req.headers['content-type'] ?? '', { maxFileBytes: 1000 })) {
        if (p.name === 'stop') break;
        await p.bytes();
      }
      res.end('stopped');
    } catch (e) {
      res.statusCode = e instanceof FormwireError ? e.status : 500;
      res.end(e instanceof FormwireError ? e.code : String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const part = (name: string, body: string) => `--b\r\nContent-Disposition: form-data; name="${name}"; filename="x"\r\n\r\n${body}\r\n`;
    const stop = await fetch(url, { method: 'POST', body: part('a', 'x') + part('stop', 'y'.repeat(200000)) + '--b--\r\n', headers: { 'content-type': CT } });
    assert.equal(stop.status, 200);
    assert.equal(await stop.text(), 'stopped');
    const big = await fetch(url, { method: 'POST', body: part('a', 'z'.repeat(5000)) + '--b--\r\n', headers: { 'content-type': CT } });
    assert.equal(big.status, 413);
    assert.equal(await big.text(), 'MP_LIMIT_FILE_BYTES');
  } finally {
    server.closeAllConnections?.();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

const index = new URL('../src/index.js', import.meta.url).href;

// parseMultipart over a fresh Node Readable per parse (as a server gets a new request), a full GC before each. It
// prints the names of formwire's functions on this path (the methods of the driver, parts, iterators, source and
// parser classes, found from a parse's objects).
const child = `
import * as fw from ${JSON.stringify(index)};
import { Readable } from 'node:stream';
const enc = new TextEncoder();
let s = '';
for (let i = 0; i < 20; i++) s += '--XyZ\\r\\nContent-Disposition: form-data; name="field' + i + '"\\r\\n\\r\\nvalue ' + i + '\\r\\n';
s += '--XyZ\\r\\nContent-Disposition: form-data; name="f"; filename="a.bin"\\r\\n\\r\\n' + 'x'.repeat(200000) + '\\r\\n--XyZ--\\r\\n';
const body = enc.encode(s);
const chunks = [];
for (let i = 0; i < body.length; i += 4096) chunks.push(body.subarray(i, i + 4096));
const names = new Set(['onReadable', 'onEnd', 'onError', 'onClose', 'onChunk', 'onSourceError']);
function collect(o) {
  for (let p = Object.getPrototypeOf(o); p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const k of Object.getOwnPropertyNames(p)) if (k !== 'constructor' && typeof Object.getOwnPropertyDescriptor(p, k).value === 'function') names.add(k);
  }
}
async function run(look) {
  let i = 0;
  const src = new Readable({ read() { this.push(i < chunks.length ? chunks[i++] : null); } });
  let n = 0;
  const parts = fw.parseMultipart(src, 'multipart/form-data; boundary=XyZ');
  for await (const part of parts) {
    if (look) [parts, parts.driver, parts.driver.parser, parts.driver.src, part, part[Symbol.asyncIterator]()].forEach(collect);
    if (part.filename === null) n += (await part.text()).length;
    else for await (const c of part) n += c.length;
  }
  return n;
}
await run(true);
for (let i = 0; i < 300; i++) await run(false);
gc(); gc();
for (let i = 0; i < 50; i++) await run(false);
console.log('--- names ' + JSON.stringify([...names]));
console.log('--- warm');
for (let i = 0; i < 30; i++) { gc(); await run(false); }
console.log('--- done');
`;

test('no deoptimization of formwire code across forced major GCs after warm-up: parseMultipart over a Node Readable (issue #20)', nodeV8Only, () => {
  const r = spawnSync(process.execPath, ['--expose-gc', '--trace-deopt', '--input-type=module', '-e', child], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout;
  const warm = out.indexOf('--- warm');
  assert.ok(warm >= 0 && out.includes('--- done'), 'child ran to the end');
  const names = new Set(JSON.parse(/--- names (.*)/.exec(out)![1]!) as string[]);
  assert.ok(names.has('pull') && names.has('poll') && names.has('write'), [...names].join(' '));
  // Node's own stream and tick functions are left out: they are sometimes re-optimized around a single run's objects
  // and thrown away once at a later GC, whoever reads the stream. So are the two of ours that read the caller's
  // stream object (NodeSource.poll, and pull, which inlines it): their code holds the stream's own shapes, which die
  // with the last stream at a major GC; keeping a caller's stream alive to keep them would keep its request (headers,
  // whatever middleware hung on it) after the parse, so formwire does not.
  const readsTheStream = new Set(['poll', 'pull']);
  const ours = out
    .slice(warm)
    .split('\n')
    .filter((l) => {
      const m = /marking dependent code .*<SharedFunctionInfo ([^>]*)>|bailout \(kind.*?<JSFunction (\S+)/.exec(l);
      const name = m === null ? null : (m[1] ?? m[2])!;
      return name !== null && names.has(name) && !readsTheStream.has(name);
    });
  assert.deepEqual(ours, [], 'deoptimizations of formwire code after warm-up:\n' + ours.join('\n'));
});
