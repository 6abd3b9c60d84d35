// Differential test of a conformance testee's clone ops against V8 (Node's own serializer) and the JS reference
// codec (conformance/oracles/reference.mjs). Written for the Go and Java codecs; any testee of
// conformance/langs/<lang>.json works.
//
//   node go/v8/tools/v8-diff.mjs <lang> [seed] [values]      (build the testee first; run from anywhere)
//
// For random JS values (cycles, shared objects, holes, index-like and adversarial keys, lone surrogates, views over
// shared and resizable buffers, errors with causes, wrappers, BigInts): the raw bytes V8 writes decode to what V8
// reads back; Node-dialect bytes (v8.serialize) decode as the reference decoder reads them; the testee's encoding of
// the value equals the reference encoder's bytes and V8 reads it back to the same value; and 8 mutations of each
// input, with random options, give the reference decoder's exact value or error code and offset.
// Ends with `N passed, N failed`; exit status 1 on any failure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { describe, neutralEqual } = await import(path.join(root, 'conformance/oracles/neutral.mjs'));
const ref = await import(path.join(root, 'conformance/oracles/reference.mjs'));

const lang = process.argv[2] || 'go';
const spec = JSON.parse(fs.readFileSync(path.join(root, 'conformance/langs', `${lang}.json`), 'utf8'));
const testee = spawn(spec.cmd[0], spec.cmd.slice(1), { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
const rl = readline.createInterface({ input: testee.stdout });
const pending = [];
rl.on('line', (l) => pending.shift()(JSON.parse(l)));
let reqId = 0;
const ask = (req) => new Promise((res) => { pending.push(res); testee.stdin.write(JSON.stringify({ id: reqId++, ...req }) + '\n'); });
async function decode(bytes, options = {}) {
  const r = await ask({ op: 'clone.decode', options, input_b64: Buffer.from(bytes).toString('base64'), chunkings: [[]] });
  const x = r.results ? r.results[0] : r;
  return x.ok ? { value: x.ok.value } : { error: x.error };
}
async function encode(value) {
  const r = await ask({ op: 'clone.encode', value, options: {} });
  return r.ok ? { hex: r.ok.hex } : { error: r.error };
}
const raw = (v) => { const s = new v8.Serializer(); s.writeHeader(); s.writeValue(v); return s.releaseBuffer(); };

// a small LCG: reproducible from the seed
let seed = Number(process.argv[3] || 1);
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (n) => Math.floor(rnd() * n);
const pick = (a) => a[ri(a.length)];

const KEYS = ['', '\0', '__proto__', 'length', '0', '7', '01', '-1', '1.5', '4294967294', '4294967295', '2147483648',
  'a', 'b', 'é', '€', '😀', '\ud800', 'k'.repeat(200)];
function randString() {
  let s = '';
  for (let i = ri(7); i > 0; i--) {
    const k = ri(7);
    s += k === 0 ? String.fromCharCode(0xd800 + ri(0x800)) : k === 1 ? 'ÿ' : k === 2 ? '\u20ac' : k === 3 ? '😀' : k === 4 ? '\0' : String.fromCharCode(97 + ri(26));
  }
  return s;
}
function randPrim() {
  switch (ri(13)) {
    case 0: return undefined; case 1: return null; case 2: return rnd() < 0.5;
    case 3: return ri(2000) - 1000; case 4: return -0; case 5: return NaN; case 6: return 2 ** 31 - 2 + ri(4);
    case 7: return (rnd() - 0.5) * 1e300; case 8: return BigInt.asIntN(64 + ri(200), BigInt(ri(1e9)) << BigInt(ri(180)));
    case 9: case 10: return randString(); case 11: return -Infinity; default: return 2 ** 53 + 2;
  }
}
// own enumerable data properties (an assignment to __proto__ would set the prototype)
const def = (o, k, x) => Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
function randValue(depth, pool) {
  if (depth > 5 || rnd() < 0.3) return randPrim();
  if (pool.length && rnd() < 0.15) return pick(pool);
  let v;
  switch (ri(16)) {
    case 0: case 1: { v = {}; pool.push(v); for (let i = ri(5); i > 0; i--) def(v, pick(KEYS) + (rnd() < 0.5 ? '' : randString()), randValue(depth + 1, pool)); break; }
    case 2: { v = []; pool.push(v); for (let i = ri(5); i > 0; i--) v.push(randValue(depth + 1, pool)); if (rnd() < 0.3) def(v, pick(['x', '__proto__', '-1', '4294967295']), randValue(depth + 1, pool)); break; }
    case 3: { v = []; pool.push(v); v[ri(12)] = randValue(depth + 1, pool); if (rnd() < 0.2) v[4294967294] = 1; else v.length += ri(3); break; }
    case 4: v = new Date(rnd() < 0.1 ? NaN : (rnd() - 0.5) * 1.7e16); break;
    case 5: v = new RegExp(randString().replace(/[\\^$.*+?()[\]{}|/\ud800-\udfff\0]/g, '') || '', pick(['', 'g', 'dgimsuy', 'v', 'iv'])); break;
    case 6: { v = new Map(); pool.push(v); for (let i = ri(4); i > 0; i--) v.set(rnd() < 0.3 ? pick([0, -0, NaN, 'a', 1n]) : randValue(depth + 1, pool), randValue(depth + 1, pool)); break; }
    case 7: { v = new Set(); pool.push(v); for (let i = ri(4); i > 0; i--) v.add(rnd() < 0.3 ? pick([0, -0, NaN, 'a', 1n]) : randValue(depth + 1, pool)); break; }
    case 8: v = [new Boolean(rnd() < 0.5), new Number(pick([-0, NaN, 1.5, 7])), Object(-(2n ** 70n)), new String(randString())][ri(4)]; break;
    case 9: { const ab = new ArrayBuffer(ri(24)); new Uint8Array(ab).forEach((_, i, a) => { a[i] = ri(256); }); v = ab; pool.push(v); break; }
    case 10: {
      const ab = pool.find((x) => x instanceof ArrayBuffer && x.byteLength >= 16 && !x.resizable) || new ArrayBuffer(16);
      const C = pick([Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView]);
      const sz = C.BYTES_PER_ELEMENT || 1;
      v = new C(ab, sz * ri(2), ri(16 / sz - 1));
      if (rnd() < 0.3) v = [v, new Uint8Array(ab)];
      break;
    }
    case 11: { const ab = new ArrayBuffer(8, { maxByteLength: 32 }); v = pick([new Uint8Array(ab), new Uint16Array(ab, 2, 1), new DataView(ab, 4), ab]); break; }
    case 12: {
      const E = pick([Error, RangeError, TypeError, EvalError, URIError, SyntaxError, ReferenceError]);
      v = rnd() < 0.5 ? new E(randString(), { cause: randValue(depth + 1, pool) }) : new E();
      if (rnd() < 0.5) v.stack = randString(); else if (rnd() < 0.5) delete v.stack;
      break;
    }
    case 13: v = Buffer.from(randString()); break;
    case 14: { v = { k: 1 }; v.self = v; v.arr = [v, v]; break; }
    default: v = randPrim();
  }
  return v;
}

let fails = 0, n = 0;
const report = (what, ...lines) => { fails++; if (fails < 10) console.log(what, ...lines.map((l) => String(l).slice(0, 400))); };
const N = Number(process.argv[4] || 500);
for (let i = 0; i < N; i++) {
  const v = randValue(0, []);
  for (const dialect of ['raw', 'node']) {
    let bytes;
    try { bytes = dialect === 'raw' ? raw(v) : v8.serialize(v); } catch { continue; }
    const want = dialect === 'raw' ? describe(v8.deserialize(bytes)) : ref.decode(new Uint8Array(bytes)).value;
    const got = await decode(bytes);
    n++;
    if (!got.value || !neutralEqual(got.value, want)) report('DECODE', dialect, bytes.toString('hex'), '\n want', JSON.stringify(want), '\n got ', JSON.stringify(got));
    const enc = await encode(want);
    const rref = ref.encode(want);
    n++;
    if (enc.hex !== rref.hex) report('ENCODE', JSON.stringify(want), '\n ref', rref.hex, '\n got', enc.hex || JSON.stringify(enc));
    else {
      const back = describe(v8.deserialize(Buffer.from(enc.hex, 'hex')));
      if (!neutralEqual(back, want)) report('V8-READBACK', enc.hex, JSON.stringify(back));
    }
    for (let m = 0; m < 8; m++) {
      const b = Buffer.from(bytes);
      let mb;
      switch (ri(4)) {
        case 0: b[ri(b.length)] = ri(256); mb = b; break;
        case 1: mb = b.subarray(0, ri(b.length)); break;
        case 2: { const p = ri(b.length); mb = Buffer.concat([b.subarray(0, p), Buffer.from([pick([0, 0x3f, 0x5e, ri(256)])]), b.subarray(p)]); break; }
        default: { const p = ri(b.length); mb = Buffer.concat([b.subarray(0, p), b.subarray(p + 1)]); }
      }
      const options = pick([{}, {}, { node_ipc: true }, { max_depth: 2 }, { max_bytes: 20 }, { max_values: ri(8) },
        { max_bigint_bytes: 8 }, { max_depth: 1, max_values: 2 }]);
      const r = ref.decode(new Uint8Array(mb), options);
      const g = await decode(mb, options);
      n++;
      const same = r.error ? (g.error && g.error.code === r.error.code && g.error.offset === r.error.offset)
        : (g.value && neutralEqual(g.value, r.value));
      if (!same) report('MUTANT', mb.toString('hex'), JSON.stringify(options), '\n ref', JSON.stringify(r), '\n got', JSON.stringify(g));
    }
  }
}
console.log(`${n - fails} passed, ${fails} failed`);
testee.stdin.end();
process.exitCode = fails ? 1 : 0;
