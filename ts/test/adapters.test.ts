/** High-level API over every body type; part skipping; backpressure; formData() against Response.formData(). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseMultipart, formData, encodeFormData, FormwireError } from '../src/index.js';
import { bin } from './helpers.js';
import { nodeBuiltin } from '../src/adapters/node.js';

const CT = 'multipart/form-data; boundary=b';
const BODY =
  '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nfirst\r\n' +
  '--b\r\nContent-Disposition: form-data; name="f"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\x02\r\n' +
  '--b\r\nContent-Disposition: form-data; name="c"\r\n\r\nthird\r\n--b--\r\n';

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function describe(parts: AsyncIterable<import('../src/index.js').Part>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of parts) out.push(`${p.name}|${p.filename}|${p.type}|${Buffer.from(await p.bytes()).toString('hex')}`);
  return out;
}

const WANT = ['a|null|null|6669727374', 'f|x.bin|application/octet-stream|000102', 'c|null|null|7468697264'];

test('every body type gives the same parts', async () => {
  const bytes = bin(BODY);
  const sources: Array<[string, () => unknown]> = [
    ['Uint8Array', () => bytes],
    ['ArrayBuffer', () => bytes.slice().buffer],
    ['web ReadableStream', () => new Blob([bytes]).stream()],
    ['Node Readable, 3-byte chunks', () => Readable.from(chunked(bytes, 3))],
    ['async generator, 1-byte chunks', () => (async function* () { yield* chunked(bytes, 1); })()],
    ['array of chunks', () => chunked(bytes, 7)],
    ['Blob', () => new Blob([bytes])],
  ];
  for (const [what, make] of sources) {
    assert.deepEqual(await describe(parseMultipart(make() as Uint8Array, CT)), WANT, what);
  }
  // Request / Response: the Content-Type comes from the headers
  const req = new Request('http://localhost/', { method: 'POST', body: bytes, headers: { 'content-type': CT } });
  assert.deepEqual(await describe(parseMultipart(req)), WANT, 'Request');
  assert.deepEqual(await describe(parseMultipart(new Response(bytes, { headers: { 'content-type': CT } }))), WANT, 'Response');
});

test('reading styles: for await, body stream, text(), arrayBuffer()', async () => {
  const it = parseMultipart(Readable.from(chunked(bin(BODY), 4)), CT);
  const p1 = (await it.next()).value!;
  let s = '';
  for await (const c of p1) s += Buffer.from(c).toString();
  assert.equal(s, 'first');
  const p2 = (await it.next()).value!;
  assert.deepEqual(new Uint8Array(await new Response(p2.body).arrayBuffer()), new Uint8Array([0, 1, 2]));
  const p3 = (await it.next()).value!;
  assert.equal(await p3.text(), 'third');
  assert.equal((await it.next()).done, true);
});

test('unread parts are skipped; reading a skipped part fails loudly', async () => {
  const parts = [];
  for await (const p of parseMultipart(bin(BODY), CT)) parts.push(p);
  assert.deepEqual(parts.map((p) => p.name), ['a', 'f', 'c']);
  await assert.rejects(parts[0]!.text(), /moving to the next part/);
});

test('errors reach the iterator with code and offset, after the parts before them', async () => {
  const bad = BODY.replace('--b--\r\n', '--b--junk');
  const seen: string[] = [];
  await assert.rejects(
    (async () => {
      for await (const p of parseMultipart(Readable.from(chunked(bin(bad), 5)), CT)) seen.push(`${p.name}=${await p.text()}`);
    })(),
    (e: unknown) => e instanceof FormwireError && e.code === 'MP_DELIMITER' && e.offset === bad.indexOf('junk'),
  );
  assert.deepEqual(seen, ['a=first', 'f=\x00\x01\x02', 'c=third']);
  await assert.rejects(formData(bin(bad), CT), (e: unknown) => e instanceof FormwireError && e.code === 'MP_DELIMITER');
  await assert.rejects(formData(bin(BODY), CT, { maxParts: 2 }), (e: unknown) => e instanceof FormwireError && e.code === 'MP_LIMIT_PARTS');
  assert.throws(() => parseMultipart(bin(BODY), 'text/plain'), (e: unknown) => e instanceof FormwireError && e.code === 'MP_CONTENT_TYPE');
});

test('formData(): 1,000 text fields of 1 MiB stop at max_total_field_bytes (10 MiB), the rest never read', async () => {
  // MP-L-04, issue #13 item 6: formData() holds every field; without the total it would hold 1,000 MiB.
  const MiB = 1 << 20;
  const piece = new Uint8Array(65536).fill(0x76);
  const head = (i: number) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n`;
  let sent = 0;
  async function* body(n: number): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < n; i++) {
      yield bin(head(i));
      for (let k = 0; k < MiB; k += piece.length) {
        sent += piece.length;
        yield piece;
      }
      yield bin('\r\n');
    }
    yield bin('--b--\r\n');
  }
  let at = 0;
  for (let i = 0; i < 10; i++) at += head(i).length + MiB + 2;
  at += head(10).length;
  global.gc?.();
  const before = process.memoryUsage().rss;
  await assert.rejects(
    formData(Readable.from(body(1000)), CT),
    (e: unknown) => e instanceof FormwireError && e.code === 'MP_LIMIT_TOTAL_FIELD_BYTES' && e.offset === at && e.httpStatus === 413,
  );
  // Readable.from reads up to 16 chunks ahead of the parser
  assert.ok(sent <= 10 * MiB + 16 * piece.length, `${sent} bytes of fields read`);
  // the ten 1 MiB strings (UTF-16 or Latin-1 in V8) and their byte copies at most: far from 1,000 MiB
  assert.ok(process.memoryUsage().rss - before < 200 * MiB, `rss grew ${process.memoryUsage().rss - before}`);
  sent = 0;
  const fd = await formData(Readable.from(body(10)), CT);
  assert.equal([...fd.keys()].length, 10);
  const off = await formData(Readable.from(body(11)), CT, { maxTotalFieldBytes: Infinity });
  assert.equal([...off.keys()].length, 11);
});

test('formData() equals Response.formData() on valid bodies', async () => {
  const form = new FormData();
  form.append('x', 'ü\r\n');
  form.append('x', '2');
  form.append('f', new File([new Uint8Array(100000).fill(7)], 'big.bin', { type: 'application/x-y' }));
  form.append('g', new File(['t'], 'g.txt'));
  const enc = encodeFormData(form);
  const bytes = await enc.bytes();
  const ours = await formData(Readable.from(chunked(bytes, 999)), enc.contentType);
  const node = await new Response(bytes, { headers: { 'content-type': enc.contentType } }).formData();
  const flat = async (fd: FormData) => {
    const out: unknown[] = [];
    for (const [k, v] of fd) out.push(typeof v === 'string' ? [k, v] : [k, v.name, v.type, v.size, Buffer.from(await v.arrayBuffer()).toString('base64')]);
    return out;
  };
  assert.deepEqual(await flat(ours), await flat(node));
  const f = ours.get('g') as File;
  assert.equal(f.type, 'application/octet-stream'); // MP-S-06 on the way out, MP-F-03 on the way in
  assert.equal(f.lastModified, 0); // MP-F-02
});

test('backpressure: a slow consumer keeps the source (and memory) bounded', async () => {
  // A 64 MiB file part produced lazily in 64 KiB chunks; count how far the producer runs ahead of the consumer.
  const CHUNK = 65536;
  const TOTAL = 1024; // chunks
  let produced = 0;
  const head = bin('--b\r\nContent-Disposition: form-data; name="f"; filename="big"\r\n\r\n');
  const payload = new Uint8Array(CHUNK).fill(0x61);
  const source = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (produced === 0) c.enqueue(head);
        if (produced < TOTAL) c.enqueue(payload);
        else {
          c.enqueue(bin('\r\n--b--\r\n'));
          c.close();
        }
        produced++;
      },
    },
    { highWaterMark: 0 },
  );
  let consumed = 0;
  let maxAhead = 0;
  const rss0 = process.memoryUsage().rss;
  for await (const part of parseMultipart(source, CT)) {
    for await (const chunk of part) {
      consumed += chunk.length;
      maxAhead = Math.max(maxAhead, produced * CHUNK - consumed);
      if ((consumed & 0x3fffff) === 0) await new Promise((r) => setTimeout(r, 1)); // slow consumer
    }
  }
  assert.equal(consumed, CHUNK * TOTAL);
  assert.ok(maxAhead <= 4 * CHUNK, `producer ran ${maxAhead} bytes ahead`);
  assert.ok(process.memoryUsage().rss - rss0 < 48 * 1024 * 1024, 'memory stays bounded');
});

test('parseMultipart body stream cancels nothing it should not; early return cancels the source', async () => {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bin(BODY.slice(0, 60)));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const p of parseMultipart(source, CT)) {
    assert.equal(p.name, 'a');
    break;
  }
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(cancelled, true);
});

test('MP-F-05: formData() skips a nameless part (allowMissingDisposition), parseMultipart delivers it, limits count it', async () => {
  const nameless = '--b\r\nContent-Type: text/plain\r\n\r\nhidden\r\n';
  const body = nameless + '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b\r\nContent-Disposition:\r\n\r\n\r\n--b--\r\n';
  const opts = { allowMissingDisposition: true };
  for (const size of [1, 3, 4096]) {
    const fd = await formData(Readable.from(chunked(bin(body), size)), CT, opts);
    assert.deepEqual([...fd.entries()], [['a', '1']], `chunks of ${size}`);
  }
  // spilling: the nameless body is never spooled (it is a field), and it is no entry
  const fd = await formData(Readable.from(chunked(bin(body), 2)), CT, { ...opts, spill: { threshold: 1 } });
  assert.deepEqual([...fd.entries()], [['a', '1']]);
  const seen: Array<[string | null, string | null, string | null, string]> = [];
  for await (const p of parseMultipart(bin(body), CT, opts)) seen.push([p.name, p.info.nameBytes === null ? null : 'bytes', p.contentType, await p.text()]);
  assert.deepEqual(seen, [[null, null, 'text/plain', 'hidden'], ['a', 'bytes', null, '1'], [null, null, null, '']]);
  // it still counts: as a field (max_fields) and by its bytes (max_total_field_bytes)
  await assert.rejects(formData(bin(body), CT, { ...opts, maxFields: 2 }), (e: unknown) => e instanceof FormwireError && e.code === 'MP_LIMIT_FIELDS');
  await assert.rejects(formData(bin(body), CT, { ...opts, maxTotalFieldBytes: 6 }), (e: unknown) => e instanceof FormwireError && e.code === 'MP_LIMIT_TOTAL_FIELD_BYTES' && e.offset === body.indexOf('1\r\n'));
  // strict by default
  await assert.rejects(formData(bin(body), CT), (e: unknown) => e instanceof FormwireError && e.code === 'MP_NO_DISPOSITION');
});

test('formData spill: large file parts go to temp files, small ones stay in memory; failures clean up', async () => {
  const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'fw-spill-'));
  try {
    const big = new Uint8Array(300000).map((_, i) => (i * 13) & 255);
    const form = new FormData();
    form.append('a', 'text');
    form.append('big', new File([big], 'big.bin', { type: 'application/x-big' }));
    form.append('small', new File(['tiny'], 's.txt', { type: 'text/plain' }));
    form.append('z', 'last');
    const enc = encodeFormData(form);
    const bytes = await enc.bytes();
    const fd = await formData(Readable.from(chunked(bytes, 4096)), enc.contentType, { spill: { threshold: 1000, dir } });
    assert.deepEqual([...fd.keys()], ['a', 'big', 'small', 'z']);
    assert.equal(readdirSync(dir).length, 1, 'one temp file for the big part');
    const f = fd.get('big') as File;
    assert.equal(f.name, 'big.bin');
    assert.equal(f.type, 'application/x-big');
    assert.equal(f.size, big.length);
    assert.deepEqual(new Uint8Array(await f.arrayBuffer()), big);
    assert.equal(await (fd.get('small') as File).text(), 'tiny');
    assert.equal(fd.get('z'), 'last');
    // a failing body removes what it spilled
    const bad = bytes.subarray(0, bytes.length - 3);
    const dir2 = mkdtempSync(join(tmpdir(), 'fw-spill-'));
    await assert.rejects(formData(Readable.from(chunked(bad, 4096)), enc.contentType, { spill: { threshold: 1000, dir: dir2 } }), (e: unknown) => e instanceof FormwireError && e.code === 'MP_TRUNCATED');
    assert.equal(readdirSync(dir2).length, 0);
    rmSync(dir2, { recursive: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('formData spill: maxDiskBytes (MP-L-06) fails with MP_LIMIT_DISK_BYTES at the byte over, and removes the files', async () => {
  const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'fw-spill-'));
  try {
    const form = new FormData();
    form.append('a', new File([new Uint8Array(3000).fill(1)], 'a.bin'));
    form.append('b', new File([new Uint8Array(3000).fill(2)], 'b.bin')); // bytes no header or boundary has
    form.append('c', new File(['small'], 'c.txt')); // stays in memory: counts nothing
    const enc = encodeFormData(form);
    const bytes = await enc.bytes();
    const run = (maxDiskBytes: number | null | undefined) =>
      formData(Readable.from(chunked(bytes, 1024)), enc.contentType, { spill: { threshold: 1000, dir, maxDiskBytes } });
    // the second file (moved to disk from its first byte) holds the total's byte 4001: its byte 1000
    const at = bytes.indexOf(2) + 1000;
    await assert.rejects(run(4000), (e: unknown) => e instanceof FormwireError && e.code === 'MP_LIMIT_DISK_BYTES' && e.offset === at && e.httpStatus === 413);
    assert.equal(readdirSync(dir).length, 0);
    for (const ok of [6000, null, undefined]) {
      const fd = await run(ok);
      assert.equal((fd.get('b') as File).size, 3000);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('formData() also reads urlencoded bodies, like Response.formData()', async () => {
  const req = new Request('http://localhost/', { method: 'POST', body: 'a=1&b=%C3%A9+x&a=2', headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' } });
  const fd = await formData(req);
  assert.deepEqual([...fd], [['a', '1'], ['b', 'é x'], ['a', '2']]);
  await assert.rejects(formData(bin('a&b&c'), 'application/x-www-form-urlencoded', { maxPairs: 2 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_PAIRS' && e.offset === 4);
});

test('nodeBuiltin: a Node module through process.getBuiltinModule, and by dynamic import where there is none', async () => {
  const proc = process as { getBuiltinModule?: unknown };
  const own = Object.getOwnPropertyDescriptor(proc, 'getBuiltinModule');
  const path = await nodeBuiltin<typeof import('node:path')>('node:path');
  assert.equal(path.join('a', 'b'), 'a/b');
  let calls = 0;
  Object.defineProperty(proc, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
  try {
    const os = await nodeBuiltin<typeof import('node:os')>('node:os');
    assert.equal(typeof os.tmpdir(), 'string');
    proc.getBuiltinModule = (n: string) => { calls++; return { name: n }; };
    assert.deepEqual(await nodeBuiltin('node:fs'), { name: 'node:fs' });
    assert.equal(calls, 1);
  } finally {
    if (own) Object.defineProperty(proc, 'getBuiltinModule', own);
    else delete proc.getBuiltinModule;
  }
});
