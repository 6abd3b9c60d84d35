// formwire against the runtime's own natives, same process, same inputs; runs unchanged under Node, Bun and Deno:
//   node bench/runtimes/native.mjs | bun bench/runtimes/native.mjs | deno run -A bench/runtimes/native.mjs
//   (bench/runtimes/run runs all three with the pinned Bun and Deno and writes bench/results/runtimes-<rt>.json;
//   the inputs are bench/runtimes/inputs.mjs's, which chromium-page.mjs uses in a headless Chromium page too)
// Each row: medians over REPS samples of wall time and process CPU time per op (process.cpuUsage: user + system), for
// the native operation and formwire's, sampled in turn, after a warm-up of each (measurePair).
import process from 'node:process';
import { formData, encodeFormData, parseMultipart, MultipartParser } from '../../ts/dist/src/index.js';
import { clone, postSerialized, receiveSerialized } from '../../ts/dist/src/clone/index.js';
import { arrayKeys } from '../../ts/dist/src/clone/kinds.js';
import { WEAK_MEMORY_MAP } from '../../ts/dist/src/clone/identity.js';
import { allocFilled } from '../../ts/dist/src/adapters/node.js';
import { CT, fileBytes, bodies, w5Form, W6, streamOf, streamed, batched, sansIo, w6bFloor, W6B_FLOOR, w5Floor, W5_FLOOR } from './inputs.mjs';

const REPS = Number(process.env.REPS ?? 7);
const QUICK = process.env.QUICK === '1';
const runtime = typeof Bun !== 'undefined' ? `bun ${Bun.version}` : typeof Deno !== 'undefined' ? `deno ${Deno.version.deno}` : `node ${process.versions.node}`;

const fileMiB = QUICK ? 4 : 64;
const file = fileBytes(fileMiB);
const { W1, W2, W3 } = bodies(file);

// W2's 10,000 fields are over the default part and field counts; W1's field total has no limit to reach.
const LIMITS = { maxParts: 20000, maxFields: 20000 };
const W1_OPTS = { maxTotalFieldBytes: null };
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const WARM_MS = Number(process.env.WARM_MS ?? (QUICK ? 20 : 300));
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? (QUICK ? 2 : 25));
/**
 * Warm-up, then the ops per sample: at least `inner`, doubled until one sample takes SAMPLE_MS of CPU time. The warm-up
 * runs the operation for WARM_MS (at least once): one call left JavaScriptCore's small-op rows (W6, ~20 us per op) in
 * its lower tiers for the first samples.
 */
async function prepare(fn, inner) {
  const w0 = performance.now();
  do await fn(); while (performance.now() - w0 < WARM_MS);
  let k = inner;
  for (;;) {
    const c0 = cpuMs();
    for (let i = 0; i < k; i++) await fn();
    if (cpuMs() - c0 >= SAMPLE_MS || k >= 1 << 20) return k;
    k *= 2;
  }
}
async function sample(fn, k) {
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < k; i++) await fn();
  const t1 = performance.now(); const c1 = process.cpuUsage(c0);
  return [(t1 - t0) / k, (c1.user + c1.system) / 1000 / k];
}
const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
/**
 * Native and formwire samples interleaved (AB, then BA, ...), so that load which comes and goes on a shared machine
 * falls on both sides alike; medians per op of wall and process CPU time.
 */
async function measurePair(native, ours, inner) {
  const ka = await prepare(native, inner);
  const kb = await prepare(ours, inner);
  const a = { wall: [], cpu: [] }, b = { wall: [], cpu: [] };
  for (let r = 0; r < REPS; r++) {
    for (const [fn, k, out] of r & 1 ? [[ours, kb, b], [native, ka, a]] : [[native, ka, a], [ours, kb, b]]) {
      const [w, c] = await sample(fn, k);
      out.wall.push(w); out.cpu.push(c);
    }
  }
  return [{ wall_ms: med(a.wall), cpu_ms: med(a.cpu), ops: ka }, { wall_ms: med(b.wall), cpu_ms: med(b.cpu), ops: kb }];
}
const rows = [];
async function row(work, nativeName, native, oursName, ours, inner = 1, method = undefined) {
  const [a, b] = await measurePair(native, ours, inner);
  const r = { work, native: nativeName, ours: oursName, native_wall_ms: a.wall_ms, native_cpu_ms: a.cpu_ms, ours_wall_ms: b.wall_ms, ours_cpu_ms: b.cpu_ms, cpu_ratio: a.cpu_ms / b.cpu_ms, wall_ratio: a.wall_ms / b.wall_ms, ops_per_sample: [a.ops, b.ops] };
  if (method) r.method = method;
  rows.push(r);
  console.log(`${work.padEnd(24)} ${nativeName.padEnd(34)} ${a.cpu_ms.toFixed(3).padStart(9)} ms CPU  ${oursName.padEnd(28)} ${b.cpu_ms.toFixed(3).padStart(9)} ms CPU  ratio ${r.cpu_ratio.toFixed(2)}x (wall ${r.wall_ratio.toFixed(2)}x) ops/sample ${a.ops}/${b.ops}`);
}

