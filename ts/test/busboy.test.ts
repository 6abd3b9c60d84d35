/** formwire/busboy: busboy 1.x-compatible events, limits, truncation flags, backpressure and errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import busboy, { type FileInfo, type FieldInfo, FileStream } from '../src/busboy.js';
import { FormwireError } from '../src/index.js';

const CT = 'multipart/form-data; boundary=b';
const body = (parts: string[]) => Buffer.from(parts.join('') + '--b--\r\n', 'latin1');
const field = (n: string, v: string, extra = '') => `--b\r\nContent-Disposition: form-data; name="${n}"\r\n${extra}\r\n${v}\r\n`;
const file = (n: string, f: string, v: string, type = 'application/octet-stream') =>
  `--b\r\nContent-Disposition: form-data; name="${n}"; filename="${f}"\r\nContent-Type: ${type}\r\n\r\n${v}\r\n`;

interface Seen {
  fields: Array<[string, string, FieldInfo]>;
  files: Array<[string, string, FileInfo, boolean]>;
  events: string[];
  error: unknown;
}

function runBusboy(config: Parameters<typeof busboy>[0], input: Buffer, chunk = 7): Promise<Seen> {
  return new Promise((resolve) => {
    const seen: Seen = { fields: [], files: [], events: [], error: null };
    const bb = busboy(config);
    bb.on('field', (name: string, value: string, info: FieldInfo) => seen.fields.push([name, value, info]));
    bb.on('file', (name: string, stream: FileStream, info: FileInfo) => {
      const chunks: Buffer[] = [];
      stream.on('limit', () => seen.events.push(`limit:${name}`));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => seen.files.push([name, Buffer.concat(chunks).toString('latin1'), info, stream.truncated]));
    });
    for (const e of ['partsLimit', 'filesLimit', 'fieldsLimit']) bb.on(e, () => seen.events.push(e));
    bb.on('error', (e) => {
      seen.error = e;
      resolve(seen);
    });
    bb.on('close', () => resolve(seen));
    const parts: Buffer[] = [];
    for (let i = 0; i < input.length; i += chunk) parts.push(input.subarray(i, i + chunk));
    Readable.from(parts).pipe(bb);
  });
}

test('fields and files with busboy info objects; UTF-8 filenames; basename', async () => {
  const input = body([field('a', 'x y'), file('f', 'C:\\dir\\r\xc3\xa9sum\xc3\xa9.txt', 'hello', 'Text/Plain; charset=utf-8'), field('b', '\xc3\xa9', 'Content-Type: text/x\r\n')]);
  const seen = await runBusboy({ headers: { 'content-type': CT } }, input);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.fields, [
    ['a', 'x y', { nameTruncated: false, valueTruncated: false, encoding: '7bit', mimeType: 'text/plain' }],
    ['b', 'é', { nameTruncated: false, valueTruncated: false, encoding: '7bit', mimeType: 'text/x' }],
  ]);
  assert.deepEqual(seen.files, [['f', 'hello', { filename: 'résumé.txt', encoding: '7bit', mimeType: 'text/plain' }, false]]);
});

test('preservePath and defParamCharset latin1', async () => {
  const input = body([file('f', 'a/b\xe9.txt', 'x')]);
  const seen = await runBusboy({ headers: { 'content-type': CT }, preservePath: true, defParamCharset: 'latin1' }, input);
  assert.equal(seen.files[0]![2].filename, 'a/bé.txt');
});

test('limits: fileSize truncates and emits limit; fieldSize truncates; counts emit *Limit events', async () => {
  const input = body([file('f', 'a.bin', '0123456789'), field('a', 'abcdef'), field('b', '1'), file('g', 'b.bin', 'z'), field('c', '2')]);
  const seen = await runBusboy({ headers: { 'content-type': CT }, limits: { fileSize: 4, fieldSize: 3, fields: 1, files: 1 } }, input, 3);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.files.map((f) => [f[0], f[1], f[3]]), [['f', '0123', true]]);
  assert.deepEqual(seen.fields.map((f) => [f[0], f[1], f[2].valueTruncated]), [['a', 'abc', true]]);
  assert.deepEqual(seen.events.sort(), ['fieldsLimit', 'filesLimit', 'limit:f']);
  const p = await runBusboy({ headers: { 'content-type': CT }, limits: { parts: 1 } }, input);
  assert.deepEqual(p.events, ['partsLimit']);
});

test('bad input is an error event carrying the formwire code and offset', async () => {
  const input = Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--b', 'latin1');
  const seen = await runBusboy({ headers: { 'content-type': CT } }, input);
  assert.ok(seen.error instanceof FormwireError && seen.error.code === 'MP_TRUNCATED' && seen.error.offset === input.length);
  // busboy accepts a preamble, so the adapter does (BUSBOY_MULTIPART); the strict reading is one option away
  const withPreamble = Buffer.concat([Buffer.from('preamble\r\n'), body([field('a', '1')])]);
  const pre = await runBusboy({ headers: { 'content-type': CT }, formwire: { allowPreamble: false } }, withPreamble);
  assert.ok(pre.error instanceof FormwireError && pre.error.code === 'MP_PREAMBLE');
  const lenient = await runBusboy({ headers: { 'content-type': CT } }, withPreamble);
  assert.equal(lenient.error, null);
  assert.equal(lenient.fields.length, 1);
  assert.throws(() => busboy({ headers: {} }), /Missing Content-Type/);
  assert.throws(() => busboy({ headers: { 'content-type': 'text/plain' } }), /Unsupported content type/);
});

test("boundaries: 71 bytes (werkzeug's test client) parse; over max_boundary_bytes (256) throw MP_LIMIT_BOUNDARY, never an empty form", async () => {
  const b71 = 'w'.repeat(71);
  const input = Buffer.from(`--${b71}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${b71}--\r\n`, 'latin1');
  const seen = await runBusboy({ headers: { 'content-type': `multipart/form-data; boundary=${b71}` } }, input);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.fields.map(([n, v]) => [n, v]), [['a', '1']]);
  assert.throws(
    () => busboy({ headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(257)}` } }),
    (e: unknown) => e instanceof FormwireError && e.code === 'MP_LIMIT_BOUNDARY' && e.httpStatus === 413,
  );
});

test('urlencoded bodies: fields, fieldNameSize and fieldSize truncation', async () => {
  const seen = await runBusboy(
    { headers: { 'content-type': 'application/x-www-form-urlencoded' }, limits: { fieldNameSize: 3, fieldSize: 2 } },
    Buffer.from('abcd=xyz&q=%C3%A9+1&r'),
    2,
  );
  assert.deepEqual(seen.fields.map((f) => [f[0], f[1], f[2].nameTruncated, f[2].valueTruncated]), [
    ['abc', 'xy', true, true],
    ['q', 'é', false, true],
    ['r', '', false, false],
  ]);
});

test("urlencoded: the request's charset decodes names and values (busboy), info.encoding is that charset as written", async () => {
  // ISO-8859-1: %E9 is one byte, é; UTF-8 would make it U+FFFD
  const latin = await runBusboy({ headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' } }, Buffer.from('n%E9=caf%E9+%A9'), 3);
  assert.deepEqual(latin.fields.map((f) => [f[0], f[1], f[2].encoding]), [['n\u00e9', 'caf\u00e9 \u00a9', 'ISO-8859-1']]);
  // UTF-16LE, quoted parameter: 😀! is 3d d8 00 de 21 00
  const u16 = await runBusboy({ headers: { 'content-type': 'application/x-www-form-urlencoded; charset="UTF-16LE"' } }, Buffer.from('f%00=%3d%d8%00%de%21%00'), 1);
  assert.deepEqual(u16.fields.map((f) => [f[0], f[1], f[2].encoding]), [['f', '\u{1f600}!', 'UTF-16LE']]);
  // no charset: defCharset, else UTF-8 reported as busboy's 'utf8'
  const plain = await runBusboy({ headers: { 'content-type': 'application/x-www-form-urlencoded' } }, Buffer.from('a=%C3%A9'));
  assert.deepEqual(plain.fields.map((f) => [f[1], f[2].encoding]), [['\u00e9', 'utf8']]);
  const def = await runBusboy({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, defCharset: 'latin1' }, Buffer.from('a=%C3%A9'));
  assert.deepEqual(def.fields.map((f) => [f[1], f[2].encoding]), [['\u00c3\u00a9', 'latin1']]);
});

test("errors carry the incumbent's message (busboy: 'Unexpected end of form'; @fastify/busboy: 'Unexpected end of multipart data') and stay FormwireErrors", async () => {
  const cut = Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx', 'latin1');
  const seen = await runBusboy({ headers: { 'content-type': CT } }, cut);
  assert.ok(seen.error instanceof FormwireError);
  assert.equal(seen.error.message, 'Unexpected end of form');
  assert.equal(seen.error.code, 'MP_TRUNCATED');
  assert.equal(seen.error.offset, cut.length);
  assert.equal(seen.error.status, 400);
  const empty = await runBusboy({ headers: { 'content-type': CT } }, Buffer.alloc(0));
  assert.ok(empty.error instanceof FormwireError && empty.error.message === 'Unexpected end of form');
  const bad = await runBusboy({ headers: { 'content-type': CT } }, Buffer.from('--b\r\n:)\r\n\r\nx\r\n--b--', 'latin1'));
  assert.ok(bad.error instanceof FormwireError && bad.error.code === 'MP_HEADER_NAME');
  assert.equal(bad.error.message, 'Malformed part header');
  // a code busboy has no message for keeps formwire's
  const nod = await runBusboy({ headers: { 'content-type': CT } }, Buffer.from('--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--', 'latin1'));
  assert.ok(nod.error instanceof FormwireError && nod.error.code === 'MP_DISPOSITION' && nod.error.message.startsWith('MP_DISPOSITION at byte'));
  const { Busboy } = await import('../src/busboy.js');
  const legacy = await new Promise<unknown>((resolve) => {
    const bb = new Busboy({ headers: { 'content-type': CT } });
    bb.on('error', resolve);
    bb.on('finish', () => resolve(null));
    bb.end(cut);
  });
  assert.ok(legacy instanceof FormwireError && legacy.code === 'MP_TRUNCATED');
  assert.equal(legacy.message, 'Unexpected end of multipart data');
});

test("limits.parts N: partsLimit comes at part N+1 even for N >= formwire's max_parts (@fastify/multipart's default 1000)", async () => {
  const many = body(Array.from({ length: 1001 }, (_, i) => field(`f${i}`, 'v')));
  const seen = await runBusboy({ headers: { 'content-type': CT }, limits: { parts: 1000 } }, many, 4096);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.events, ['partsLimit']);
  assert.equal(seen.fields.length, 1000);
  // formwire's limit stays a bound past N+1
  const more = body(Array.from({ length: 1003 }, (_, i) => field(`f${i}`, 'v')));
  const over = await runBusboy({ headers: { 'content-type': CT }, limits: { parts: 1000 } }, more, 4096);
  assert.ok(over.error instanceof FormwireError && over.error.code === 'MP_LIMIT_PARTS');
  // limits.fields N likewise moves max_fields (1000) past N+1
  const fields = await runBusboy({ headers: { 'content-type': CT }, limits: { fields: 1000 } }, many, 4096);
  assert.equal(fields.error, null);
  assert.deepEqual(fields.events, ['fieldsLimit']);
});

test("limits.fields / limits.files N: the event comes at N+1 even for N >= formwire's max_fields / max_files (MP-L-05)", async () => {
  const fields = body(Array.from({ length: 1001 }, (_, i) => field(`f${i}`, 'v')));
  const seen = await runBusboy({ headers: { 'content-type': CT }, limits: { fields: 1000 }, formwire: { maxParts: null } }, fields, 4096);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.events, ['fieldsLimit']);
  assert.equal(seen.fields.length, 1000);
  // without busboy's limit, formwire's default max_fields (1000) is the bound: a coded 413 at field 1001
  const plain = await runBusboy({ headers: { 'content-type': CT }, formwire: { maxParts: null } }, fields, 4096);
  assert.ok(plain.error instanceof FormwireError && plain.error.code === 'MP_LIMIT_FIELDS' && plain.error.httpStatus === 413);
  const file = (n: string) => `--b\r\nContent-Disposition: form-data; name="${n}"; filename="${n}.txt"\r\n\r\nx\r\n`;
  const files = body(Array.from({ length: 1001 }, (_, i) => file(`f${i}`)));
  const fs = await runBusboy({ headers: { 'content-type': CT }, limits: { files: 1000 }, formwire: { maxParts: null } }, files, 4096);
  assert.equal(fs.error, null);
  assert.deepEqual(fs.events, ['filesLimit']);
  assert.equal(fs.files.length, 1000);
});

test('max_total_field_bytes counts the parts handed out as fields: a filename-less octet-stream part is a file (busboy)', async () => {
  const big = 'x'.repeat(11 << 20); // over the 10 MiB default total of field bytes
  const blob = `--b\r\nContent-Disposition: form-data; name="upload"\r\nContent-Type: application/octet-stream\r\n\r\n${big}\r\n`;
  const seen = await runBusboy({ headers: { 'content-type': CT } }, body([blob]), 65536);
  assert.equal(seen.error, null);
  assert.equal(seen.files.length, 1);
  assert.equal(seen.files[0]![1].length, big.length);
  // fields still count, at the adapter's limit, with the offset of the first byte past it
  const input = body([field('a', '12345'), field('b', '67890')]);
  const tf = await runBusboy({ headers: { 'content-type': CT }, formwire: { maxTotalFieldBytes: 8 } }, input, input.length);
  assert.ok(tf.error instanceof FormwireError && tf.error.code === 'MP_LIMIT_TOTAL_FIELD_BYTES' && tf.error.httpStatus === 413);
  assert.equal(tf.error.offset, input.indexOf('67890') + 3);
  assert.deepEqual(tf.fields.map((f) => f[1]), ['12345']);
  assert.throws(
    () => busboy({ headers: { 'content-type': 'multipart/form-data' } }),
    (e: unknown) => e instanceof FormwireError && e.code === 'MP_BOUNDARY' && e.message === 'Multipart: Boundary not found',
  );
});

test('backpressure: a paused file stream holds the writer', async () => {
  const big = 'x'.repeat(1 << 20);
  const bb = busboy({ headers: { 'content-type': CT }, fileHwm: 1024 });
  let stream: FileStream | null = null;
  bb.on('file', (_n: string, s: FileStream) => {
    stream = s; // not read yet
  });
  const input = body([file('f', 'a', big)]);
  let written = 0;
  let blocked = false;
  for (let i = 0; i < input.length; i += 65536) {
    const ok = bb.write(input.subarray(i, i + 65536));
    written += 65536;
    if (!ok) {
      blocked = true;
      break;
    }
  }
  assert.ok(blocked && written < input.length, 'the writable reports backpressure while the file is unread');
  let got = 0;
  stream!.on('data', (c: Buffer) => (got += c.length));
  await new Promise<void>((resolve) => {
    bb.on('close', () => resolve());
    const rest = input.subarray(written);
    bb.end(rest);
  });
  assert.equal(got, big.length);
});

test('CommonJS: require("formwire/busboy") is the factory itself', () => {
  const require = createRequire(import.meta.url);
  const cjs = require('../cjs/busboy.cjs');
  assert.equal(typeof cjs, 'function');
  assert.equal(typeof cjs.busboy, 'function');
  const main = require('../cjs/index.cjs');
  assert.equal(typeof main.parseMultipart, 'function');
});

test('legacy class API (busboy 0.x / @fastify/busboy): new Busboy(), positional event arguments, finish', async () => {
  const { Busboy } = await import('../src/busboy.js');
  const bb = new Busboy({ headers: { 'content-type': CT } });
  const got: unknown[] = [];
  bb.on('field', (...args: unknown[]) => got.push(['field', ...args]));
  bb.on('file', (name: string, stream: FileStream, filename: string, encoding: string, mime: string) => {
    got.push(['file', name, filename, encoding, mime]);
    stream.resume();
  });
  await new Promise<void>((resolve, reject) => {
    bb.on('finish', () => resolve());
    bb.on('error', reject);
    bb.end(body([field('a', '1'), file('f', 'x.txt', 'data', 'text/plain')]));
  });
  assert.deepEqual(got, [
    ['field', 'a', '1', false, false, '7bit', 'text/plain'],
    ['file', 'f', 'x.txt', '7bit', 'text/plain'],
  ]);
});

test('field values survive the writer reusing its buffer after each write (values spanning writes are copied)', async () => {
  const input = body([
    field('a', 'short'),
    field('b', 'x'.repeat(50) + '\xe9\xe8'),
    field('c', ''),
    field('d', 'with \r\n inside and more text'),
    file('f', 'f.bin', 'file bytes'),
    field('e', 'z'.repeat(300)),
  ]);
  const want = (await runBusboy({ headers: { 'content-type': CT }, defCharset: 'latin1' }, input, input.length)).fields.map(([n, v]) => `${n}=${v}`);
  assert.equal(want.length, 5);
  for (const size of [1, 2, 5, 13, 64, 100]) {
    for (const limits of [{}, { fieldSize: 40 }]) {
      const seen: string[] = [];
      const bb = busboy({ headers: { 'content-type': CT }, defCharset: 'latin1', limits });
      bb.on('field', (n: string, v: string, info: FieldInfo) => seen.push(`${n}=${v}${info.valueTruncated ? '~' : ''}`));
      bb.on('file', (_n: string, s: FileStream) => s.resume());
      const closed = new Promise((r) => bb.on('close', r));
      const shared = Buffer.alloc(size);
      for (let i = 0; i < input.length; i += size) {
        const n = Math.min(size, input.length - i);
        input.copy(shared, 0, i, i + n);
        await new Promise<void>((r) => bb.write(shared.subarray(0, n), () => r()));
        shared.fill(0x3f); // the writer's buffer is reused: nothing may still point into it
      }
      bb.end();
      await closed;
      const expect = 'fieldSize' in limits ? want.map((w) => (w.length > 42 ? `${w.slice(0, 42)}~` : w)) : want;
      assert.deepEqual(seen, expect, `chunks of ${size} ${JSON.stringify(limits)}`);
    }
  }
});

test("a file part reaching a handler without a 'file' listener is drained, and 'close' still comes (busboy skips it)", async () => {
  const input = body([field('a', '1'), file('f', 'big.bin', 'y'.repeat(200000)), field('b', '2')]);
  for (const size of [input.length, 1000, 7]) {
    const bb = busboy({ headers: { 'content-type': CT } });
    const got: string[] = [];
    bb.on('field', (n: string, v: string) => got.push(`${n}=${v}`));
    const closed = new Promise<string>((resolve) => {
      bb.on('close', () => resolve('close'));
      bb.on('error', (e) => resolve(`error ${String(e)}`));
      setTimeout(() => resolve('hang'), 3000).unref();
    });
    const parts: Buffer[] = [];
    for (let i = 0; i < input.length; i += size) parts.push(input.subarray(i, i + size));
    Readable.from(parts).pipe(bb);
    assert.equal(await closed, 'close', `chunks of ${size}`);
    assert.deepEqual(got, ['a=1', 'b=2']);
  }
});

test("classification and names as busboy: octet-stream without filename is a file, a valid filename* wins, charset decodes values, empty Content-Type is text/plain", async () => {
  const input = body([
    field('blob', 'raw', 'Content-Type: application/octet-stream\r\n'),
    `--b\r\nContent-Disposition: form-data; name="u"; filename="fallback.txt"; filename*=UTF-8''n%C3%A4me.txt\r\n\r\nU\r\n`,
    `--b\r\nContent-Disposition: form-data; name="bad"; filename="kept.txt"; filename*=UTF-8''bad%ZZ\r\n\r\nB\r\n`,
    field('l', 'caf\xe9', 'Content-Type: text/plain; charset=ISO-8859-1\r\n'),
    field('e', 'v', 'Content-Type: \r\n'),
    field('d', 'd\xe9f'),
  ]);
  const seen = await runBusboy({ headers: { 'content-type': CT }, defCharset: 'latin1' }, input);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.files.map(([n, v, i]) => [n, v, i.filename, i.mimeType]), [
    ['blob', 'raw', undefined, 'application/octet-stream'],
    ['u', 'U', 'näme.txt', 'text/plain'],
    ['bad', 'B', 'kept.txt', 'text/plain'],
  ]);
  assert.deepEqual(seen.fields.map(([n, v, i]) => [n, v, i.mimeType]), [
    ['l', 'café', 'text/plain'],
    ['e', 'v', 'text/plain'],
    ['d', 'déf', 'text/plain'],
  ]);
});

test('leniency as busboy (BUSBOY_MULTIPART): obs-fold, a 12 KiB header block, Windows paths keep their backslashes until basename', async () => {
  const input = body([
    `--b\r\nContent-Disposition: form-data; name="f";\r\n filename="C:\\dir\\a.txt"\r\nContent-Type:\r\n text/plain\r\n\r\nF\r\n`,
    field('big', 'x', `X-Pad: ${'p'.repeat(12 * 1024)}\r\n`),
  ]);
  const seen = await runBusboy({ headers: { 'content-type': CT } }, input);
  assert.equal(seen.error, null);
  assert.deepEqual(seen.files.map(([n, , i]) => [n, i.filename, i.mimeType]), [['f', 'a.txt', 'text/plain']]);
  assert.deepEqual(seen.fields.map(([n, v]) => [n, v]), [['big', 'x']]);
  const kept = await runBusboy({ headers: { 'content-type': CT }, preservePath: true }, input);
  assert.equal(kept.files[0]![2].filename, 'C:\\dir\\a.txt');
  const strict = await runBusboy({ headers: { 'content-type': CT }, formwire: { allowObsFold: false } }, input);
  assert.ok(strict.error instanceof FormwireError && strict.error.code === 'MP_OBS_FOLD');
});

test('leniency as busboy 1.6 / @fastify/busboy 3.2.6: nameless parts dropped, junk after the close delimiter, UTF-8 header names (new Busboy() only)', async () => {
  const noCd = `--b\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n`;
  const emptyCd = `--b\r\nContent-Disposition: \r\n\r\ny\r\n`;
  const input = Buffer.from(field('a', '1') + noCd + emptyCd + field('c', '3') + '--b--junk', 'latin1');
  for (const chunk of [1, 7, input.length]) {
    const seen = await runBusboy({ headers: { 'content-type': CT } }, input, chunk);
    assert.equal(seen.error, null, `chunks of ${chunk}`);
    assert.deepEqual(seen.fields.map(([n, v]) => `${n}=${v}`), ['a=1', 'c=3']);
    assert.deepEqual(seen.files, []);
  }
  // a dropped part still counts as a part (busboy counts every delimiter): partsLimit after two
  const limited = await runBusboy({ headers: { 'content-type': CT }, limits: { parts: 2 } }, input);
  assert.deepEqual([limited.fields.map(([n]) => n), limited.events], [['a'], ['partsLimit']]);
  // a block with no header line at all: busboy 1.x reports 'Malformed part header'
  const bare = await runBusboy({ headers: { 'content-type': CT } }, Buffer.from('--b\r\n\r\nx\r\n' + field('c', '3') + '--b--', 'latin1'));
  assert.ok(bare.error instanceof FormwireError && bare.error.code === 'MP_NO_DISPOSITION' && bare.error.offset === 5);
  assert.equal(bare.error.message, 'Malformed part header');
  // UTF-8 header names: busboy 1.x rejects them, @fastify/busboy (new Busboy()) takes them
  const utf8 = Buffer.from(field('a', '1', 'F\xc3\xb8\xc3\xb8: bar\r\n') + '--b--', 'latin1');
  const strict = await runBusboy({ headers: { 'content-type': CT } }, utf8);
  assert.ok(strict.error instanceof FormwireError && strict.error.code === 'MP_HEADER_NAME' && strict.error.message === 'Malformed part header');
  const { Busboy } = await import('../src/busboy.js');
  const legacy = (b: Buffer) =>
    new Promise<unknown[]>((resolve, reject) => {
      const got: unknown[] = [];
      const bb = new Busboy({ headers: { 'content-type': CT } });
      bb.on('field', (n: string, v: string) => got.push(`${n}=${v}`));
      bb.on('finish', () => resolve(got));
      bb.on('error', reject);
      bb.end(b);
    });
  assert.deepEqual(await legacy(utf8), ['a=1']);
  assert.deepEqual(await legacy(Buffer.from('--b\r\n\r\nx\r\n' + field('c', '3') + '--b--', 'latin1')), ['c=3']);
  // each is a named option: config.formwire turns it off
  const off = await runBusboy({ headers: { 'content-type': CT }, formwire: { allowJunkAfterClose: false } }, input);
  assert.ok(off.error instanceof FormwireError && off.error.code === 'MP_DELIMITER');
});

test("busboy(): after a malformed header block, 'error' and then the parts after the next delimiter, as busboy 1.x", async () => {
  const collect = (input: Buffer, chunk: number, config: Partial<Parameters<typeof busboy>[0]> = {}) =>
    new Promise<string[]>((resolve) => {
      const got: string[] = [];
      const bb = busboy({ headers: { 'content-type': CT }, ...config });
      bb.on('field', (n: string, v: string) => got.push(`field ${n}=${v}`));
      bb.on('file', (n: string, st: FileStream) => {
        st.resume();
        st.on('end', () => got.push(`file ${n}`));
      });
      bb.on('partsLimit', () => got.push('partsLimit'));
      bb.on('error', (e: unknown) => {
        const f = e as FormwireError;
        got.push(`error ${f.code}@${f.offset} ${f.message}`);
      });
      bb.on('close', () => resolve(got));
      for (let i = 0; i < input.length; i += chunk) bb.write(input.subarray(i, i + chunk));
      bb.end();
    });
  const bad = `--b\r\nX Y: 1\r\n${'Content-Disposition: form-data; name="lost"\r\n'}\r\nv\r\n`;
  const big = `--b\r\nContent-Disposition: form-data; name="big"; filename="${'a'.repeat(20000)}"\r\n\r\nv\r\n`;
  const input = Buffer.from(field('a', '1') + bad + field('b', '2') + big + file('f', 'x.txt', 'data') + '--b--', 'latin1');
  const badAt = field('a', '1').length + 7; // at Y: OWS inside a name (MP-H-02)
  const bigAt = (field('a', '1') + bad + field('b', '2')).length + 5 + 16384;
  for (const chunk of [1, 7, 4096, input.length]) {
    assert.deepEqual(await collect(input, chunk), [
      'field a=1',
      `error MP_HEADER_NAME@${badAt} Malformed part header`,
      'field b=2',
      `error MP_LIMIT_HEADER_BYTES@${bigAt} Malformed part header`,
      'file f',
    ], `chunks of ${chunk}`);
  }
  // busboy's 'Stopped mid-header': no delimiter after the bad block, so the end of input is the second error
  const stopped = Buffer.from('--b\r\n:)Content-Type: text/plain\r\n:)\r\n:)x\r\n:)--b--', 'latin1');
  assert.deepEqual(await collect(stopped, 3), ['error MP_HEADER_NAME@5 Malformed part header', `error MP_TRUNCATED@${stopped.length} Unexpected end of form`]);
  // the limits go on counting across the new parser: the parts before and after the bad block
  const three = Buffer.from(field('a', '1') + bad + field('b', '2') + field('c', '3') + '--b--', 'latin1');
  const capped = await collect(three, 5, { formwire: { maxParts: 3 } });
  assert.deepEqual(capped.slice(0, 3), ['field a=1', `error MP_HEADER_NAME@${badAt} Malformed part header`, 'field b=2']);
  assert.match(capped[3]!, /^error MP_LIMIT_PARTS@\d+ /);
  assert.equal(capped.length, 4);
  // an error of the new parser is at its offset in the whole body
  const over = Buffer.from(field('a', '1') + bad + field('b', '234') + '--b--', 'latin1');
  const total = await collect(over, over.length, { formwire: { maxTotalFieldBytes: 3 } });
  assert.deepEqual(total, ['field a=1', `error MP_HEADER_NAME@${badAt} Malformed part header`, `error MP_LIMIT_TOTAL_FIELD_BYTES@${over.indexOf('4\r\n')} MP_LIMIT_TOTAL_FIELD_BYTES at byte ${over.indexOf('4\r\n')}: field bodies longer than maxTotalFieldBytes together`]);
  // a delimiter line inside the bad block ends it (busboy reads field a): the new parser starts at the failing
  // line's first byte, which may have come in an earlier write
  const inside = Buffer.from('--b\r\nContent-Type: x\r\n' + field('a', 'v') + '--b--', 'latin1');
  const insideAt = '--b\r\nContent-Type: x\r\n--b'.length; // the CR of '--b': a header line without a colon
  for (const chunk of [1, 2, 7, 26, 27, inside.length]) {
    assert.deepEqual(await collect(inside, chunk), [`error MP_HEADER_NAME@${insideAt} Malformed part header`, 'field a=v'], `chunks of ${chunk}`);
  }
  // busboy counts the malformed block as a part for limits.parts
  const counted = Buffer.from('--b\r\nX\r\n\r\n' + field('a', '1') + field('c', '3') + '--b--', 'latin1');
  assert.deepEqual(await collect(counted, counted.length, { limits: { parts: 1 } }), ['error MP_HEADER_NAME@6 Malformed part header', 'partsLimit']);
});

test("a field part reaching a handler without a 'field' listener is skipped; errors are never an empty form", async () => {
  const bb = busboy({ headers: { 'content-type': CT } });
  const names: string[] = [];
  bb.on('file', (n: string, s: FileStream) => {
    names.push(n);
    s.resume();
  });
  await new Promise((r) => {
    bb.on('close', r);
    bb.end(body([field('a', '1'), file('f', 'x', 'y')]));
  });
  assert.deepEqual(names, ['f']);
  const cut = await runBusboy({ headers: { 'content-type': CT } }, Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1'));
  assert.ok(cut.error instanceof FormwireError && cut.error.code === 'MP_TRUNCATED');
});
