/** MP-S rules: byte-exact serializer output, Content-Length up front, round trips, Node's own parser accepts it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFormData, formData, parseMultipart, FormwireError } from '../src/index.js';
import { STREAM_CHUNK_BYTES } from '../src/encode.js';
import { latin1 } from './helpers.js';

async function collect(it: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of it) parts.push(c);
  return new Uint8Array(Buffer.concat(parts));
}

test('MP-S-01..06: exact layout with the WHATWG escapes', async () => {
  const form = new FormData();
  form.append('a\nb', 'x\ry\nz\r\n');
  form.append('q"%\\é', 'v');
  form.append('f', new File(['hi'], 'b\nc"d.txt', { type: 'text/plain' }));
  form.append('g', new Blob([new Uint8Array([0, 1])]));
  form.append('h', new File([], ''));
  const enc = encodeFormData(form, { boundary: 'BOUNDARY' });
  const want =
    '--BOUNDARY\r\nContent-Disposition: form-data; name="a%0D%0Ab"\r\n\r\nx\r\ny\r\nz\r\n\r\n' +
    '--BOUNDARY\r\nContent-Disposition: form-data; name="q%22%\\\xc3\xa9"\r\n\r\nv\r\n' +
    '--BOUNDARY\r\nContent-Disposition: form-data; name="f"; filename="b%0Ac%22d.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n' +
    '--BOUNDARY\r\nContent-Disposition: form-data; name="g"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\r\n' +
    '--BOUNDARY\r\nContent-Disposition: form-data; name="h"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n' +
    '--BOUNDARY--\r\n';
  const bytes = await enc.bytes();
  assert.equal(latin1(bytes), want);
  assert.equal(enc.contentLength, bytes.length);
  assert.equal(latin1(await collect(enc)), want);
  assert.equal(latin1(new Uint8Array(await new Response(enc.stream()).arrayBuffer())), want);
  assert.equal(enc.contentType, 'multipart/form-data; boundary=BOUNDARY');
});

test('MP-S-02: a\\n\\rb → a%0D%0A%0D%0Ab; MP-S-03 filenames are not normalized', async () => {
  const enc = encodeFormData([['a\n\rb', new File(['x'], 'b\n\rc')]], { boundary: 'X' });
  const s = latin1(await enc.bytes());
  assert.ok(s.includes('name="a%0D%0A%0D%0Ab"; filename="b%0A%0Dc"'), s);
});

test('MP-S-07: lone surrogates become U+FFFD', async () => {
  const enc = encodeFormData([['\ud800', 'x\udc00']], { boundary: 'X' });
  const s = Buffer.from(await enc.bytes()).toString('utf8');
  assert.ok(s.includes('name="\ufffd"') && s.includes('x\ufffd'), s);
});

test('MP-S-01: an empty form is just the close delimiter', async () => {
  const enc = encodeFormData([], { boundary: 'X' });
  assert.equal(latin1(await enc.bytes()), '--X--\r\n');
  assert.equal(enc.contentLength, 7);
});

test('MP-S-06: a type with CR, LF or NUL is refused at its entry index', () => {
  const bad = { size: 0, type: 'text/plain\r\nX-Injected: 1', stream: () => new Blob([]).stream(), arrayBuffer: async () => new ArrayBuffer(0) };
  assert.throws(
    () => encodeFormData([['a', 'x'], ['b', bad]]),
    (e: unknown) => e instanceof FormwireError && e.code === 'MP_ENCODE_HEADER' && e.offset === 1,
  );
});

test('MP-S-09: caller boundaries are checked; generated ones are fresh CSPRNG tokens', () => {
  for (const b of ['', 'a '.repeat(1), 'x'.repeat(71), 'a"b', 'a\r\nb', 'é']) {
    assert.throws(() => encodeFormData([], { boundary: b }), (e: unknown) => e instanceof FormwireError && e.code === 'MP_ENCODE_BOUNDARY', JSON.stringify(b));
  }
  assert.equal(encodeFormData([], { boundary: 'a b' }).contentType, 'multipart/form-data; boundary="a b"');
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const b = encodeFormData([]).boundary;
    assert.match(b, /^[0-9A-Za-z-]{27,70}$/); // MP-S-09, as WPT checks it
    seen.add(b);
  }
  assert.equal(seen.size, 200);
});

test('MP-S-08: Content-Length is known before reading and equals the bytes (large blob streamed)', async () => {
  const big = new Uint8Array(3 * 1024 * 1024 + 17);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 255;
  const enc = encodeFormData([['t', 'é'], ['f', new File([big], 'big.bin')], ['u', 'end']]);
  const len = enc.contentLength;
  let chunks = 0;
  let total = 0;
  for await (const c of enc) {
    chunks++;
    total += c.length;
  }
  assert.equal(total, len);
  // The Blob is read as slices of STREAM_CHUNK_BYTES (Node's Blob.stream() would give it whole, in one chunk).
  const blobChunks = Math.ceil(big.length / STREAM_CHUNK_BYTES);
  assert.equal(chunks, blobChunks + 2, 'text segments plus the blob chunks: nothing concatenated');
});

test('round trip: encode → parseMultipart / formData gives back the entries', async () => {
  const form = new FormData();
  form.append('name', 'value with\r\nnewline and é');
  form.append('dup', '1');
  form.append('dup', '2');
  const bytes = new Uint8Array(70000).map((_, i) => (i * 7) & 255);
  form.append('file', new File([bytes], 'd\u00e9j\u00e0.bin', { type: 'application/x-test' }));
  const enc = encodeFormData(form);
  const got: Array<[string | null, string | null, string | null, number]> = [];
  for await (const part of parseMultipart(enc.stream(), enc.contentType)) {
    const b = await part.bytes();
    got.push([part.name, part.filename, part.type, b.length]);
    if (part.name === 'file') assert.deepEqual(b, bytes);
  }
  assert.deepEqual(got, [
    ['name', null, null, 'value with\r\nnewline and é'.length + 1],
    ['dup', null, null, 1],
    ['dup', null, null, 1],
    ['file', 'déjà.bin', 'application/x-test', 70000],
  ]);
  const fd = await formData(await enc.bytes(), enc.contentType);
  assert.deepEqual([...fd.keys()], ['name', 'dup', 'dup', 'file']);
  assert.equal(fd.get('name'), 'value with\r\nnewline and é');
  const f = fd.get('file') as File;
  assert.equal(f.name, 'déjà.bin');
  assert.equal(f.type, 'application/x-test');
  assert.deepEqual(new Uint8Array(await f.arrayBuffer()), bytes);
});

test("encoder output is accepted by Node's own Response.formData()", async () => {
  const form = new FormData();
  form.append('a', 'x');
  form.append('b', new File(['content'], 'c.txt', { type: 'text/plain' }));
  const enc = encodeFormData(form);
  const fd = await new Response(enc.stream(), { headers: { 'content-type': enc.contentType } }).formData();
  assert.equal(fd.get('a'), 'x');
  assert.equal(await (fd.get('b') as File).text(), 'content');
  // and as a fetch-style body with duplex: 'half'
  const req = new Request('http://localhost/', { method: 'POST', body: enc.stream(), headers: enc.headers, duplex: 'half' } as RequestInit);
  const fd2 = await req.formData();
  assert.equal((fd2.get('b') as File).name, 'c.txt');
});

test('encoder output matches Response(FormData) byte for byte (modulo boundary)', async () => {
  const form = new FormData();
  form.append('x', 'a\nb');
  form.append('y', new File(['z'], 'n.txt', { type: 'text/plain' }));
  const r = new Response(form);
  const ct = r.headers.get('content-type')!;
  const boundary = ct.split('boundary=')[1]!;
  const node = latin1(new Uint8Array(await r.arrayBuffer()));
  const ours = latin1(await encodeFormData(form, { boundary }).bytes());
  assert.equal(ours, node);
});

test('MP-S-07: lone surrogates at the edges of adjacent names, values and filenames stay U+FFFD each', async () => {
  const form: [string, string | File | { body: Uint8Array; filename: string }][] = [
    ['a\ud83d', '\ude00b\ud83d'],
    ['\ude00c', new File(['x'], '\ud83d')],
    ['\ude00', { body: new Uint8Array([0x79]), filename: 'f\ud83d' }],
    ['\ude00d', 'e'],
  ];
  const enc = encodeFormData(form, { boundary: 'B' });
  const bytes = await enc.bytes();
  assert.equal(bytes.length, enc.contentLength);
  const want =
    '--B\r\nContent-Disposition: form-data; name="a\ufffd"\r\n\r\n\ufffdb\ufffd\r\n' +
    '--B\r\nContent-Disposition: form-data; name="\ufffdc"; filename="\ufffd"\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n' +
    '--B\r\nContent-Disposition: form-data; name="\ufffd"; filename="f\ufffd"\r\nContent-Type: application/octet-stream\r\n\r\ny\r\n' +
    '--B\r\nContent-Disposition: form-data; name="\ufffdd"\r\n\r\ne\r\n--B--\r\n';
  assert.equal(Buffer.from(bytes).toString('utf8'), want);
  assert.deepEqual(await collect(enc), bytes);
});

/** A blob-like over `bytes` that says it has `size` bytes; its stream is a byte stream or a default one in 3-byte chunks. */
function blobLike(bytes: Uint8Array<ArrayBuffer>, size: number, byteStream: boolean) {
  return {
    size,
    type: 'application/x-test',
    name: 'b.bin',
    stream: () =>
      byteStream
        ? new Blob([bytes]).stream()
        : new ReadableStream<Uint8Array>({
            start(c) {
              for (let i = 0; i < bytes.length; i += 3) c.enqueue(bytes.slice(i, i + 3));
              c.close();
            },
          }),
    arrayBuffer: async () => bytes.slice().buffer,
  };
}

