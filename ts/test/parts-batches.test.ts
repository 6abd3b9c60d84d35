/**
 * parseMultipart's synchronous reads and batched iteration: `Part.complete`, `textSync()` / `bytesSync()` and
 * `batches()` give the same parts and bodies as the plain async iteration, under every chunking, and keep its rules
 * (read a part before moving on, errors after the parts before them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseMultipart, FormwireError, type Part } from '../src/index.js';
import { bin, rng } from './helpers.js';

const B = 'XyZ';
const CT = `multipart/form-data; boundary=${B}`;

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** A body of n parts: text fields, file parts, empty bodies, bodies of several KiB (spanning chunks). */
function makeBody(r: () => number, n: number): { text: string; want: string[] } {
  let text = '';
  const want: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = r();
    const len = k < 0.1 ? 0 : k < 0.8 ? 1 + Math.floor(r() * 30) : 1000 + Math.floor(r() * 9000);
    let v = '';
    for (let j = 0; j < len; j++) v += String.fromCharCode(r() < 0.05 ? 13 : 0x61 + Math.floor(r() * 26));
    const file = r() < 0.3;
    text += `--${B}\r\nContent-Disposition: form-data; name="p${i}"${file ? `; filename="f${i}"\r\nContent-Type: text/x-${i}` : ''}\r\n\r\n${v}\r\n`;
    want.push(`${file ? 'file' : 'field'} p${i}=${v}`);
  }
  text += `--${B}--\r\n`;
  return { text, want };
}

const describe = (p: Part, body: string): string => `${p.filename === null ? 'field' : 'file'} ${p.name}=${body}`;
const latin1 = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

test('complete parts read synchronously; batches give the same parts as the plain iteration, every chunking', async () => {
  const r = rng(41);
  for (let iter = 0; iter < 40; iter++) {
    const { text, want } = makeBody(r, 1 + Math.floor(r() * 40));
    const bytes = bin(text);
    for (const size of [1, 7, 100, 4096, bytes.length]) {
      // plain iteration, text() (async)
      const plain: string[] = [];
      for await (const p of parseMultipart(chunked(bytes, size), CT)) plain.push(describe(p, await p.text()));
      assert.deepEqual(plain, want, `plain, chunks of ${size}`);
      // plain iteration, textSync() when complete
      const sync: string[] = [];
      let syncCount = 0;
      for await (const p of parseMultipart(chunked(bytes, size), CT)) {
        if (p.complete) {
          syncCount++;
          sync.push(describe(p, latin1(p.bytesSync())));
        } else sync.push(describe(p, latin1(await p.bytes())));
      }
      assert.deepEqual(sync, want, `complete/bytesSync, chunks of ${size}`);
      if (size === bytes.length) assert.equal(syncCount, want.length, 'one chunk: every part is complete');
      // batches, a web stream source
      const batched: string[] = [];
      let batches = 0;
      const stream = new Blob(chunked(bytes, size) as BlobPart[]).stream();
      for await (const batch of parseMultipart(stream, CT).batches()) {
        batches++;
        assert.ok(batch.length > 0);
        for (let k = 0; k < batch.length; k++) {
          const p = batch[k]!;
          if (k < batch.length - 1) assert.ok(p.complete, 'all but the last part of a batch are complete');
          // the values are ASCII: their UTF-8 text is their bytes
          batched.push(describe(p, p.complete ? p.textSync() : await p.text()));
        }
      }
      assert.ok(batches >= 1);
      assert.deepEqual(batched, want, `batches, chunks of ${size}`);
    }
  }
});

