/** formwire/multer end to end: a real node:http server on 127.0.0.1, Express-style middleware, fetch + FormData. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import multer, { MulterError, type MulterFile } from '../src/multer.js';

type Req = IncomingMessage & { body?: Record<string, unknown>; file?: MulterFile; files?: unknown };
type Mw = (req: Req, res: ServerResponse, next: (err?: unknown) => void) => void;

/** Serves one middleware; answers JSON of what it left on req (or the error). */
async function serve(mw: Mw, send: (url: string) => Promise<Response>): Promise<{ status: number; json: Record<string, unknown> }> {
  const server = createServer((req: Req, res) => {
    mw(req, res, (err) => {
      const strip = (f: MulterFile) => ({ ...f, buffer: f.buffer?.toString('latin1') });
      const out = err
        ? { error: (err as MulterError).code ?? String(err), field: (err as MulterError).field }
        : { body: { ...req.body }, file: req.file && strip(req.file), files: Array.isArray(req.files) ? req.files.map(strip) : req.files };
      res.writeHead(err ? (err instanceof MulterError ? 413 : 400) : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  } finally {
    server.close();
  }
}

const form = (entries: Array<[string, string] | [string, string, string]>) => {
  const fd = new FormData();
  for (const [n, v, f] of entries) f === undefined ? fd.append(n, v) : fd.append(n, new Blob([v], { type: 'text/plain' }), f);
  return fd;
};

test('multer .single(): fields in req.body, the file in memory in req.file', async () => {
  const r = await serve(multer().single('doc'), (url) => fetch(url, { method: 'POST', body: form([['a', '1'], ['a', '2'], ['doc', 'hello', 'h.txt']]) }));
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.body, { a: ['1', '2'] });
  assert.deepEqual(r.json.file, { fieldname: 'doc', originalname: 'h.txt', encoding: '7bit', mimetype: 'text/plain', buffer: 'hello', size: 5 });
});

test('multer errors: unexpected file field, fileSize limit (MulterError codes), a truncated body (formwire error)', async () => {
  const unexpected = await serve(multer().single('doc'), (url) => fetch(url, { method: 'POST', body: form([['other', 'x', 'o.txt']]) }));
  assert.deepEqual([unexpected.status, unexpected.json], [413, { error: 'LIMIT_UNEXPECTED_FILE', field: 'other' }]);
  const big = await serve(multer({ limits: { fileSize: 3 } }).array('f'), (url) => fetch(url, { method: 'POST', body: form([['f', 'abcdef', 'a.bin']]) }));
  assert.deepEqual([big.status, big.json], [413, { error: 'LIMIT_FILE_SIZE', field: 'f' }]);
  const cut = await serve(multer().none(), (url) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1' }),
  );
  assert.equal(cut.status, 400);
  assert.match(String(cut.json.error), /MP_TRUNCATED/);
});

test('multer .any() with a fields-only form and an octet-stream part without filename (a file, as busboy/multer do)', async () => {
  const r = await serve(multer().any(), (url) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="blob"\r\nContent-Type: application/octet-stream\r\n\r\nraw\r\n--b--\r\n',
    }),
  );
  assert.equal(r.status, 200);
  assert.deepEqual((r.json.files as MulterFile[]).map((f) => [f.fieldname, f.originalname, f.buffer]), [['blob', '', 'raw']]);
});