test('bytes(): bodies from byte streams and from other streams in small chunks give the streamed bytes', async () => {
  const big = new Uint8Array(70000).map((_, i) => (i * 7) & 0xff);
  const small = new Uint8Array([1, 2, 3, 4, 5, 6, 7]);
  for (const byteStream of [true, false]) {
    const form: [string, unknown][] = [
      ['a', 'x'],
      ['f1', byteStream ? new File([big], 'big.bin') : blobLike(big, big.length, false)],
      ['b', 'y'],
      ['f2', blobLike(small, small.length, byteStream)],
      ['c', 'z'],
    ];
    const enc = encodeFormData(form as never, { boundary: 'B' });
    const bytes = await enc.bytes();
    assert.equal(bytes.length, enc.contentLength);
    assert.equal(bytes.buffer.byteLength, enc.contentLength);
    assert.deepEqual(bytes, await collect(enc));
    const s = latin1(bytes);
    assert.ok(s.endsWith('\r\n--B--\r\n') && s.includes(latin1(big)) && s.includes('\x01\x02\x03\x04\x05\x06\x07\r\n--B\r\n'));
  }
});

test('bytes(): a body longer or shorter than its size is an error, from a byte stream or another stream', async () => {
  const body = new Uint8Array(50).fill(0x61);
  for (const byteStream of [true, false]) {
    for (const size of [49, 51, 10]) {
      const enc = encodeFormData([['f', blobLike(body, size, byteStream)]] as never, { boundary: 'B' });
      await assert.rejects(enc.bytes(), /changed size/, `size ${size}, byte stream ${byteStream}`);
    }
    assert.equal((await encodeFormData([['f', blobLike(body, 50, byteStream)]] as never, { boundary: 'B' }).bytes()).length > 50, true);
  }
});