test('batches: bodies equal the plain iteration, read in any order within a batch', async () => {
  const r = rng(43);
  for (let iter = 0; iter < 30; iter++) {
    const { text, want } = makeBody(r, 1 + Math.floor(r() * 30));
    const bytes = bin(text);
    for (const size of [3, 64, 2000, bytes.length]) {
      const got: string[] = [];
      for await (const batch of parseMultipart(Readable.from(chunked(bytes, size)), CT).batches()) {
        // the incomplete last part first (it pulls more input), then the complete ones backwards
        const out: string[] = new Array(batch.length);
        const last = batch[batch.length - 1]!;
        if (!last.complete) out[batch.length - 1] = describe(last, latin1(await last.bytes()));
        for (let k = batch.length - 1; k >= 0; k--) {
          const p = batch[k]!;
          if (out[k] === undefined) out[k] = describe(p, latin1(p.bytesSync()));
        }
        got.push(...out);
      }
      assert.deepEqual(got, want, `chunks of ${size}`);
    }
  }
});

test('textSync decodes UTF-8 like text(); sync reads of incomplete or skipped parts throw', async () => {
  const body = bin(
    `--${B}\r\nContent-Disposition: form-data; name="u"\r\n\r\n\xc3\xa9\xe2\x82\xac\xff\r\n` +
      `--${B}\r\nContent-Disposition: form-data; name="big"\r\n\r\n${'x'.repeat(5000)}\r\n` +
      `--${B}\r\nContent-Disposition: form-data; name="e"\r\n\r\n\r\n--${B}--\r\n`,
  );
  const parts: Part[] = [];
  for await (const p of parseMultipart(chunked(body, 1000), CT)) {
    parts.push(p);
    if (p.name === 'u') {
      assert.ok(p.complete);
      assert.equal(p.textSync(), 'é€\ufffd');
      assert.equal(p.textSync(), '', 'a read body reads as empty');
      assert.ok(p.complete);
    } else if (p.name === 'big') {
      assert.equal(p.complete, false);
      assert.throws(() => p.textSync(), /not complete/);
      assert.throws(() => p.bytesSync(), /not complete/);
      assert.equal((await p.text()).length, 5000);
    } else {
      assert.ok(p.complete);
      assert.equal(p.textSync(), '');
    }
  }
  assert.deepEqual(parts.map((p) => p.name), ['u', 'big', 'e']);
  // moving on skips: a later sync read throws, complete is false
  const it = parseMultipart(body, CT);
  const first = (await it.next()).value!;
  await it.next();
  assert.equal(first.complete, false);
  assert.throws(() => first.textSync(), /moving to the next part/);
  // batches: the next batch skips the unread parts of the previous one
  const bi = parseMultipart(chunked(body, 1000), CT).batches();
  const b1: Part[] = (await bi.next()).value!;
  assert.deepEqual(b1.map((p) => [p.name, p.complete]), [['u', true], ['big', false]]);
  const rest: string[] = [];
  for (let b = await bi.next(); !b.done; b = await bi.next()) for (const p of b.value) rest.push(p.name!);
  assert.ok(b1.every((p) => !p.complete));
  assert.throws(() => b1[0]!.textSync(), /moving to the next part/);
  assert.deepEqual([...b1.map((p) => p.name), ...rest], ['u', 'big', 'e']);
});

test('batches: an error comes after the batches of the parts before it; return() cancels the source', async () => {
  const bad = bin(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${B}\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--${B}--junk`);
  for (const size of [1, 5, bad.length]) {
    const names: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const batch of parseMultipart(chunked(bad, size), CT).batches()) {
          for (const p of batch) names.push(`${p.name}=${p.complete ? p.textSync() : await p.text()}`);
        }
      })(),
      (e: unknown) => e instanceof FormwireError && e.code === 'MP_DELIMITER' && e.offset === latin1(bad).indexOf('junk'),
    );
    assert.deepEqual(names, ['a=1', 'b=2'], `chunks of ${size}`);
  }
  let cancelled = false;
  const src = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(bin(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n`));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const batch of parseMultipart(src, CT).batches()) {
    assert.equal(batch[0]!.name, 'a');
    break;
  }
  assert.ok(cancelled);
});
