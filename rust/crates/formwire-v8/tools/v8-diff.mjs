// Differential test: formwire-v8 against V8 (Node's own serializer) and the JS reference codec
// (conformance/oracles/reference.mjs, written from spec/structured-clone.md).
//
//   cargo build --release -p formwire-v8 --manifest-path rust/Cargo.toml --example neutral_cli
//   node rust/crates/formwire-v8/tools/v8-diff.mjs [seed] [values]
//
// For random JS values (cycles, holes, lone surrogates, views, errors, ...): V8's raw bytes decode to what
// V8 itself reads back; Node-dialect bytes decode as the reference decoder reads them; the canonical encoding
// equals the reference encoder's and V8 reads it back to the same value; and 8 mutations of each input
// (with random options) give the reference decoder's exact result or error code and offset.
// Ends with `N passed, N failed`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import readline from 'node:readline';
import v8 from 'node:v8';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const { describe, neutralEqual } = await import(path.join(root, 'conformance/oracles/neutral.mjs'));
const ref = await import(path.join(root, 'conformance/oracles/reference.mjs'));

const cli = spawn(path.join(root, 'rust/target/release/examples/neutral_cli'), [], { stdio: ['pipe', 'pipe', 'inherit'] });
const rl = readline.createInterface({ input: cli.stdout });
const pending = [];
rl.on('line', (l) => pending.shift()(JSON.parse(l)));
const ask = (req) => new Promise((res) => { pending.push(res); cli.stdin.write(JSON.stringify(req) + '\n'); });
const raw = (v) => { const s = new v8.Serializer(); s.writeHeader(); s.writeValue(v); return s.releaseBuffer(); };

let seed = Number(process.argv[2] || 1);
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (n) => Math.floor(rnd() * n);

function randString() {
  const n = ri(6);
  let s = '';
  for (let i = 0; i < n; i++) {
    const k = ri(6);
    s += k === 0 ? String.fromCharCode(0xd800 + ri(0x800)) : k === 1 ? 'é' : k === 2 ? '€' : k === 3 ? '😀' : String.fromCharCode(97 + ri(26));
  }
  return s;
}
function randPrim() {
  switch (ri(12)) {
    case 0: return undefined; case 1: return null; case 2: return rnd() < 0.5;
    case 3: return ri(1000) - 500; case 4: return -0; case 5: return NaN; case 6: return 2 ** 31 + ri(10);
    case 7: return rnd() * 1e6; case 8: return BigInt(ri(1e9)) * (rnd() < 0.5 ? -1n : 1n) * (2n ** BigInt(ri(100)));
    case 9: return randString(); case 10: return Infinity; default: return 1.5;
  }
}
function randValue(depth, pool) {
  if (depth > 4 || rnd() < 0.3) return randPrim();
  if (pool.length && rnd() < 0.15) return pool[ri(pool.length)];
  let v;
  switch (ri(17)) {
    case 0: { v = {}; pool.push(v); const n = ri(4); for (let i = 0; i < n; i++) v[rnd() < 0.3 ? String(ri(20)) : randString()] = randValue(depth + 1, pool); break; }
    case 1: { v = []; pool.push(v); const n = ri(4); for (let i = 0; i < n; i++) v.push(randValue(depth + 1, pool)); if (rnd() < 0.2) v.extra = 1; break; }
    case 2: { v = []; pool.push(v); v[ri(10)] = randValue(depth + 1, pool); v.length = ri(3) + v.length; break; }
    case 3: v = new Date(rnd() < 0.1 ? NaN : ri(2e12)); break;
    case 4: v = new RegExp(randString().replace(/[\\^$.*+?()[\]{}|\ud800-\udfff]/g, '') || 'a', ['', 'g', 'gi', 'dgimsuy', 'v'][ri(5)]); break;
    case 5: { v = new Map(); pool.push(v); const n = ri(3); for (let i = 0; i < n; i++) v.set(randValue(depth + 1, pool), randValue(depth + 1, pool)); break; }
    case 6: { v = new Set(); pool.push(v); const n = ri(3); for (let i = 0; i < n; i++) v.add(randValue(depth + 1, pool)); break; }
    case 7: v = [new Boolean(rnd() < 0.5), new Number(rnd()), Object(5n), new String(randString())][ri(4)]; break;
    case 8: { const ab = new ArrayBuffer(ri(16)); new Uint8Array(ab).forEach((_, i, a) => { a[i] = ri(256); }); v = ab; break; }
    case 9: { const ab = new ArrayBuffer(16); const C = [Uint8Array, Int16Array, Float64Array, DataView, BigInt64Array, Uint8ClampedArray][ri(6)]; const sz = C.BYTES_PER_ELEMENT || 1; v = new C(ab, sz * ri(2), ri(16 / sz - 2)); break; }
    case 10: { const ab = new ArrayBuffer(8, { maxByteLength: 32 }); v = rnd() < 0.5 ? new Uint8Array(ab) : new Uint16Array(ab, 2, 1); break; }
    case 11: { const E = [Error, RangeError, TypeError, EvalError, URIError][ri(5)]; v = rnd() < 0.5 ? new E(randString(), { cause: randValue(depth + 1, pool) }) : new E(); if (rnd() < 0.5) v.stack = randString(); break; }
    case 12: { const b = Buffer.from(randString()); v = b; break; }
    case 13: { const o = { a: 1 }; v = [o, o]; break; }
    case 14: { v = {}; v.self = v; break; }
    case 15: {
      // Records: same-shape objects with ASCII keys (the decoders' shape-cache and frame-less paths),
      // sometimes one with a key fewer, one more, or the keys in another order.
      const keys = ['id', 'name', 'age', 'active', 'score', 'tag'].slice(0, 1 + ri(5));
      v = [];
      for (let i = 0, n = 1 + ri(6); i < n; i++) {
        const o = {};
        const ks = rnd() < 0.15 ? [...keys].reverse() : rnd() < 0.1 ? keys.slice(1) : keys;
        for (const k of ks) o[k] = rnd() < 0.2 ? randValue(depth + 1, pool) : [ri(200) - 100, 'v' + ri(1000), rnd() < 0.5, null, 1.5][ri(5)];
        if (rnd() < 0.1) o.extra = ri(10);
        v.push(o);
      }
      break;
    }
    default: v = randPrim();
  }
  return v;
}

