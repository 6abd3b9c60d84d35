// Speed check for formwire/clone against the runtime (a side tool of bench/, not a bench/run workload).
//   npm --prefix ts run build
//   node bench/node/clone.mjs targets [rounds [1,2,..]]   the speed targets (all, or the listed ones)
//   node bench/node/clone.mjs [clone|wire|worker|all]
// `targets` runs, for each target, `rounds` (default 9) rounds of one batch of the native operation and one batch of
// ours, each batch at least 20 ms of CPU time, and prints the median per-op times and the median of the per-round
// ratios (on a shared, noisy machine the ratio of two adjacent batches is steadier than either time). Results are
// checked against the native result once before timing. Exit code 1 when a target is not met.
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import '../../ts/dist/src/clone/node.js';
import { clone } from '../../ts/dist/src/clone/clone.js';
import { serialize } from '../../ts/dist/src/clone/serialize.js';
import { deserialize } from '../../ts/dist/src/clone/deserialize.js';
import { postSerialized, receiveSerialized } from '../../ts/dist/src/clone/worker.js';
const flat = (i) => ({ name: 'Alice' + (i % 10), age: 30 + (i % 50), active: i % 2 === 0 });
const CASES = {
  'string 3MB': 'Hello World!!!'.repeat(1024 * 256),
  'string 11ch': 'Hello world',
  '[100 objects]': Array.from({ length: 100 }, (_, i) => flat(i)),
  'nested config': {
    service: { name: 'api-gateway', version: '2.14.1', env: 'production', region: 'eu-west-1' },
    server: { host: '0.0.0.0', port: 8443, tls: { enabled: true, minVersion: 'TLS1.2', ciphers: ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384'] }, timeouts: { read: 30000, write: 30000, idle: 120000 } },
    database: { primary: { url: 'postgres://db-1.internal:5432/app', pool: { min: 2, max: 20 } }, replicas: [{ url: 'postgres://db-2.internal:5432/app', weight: 0.5 }, { url: 'postgres://db-3.internal:5432/app', weight: 0.5 }] },
    features: { newCheckout: true, betaSearch: false, rollout: { percent: 12.5, cohorts: ['staff', 'beta'] } },
    logging: { level: 'info', sinks: [{ type: 'stdout', json: true }, { type: 'file', path: '/var/log/app.log', rotate: { maxMB: 100, keep: 7 } }] },
    limits: { rps: 5000, burst: 10000, bodyKB: 1024 },
  },
  'Float64Array 100k': new Float64Array(100000).map((_, i) => i * 1.5),
};
let sink;
function sample(fn, x, ms) {
  const limit = BigInt(Math.round(ms * 1e6));
  let n = 0;
  let batch = 1;
  const t0 = process.hrtime.bigint();
  let dt = 0n;
  while (dt < limit) {
    for (let i = 0; i < batch; i++)
      sink = fn(x);
    n += batch;
    if (batch < 1024)
      batch *= 2;
    dt = process.hrtime.bigint() - t0;
  }
  return Number(dt) / n;
}
function median(fn, x, rounds = 7) {
  sample(fn, x, 100);
  const s = [];
  for (let r = 0; r < rounds; r++)
    s.push(sample(fn, x, 50));
  s.sort((a, b) => a - b);
  return s[s.length >> 1];
}
const fmt = (ns) => (ns >= 1e6 ? (ns / 1e6).toFixed(2) + ' ms' : ns >= 1e3 ? (ns / 1e3).toFixed(2) + ' µs' : ns.toFixed(0) + ' ns');
function inProcess(which) {
  for (const [name, x] of Object.entries(CASES)) {
    const rows = [];
    if (which === 'clone' || which === 'all') {
      rows.push(['structuredClone', median((v) => structuredClone(v), x)]);
      rows.push(['formwire clone', median((v) => clone(v), x)]);
      rows.push(['JSON round trip', typeof x === 'string' || !ArrayBuffer.isView(x) ? median((v) => JSON.parse(JSON.stringify(v)), x) : NaN]);
    }
    if (which === 'wire' || which === 'all') {
      rows.push(['v8.serialize+deserialize', median((v) => v8.deserialize(v8.serialize(v)), x)]);
      rows.push(['formwire serialize+deserialize', median((v) => deserialize(serialize(v)), x)]);
    }
    console.log(`\n## ${name}`);
    const base = {};
    for (const [m, ns] of rows)
      base[m] = ns;
    for (const [m, ns] of rows) {
      let ratio = '';
      if (m === 'formwire clone')
        ratio = `  ${(base.structuredClone / ns).toFixed(1)}x faster than structuredClone, ${(base['JSON round trip'] / ns).toFixed(1)}x than JSON`;
      if (m === 'formwire serialize+deserialize')
        ratio = `  ${(base['v8.serialize+deserialize'] / ns).toFixed(1)}x faster than v8`;
      console.log(`  ${m.padEnd(32)} ${fmt(ns).padStart(10)}${ratio}`);
    }
  }
}
async function workers() {
  const here = fileURLToPath(import.meta.url);
  const w = new Worker(`const { parentPort, workerData } = require('node:worker_threads');
  import(workerData).then(({ postSerialized, receiveSerialized }) => {
   parentPort.on('message', (m) => {
    if (m instanceof Uint8Array) postSerialized(parentPort, receiveSerialized(m));
    else parentPort.postMessage(m);
   });
   parentPort.postMessage('ready');
  });`, { eval: true, workerData: new URL('../../ts/dist/src/clone/worker.js', 'file://' + here).href });
  await new Promise((r) => w.once('message', r));
  const next = () => new Promise((r) => w.once('message', r));
  const ITERS = 300;
  console.log('\n## worker_threads ping-pong (payload cloned both ways), median round trip');
  for (const [name, x] of Object.entries(CASES)) {
    const res = [];
    for (const mode of ['native', 'formwire']) {
      const send = mode === 'native' ? () => w.postMessage(x) : () => postSerialized(w, x);
      const recv = mode === 'native' ? (m) => m : (m) => receiveSerialized(m);
      for (let i = 0; i < 30; i++) {
        const p = next();
        send();
        recv(await p);
      }
      const rt = [];
      for (let i = 0; i < ITERS; i++) {
        const p = next();
        const t0 = process.hrtime.bigint();
        send();
        sink = recv(await p);
        rt.push(Number(process.hrtime.bigint() - t0));
      }
      rt.sort((a, b) => a - b);
      res.push(rt[rt.length >> 1]);
    }
    console.log(`  ${name.padEnd(20)} native ${fmt(res[0]).padStart(10)}  formwire ${fmt(res[1]).padStart(10)}  ${(res[0] / res[1]).toFixed(2)}x`);
  }
  await w.terminate();
}
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000; // ns
};
/** Iterations needed for one batch of fn(x) to take at least `ms` of CPU time. */
function calibrate(fn, x, ms) {
  let n = 1;
  for (;;) {
    const c0 = cpuNow();
    for (let i = 0; i < n; i++)
      sink = fn(x);
    const dt = (cpuNow() - c0) / 1e6;
    if (dt >= ms)
      return n;
    n = dt < ms / 16 ? n * 8 : Math.ceil((n * ms * 1.25) / Math.max(dt, 0.001));
  }
}
// A minor (young-generation) collection before each batch, outside the timed region: otherwise the next batch pays
// for collecting the previous batch's young garbage. With v8.serialize that garbage is thousands of Buffers whose
// weak callbacks made single scavenges take 100-450 ms (--trace-gc), landing in whichever batch came next, so
// per-round times were bimodal (our 11-char round trip at 85 ns or 800 ns). Each batch still pays for the
// collections its own allocation triggers. Not a full collection: after a forced full GC, allocation-heavy
// JavaScript ran 2-3x slower for the next 40 ms (measured), which would measure the GC policy, not the code.
let gc = () => { };
function exposeGc() {
  v8.setFlagsFromString('--expose-gc'); // only when measuring, not when `node --test` loads this file
  gc = vm.runInNewContext('gc');
}
/** [wall ns/op, cpu ns/op] */
function batch(fn, x, n) {
  gc({ type: 'minor' });
  const c0 = cpuNow();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++)
    sink = fn(x);
  const wall = Number(process.hrtime.bigint() - t0) / n;
  return [wall, (cpuNow() - c0) / n];
}
const med = (a) => {
  const s = [...a].sort((p, q) => p - q);
  return s.length & 1 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function targets(rounds, only) {
  exposeGc();
  const objs = CASES['[100 objects]'];
  const list = [
    { name: 'clone nested config (~800 B)', x: CASES['nested config'], base: ['structuredClone', (v) => structuredClone(v)], ours: (v) => clone(v), min: 2 },
    { name: 'serialize+deserialize 100 flat objects', x: objs, base: ['v8 ser+de', (v) => v8.deserialize(v8.serialize(v))], ours: (v) => deserialize(serialize(v)), min: 2 },
    { name: 'serialize+deserialize 11-char string', x: CASES['string 11ch'], base: ['v8 ser+de', (v) => v8.deserialize(v8.serialize(v))], ours: (v) => deserialize(serialize(v)), min: 10 },
    { name: 'clone 3 MB string', x: CASES['string 3MB'], base: ['structuredClone', (v) => structuredClone(v)], ours: (v) => clone(v), min: 1000 },
    { name: 'clone 100 flat objects', x: objs, base: ['structuredClone', (v) => structuredClone(v)], ours: (v) => clone(v), min: 3, also: ['JSON round trip', (v) => JSON.parse(JSON.stringify(v)), 1] },
  ];
  let ok = true;
  list.forEach((t, ti) => {
    if (only !== undefined && !only.split(',').includes(String(ti + 1)))
      return;
    // correctness first: same result as the native counterpart
    assert.deepStrictEqual(t.ours(t.x), t.base[1](t.x), t.name);
    const fns = [[t.base[0], t.base[1], t.min], ['formwire', t.ours, 0]];
    if (t.also)
      fns.push(t.also);
    for (const [, f] of fns)
      batch(f, t.x, calibrate(f, t.x, 100)); // warm up (JIT)
    const ns = fns.map(([, f]) => calibrate(f, t.x, 20));
    const wall = fns.map(() => []);
    const cpu = fns.map(() => []);
    const rw = fns.map(() => []);
    const rc = fns.map(() => []);
    for (let r = 0; r < rounds; r++) {
      const per = fns.map(([, f], i) => batch(f, t.x, ns[i]));
      per.forEach(([w, c], i) => {
        wall[i].push(w);
        cpu[i].push(c);
        rw[i].push(w / per[1][0]);
        rc[i].push(c / per[1][1]);
      });
    }
    console.log(`\n## ${ti + 1}. ${t.name}  (${rounds} rounds, batches >= 20 ms CPU)`);
    fns.forEach(([label, , goal], i) => {
      let line = `  ${label.padEnd(16)} cpu ${fmt(med(cpu[i])).padStart(9)}/op  wall ${fmt(med(wall[i])).padStart(9)}/op`;
      if (i !== 1) {
        const mc = med(rc[i]);
        const mw = med(rw[i]);
        const rs = rc[i].slice().sort((a, b) => a - b);
        const pass = mc >= goal;
        if (!pass)
          ok = false;
        line += `   formwire ${mc.toFixed(2)}x faster by cpu (rounds ${rs[0].toFixed(2)}-${rs[rs.length - 1].toFixed(2)}), ${mw.toFixed(2)}x by wall; target >= ${goal}x: ${pass ? 'met' : 'NOT met'}`;
      }
      console.log(line);
    });
  });
  return ok;
}
const which = process.argv[2] ?? 'all';
console.log(`node ${process.version} v8 ${process.versions.v8}`);
if (which === 'targets') {
  const ok = targets(Number(process.argv[3] ?? 9), process.argv[4]);
  console.log(ok ? '\nall targets met' : '\nsome targets NOT met');
  process.exitCode = ok ? 0 : 1;
}
else if (which !== 'worker')
  inProcess(which);
if (which === 'worker' || which === 'all')
  await workers();
void sink;
