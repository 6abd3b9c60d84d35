// Runtime-neutral tests in the page: the package's ESM build against the browser's own natives, in a page without an
// import map (ts/browser/page.html). Run by ts/browser/testee.py --page-tests (window.__fwPageTests(env) returns the
// results; each test is one count in make test's ts-browser suite).
import { formData, encodeFormData, parseMultipart, parseUrlencoded, serializeUrlencoded, FormwireError, removeSpilledFiles } from '/ts/dist/src/index.js';
import { clone, serialize, deserialize } from '/ts/dist/src/clone/index.js';

const tests = [];
const test = (name, fn) => tests.push([name, fn]);
function eq(a, b, what) {
  const x = JSON.stringify(a), y = JSON.stringify(b);
  if (x !== y) throw new Error(`${what}: ${x.slice(0, 300)} !== ${y.slice(0, 300)}`);
}
async function flat(fd) {
  const out = [];
  for (const [k, v] of fd) out.push(typeof v === 'string' ? [k, v] : [k, v.name, v.type, v.size, Array.from(new Uint8Array(await v.arrayBuffer()))]);
  return out;
}
function sampleForm() {
  const fd = new FormData();
  fd.append('a', 'x\r\ny');
  fd.append('ü "q"', 'é');
  fd.append('f', new File([new Uint8Array([0, 1, 2, 255])], 'b"c.bin', { type: 'application/x-y' }));
  fd.append('t', new File(['hello'], 'h.txt', { type: 'text/plain' }));
  fd.append('empty', new File([], ''));
  return fd;
}

test('formData() equals the browser Response.formData() on the browser\'s own multipart body', async () => {
  const res = new Response(sampleForm());
  const ct = res.headers.get('content-type');
  const body = new Uint8Array(await res.arrayBuffer());
  const ours = await formData(new Response(body).body, ct);
  const native = await new Response(body, { headers: { 'content-type': ct } }).formData();
  eq(await flat(ours), await flat(native), 'entries');
});

test('encodeFormData() output is read back by the browser Response.formData()', async () => {
  const enc = encodeFormData(sampleForm());
  const bytes = await enc.bytes();
  if (bytes.length !== enc.contentLength) throw new Error(`contentLength ${enc.contentLength} != ${bytes.length}`);
  const native = await new Response(bytes, { headers: { 'content-type': enc.contentType } }).formData();
  // Expected: the browser's own encode-then-parse (WHATWG escapes '"' as %22 and a parser does not unescape it).
  eq(await flat(native), await flat(await new Response(sampleForm()).formData()), 'entries');
});

test('encodeFormData() streamed with fetch(duplex: \'half\') over HTTP/2: sent before the body was complete, no Content-Length, parsed back by formData()', async (env) => {
  if (!env.h2) throw new Error('no HTTP/2 echo endpoint (testee.py starts ts/browser/h2-echo.mjs)');
  const enc = encodeFormData(sampleForm());
  const id = crypto.randomUUID();
  let seen = null;
  // The body's end is held back until the server says it has bytes of this request while it is still open: were
  // the body buffered before sending, that answer could not come (the server times out) and the test fails.
  const gate = new TransformStream({
    async flush() {
      seen = await (await fetch(`${env.h2}/seen?id=${id}`)).json();
    },
  });
  let res;
  try {
    res = await fetch(`${env.h2}/echo?id=${id}`, { method: 'POST', body: enc.stream().pipeThrough(gate), duplex: 'half', headers: { 'content-type': enc.contentType } });
  } catch (e) {
    throw new Error(`the browser refused the streamed body over HTTP/2: ${e.message}`);
  }
  if (!res.ok) throw new Error(`echo: HTTP ${res.status}`);
  const up = JSON.parse(res.headers.get('x-formwire-upload'));
  if (!seen || seen.timeout || !(seen.bytes > 0) || seen.ended) throw new Error(`not streamed: the server saw ${JSON.stringify(seen)} before the body's end`);
  if (up.httpVersion !== '2.0') throw new Error(`HTTP ${up.httpVersion}`);
  if (up.contentLength !== null || up.transferEncoding !== null) throw new Error(`a streamed body was sent with content-length ${up.contentLength}, transfer-encoding ${up.transferEncoding}`);
  if (up.bytes !== enc.contentLength) throw new Error(`the server got ${up.bytes} bytes, contentLength is ${enc.contentLength}`);
  const echoed = new Uint8Array(await res.arrayBuffer());
  if (echoed.length !== enc.contentLength) throw new Error(`echoed ${echoed.length} bytes`);
  const ours = await formData(new Response(echoed).body, res.headers.get('content-type'));
  eq(await flat(ours), await flat(await new Response(sampleForm()).formData()), 'entries');
  return `HTTP/${up.httpVersion}, ${up.bytes} bytes in ${up.chunks} DATA chunks, no content-length; ${seen.bytes} bytes at the server before the body ended`;
});

