// W4 (1 MiB urlencoded, ~20,000 pairs) the way bench/run measures it, plus floor rows that split formwire's time.
//
//   npm --prefix ts run build && bench/run --workload W4 --lang ts   # once: generates bench/.work/full/w4.txt
//   node bench/node/urlencoded.mjs [rounds=N] [only=substring,...]
//
// Every row runs in its own process, like bench/node/cases.mjs: the body is read as a latin1 string outside the
// timer, one warm-up run, then runs for at least 1 s (at least 5, at most 200), each result kept alive while the next
// run allocates (bench/run keeps `last`, so the garbage collector copies a live result whenever a scavenge falls in a
// run). Printed per row: median wall time and median CPU time over `rounds` processes (default 3), and the share of
// runs slower than twice the fastest one (runs that did a scavenge or a mark-compact step, or were descheduled).
//
// Floors (same input, same pair count, no decoding at all):
//   scan        s.indexOf('&') and s.indexOf('=') per pair: finding the pairs
//   +pairs      + one [a, b] array per pair, with two constant strings: the result's arrays
//   +slices     + s.slice() for the name and the value: the result's shape, every string a substring
// formwire minus `+slices` is what decoding '+' and '%' costs (40 % of W4's pairs hold a '+', 15 % a '%').
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const input = join(root, 'bench', '.work', 'full', 'w4.txt');
const args = process.argv.slice(2);
const opt = (k, d) => {
  const a = args.find((x) => x.startsWith(k + '='));
  return a === undefined ? d : a.slice(k.length + 1);
};

function scan(s) {
  const len = s.length;
  let n = 0;
  for (let a = 0; a < len; ) {
    let b = s.indexOf('&', a);
    if (b < 0) b = len;
    const e = s.indexOf('=', a);
    n += e < b ? 1 : 0;
    a = b + 1;
  }
  return n;
}

function pairs(s) {
  const out = [];
  const len = s.length;
  for (let a = 0; a < len; ) {
    let b = s.indexOf('&', a);
    if (b < 0) b = len;
    const e = s.indexOf('=', a);
    out.push(e < b ? ['k', 'v'] : ['k', '']);
    a = b + 1;
  }
  return out;
}

function slices(s) {
  const out = [];
  const len = s.length;
  for (let a = 0; a < len; ) {
    let b = s.indexOf('&', a);
    if (b < 0) b = len;
    let e = s.indexOf('=', a);
    if (e < 0 || e > b) e = b;
    out.push([s.slice(a, e), e < b ? s.slice(e + 1, b) : '']);
    a = b + 1;
  }
  return out;
}

async function rowFn(row, s) {
  if (row === 'formwire') {
    const fw = await import(join(here, '..', '..', 'ts', 'dist', 'src', 'index.js'));
    return () => fw.parseUrlencoded(s, { maxPairs: null });
  }
  if (row === 'URLSearchParams') {
    return () => {
      const u = new URLSearchParams(s);
      u.size;
      return u;
    };
  }
  if (row === 'fast-querystring') {
    const fq = createRequire(join(root, 'bench', 'node', 'package.json'))('fast-querystring');
    return () => fq.parse(s);
  }
  if (row === 'floor: scan') return () => scan(s);
  if (row === 'floor: +pairs') return () => pairs(s);
  if (row === 'floor: +slices') return () => slices(s);
  throw new Error(`unknown row ${row}`);
}

const ROWS = ['formwire', 'URLSearchParams', 'fast-querystring', 'floor: scan', 'floor: +pairs', 'floor: +slices'];

async function child(row) {
  const s = readFileSync(input, 'latin1');
  const fn = await rowFn(row, s);
  const now = () => Number(process.hrtime.bigint()) / 1e9;
  fn();
  const times = [];
  const cpu = [];
  let total = 0;
  let last;
  while (times.length < 5 || (total < 1 && times.length < 200)) {
    const c0 = process.cpuUsage();
    const t0 = now();
    last = fn();
    const t = now() - t0;
    const c = process.cpuUsage(c0);
    times.push(t);
    cpu.push((c.user + c.system) / 1e6);
    total += t;
  }
  void last;
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  const min = Math.min(...times);
  const slow = times.filter((t) => t > 2 * min).length / times.length;
  console.log(JSON.stringify({ wall: med(times), cpu: med(cpu), slow, runs: times.length }));
}

async function parent() {
  if (!existsSync(input)) throw new Error(`${input} missing: run bench/run --workload W4 --lang ts once`);
  const rounds = Number(opt('rounds', 3));
  const only = opt('only', '').split(',').filter(Boolean);
  let rows = ROWS.filter((r) => only.length === 0 || only.some((o) => r.includes(o)));
  try {
    createRequire(join(root, 'bench', 'node', 'package.json')).resolve('fast-querystring');
  } catch {
    rows = rows.filter((r) => r !== 'fast-querystring'); // bench/run installs it into bench/node
  }
  const res = new Map(rows.map((r) => [r, []]));
  for (let k = 0; k < rounds; k++) {
    for (const r of rows) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), `--row=${r}`], { encoding: 'utf8' });
      res.get(r).push(JSON.parse(out.trim().split('\n').pop()));
    }
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  const ms = (x) => (x * 1e3).toFixed(2).padStart(7);
  console.log(`W4 ${input} (median of ${rounds} processes)`);
  console.log(`${'row'.padEnd(18)} ${'wall ms'.padStart(7)} ${'cpu ms'.padStart(7)}  slow runs`);
  const m = new Map();
  for (const r of rows) {
    const xs = res.get(r);
    const v = { wall: med(xs.map((x) => x.wall)), cpu: med(xs.map((x) => x.cpu)), slow: med(xs.map((x) => x.slow)) };
    m.set(r, v);
    console.log(`${r.padEnd(18)} ${ms(v.wall)} ${ms(v.cpu)}  ${(v.slow * 100).toFixed(0).padStart(3)} %`);
  }
  const f = m.get('formwire');
  if (f) {
    for (const inc of ['URLSearchParams', 'fast-querystring']) {
      const i = m.get(inc);
      if (i) console.log(`formwire vs ${inc}: ${(i.wall / f.wall).toFixed(2)}x wall, ${(i.cpu / f.cpu).toFixed(2)}x cpu`);
    }
  }
}

const rowArg = args.find((a) => a.startsWith('--row='));
if (rowArg) await child(rowArg.slice(6));
else await parent();
