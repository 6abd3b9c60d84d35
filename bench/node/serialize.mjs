// W5 (a form of 1,000 text fields + one 10 MiB File, serialized into one contiguous body) split into what each step
// costs, measured the way bench/run measures its W5 rows (the form is built inside the timer, the result kept alive).
//
//   npm --prefix ts run build && bench/run --workload W5 --lang ts   # once: generates bench/.work/full/w5.*
//   node bench/node/serialize.mjs [rounds=N]                # the breakdown
//   node bench/node/serialize.mjs mode=readback [rounds=N]  # the ways Node offers to get a File's bytes out, compared
//   node bench/node/serialize.mjs mode=interleave [rounds=N] [runs=100]  # floor, formwire, Response taking turns
//
// Rows, each in its own process (median wall and CPU time of its runs; the median of those over the rounds; and the
// ArrayBuffer memory one run adds, which counts the 10 MiB copies it makes unless a collection ran during it):
//   build                 1,000 FormData.append + new File([blob]) + append: what every W5 row does (floor-build)
//   +encodeFormData       formwire's headers and text encoded (no body read yet)
//   +read File            the File's bytes read back once (File.stream(): Node copies them into a fresh ArrayBuffer)
//   +copy to output       that chunk copied into one output of the body's length
//   floor-body            bench/run's W5 floor: build, entries read back, names and values UTF-8 encoded into one
//                         output of the body's length, the File read back with File.stream() and copied in after them
//   formwire bytes()      build + encodeFormData(fd).bytes(), the W5 formwire row
//   Response arrayBuffer  build + new Response(fd).arrayBuffer(), the W5 incumbent
// mode=readback (rows taking turns in one process, as mode=interleave): build + the File's bytes into one output of
// the body's length, by each way of reading a Blob:
//   stream                File.stream(), default reader, each chunk copied into the output (Node 20: one chunk)
//   arrayBuffer           File.arrayBuffer() copied into the output (Node 20 concatenates its chunks into a second
//                         ArrayBuffer, even a single one: two copies before the output's)
//   bytes                 File.bytes() (arrayBuffer() wrapped) copied into the output
//   byob                  File.stream() with a BYOB reader reading straight into the output's ArrayBuffer (Node still
//                         makes its chunk and the stream copies it into the view)
//   slices 256 KiB        File.slice(...).stream() per 256 KiB copied into the output (a stream per slice)
// mode=interleave: build, floor-body, formwire bytes() and Response arrayBuffer in one process per round, taking
// turns run by run (runs=N each), so that load from other work on the machine falls on all of them alike.
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { writeFloorBody } from './floors.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, '..', '..', 'bench', '.work', 'full');
const args = process.argv.slice(2);
const opt = (k, d) => {
  const a = args.find((x) => x.startsWith(k + '='));
  return a === undefined ? d : a.slice(k.length + 1);
};
const MODES = {
  breakdown: ['build', '+encodeFormData', '+read File', '+copy to output', 'floor-body', 'formwire bytes()', 'Response arrayBuffer'],
  readback: ['build', 'stream', 'arrayBuffer', 'bytes', 'byob', 'slices 256 KiB'],
  interleave: ['build', 'floor-body', 'formwire bytes()', 'Response arrayBuffer'],
};
const MODE = opt('mode', 'breakdown');
const ROWS = MODES[MODE];
if (ROWS === undefined) throw new Error(`mode=${MODE}: one of ${Object.keys(MODES).join(', ')}`);