let fails = 0, n = 0;
const N = Number(process.argv[3] || 500);
for (let i = 0; i < N; i++) {
  const v = randValue(0, []);
  for (const dialect of ['raw', 'node']) {
    let bytes;
    try { bytes = dialect === 'raw' ? raw(v) : v8.serialize(v); } catch { continue; }
    const want = dialect === 'raw' ? describe(v8.deserialize(bytes)) : ref.decode(new Uint8Array(bytes)).value;
    const got = await ask({ op: 'decode', hex: bytes.toString('hex') });
    n++;
    if (!got.value || !neutralEqual(got.value, want)) {
      fails++;
      if (fails < 6) console.log('DECODE', dialect, bytes.toString('hex'), '\n want', JSON.stringify(want).slice(0, 400), '\n got ', JSON.stringify(got).slice(0, 400));
    }
    // encode: canonical bytes equal reference; V8 reads them back to the same description
    const enc = await ask({ op: 'encode', value: want });
    const rref = ref.encode(want);
    n++;
    if (enc.hex !== rref.hex) {
      fails++;
      if (fails < 6) console.log('ENCODE', JSON.stringify(want).slice(0, 300), '\n ref', rref.hex, '\n got', enc.hex || JSON.stringify(enc));
    } else {
      const back = describe(v8.deserialize(Buffer.from(enc.hex, 'hex')));
      if (!neutralEqual(back, want)) { fails++; if (fails < 6) console.log('V8-READBACK', enc.hex, JSON.stringify(back).slice(0, 300)); }
    }
    // mutations: compare with the reference decoder (code + offset, or value)
    for (let m = 0; m < 8; m++) {
      const b = Buffer.from(bytes);
      const k = ri(4);
      let mb;
      if (k === 0) { b[ri(b.length)] = ri(256); mb = b; }
      else if (k === 1) mb = b.subarray(0, ri(b.length));
      else if (k === 2) { const p = ri(b.length); mb = Buffer.concat([b.subarray(0, p), Buffer.from([ri(256)]), b.subarray(p)]); }
      else { const p = ri(b.length); mb = Buffer.concat([b.subarray(0, p), b.subarray(p + 1)]); }
      const options = [{}, { node_ipc: true }, { max_depth: 2 }, { max_bytes: 20 }][ri(4)];
      const r = ref.decode(new Uint8Array(mb), options);
      const g = await ask({ op: 'decode', hex: mb.toString('hex'), options });
      n++;
      const same = r.error ? (g.error && g.error.code === r.error.code && g.error.offset === r.error.offset)
        : (g.value && neutralEqual(g.value, r.value));
      if (!same) {
        fails++;
        if (fails < 12) console.log('MUTANT', mb.toString('hex'), '\n ref', JSON.stringify(r).slice(0, 300), '\n got', JSON.stringify(g).slice(0, 300));
      }
    }
  }
}
console.log(`${n - fails} passed, ${fails} failed`);
cli.stdin.end();
