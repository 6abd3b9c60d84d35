'use strict';
// End to end under Express, as ts/README.md tells users to write it: a real Express app on 127.0.0.1 with
// formwire/multer as the route's middleware and multer's own diskStorage engine (the registry package) as storage;
// the client is fetch + FormData. Run by compat/run.mjs with the test environment's folder as argument (express and
// multer come from its lock). Prints one JSON line per check.
const assert = require('node:assert/strict');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const env = process.argv[2];
const need = createRequire(join(env, 'package.json'));
const express = need('express');
const realMulter = need('multer');
const { multer, MulterError } = need('formwire/multer');

async function check(name, fn) {
  try {
    await fn();
    console.log(JSON.stringify({ name, ok: true }));
  } catch (e) {
    console.log(JSON.stringify({ name, ok: false, detail: String(e && e.stack) }));
  }
}

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'formwire-express-'));
  const app = express();
  const disk = multer({ storage: realMulter.diskStorage({ destination: dir, filename: (_req, f, cb) => cb(null, `up-${f.originalname}`) }), limits: { fileSize: 1 << 20 } });
  app.post('/upload', disk.single('doc'), (req, res) => res.json({ body: req.body, file: req.file }));
  app.post('/fields', multer().none(), (req, res) => res.json({ body: req.body }));
  app.use((err, _req, res, _next) => res.status(err instanceof MulterError ? 413 : err.status ?? 500).json({ code: err.code, status: err.status }));
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    await check('express + formwire/multer + multer.diskStorage: the file on disk, fields in req.body', async () => {
      const fd = new FormData();
      fd.append('title', 'caf\u00e9');
      fd.append('doc', new Blob([Buffer.alloc(300000, 7)], { type: 'application/pdf' }), 'a.pdf');
      const r = await fetch(`${url}/upload`, { method: 'POST', body: fd });
      assert.equal(r.status, 200);
      const j = await r.json();
      assert.deepEqual(j.body, { title: 'caf\u00e9' });
      assert.equal(j.file.originalname, 'a.pdf');
      assert.equal(j.file.mimetype, 'application/pdf');
      assert.equal(j.file.size, 300000);
      assert.equal(j.file.path, join(dir, 'up-a.pdf'));
      assert.deepEqual(readFileSync(j.file.path), Buffer.alloc(300000, 7));
    });
    await check('express: fileSize over the limit is MulterError LIMIT_FILE_SIZE (413), a body cut short is a typed 400', async () => {
      const fd = new FormData();
      fd.append('doc', new Blob([Buffer.alloc((1 << 20) + 1)]), 'big.bin');
      const big = await fetch(`${url}/upload`, { method: 'POST', body: fd });
      assert.deepEqual([big.status, await big.json()], [413, { code: 'LIMIT_FILE_SIZE' }]);
      const cut = await fetch(`${url}/fields`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=b' },
        body: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
      });
      assert.deepEqual([cut.status, await cut.json()], [400, { code: 'MP_TRUNCATED', status: 400 }]);
    });
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
})();
