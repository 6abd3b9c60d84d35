// CPU time per operation of the TypeScript codec (ts/dist/src/clone) on the W6 workloads, in the same
// format as `--example speed`, for same-session ratios. Build the TS package first (`npm run build` in ts/).
//   node rust/crates/formwire-v8/tools/ts-speed.mjs [rounds]
import { serialize, deserialize } from '../../../../ts/dist/src/clone/index.js';

const rounds = Number(process.argv[2] ?? 9);
const flat = (i) => ({ name: 'Alice' + (i % 10), age: 30 + (i % 50), active: i % 2 === 0 });
const objects = Array.from({ length: 100 }, (_, i) => flat(i));
const text = 'Hello World!!!'.repeat(Math.ceil(3_000_000 / 14)).slice(0, 3_000_000);

let sink;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1e3; // ns
};
/** Median CPU ns per op over `rounds` batches of at least 20 ms each. */
function perOp(fn) {
  let n = 1;
  for (;;) {
    const t = cpu();
    for (let i = 0; i < n; i++) sink = fn();
    if (cpu() - t >= 20e6) break;
    n *= 2;
  }
  const s = [];
  for (let r = 0; r < rounds; r++) {
    const t = cpu();
    for (let i = 0; i < n; i++) sink = fn();
    s.push((cpu() - t) / n);
  }
  s.sort((a, b) => a - b);
  return s[s.length >> 1];
}
const row = (name, ns) => console.log(`${name.padEnd(46)} ${(ns / 1e3).toFixed(2).padStart(9)} µs/op`);

const objBytes = serialize(objects);
const strBytes = serialize(text);
row('[100 objects] encode (TS serialize)', perOp(() => serialize(objects)));
row('[100 objects] decode (TS deserialize)', perOp(() => deserialize(objBytes)));
row('3 MB one-byte string encode (TS)', perOp(() => serialize(text)));
row('3 MB one-byte string decode (TS)', perOp(() => deserialize(strBytes)));
