// Consumers on Node: the built-in `Response.formData()` (undici) and busboy (npm, default options).
// Reads {"consumer", "cases": [{"key", "content_type", "body_b64"}]} from stdin; prints one JSON line per case:
// {"key", "ok": {"entries": [{"name", "filename", "type", "body_b64"}]}} for multipart, {"key", "ok": {"pairs"}}
// for urlencoded, or {"key", "error": "..."}.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const isUrlencoded = (ct) => ct.split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
const b64 = (buf) => Buffer.from(buf).toString('base64');

async function undici(ct, body) {
  const fd = await new Response(body, { headers: { 'content-type': ct } }).formData();
  if (isUrlencoded(ct)) return { pairs: [...fd].map(([n, v]) => [n, v]) };
  const entries = [];
  for (const [name, v] of fd) {
    if (typeof v === 'string') entries.push({ name, filename: null, type: null, body_b64: b64(Buffer.from(v, 'utf8')) });
    else entries.push({ name, filename: v.name, type: v.type, body_b64: b64(await v.arrayBuffer()) });
  }
  return { entries };
}

function busboy(ct, body) {
  const Busboy = require('busboy');
  return new Promise((resolve, reject) => {
    const out = [];
    const pending = [];
    let bb;
    try { bb = Busboy({ headers: { 'content-type': ct } }); } catch (e) { reject(e); return; }
    const ue = isUrlencoded(ct);
    bb.on('field', (name, val) => {
      out.push(ue ? [name, val] : { name, filename: null, type: null, body_b64: b64(Buffer.from(val, 'utf8')) });
    });
    bb.on('file', (name, stream, info) => {
      const e = { name, filename: info.filename ?? null, type: info.mimeType, body_b64: '' };
      out.push(e);
      const parts = [];
      stream.on('data', (d) => parts.push(d));
      pending.push(new Promise((res) => stream.on('end', () => { e.body_b64 = b64(Buffer.concat(parts)); res(); })));
    });
    bb.on('error', reject);
    bb.on('close', () => Promise.all(pending).then(() => resolve(ue ? { pairs: out } : { entries: out })));
    bb.end(body);
  });
}

const fn = { undici, busboy }[job.consumer];
for (const c of job.cases) {
  let res;
  try {
    res = { key: c.key, ok: await fn(c.content_type, Buffer.from(c.body_b64, 'base64')) };
  } catch (e) {
    res = { key: c.key, error: `${e.name}: ${e.message}`.slice(0, 300) };
  }
  process.stdout.write(JSON.stringify(res) + '\n');
}
