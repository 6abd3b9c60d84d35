/** End to end over loopback HTTP: encodeFormData as a fetch body (duplex: 'half') and with http.request; the server
 * parses with parseMultipart (Node IncomingMessage), formData (web Request) and the busboy drop-in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeFormData, parseMultipart } from '../src/index.js';
import busboy, { type FileStream } from '../src/busboy.js';

async function withServer(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>, fn: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((req, res) => {
    handler(req, res).catch((e) => {
      res.statusCode = 400;
      res.end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
}

function form(): [string, string | File][] {
  const big = new Uint8Array(200000).map((_, i) => (i * 7) & 255);
  return [['title', 'héllo\nworld'], ['file', new File([big], 'big.bin', { type: 'application/x-bin' })], ['end', '!']];
}

const summarize = async (req: IncomingMessage, res: ServerResponse) => {
  const out: string[] = [];
  for await (const p of parseMultipart(req)) { // the Content-Type comes from req.headers
    const b = await p.bytes();
    out.push(`${p.name}:${p.filename}:${p.type}:${b.length}:${b.reduce((a, x) => (a * 31 + x) >>> 0, 7)}`);
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ out, length: req.headers['content-length'] ?? null }));
};

test('fetch with a streamed body (duplex: half) → parseMultipart on IncomingMessage', async () => {
  await withServer(summarize, async (url) => {
    const enc = encodeFormData(form());
    const res = await fetch(url, { method: 'POST', body: enc.stream(), headers: enc.headers, duplex: 'half' } as RequestInit);
    const j = (await res.json()) as { out: string[]; length: string };
    assert.equal(res.status, 200);
    assert.equal(j.length, String(enc.contentLength));
    assert.equal(j.out.length, 3);
    assert.match(j.out[0]!, /^title:null:null:13:/);
    assert.match(j.out[1]!, /^file:big\.bin:application\/x-bin:200000:/);
  });
});

test('http.request with the encoded headers and body chunks', async () => {
  await withServer(summarize, async (url) => {
    const enc = encodeFormData(form());
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: enc.headers }, (res) => {
        let s = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (s += c));
        res.on('end', () => resolve(s));
      });
      req.on('error', reject);
      (async () => {
        for await (const c of enc) if (!req.write(c)) await new Promise((r) => req.once('drain', r));
        req.end();
      })().catch(reject);
    });
    const j = JSON.parse(body) as { out: string[] };
    assert.equal(j.out.length, 3);
  });
});

test('the busboy drop-in behind a real server', async () => {
  await withServer(
    (req, res) =>
      new Promise<void>((resolve, reject) => {
        const bb = busboy({ headers: req.headers });
        const seen: string[] = [];
        bb.on('field', (n: string, v: string) => seen.push(`${n}=${v}`));
        bb.on('file', (n: string, s: FileStream, info: { filename: string }) => {
          let size = 0;
          s.on('data', (c: Buffer) => (size += c.length));
          s.on('end', () => seen.push(`${n}:${info.filename}:${size}`));
        });
        bb.on('error', reject);
        bb.on('close', () => {
          res.end(JSON.stringify(seen));
          resolve();
        });
        req.pipe(bb);
      }),
    async (url) => {
      const enc = encodeFormData(form());
      const res = await fetch(url, { method: 'POST', body: await enc.bytes(), headers: { 'content-type': enc.contentType } });
      // a file's 'end' comes after later fields' events (as in busboy): compare as a set
      assert.deepEqual(((await res.json()) as string[]).sort(), ['end=!', 'file:big.bin:200000', 'title=héllo\r\nworld']);
    },
  );
});

test('errors answer 413 for a limit and 400 for a malformed body, with the code in the response body', async () => {
  const { httpError, formData } = await import('../src/index.js');
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const fd = await formData(req, req.headers['content-type'], { maxParts: 2 });
      res.end(JSON.stringify([...fd.keys()]));
    } catch (e) {
      const h = httpError(e);
      if (!h) throw e;
      res.writeHead(h.status, h.headers).end(h.body);
    }
  };
  await withServer(handler, async (url) => {
    const ct = 'multipart/form-data; boundary=B';
    const part = (n: string) => `--B\r\nContent-Disposition: form-data; name="${n}"\r\n\r\nv\r\n`;
    const ok = await fetch(url, { method: 'POST', body: part('a') + '--B--\r\n', headers: { 'content-type': ct } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), ['a']);
    const tooMany = await fetch(url, { method: 'POST', body: part('a') + part('b') + part('c') + '--B--\r\n', headers: { 'content-type': ct } });
    assert.equal(tooMany.status, 413);
    const e413 = ((await tooMany.json()) as { error: { code: string; offset: number; status: number } }).error;
    assert.equal(e413.code, 'MP_LIMIT_PARTS');
    assert.equal(e413.status, 413);
    assert.equal(typeof e413.offset, 'number');
    const truncated = await fetch(url, { method: 'POST', body: part('a'), headers: { 'content-type': ct } });
    assert.equal(truncated.status, 400);
    assert.equal(((await truncated.json()) as { error: { code: string } }).error.code, 'MP_TRUNCATED');
  });
  // The names Node frameworks read off a thrown error.
  const { FormwireError } = await import('../src/index.js');
  const e = new FormwireError('MP_LIMIT_PARTS', 7);
  assert.equal(e.status, 413);
  assert.equal(e.statusCode, 413);
  assert.equal(e.expose, true);
  assert.equal(new FormwireError('MP_TRUNCATED', 3).status, 400);
  assert.equal(httpError(new Error('x')), null);
});
