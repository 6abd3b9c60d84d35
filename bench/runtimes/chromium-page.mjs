// native.mjs's rows in a headless Chromium page (bench/runtimes/chromium.html, driven by bench/runtimes/chromium.py):
// the package's ESM build against the browser's own Response.formData(), new Response(formData), structuredClone
// and postMessage to a Worker, same page, inputs from bench/runtimes/inputs.mjs. A page has no CPU clock: the driver
// reads the renderer process's CPU time around each window.__bench.run() call; run() returns the wall time it measured
// with performance.now().
import { formData, encodeFormData, parseMultipart, MultipartParser } from '/ts/dist/src/index.js';
import { clone, hasProxyDetector, postSerialized, receiveSerialized } from '/ts/dist/src/clone/index.js';
import { CT, fileBytes, bodies, w5Form, W6, streamOf, streamed, sansIo, peakBody, peakHead, peakTail } from './inputs.mjs';

const LIMITS = { maxParts: 20000, maxFields: 20000 };
const NO_PROXIES = { assumeNoProxies: true };
const native = (body) => new Response(body, { headers: { 'content-type': CT } }).formData();
// W1's floor for a FormData result: the stream read to the end and its chunks made one File, no parser (what a
// parser that returns the file as a File pays here, whatever its speed).
async function fileFloor(body) {
  const chunks = [];
  const r = body.getReader();
  for (let x = await r.read(); !x.done; x = await r.read()) chunks.push(x.value);
  return new File(chunks, 'big.bin', { type: 'application/octet-stream' });
}

const ops = new Map();
let workers = null;

// The host serializer alone, the floor of clone()'s default in a page: a page's only Proxy check is a structured
// serialization by the host (JavaScript cannot tell a Proxy from its target), and a MessagePort whose other end is
// never started serializes each message (DataCloneError for a Proxy) and never deserializes it. The channel is
// replaced every 256 messages, which drops the queued ones.
let chan = null;
let posted = 0;
function hostSerialize(v) {
  if (chan === null || posted >= 256) {
    if (chan !== null) { chan.port1.close(); chan.port2.close(); }
    chan = new MessageChannel();
    posted = 0;
  }
  posted++;
  chan.port1.postMessage(v);
}

function spawn(mode) {
  const w = new Worker(new URL('./echo-worker.mjs', import.meta.url), { type: 'module', name: mode });
  let waiting = null;
  w.addEventListener('message', (e) => { const f = waiting; waiting = null; f(e.data); });
  return { w, send: (post) => new Promise((res) => { waiting = res; post(w); }) };
}

