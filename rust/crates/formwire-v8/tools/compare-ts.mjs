// Rust (formwire-v8) against the TypeScript codec on the W6 workloads, in one session: alternates
// `--example speed` runs with in-process TS measurements and prints the median of each time and of
// the per-round ratios (on a shared machine the ratio of adjacent runs is steadier than either time).
//   cargo build --release -p formwire-v8 --manifest-path rust/Cargo.toml --example speed --features serde
//   node rust/crates/formwire-v8/tools/compare-ts.mjs [rounds]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serialize, deserialize } from '../../../../ts/dist/src/clone/index.js';

const rounds = Number(process.argv[2] ?? 5);
const speed = fileURLToPath(new URL('../../../target/release/examples/speed', import.meta.url));

const flat = (i) => ({ name: 'Alice' + (i % 10), age: 30 + (i % 50), active: i % 2 === 0 });
const objects = Array.from({ length: 100 }, (_, i) => flat(i));
const text = 'Hello World!!!'.repeat(Math.ceil(3_000_000 / 14)).slice(0, 3_000_000);
const objBytes = serialize(objects);
const strBytes = serialize(text);

let sink;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3;
};
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
  return s[s.length >> 1] / 1e3; // µs
}
const ts = {
  'objects encode': () => perOp(() => serialize(objects)),
  'objects decode': () => perOp(() => deserialize(objBytes)),
  'string encode': () => perOp(() => serialize(text)),
  'string decode': () => perOp(() => deserialize(strBytes)),
};
const rustRow = {
  'objects encode': /\[100 objects\] encode/,
  'objects decode': /\[100 objects\] decode/,
  'string encode': /3 MB one-byte string encode/,
  'string decode': /3 MB one-byte string decode/,
};
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const res = Object.fromEntries(Object.keys(ts).map((k) => [k, { rust: [], ts: [], ratio: [] }]));
for (let r = 0; r < rounds; r++) {
  const out = execFileSync(speed, { encoding: 'utf8' });
  for (const k of Object.keys(ts)) {
    const line = out.split('\n').find((l) => rustRow[k].test(l));
    const rust = Number(line.match(/([\d.]+) µs\/op/)[1]);
    const t = ts[k]();
    res[k].rust.push(rust);
    res[k].ts.push(t);
    res[k].ratio.push(t / rust);
  }
}
console.log(`medians over ${rounds} rounds (CPU time per op)`);
for (const [k, v] of Object.entries(res)) {
  console.log(
    `${k.padEnd(16)} rust ${med(v.rust).toFixed(2).padStart(8)} µs   ts ${med(v.ts).toFixed(2).padStart(8)} µs   ` +
      `ts/rust ${med(v.ratio).toFixed(1)}x (range ${Math.min(...v.ratio).toFixed(1)}-${Math.max(...v.ratio).toFixed(1)})`,
  );
}
