/**
 * The streamed body (`stream()`, `for await`) reads Blobs a slice at a time, so it never holds a whole Blob: Node's
 * own `Blob.stream()` hands over an in-memory Blob as a single chunk of its full size. (Memory itself is measured by
 * ts/bench/memory.mjs, not here.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { encodeFormData, STREAM_CHUNK_BYTES } from '../src/encode.js';

function pattern(n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 2654435761) >>> 24;
  return b;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function form(size: number): FormData {
  const fd = new FormData();
  fd.append('a', 'x');
  fd.append('file', new File([pattern(size)], 'f.bin', { type: 'application/octet-stream' }));
  fd.append('z', 'y');
  return fd;
}

for (const size of [1, STREAM_CHUNK_BYTES - 1, STREAM_CHUNK_BYTES, STREAM_CHUNK_BYTES + 1, 5 * STREAM_CHUNK_BYTES + 12345]) {
  test(`streamed Blob of ${size} B: no chunk above STREAM_CHUNK_BYTES, same bytes as bytes()`, async () => {
    const fd = form(size);
    const whole = await encodeFormData(fd, { boundary: 'B' }).bytes();
    for (const how of ['iterator', 'stream'] as const) {
      const enc = encodeFormData(fd, { boundary: 'B' });
      const chunks: Uint8Array[] = [];
      if (how === 'iterator') for await (const c of enc) chunks.push(c);
      else for await (const c of enc.stream() as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
      const body = new Uint8Array(Buffer.concat(chunks));
      assert.equal(body.length, enc.contentLength, how);
      assert.equal(sha(body), sha(whole), how);
      const biggest = Math.max(...chunks.map((c) => c.length));
      assert.ok(biggest <= STREAM_CHUNK_BYTES, `${how}: a chunk of ${biggest} B`);
      if (size > STREAM_CHUNK_BYTES) assert.ok(chunks.length >= Math.ceil(size / STREAM_CHUNK_BYTES) + 1, how);
    }
  });
}

test('a blob-like without slice() is streamed as its own stream gives it', async () => {
  const data = pattern(3 * STREAM_CHUNK_BYTES);
  const like = {
    size: data.length,
    type: 'application/octet-stream',
    name: 'l.bin',
    stream: () => new Blob([data]).stream(),
    arrayBuffer: () => new Blob([data]).arrayBuffer(),
  };
  const enc = encodeFormData([['f', like]], { boundary: 'B' });
  const chunks: Uint8Array[] = [];
  for await (const c of enc) chunks.push(c);
  assert.equal(sha(new Uint8Array(Buffer.concat(chunks))), sha(await enc.bytes()));
});

test('a Blob that shrinks while being streamed is an error, not a short body', async () => {
  const data = pattern(2 * STREAM_CHUNK_BYTES);
  const real = new Blob([data]);
  const shrinking = {
    size: data.length + STREAM_CHUNK_BYTES, // claims more than slice() will ever give
    type: 'application/octet-stream',
    name: 's.bin',
    slice: (a: number, b: number) => real.slice(a, b),
    stream: () => real.stream(),
    arrayBuffer: () => real.arrayBuffer(),
  };
  const enc = encodeFormData([['f', shrinking]], { boundary: 'B' });
  await assert.rejects(
    (async () => {
      for await (const c of enc) void c;
    })(),
    /changed size/,
  );
});

test('abandoning the streamed body part-way stops reading the Blob', async () => {
  const enc = encodeFormData(form(8 * STREAM_CHUNK_BYTES), { boundary: 'B' });
  let seen = 0;
  for await (const c of enc) {
    seen += c.length;
    if (seen > 2 * STREAM_CHUNK_BYTES) break;
  }
  assert.ok(seen < 4 * STREAM_CHUNK_BYTES);
  const r = enc.stream().getReader();
  const first = await r.read();
  assert.equal(first.done, false);
  await r.cancel();
});
