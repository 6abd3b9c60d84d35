// Rust (formwire-v8) against the TypeScript codec (ts/dist, as the bench loads it: clone/node.js) on the
// bench's W6 values, in one session: W6a a 3,000,000-char one-byte string, W6b 100 flat {name, age,
// active} objects, W6c an 11-char string, W6d the nested config (bench/lib/gen.py gen_w6).
//
//   CARGO_TARGET_DIR=bench/.deps/rust-target cargo build --release --manifest-path bench/rust/Cargo.toml --example v8_speed
//   node bench/rust/v8-compare-ts.mjs [rounds]        (default 5)
//
// The values come from bench/.work/full/w6.json when `bench/run` made it, else from the generator itself
// (python3, W6 only). Their V8 bytes are what Node's v8.serialize writes (TS serialize must write the same).
// Each round runs `--example v8_speed DIR` (one process, every Rust row) and then times the TS serialize and
// deserialize of the same values in this process; both measure CPU time per operation, median of 9
// batches of at least 20 ms. Printed: per row the median over the rounds of the Rust time, the TS time,
// both as MB/s (10^6 bytes of V8 data per second) and the median and range of the per-round ratios
// TS / Rust (on a shared machine the ratio of adjacent runs is steadier than either time).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { serialize, deserialize } = await import(path.join(root, 'ts/dist/src/clone/node.js'));
const rounds = Number(process.argv[2] ?? 5);
const speed = path.join(root, 'bench/.deps/rust-target/release/examples/v8_speed');

function w6values() {
  const cached = path.join(root, 'bench/.work/full/w6.json');
  if (existsSync(cached)) return { from: 'bench/.work/full/w6.json', values: JSON.parse(readFileSync(cached, 'utf8')) };
  const dir = mkdtempSync(path.join(tmpdir(), 'formwire-w6-'));
  execFileSync('python3', ['-c', [
    'import sys, pathlib',
    `sys.path.insert(0, ${JSON.stringify(path.join(root, 'bench/lib'))})`,
    'import gen',
    `gen.gen_w6(pathlib.Path(${JSON.stringify(dir)}), gen.PROFILES["full"])`,
  ].join('\n')]);
  const values = JSON.parse(readFileSync(path.join(dir, 'w6.json'), 'utf8'));
  rmSync(dir, { recursive: true });
  return { from: 'bench/lib/gen.py gen_w6 (full profile)', values };
}

const { from, values } = w6values();
const ids = ['W6a', 'W6b', 'W6c', 'W6d'];
const dir = mkdtempSync(path.join(tmpdir(), 'formwire-v8-'));
const bytes = {};
for (const id of ids) {
  bytes[id] = v8.serialize(values[id]);
  const mine = Buffer.from(serialize(values[id]));
  if (!mine.equals(bytes[id])) throw new Error(`${id}: TS serialize differs from v8.serialize`);
  writeFileSync(path.join(dir, id.toLowerCase() + '.v8'), bytes[id]);
}

let sink;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3; // ns
};
/** Median CPU µs per op over 9 batches of at least 20 ms. */
function perOp(fn) {
  let n = 1;
  for (;;) {
    const t = cpu();
    for (let i = 0; i < n; i++) sink = fn();
    if (cpu() - t >= 20e6) break;
    n *= 2;
  }
  const s = [];
  for (let r = 0; r < 9; r++) {
    const t = cpu();
    for (let i = 0; i < n; i++) sink = fn();
    s.push((cpu() - t) / n);
  }
  s.sort((a, b) => a - b);
  return s[s.length >> 1] / 1e3;
}

// Rust lines: `W6b decode (bytes -> Graph)   1.234 µs/op ...`; the TS operation is the row's first word.
const rowRe = /^(W6[a-d]) ((\S+).*?)\s{2,}\s*([\d.]+) µs\/op/;
const tsOp = { encode: 'encode', decode: 'decode', floor: 'encode' };
const res = new Map(); // row name -> { id, op, rust: [], ts: [], ratio: [] }
const tsTimes = {};
for (let r = 0; r < rounds; r++) {
  const out = execFileSync(speed, [dir], { encoding: 'utf8' });
  for (const id of ids) {
    tsTimes[`${id} encode`] = perOp(() => serialize(values[id]));
    tsTimes[`${id} decode`] = perOp(() => deserialize(bytes[id]));
  }
  for (const line of out.split('\n')) {
    const m = rowRe.exec(line);
    if (!m) continue;
    const [, id, name, word, us] = m;
    const op = tsOp[word.replace(/[_:].*/, '')] ?? word;
    const key = `${id} ${name.trim()}`;
    if (!res.has(key)) res.set(key, { id, op, rust: [], ts: [], ratio: [] });
    const e = res.get(key);
    const ts = tsTimes[`${id} ${op}`];
    e.rust.push(Number(us));
    e.ts.push(ts);
    e.ratio.push(ts / Number(us));
  }
}
rmSync(dir, { recursive: true });

const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const fmtT = (us) => (us >= 100 ? us.toFixed(0) : us >= 1 ? us.toFixed(2) : us.toFixed(3)).padStart(8);
const fmtX = (x, unit = 'x') => (x >= 100 ? Math.round(x).toLocaleString('en') : x.toFixed(1)) + unit;
const fmtR = (mbs) => (mbs >= 100 ? Math.round(mbs).toLocaleString('en') : mbs.toFixed(1)).padStart(9);
console.log(`W6 values from ${from}; V8 bytes from v8.serialize: ` + ids.map((id) => `${id} ${bytes[id].length} B`).join(', '));
console.log(`medians over ${rounds} rounds, CPU time per op; MB/s = 10^6 B of V8 data per second; ratio = TS time / Rust time`);
console.log('rows marked * append to a reused buffer (encode_into), reuse a Decoder\'s memory or borrow from the input (decode_borrowed); floor rows write the bytes once without encoding: their ratio is the most any contiguous encoder can reach');
console.log(`${'row'.padEnd(48)} ${'rust µs'.padStart(8)} ${'rust MB/s'.padStart(9)} ${'ts µs'.padStart(8)} ${'ts MB/s'.padStart(9)}  ts/rust (range)`);
for (const [key, v] of res) {
  const n = bytes[v.id].length;
  const star = /encode_into|borrowed|Decoder/.test(key) ? '*' : ' ';
  console.log(
    `${(key + ' ' + star).padEnd(48)} ${fmtT(med(v.rust))} ${fmtR(n / med(v.rust))} ${fmtT(med(v.ts))} ${fmtR(n / med(v.ts))}  ` +
      `${fmtX(med(v.ratio))} (${fmtX(Math.min(...v.ratio), '')}-${fmtX(Math.max(...v.ratio), '')})`,
  );
}
