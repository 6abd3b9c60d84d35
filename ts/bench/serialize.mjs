// W5 (a form of 1,000 text fields + one 10 MiB File, serialized into one contiguous body) split into what each step
// costs, measured the way bench/run measures its W5 rows (the form is built inside the timer, the result kept alive).
//
//   npm --prefix ts run build && bench/run --workload W5 --lang ts   # once: generates bench/.work/full/w5.*
//   node ts/bench/serialize.mjs [rounds=N]
//
// Rows, each in its own process, each adding one step to the one above:
//   build                 1,000 FormData.append + new File([blob]) + append: what every W5 row does (floor-build)
//   +encodeFormData       formwire's headers and text encoded (no body read yet)
//   +read File            the File's bytes read back once (File.stream(): Node copies them into a fresh ArrayBuffer)
//   +copy to output       that chunk copied into one output of the body's length (the least any contiguous body needs)
//   formwire bytes()      build + encodeFormData(fd).bytes(), the W5 formwire row
//   Response arrayBuffer  build + new Response(fd).arrayBuffer(), the W5 incumbent
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, '..', '..', 'bench', '.work', 'full');
const args = process.argv.slice(2);
const opt = (k, d) => {
  const a = args.find((x) => x.startsWith(k + '='));
  return a === undefined ? d : a.slice(k.length + 1);
};
const ROWS = ['build', '+encodeFormData', '+read File', '+copy to output', 'formwire bytes()', 'Response arrayBuffer'];

async function child(row) {
  const man = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const W = Object.values(man).find(Array.isArray).find((w) => w.id === 'W5');
  const fields = JSON.parse(readFileSync(join(dir, W.fields), 'utf8'));
  const blob = readFileSync(join(dir, W.blob));
  const fw = await import(join(here, '..', 'dist', 'src', 'index.js'));
  const build = () => {
    const fd = new FormData();
    for (const [k, v] of fields) fd.append(k, v);
    const file = new File([blob], W.blob_name, { type: W.blob_type });
    fd.append('file', file);
    return { fd, file };
  };
  const read = async (file) => {
    const r = file.stream().getReader();
    const chunks = [];
    for (;;) {
      const x = await r.read();
      if (x.done) return chunks;
      chunks.push(x.value);
    }
  };
  const fns = {
    build: async () => build(),
    '+encodeFormData': async () => fw.encodeFormData(build().fd, { boundary: W.boundary }),
    '+read File': async () => {
      const { fd, file } = build();
      const e = fw.encodeFormData(fd, { boundary: W.boundary });
      return [e, await read(file)];
    },
    '+copy to output': async () => {
      const { fd, file } = build();
      const e = fw.encodeFormData(fd, { boundary: W.boundary });
      const out = Buffer.allocUnsafe(e.contentLength);
      let o = e.contentLength - file.size;
      for (const c of await read(file)) {
        out.set(c, o);
        o += c.length;
      }
      return out;
    },
    'formwire bytes()': async () => fw.encodeFormData(build().fd, { boundary: W.boundary }).bytes(),
    'Response arrayBuffer': async () => new Uint8Array(await new Response(build().fd).arrayBuffer()),
  };
  const fn = fns[row];
  await fn();
  const now = () => Number(process.hrtime.bigint()) / 1e9;
  const times = [];
  let total = 0;
  let last;
  while (times.length < 5 || (total < 1 && times.length < 200)) {
    const t0 = now();
    last = await fn();
    const t = now() - t0;
    times.push(t);
    total += t;
  }
  void last;
  times.sort((x, y) => x - y);
  console.log(JSON.stringify({ wall: times[times.length >> 1] }));
}

async function parent() {
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`${dir} missing: run bench/run --workload W5 --lang ts once`);
  const rounds = Number(opt('rounds', 3));
  const res = new Map(ROWS.map((r) => [r, []]));
  for (let k = 0; k < rounds; k++) {
    for (const r of ROWS) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), `--row=${r}`], { encoding: 'utf8' });
      res.get(r).push(JSON.parse(out.trim().split('\n').pop()).wall);
    }
  }
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  console.log(`W5 (median wall time of ${rounds} processes)`);
  let prev = null;
  for (const r of ROWS) {
    const m = med(res.get(r));
    const step = r.startsWith('+') && prev !== null ? `  (+${((m - prev) * 1e3).toFixed(2)})` : '';
    console.log(`${r.padEnd(22)} ${(m * 1e3).toFixed(2).padStart(7)} ms${step}`);
    if (r === 'build' || r.startsWith('+')) prev = m;
  }
  const f = med(res.get('formwire bytes()'));
  const i = med(res.get('Response arrayBuffer'));
  console.log(`formwire vs Response: ${(i / f).toFixed(2)}x; at the "+copy to output" floor: ${(i / med(res.get('+copy to output'))).toFixed(2)}x`);
}

const rowArg = args.find((a) => a.startsWith('--row='));
if (rowArg) await child(rowArg.slice(6));
else await parent();