test('bytes(): a Blob is read once through stream(), never arrayBuffer()/bytes() (Node 20 copies those twice)', async () => {
  // Node's File.stream() hands over the blob store's bytes in one copy; arrayBuffer() and bytes() concatenate the
  // chunks into a second ArrayBuffer. bench/run's W5 floor-body assumes the one-copy read, so the encoder must use it.
  const payload = new Uint8Array(300000).map((_, i) => (i * 31) & 0xff);
  let streams = 0;
  class OneCopyFile extends File {
    override stream(): ReturnType<File['stream']> {
      streams++;
      return super.stream();
    }
    override arrayBuffer(): Promise<ArrayBuffer> {
      throw new Error('arrayBuffer() read');
    }
    override bytes(): never {
      throw new Error('bytes() read');
    }
  }
  const fd = new FormData();
  fd.append('a', 'x');
  fd.append('f', new OneCopyFile([payload], 'p.bin', { type: 'application/octet-stream' }));
  const enc = encodeFormData(fd, { boundary: 'B' });
  const body = await enc.bytes();
  assert.equal(streams, 1);
  const head = '--B\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n' +
    '--B\r\nContent-Disposition: form-data; name="f"; filename="p.bin"\r\nContent-Type: application/octet-stream\r\n\r\n';
  const tail = '\r\n--B--\r\n';
  assert.equal(body.length, head.length + payload.length + tail.length);
  assert.equal(latin1(body.subarray(0, head.length)), head);
  assert.deepEqual(body.subarray(head.length, head.length + payload.length), payload);
  assert.equal(latin1(body.subarray(head.length + payload.length)), tail);
});