console.log(`# ${runtime}, REPS=${REPS}, W1 file ${fileMiB} MiB`);
// Same result first: field count and file size.
{
  const n = await new Request('http://x/', { method: 'POST', body: W2, headers: { 'content-type': CT } }).formData();
  const o = await formData(streamOf(W2), CT, LIMITS);
  if ([...n.keys()].length !== 10000 || [...o.keys()].length !== 10000 || n.get('field9') !== o.get('field9')) throw new Error('W2 results differ');
  if ((await streamed(parseMultipart, streamOf(W2), LIMITS)) !== [...o.values()].reduce((t, v) => t + v.length, 0)) throw new Error('W2 parseMultipart differs');
  if ((await streamed(parseMultipart, streamOf(W1), W1_OPTS)) !== file.length + 6) throw new Error('W1 parseMultipart differs');
  for (const [w, body] of [['W1', W1], ['W2', W2], ['W3', W3]]) {
    const n = await streamed(parseMultipart, streamOf(body), LIMITS);
    if (sansIo(MultipartParser, body, LIMITS) !== n) throw new Error(`${w} sans-IO count differs`);
    if ((await batched(parseMultipart, streamOf(body), LIMITS)) !== n) throw new Error(`${w} batches() count differs`);
  }
}
const req = (bytes) => new Request('http://x/', { method: 'POST', body: streamOf(bytes), headers: { 'content-type': CT }, duplex: 'half' });
await row('W1 one file', 'Request.formData()', () => req(W1).formData(), 'formData() (stream)', () => formData(streamOf(W1), CT, W1_OPTS));
await row('W1 one file', 'Request.formData()', () => req(W1).formData(), 'parseMultipart (stream)', () => streamed(parseMultipart, streamOf(W1), W1_OPTS));
await row('W1 one file', 'Request.formData()', () => req(W1).formData(), 'MultipartParser (sans-IO)', () => sansIo(MultipartParser, W1, LIMITS));
await row('W2 10,000 fields', 'Request.formData()', () => req(W2).formData(), 'formData() (stream)', () => formData(streamOf(W2), CT, LIMITS));
await row('W2 10,000 fields', 'Request.formData()', () => req(W2).formData(), 'parseMultipart (stream)', () => streamed(parseMultipart, streamOf(W2), LIMITS));
await row('W2 10,000 fields', 'Request.formData()', () => req(W2).formData(), 'parseMultipart (stream), batches()', () => batched(parseMultipart, streamOf(W2), LIMITS));
await row('W2 10,000 fields', 'Request.formData()', () => req(W2).formData(), 'MultipartParser (sans-IO)', () => sansIo(MultipartParser, W2, LIMITS));
// W2's floor: the 20,000 strings any parser that returns the fields must make (each name and value, read from the
// body with Buffer's latin1Slice, the cheapest string-from-bytes call here: W2 is ASCII), positions found beforehand,
// no parser. native / floor is the most a JavaScript parser can win on W2 in this runtime.
{
  const { Buffer } = await import('node:buffer');
  const buf = Buffer.from(W2.buffer, W2.byteOffset, W2.byteLength);
  const text = buf.latin1Slice(0, buf.length);
  const at = [];
  for (const m of text.matchAll(/name="([^"]*)"\r\n\r\n/g)) {
    const vs = m.index + m[0].length;
    at.push(m.index + 6, m.index + 6 + m[1].length, vs, text.indexOf('\r\n--', vs));
  }
  if (at.length !== 40000) throw new Error('W2 floor: field positions');
  const strings = (b) => {
    const out = new Array(20000);
    let n = 0;
    for (let i = 0; i < at.length; i += 4) {
      out[i >> 1] = b.latin1Slice(at[i], at[i + 1]);
      const v = (out[(i >> 1) + 1] = b.latin1Slice(at[i + 2], at[i + 3]));
      n += v.length;
    }
    return n;
  };
  await row('W2 10,000 fields', 'Request.formData()', () => req(W2).formData(), 'floor: the 20,000 name and value strings, no parser', () => strings(buf));
  rows[rows.length - 1].floor = true;
  // The floor of the part-by-part API (the parseMultipart (stream) row): the same strings, each field handed out as
  // `for await (const part of parts) await part.text()` must, a part object and an iterator result per field, both
  // through an awaited promise; no parser. batches() is the README's way around it.
  const api = {
    i: 0,
    next() {
      const i = this.i;
      if (i >= at.length) return Promise.resolve({ done: true, value: undefined });
      this.i = i + 4;
      return Promise.resolve({ done: false, value: { name: buf.latin1Slice(at[i], at[i + 1]), i, text: apiText } });
    },
    [Symbol.asyncIterator]() { return this; },
  };
  function apiText() { return Promise.resolve(buf.latin1Slice(at[this.i + 2], at[this.i + 3])); }
  const awaited = async () => {
    api.i = 0;
    let n = 0;
    for await (const part of api) n += (await part.text()).length;
    return n;
  };
  if ((await awaited()) !== strings(buf)) throw new Error('W2 API floor: count');
  await row('W2 10,000 fields', 'Request.formData()', () => req(W2).formData(), 'floor: the same strings through the part-by-part API (per field an iterator result and a text() promise, both awaited), no parser', awaited);
  Object.assign(rows[rows.length - 1], { floor: true, floor_for: 'parseMultipart (stream)' });
}
await row('W3 100 fields+100 files', 'Request.formData()', () => req(W3).formData(), 'formData() (stream)', () => formData(streamOf(W3), CT));
await row('W3 100 fields+100 files', 'Request.formData()', () => req(W3).formData(), 'parseMultipart (stream)', () => streamed(parseMultipart, streamOf(W3), {}));
await row('W3 100 fields+100 files', 'Request.formData()', () => req(W3).formData(), 'MultipartParser (sans-IO)', () => sansIo(MultipartParser, W3, LIMITS));
const fd = w5Form(file);
await row('W5 encode 1000+1 MiB', 'new Response(fd).arrayBuffer()', () => new Response(fd).arrayBuffer(), 'encodeFormData().bytes()', () => encodeFormData(fd).bytes(), 5);
{
  const length = (await encodeFormData(fd).bytes()).length;
  // W5's form is ASCII: the floor writes one byte per character of the names and string values, then the file
  let chars = 0;
  for (const [k, v] of fd) chars += k.length + (typeof v === 'string' ? v.length : 0);
  if ((await w5Floor(fd, length, allocFilled)) !== chars + (1 << 20)) throw new Error('W5 floor: bytes written');
  await row('W5 encode 1000+1 MiB', 'new Response(fd).arrayBuffer()', () => new Response(fd).arrayBuffer(), W5_FLOOR, () => w5Floor(fd, length, allocFilled), 5);
  Object.assign(rows[rows.length - 1], { floor: true, floor_for: 'encodeFormData().bytes()' });
}
for (const [name, v] of Object.entries(W6)) {
  await row(name, 'structuredClone', () => structuredClone(v), 'formwire clone', () => clone(v), name.startsWith('W6a') ? 20 : 2000);
}
{
  const v = W6['W6b 100 flat objects'];
  const packed = (a) => arrayKeys(a, a.length) === null;
  const MemoryMap = WEAK_MEMORY_MAP ? WeakMap : Map;
  if (JSON.stringify(w6bFloor(v, packed, MemoryMap)) !== JSON.stringify(v)) throw new Error('W6b floor: copy differs');
  await row('W6b 100 flat objects', 'structuredClone', () => structuredClone(v), W6B_FLOOR, () => w6bFloor(v, packed, MemoryMap), 2000);
  Object.assign(rows[rows.length - 1], { floor: true, floor_for: 'formwire clone' });
}
// postMessage to a Worker: one round trip per op (main -> worker -> main), the worker sending back what it received.
// Native: the runtime's structured clone both ways. formwire: serialize -> transfer the bytes -> deserialize, both ways
// (postSerialized / receiveSerialized). process.cpuUsage counts both threads.
const workerRows = [];
{
  const url = new URL('./echo-worker.mjs', import.meta.url);
  const nodeWt = typeof Worker === 'undefined' ? await import('node:worker_threads') : null;
  const spawn = (mode) => {
    const w = nodeWt ? new nodeWt.Worker(url, { workerData: mode }) : new Worker(url, { type: 'module', name: mode });
    let waiting = null;
    const got = (d) => { const f = waiting; waiting = null; f(d); };
    if (nodeWt) w.on('message', got); else w.addEventListener('message', (e) => got(e.data));
    return { w, send: (post) => new Promise((res) => { waiting = res; post(w); }) };
  };
  const nat = spawn('native'), fw = spawn('formwire');
  for (const [name, v] of Object.entries(W6)) {
    const a = await nat.send((w) => w.postMessage(v));
    const b = receiveSerialized(await fw.send((w) => postSerialized(w, v)));
    if (JSON.stringify(a) !== JSON.stringify(v) || JSON.stringify(b) !== JSON.stringify(v)) throw new Error(`${name}: worker round trip differs`);
    await row(name.replace(/^W6(.)/, 'W6$1 Worker'), 'postMessage round trip', () => nat.send((w) => w.postMessage(v)), 'serialize+transfer round trip', async () => receiveSerialized(await fw.send((w) => postSerialized(w, v))), name.startsWith('W6a') ? 20 : 500,
      `${nodeWt ? 'worker_threads' : 'Web'} Worker echoing each message; native: postMessage(value) both ways; formwire: postSerialized (serialize, transfer the buffer) / receiveSerialized both ways`);
  }
  for (const x of [nat, fw]) await x.w.terminate();
}

