// Quick speed check for formwire/clone against the runtime (not the project's bench harness).
//   node dist/test/clone/bench.js [clone|wire|worker|all]
// Prints the median time per operation of several rounds and the ratio against the native counterpart.
// Under `node --test` this file only registers a skipped test.
import { test } from 'node:test';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import '../../src/clone/node.js';
import { clone } from '../../src/clone/clone.js';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize } from '../../src/clone/deserialize.js';
import { postSerialized, receiveSerialized } from '../../src/clone/worker.js';

const flat = (i: number): object => ({ name: 'Alice' + (i % 10), age: 30 + (i % 50), active: i % 2 === 0 });
const CASES: Record<string, unknown> = {
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

let sink: unknown;
function sample(fn: (x: unknown) => unknown, x: unknown, ms: number): number {
  const limit = BigInt(Math.round(ms * 1e6));
  let n = 0;
  let batch = 1;
  const t0 = process.hrtime.bigint();
  let dt = 0n;
  while (dt < limit) {
    for (let i = 0; i < batch; i++) sink = fn(x);
    n += batch;
    if (batch < 1024) batch *= 2;
    dt = process.hrtime.bigint() - t0;
  }
  return Number(dt) / n;
}
function median(fn: (x: unknown) => unknown, x: unknown, rounds = 7): number {
  sample(fn, x, 100);
  const s: number[] = [];
  for (let r = 0; r < rounds; r++) s.push(sample(fn, x, 50));
  s.sort((a, b) => a - b);
  return s[s.length >> 1]!;
}
const fmt = (ns: number): string => (ns >= 1e6 ? (ns / 1e6).toFixed(2) + ' ms' : ns >= 1e3 ? (ns / 1e3).toFixed(2) + ' µs' : ns.toFixed(0) + ' ns');

function inProcess(which: string): void {
  for (const [name, x] of Object.entries(CASES)) {
    const rows: Array<[string, number]> = [];
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
    const base: Record<string, number> = {};
    for (const [m, ns] of rows) base[m] = ns;
    for (const [m, ns] of rows) {
      let ratio = '';
      if (m === 'formwire clone') ratio = `  ${(base.structuredClone! / ns).toFixed(1)}x faster than structuredClone, ${(base['JSON round trip']! / ns).toFixed(1)}x than JSON`;
      if (m === 'formwire serialize+deserialize') ratio = `  ${(base['v8.serialize+deserialize']! / ns).toFixed(1)}x faster than v8`;
      console.log(`  ${m.padEnd(32)} ${fmt(ns).padStart(10)}${ratio}`);
    }
  }
}

async function workers(): Promise<void> {
  const here = fileURLToPath(import.meta.url);
  const w = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import(workerData).then(({ postSerialized, receiveSerialized }) => {
       parentPort.on('message', (m) => {
         if (m instanceof Uint8Array) postSerialized(parentPort, receiveSerialized(m));
         else parentPort.postMessage(m);
       });
       parentPort.postMessage('ready');
     });`,
    { eval: true, workerData: new URL('../../src/clone/worker.js', 'file://' + here).href },
  );
  await new Promise((r) => w.once('message', r));
  const next = (): Promise<unknown> => new Promise((r) => w.once('message', r));
  const ITERS = 300;
  console.log('\n## worker_threads ping-pong (payload cloned both ways), median round trip');
  for (const [name, x] of Object.entries(CASES)) {
    const res: number[] = [];
    for (const mode of ['native', 'formwire']) {
      const send = mode === 'native' ? () => w.postMessage(x) : () => postSerialized(w, x);
      const recv = mode === 'native' ? (m: unknown) => m : (m: unknown) => receiveSerialized(m);
      for (let i = 0; i < 30; i++) { const p = next(); send(); recv(await p); }
      const rt: number[] = [];
      for (let i = 0; i < ITERS; i++) {
        const p = next();
        const t0 = process.hrtime.bigint();
        send();
        sink = recv(await p);
        rt.push(Number(process.hrtime.bigint() - t0));
      }
      rt.sort((a, b) => a - b);
      res.push(rt[rt.length >> 1]!);
    }
    console.log(`  ${name.padEnd(20)} native ${fmt(res[0]!).padStart(10)}  formwire ${fmt(res[1]!).padStart(10)}  ${(res[0]! / res[1]!).toFixed(2)}x`);
  }
  await w.terminate();
}

if (process.env.NODE_TEST_CONTEXT) {
  test('clone benchmark', { skip: 'a benchmark, not a test: run node dist/test/clone/bench.js' }, () => {});
} else {
  const which = process.argv[2] ?? 'all';
  console.log(`node ${process.version} v8 ${process.versions.v8}`);
  if (which !== 'worker') inProcess(which);
  if (which === 'worker' || which === 'all') await workers();
  void sink;
}