/** Builds the inputs (W1's file of `fileMiB` MiB) and the operations, and checks native and formwire agree. */
async function setup(fileMiB) {
  const file = fileBytes(fileMiB);
  const { W1, W2, W3 } = bodies(file);
  const fd = w5Form(file);
  const ow = { maxTotalFieldBytes: null };
  for (const [w, body, opts] of [['W1', W1, ow], ['W2', W2, LIMITS], ['W3', W3, {}]]) {
    ops.set(`${w}:native`, () => native(streamOf(body)));
    ops.set(`${w}:formData`, () => formData(streamOf(body), CT, opts));
    ops.set(`${w}:parseMultipart`, () => streamed(parseMultipart, streamOf(body), opts));
    ops.set(`${w}:sansIo`, () => sansIo(MultipartParser, body, LIMITS));
  }
  ops.set('W1:floorFile', () => fileFloor(streamOf(W1)));
  ops.set('W5:native', () => new Response(fd).arrayBuffer());
  ops.set('W5:ours', () => encodeFormData(fd).bytes());
  ops.set('noop', () => 0);
  workers = { native: spawn('native'), formwire: spawn('formwire') };
  for (const [name, v] of Object.entries(W6)) {
    const k = name.slice(0, 3);
    ops.set(`${k}:native`, () => structuredClone(v));
    ops.set(`${k}:ours`, () => clone(v));
    // A page has no Proxy detector, so clone() hands the value to structuredClone unless told the graph holds none.
    ops.set(`${k}:walk`, () => clone(v, NO_PROXIES));
    ops.set(`${k}:floor`, () => hostSerialize(v));
    ops.set(`${k}W:native`, () => workers.native.send((w) => w.postMessage(v)));
    ops.set(`${k}W:ours`, async () => receiveSerialized(await workers.formwire.send((w) => postSerialized(w, v))));
    const a = await ops.get(`${k}W:native`)();
    const b = await ops.get(`${k}W:ours`)();
    if (JSON.stringify(a) !== JSON.stringify(v) || JSON.stringify(b) !== JSON.stringify(v) || JSON.stringify(clone(v)) !== JSON.stringify(v) || JSON.stringify(clone(v, NO_PROXIES)) !== JSON.stringify(v)) throw new Error(`${name}: round trip differs`);
  }
  // The floor's serializer refuses a Proxy as structuredClone does (and as clone() must).
  for (const f of [hostSerialize, structuredClone, clone]) {
    let name = '';
    try { f({ a: new Proxy({}, {}) }); } catch (e) { name = e.name; }
    if (name !== 'DataCloneError') throw new Error(`${f.name}: a Proxy gave ${name || 'no error'}`);
  }
  // Same result first: field count, a field, the file's size.
  {
    const n = await ops.get('W2:native')();
    const o = await ops.get('W2:formData')();
    if ([...n.keys()].length !== 10000 || [...o.keys()].length !== 10000 || n.get('field9') !== o.get('field9')) throw new Error('W2 results differ');
    if ((await ops.get('W2:parseMultipart')()) !== [...o.values()].reduce((s, v) => s + v.length, 0)) throw new Error('W2 parseMultipart differs');
    const f1 = (await ops.get('W1:native')()).get('file'), f2 = (await ops.get('W1:formData')()).get('file');
    if (f1.size !== file.length || f2.size !== file.length || (await ops.get('W1:parseMultipart')()) !== file.length + 6) throw new Error('W1 results differ');
    const enc = encodeFormData(fd);
    const back = await new Response(await enc.bytes(), { headers: { 'content-type': enc.contentType } }).formData();
    if ([...back.keys()].length !== 1001 || back.get('f999') !== 'value 999' || back.get('file').size !== 1 << 20) throw new Error('W5 results differ');
  }
  return { ops: [...ops.keys()], proxyDetector: hasProxyDetector(), gc: typeof globalThis.gc === 'function', crossOriginIsolated: globalThis.crossOriginIsolated === true };
}

/** `inner` runs of operation `id` back to back; the wall time per run in ms. */
async function run(id, inner = 1) {
  const fn = ops.get(id);
  if (fn === undefined) throw new Error(`no operation ${id}`);
  const t0 = performance.now();
  for (let i = 0; i < inner; i++) await fn();
  return (performance.now() - t0) / inner;
}

/** One W1 parse for the peak-memory rows (a fresh page each, the body generated as it is read). */
async function peak(mode, mib) {
  let got = 0;
  if (mode === 'native') got = (await native(peakBody(mib))).get('file').size;
  else if (mode === 'formData') got = (await formData(peakBody(mib), CT, { maxTotalFieldBytes: null })).get('file').size;
  else if (mode === 'parseMultipart') {
    for await (const part of parseMultipart(peakBody(mib), CT)) for await (const c of part) if (part.filename !== null) got += c.length;
  } else if (mode === 'drain') {
    const r = peakBody(mib).getReader();
    for (let x = await r.read(); !x.done; x = await r.read()) got += x.value.length;
    got -= peakHead.length + peakTail.length;
  } else throw new Error(`peak mode ${mode}?`);
  if (got !== mib << 20) throw new Error(`peak ${mode}: file of ${got} bytes, expected ${mib << 20}`);
  // The result stays referenced until the driver has read the peak (the page is closed after).
  return got;
}

window.__bench = { setup, run, peak, gc: () => { globalThis.gc?.(); return true; } };
window.__benchReady = true;