async function child(row) {
  const man = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const W = Object.values(man).find(Array.isArray).find((w) => w.id === 'W5');
  const fields = JSON.parse(readFileSync(join(dir, W.fields), 'utf8'));
  const blob = readFileSync(join(dir, W.blob));
  const fw = await import(join(here, '..', '..', 'ts', 'dist', 'src', 'index.js'));
  const build = () => {
    const fd = new FormData();
    for (const [k, v] of fields) fd.append(k, v);
    const file = new File([blob], W.blob_name, { type: W.blob_type });
    fd.append('file', file);
    return { fd, file };
  };
  const at = W.bytes - Buffer.byteLength(`\r\n--${W.boundary}--\r\n`) - blob.length; // where the File's bytes go
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
    'floor-body': async () => writeFloorBody(build().fd, Buffer.allocUnsafe(W.bytes), at), // bench/run's floor-body row
    stream: async () => {
      const { file } = build();
      const out = Buffer.allocUnsafe(W.bytes);
      let o = at;
      const r = file.stream().getReader();
      for (;;) {
        const x = await r.read();
        if (x.done) return out;
        out.set(x.value, o);
        o += x.value.length;
      }
    },
    arrayBuffer: async () => {
      const { file } = build();
      const out = Buffer.allocUnsafe(W.bytes);
      out.set(new Uint8Array(await file.arrayBuffer()), at);
      return out;
    },
    bytes: async () => {
      const { file } = build();
      const out = Buffer.allocUnsafe(W.bytes);
      out.set(await file.bytes(), at);
      return out;
    },
    byob: async () => {
      const { file } = build();
      let buf = new ArrayBuffer(W.bytes);
      let o = at;
      const end = at + file.size;
      const r = file.stream().getReader({ mode: 'byob' });
      while (o < end) {
        const x = await r.read(new Uint8Array(buf, o, end - o));
        if (x.done) break;
        buf = x.value.buffer; // the view's buffer was transferred: the same memory under a new ArrayBuffer
        o += x.value.length;
      }
      r.releaseLock();
      return buf;
    },
    'slices 256 KiB': async () => {
      const { file } = build();
      const out = Buffer.allocUnsafe(W.bytes);
      let o = at;
      for (let a = 0; a < file.size; a += 256 * 1024) {
        for (const c of await read(file.slice(a, a + 256 * 1024))) {
          out.set(c, o);
          o += c.length;
        }
      }
      return out;
    },
    'formwire bytes()': async () => fw.encodeFormData(build().fd, { boundary: W.boundary }).bytes(),
    'Response arrayBuffer': async () => new Uint8Array(await new Response(build().fd).arrayBuffer()),
  };
  const rows = row.split(',');
  const allocated = [];
  const gcs = [];
  const obs = new PerformanceObserver((list) => gcs.push(...list.getEntries().map((e) => e.startTime)));
  obs.observe({ entryTypes: ['gc'] });
  for (const r of rows) {
    // The ArrayBuffer memory one run adds (collected before it): the 10 MiB copies it makes, unless a collection
    // during the run freed some (then flagged)
    globalThis.gc?.();
    await new Promise((res) => setTimeout(res, 0));
    const a0 = process.memoryUsage().arrayBuffers;
    const p0 = performance.now();
    const first = await fns[r]();
    const p1 = performance.now();
    const a1 = process.memoryUsage().arrayBuffers;
    await new Promise((res) => setTimeout(res, 0)); // gc entries are delivered asynchronously
    allocated.push({ bytes: a1 - a0, gc: gcs.some((t) => t >= p0 && t <= p1) });
    if (MODE === 'readback' && r !== 'build') {
      // every way must have put the File's bytes where they belong
      const u = first instanceof ArrayBuffer ? new Uint8Array(first) : first;
      if (u.length !== W.bytes || !blob.equals(u.subarray(at, at + blob.length))) throw new Error(`${r}: wrong output`);
    }
  }
  const now = () => Number(process.hrtime.bigint()) / 1e9;
  const times = rows.map(() => []);
  const cpus = rows.map(() => []);
  const last = [];
  let total = 0;
  // mode=interleave and mode=readback: the rows take turns, one run each per round, so that a machine shared with other work slows
  // them alike; otherwise one row per process
  const n = Number(opt('runs', rows.length > 1 ? 100 : 0));
  while (n > 0 ? times[0].length < n : times[0].length < 5 || (total < 1 && times[0].length < 200)) {
    for (let j = 0; j < rows.length; j++) {
      const c0 = process.cpuUsage();
      const t0 = now();
      last[j] = await fns[rows[j]]();
      const t = now() - t0;
      const c = process.cpuUsage(c0);
      times[j].push(t);
      cpus[j].push((c.user + c.system) / 1e6);
      total += t;
    }
  }
  void last;
  console.log(JSON.stringify(rows.map((_, j) => ({ wall: med(times[j]), cpu: med(cpus[j]), allocated: allocated[j] }))));
}

const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];

async function parent() {
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`${dir} missing: run bench/run --workload W5 --lang ts once`);
  const rounds = Number(opt('rounds', 3));
  const res = new Map(ROWS.map((r) => [r, { wall: [], cpu: [] }]));
  const groups = MODE === 'breakdown' ? ROWS.map((r) => [r]) : [ROWS];
  for (let k = 0; k < rounds; k++) {
    for (const g of groups) {
      const argv = ['--expose-gc', fileURLToPath(import.meta.url), `--row=${g.join(',')}`, ...args.filter((a) => !a.startsWith('--row='))];
      const out = JSON.parse(execFileSync(process.execPath, argv, { encoding: 'utf8' }).trim().split('\n').pop());
      g.forEach((r, j) => {
        res.get(r).wall.push(out[j].wall);
        res.get(r).cpu.push(out[j].cpu);
        res.get(r).allocated = out[j].allocated;
      });
    }
  }
  const ms = (x) => (x * 1e3).toFixed(2).padStart(7);
  console.log(`W5 ${MODE} (median over ${rounds} rounds of each row's median wall and CPU time in its process)`);
  let prev = null;
  for (const r of ROWS) {
    const m = med(res.get(r).wall);
    const step = (r.startsWith('+') || MODE === 'readback') && prev !== null ? `  (+${((m - prev) * 1e3).toFixed(2)} wall)` : '';
    const a = res.get(r).allocated;
    const mib = `${(a.bytes / 1048576).toFixed(1).padStart(6)} MiB added${a.gc ? ' (GC ran)' : '          '}`;
    console.log(`${r.padEnd(22)} ${ms(m)} ms wall ${ms(med(res.get(r).cpu))} ms CPU ${mib}${step}`);
    if (r === 'build' || r.startsWith('+')) prev = m;
  }
  if (MODE === 'readback') return;
  const ratio = (t, a, b) => (med(res.get(a)[t]) / med(res.get(b)[t])).toFixed(2);
  for (const t of ['wall', 'cpu']) {
    console.log(`${t}: formwire vs Response ${ratio(t, 'Response arrayBuffer', 'formwire bytes()')}x; ` +
      `ceiling (Response / floor-body) ${ratio(t, 'Response arrayBuffer', 'floor-body')}x; ` +
      `formwire / floor-body ${ratio(t, 'formwire bytes()', 'floor-body')}`);
  }
}
const rowArg = args.find((a) => a.startsWith('--row='));
if (rowArg) await child(rowArg.slice(6));
else await parent();
