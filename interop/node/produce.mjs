// Producers on Node: undici's fetch and `new Response(formData)` (built in), and the `form-data` npm package.
// Reads a job from stdin: {"producer", "url", "cases": [{"case", "kind", "entries" | "pairs"}]}; sends every case to
// `${url}/${case}` (a loopback capture server); prints {"version": "..."} on stdout.
import http from 'node:http';
import { createRequire } from 'node:module';
import * as buffer from 'node:buffer';

const require = createRequire(import.meta.url);
const FileCtor = globalThis.File ?? buffer.File;

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const bytes = (b) => Buffer.from(b.base64, 'base64');

function webForm(entries) {
  const fd = new FormData();
  for (const e of entries) {
    if ('value' in e) fd.append(e.name, e.value);
    else if (e.file) fd.append(e.name, new FileCtor([bytes(e.file.body)], e.file.filename, { type: e.file.type }));
    else fd.append(e.name, new Blob([bytes(e.blob.body)], { type: e.blob.type }));
  }
  return fd;
}

function post(url, ctype, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': ctype, 'content-length': body.length } },
      (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', reject);
    req.end(body);
  });
}

async function send(c) {
  const url = `${job.url}/${encodeURIComponent(c.case)}`;
  const payload = c.kind === 'multipart' ? webForm(c.entries) : new URLSearchParams(c.pairs);
  if (job.producer === 'node-fetch') {
    const res = await fetch(url, { method: 'POST', body: payload });
    await res.arrayBuffer();
  } else if (job.producer === 'node-response') {
    const r = new Response(payload);
    await post(url, r.headers.get('content-type'), Buffer.from(await r.arrayBuffer()));
  } else if (job.producer === 'node-form-data') {
    const FormDataPkg = require('form-data');
    const form = new FormDataPkg();
    for (const e of c.entries) {
      if ('value' in e) form.append(e.name, e.value);
      else {
        const opts = { filename: e.file.filename };
        if (e.file.type) opts.contentType = e.file.type;
        form.append(e.name, bytes(e.file.body), opts);
      }
    }
    await new Promise((resolve, reject) => form.submit(url, (err, res) => {
      if (err) reject(err); else { res.resume(); res.on('end', resolve); }
    }));
  } else throw new Error(`unknown producer ${job.producer}`);
}

for (const c of job.cases) await send(c);
let version = `node ${process.version} undici ${process.versions.undici}`;
if (job.producer === 'node-form-data') version = `form-data ${require('form-data/package.json').version} (node ${process.version})`;
console.log(JSON.stringify({ version }));