test('encodeFormData() posted with fetch over HTTP/1.1 as bytes with Content-Length (the fallback where a streamed body is refused) and parsed back', async () => {
  const enc = encodeFormData(sampleForm());
  let how;
  try {
    // Chromium streams request bodies only over HTTP/2 or QUIC; the page's own server is HTTP/1.1.
    await (await fetch('/echo', { method: 'POST', body: enc.stream(), duplex: 'half', headers: { 'content-type': enc.contentType } })).arrayBuffer();
    how = 'a streamed body was accepted over HTTP/1.1 too';
  } catch (e) {
    how = `streamed body refused over HTTP/1.1 (${e.message})`;
  }
  const fallback = encodeFormData(sampleForm());
  const res = await fetch('/echo', { method: 'POST', body: await fallback.bytes(), headers: { 'content-type': fallback.contentType } });
  const ours = await formData(res.body, res.headers.get('content-type'));
  eq(await flat(ours), await flat(await new Response(sampleForm()).formData()), 'entries');
  return how;
});

test('parseMultipart: errors carry code and offset (limit = 413 kind)', async () => {
  const enc = encodeFormData(sampleForm());
  try {
    for await (const p of parseMultipart(new Response(await enc.bytes()).body, enc.contentType, { maxParts: 2 })) await p.arrayBuffer();
    throw new Error('no error');
  } catch (e) {
    if (!(e instanceof FormwireError) || e.code !== 'MP_LIMIT_PARTS' || typeof e.offset !== 'number') throw e;
  }
});

test('formData() with the Node-only spill option rejects in the page (its lazy node:fs import fails) instead of hanging', async () => {
  // ts/browser/node-refs.json: spill's import() calls are the only node: imports a browser can reach, and only so.
  const enc = encodeFormData(sampleForm());
  let error = null;
  try {
    await formData(enc.stream(), enc.contentType, { spill: { threshold: 1 } });
  } catch (e) {
    error = e;
  }
  if (error === null) throw new Error('formData() with spill resolved in a browser');
  if (removeSpilledFiles() !== 0) throw new Error('removeSpilledFiles() found temp files');
  return `${error.name}: ${error.message}`;
});

test('urlencoded: parse and serialize equal URLSearchParams', () => {
  const s = 'a=1&b=%C3%A9+x&c&=d&e=%zz&a=2';
  const ours = parseUrlencoded(s);
  eq(Array.from(ours, ([k, v]) => [k, v]), [...new URLSearchParams(s)], 'parse');
  const pairs = [['a b', 'c&d'], ['é', '*-._~!']];
  eq(serializeUrlencoded(pairs), new URLSearchParams(pairs).toString(), 'serialize');
});

test('clone equals structuredClone on maps, sets, dates, regexps, typed arrays, cycles', () => {
  const o = { m: new Map([[1, { s: new Set(['x']) }]]), d: new Date(5), r: /a+/gi, t: new Float64Array([1.5, -0]), big: 10n ** 30n, arr: [1, , 3] };
  o.self = o;
  for (const c of [clone(o), structuredClone(o)]) {
    if (c === o || c.self !== c || !(c.m.get(1).s instanceof Set) || c.d.getTime() !== 5 || c.r.flags !== 'gi') throw new Error('shape');
    if (!(c.t instanceof Float64Array) || !Object.is(c.t[1], -0) || c.big !== 10n ** 30n || 1 in c.arr) throw new Error('values');
  }
});

test('serialize/deserialize round trip (V8 wire format) in the page', () => {
  const v = { name: 'Alice', list: [1, 2.5, 'three', null, true], nested: { k: new Uint8Array([1, 2, 3]) } };
  const back = deserialize(serialize(v));
  eq({ ...back, nested: { k: Array.from(back.nested.k) } }, { ...v, nested: { k: [1, 2, 3] } }, 'value');
});

test('clone refuses what structuredClone refuses (functions) with a DataCloneError', () => {
  let native, ours;
  try { structuredClone({ f() {} }); } catch (e) { native = e.name; }
  try { clone({ f() {} }); } catch (e) { ours = e.name; }
  eq(ours, native, 'error name');
});

// env: {h2: the HTTP/2 echo origin (ts/browser/h2-echo.mjs)}, from testee.py.
window.__fwPageTests = async (env = {}) => {
  const out = [];
  for (const [name, fn] of tests) {
    try {
      const note = await fn(env);
      out.push({ name, ok: true, note: note ?? null });
    } catch (e) {
      out.push({ name, ok: false, note: String(e && e.stack || e) });
    }
  }
  return out;
};