// W1 peak memory: each parse in its own child process of this runtime (bench/runtimes/peak.mjs), a fresh body generated
// as it is read; growth = VmHWM after - VmRSS before. Target (#18): formwire's streaming parse < 0.1x native formData().
const peak = [];
{
  const { spawnSync } = await import('node:child_process');
  const script = new URL('./peak.mjs', import.meta.url).pathname;
  // Deno reads /proc/self/status only with all permissions (-A) for the child, which runs only peak.mjs.
  const args = typeof Deno !== 'undefined' ? ['run', '-A', script] : [script];
  const mib = QUICK ? 16 : 200;
  const run = (mode) => {
    const p = spawnSync(process.execPath, args, { env: { ...process.env, PEAK_MODE: mode, PEAK_MIB: String(mib) }, encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`peak ${mode}: ${p.stderr}`);
    const j = JSON.parse(p.stdout.trim().split('\n').pop());
    return (j.peak_kib - j.rss_before_kib) / 1024;
  };
  const nativeMiB = run('native');
  // The floor row: the same generated body read to the end by no parser, the least any streaming parse costs here.
  for (const [ours, mode] of [['floor: the body stream drained, no parser', 'drain'], ['parseMultipart (parts streamed, drained)', 'parseMultipart'], ['formData() (stream; the File kept in memory)', 'formData']]) {
    const oursMiB = run(mode);
    peak.push({ work: `W1 peak RSS growth, ${mib} MiB file`, floor: mode === 'drain', native: 'Request.formData()', ours, native_mib: nativeMiB, ours_mib: oursMiB, ratio: oursMiB / nativeMiB,
      method: 'one parse per child process, body generated in 64 KiB chunks as read; growth = /proc/self/status VmHWM after - VmRSS before' });
    console.log(`W1 peak ${mib} MiB: native ${nativeMiB.toFixed(1)} MiB, ${ours} ${oursMiB.toFixed(1)} MiB: ${(oursMiB / nativeMiB).toFixed(3)}x`);
  }
}
if (process.env.OUT) {
  const fs = await import('node:fs');
  const os = await import('node:os');
  fs.writeFileSync(process.env.OUT, JSON.stringify({ runtime, cpu: process.env.CPU_LABEL ?? os.cpus()[0]?.model ?? '', reps: REPS, w1_mib: fileMiB, load_note: `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at the end (2 cores shared with other jobs)`, rows, peak }, null, 1) + '\n');
}
