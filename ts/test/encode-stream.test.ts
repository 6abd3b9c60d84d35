/**
 * The streamed body (`stream()`, `for await`) reads Blobs a slice at a time, so it never holds a whole Blob: Node's
 * own `Blob.stream()` hands over an in-memory Blob as a single chunk of its full size. (Memory itself is measured by
 * bench/node/memory.mjs, not here.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { encodeFormData, STREAM_CHUNK_BYTES, type BlobLike } from '../src/encode.js';

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

/**
 * A blob-like over `data` that claims `size` bytes, with `slice()` or without; its streams give 64 KiB pieces on
 * demand (highWaterMark 0, so a stream is still open when its reader is cancelled) and record a cancel in `state`.
 */
function blobLike(data: Uint8Array<ArrayBuffer>, size: number, withSlice: boolean) {
  const state = { cancelled: false };
  const streamOf = (bytes: Uint8Array) => {
    let o = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull(c) {
          if (o >= bytes.length) return c.close();
          c.enqueue(bytes.slice(o, o + 65536));
          o += 65536;
        },
        cancel() {
          state.cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
  };
  const make = (bytes: Uint8Array, claimed: number): BlobLike => ({
    size: claimed,
    type: 'application/octet-stream',
    name: 'l.bin',
    stream: () => streamOf(bytes),
    arrayBuffer: async () => bytes.slice().buffer,
    ...(withSlice ? { slice: (a: number, b: number) => make(bytes.subarray(a, b), Math.max(0, Math.min(b, bytes.length) - a)) } : {}),
  });
  return { like: make(data, size), state };
}

async function drainAll(it: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of it) n += c.length;
  return n;
}

for (const [label, real, claimed] of [
  ['small, shorter than its size', 1000, 1500],
  ['small, longer than its size', 1500, 1000],
  ['sliced, shorter than its size', 2 * STREAM_CHUNK_BYTES, 3 * STREAM_CHUNK_BYTES],
  ['sliced, longer than its size', 3 * STREAM_CHUNK_BYTES, 2 * STREAM_CHUNK_BYTES + 5],
] as const) {
  for (const withSlice of [true, false]) {
    test(`MP-S-08: a Blob ${label} (${withSlice ? 'with' : 'without'} slice()) is an error, never a body of another length`, async () => {
      const { like } = blobLike(pattern(real), claimed, withSlice);
      const enc = encodeFormData([['f', like]], { boundary: 'B' });
      await assert.rejects(enc.bytes(), /changed size/);
      if (withSlice && real > claimed && claimed > STREAM_CHUNK_BYTES) {
        // sliced reading asks for exactly `size` bytes, so the surplus is never read: the announced length exactly
        assert.equal(await drainAll(enc), enc.contentLength);
      } else await assert.rejects(drainAll(enc), /changed size/);
    });
  }
}

for (const withSlice of [true, false]) {
  test(`abandoning the streamed body part-way cancels the Blob's stream (${withSlice ? 'sliced' : 'one stream'})`, async () => {
    const size = 8 * STREAM_CHUNK_BYTES;
    const { like, state } = blobLike(pattern(size), size, withSlice);
    const enc = encodeFormData([['f', like]], { boundary: 'B' });
    let seen = 0;
    for await (const c of enc) {
      seen += c.length;
      if (seen > 2 * STREAM_CHUNK_BYTES) break;
    }
    assert.equal(state.cancelled, true, 'the stream being read was cancelled');
    assert.ok(seen < size, 'stopped before the end');
  });
}
