// #4 W5 memory: "peak memory over baseline at most 0.1x the blob size when streamed". A W5-shaped form (1,000 text
// fields + one in-memory File of N MiB) is serialized and the body consumed by a sink that drops it, as an HTTP client
// writing to a socket does. Each row runs in its own process:
//
//   npm --prefix ts run build && node bench/node/memory.mjs [mib=10,100] [rounds=5]
//
// Two columns, from separate processes:
// - peak RSS growth: VmHWM after the body was consumed minus VmRSS once the form is built and a GC has run (the
//   high-water mark is reset through /proc/self/clear_refs just before); the GC runs as it likes. V8 frees dropped
//   ArrayBuffers when their external memory adds up to tens of MiB, so below that size this column shows the GC's
//   patience as much as the serializer's footprint.
// - live ArrayBuffers: the sink runs gc() after each chunk and samples process.memoryUsage().arrayBuffers: the most
//   the body keeps alive at once (the chunk in the sink's hands included), over the baseline.
// Rows:
//   formwire stream()         encodeFormData(fd).stream(): a web ReadableStream, read chunk by chunk
//   formwire for await        for await (const chunk of encodeFormData(fd)): the async iterator
//   formwire http.request     encodeFormData(fd) piped (Readable.from) into a Writable that acknowledges after a tick
//   Response(fd).body         the built-in: new Response(fd).body read chunk by chunk (undici's streamed form body)
//   Response arrayBuffer      the built-in, contiguous: new Response(fd).arrayBuffer() (for scale: ~1x the body)
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => {
  const a = args.find((x) => x.startsWith(k + '='));
  return a === undefined ? d : a.slice(k.length + 1);
};
const ROWS = ['formwire stream()', 'formwire for await', 'formwire http.request', 'Response(fd).body', 'Response arrayBuffer'];

const status = (key) => {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(m[1]) * 1024;
};

// With --gc the sink runs a full GC after each chunk, so the peak shows what the body keeps alive rather than how
// long the GC lets dropped chunks lie (V8 collects ArrayBuffers by external-memory pressure, tens of MiB apart).
let perChunk = () => {};

async function drain(stream) {
  const r = stream.getReader();
  let n = 0;
  for (;;) {
    const x = await r.read();
    if (x.done) return n;
    n += x.value.byteLength;
    perChunk();
  }
}

async function child(row, mib, gcPerChunk) {
  let held = 0;
  let heldBase = 0;
  if (gcPerChunk)
    perChunk = () => {
      globalThis.gc();
      held = Math.max(held, process.memoryUsage().arrayBuffers - heldBase);
    };
  const fw = await import(join(here, '..', '..', 'ts', 'dist', 'src', 'index.js'));
  const fd = new FormData();
  for (let i = 0; i < 1000; i++) fd.append(`field${i}`, `value ${i} `.repeat(4));
  const blob = new Uint8Array(mib << 20);
  for (let i = 0; i < blob.length; i += 4096) blob[i] = i & 0xff;
  fd.append('file', new File([blob], 'blob.bin', { type: 'application/octet-stream' }));
  const expected = fw.encodeFormData(fd).contentLength;
  const rows = {
    'formwire stream()': () => drain(fw.encodeFormData(fd).stream()),
    'formwire for await': async () => {
      let n = 0;
      for await (const c of fw.encodeFormData(fd)) {
        n += c.byteLength;
        perChunk();
      }
      return n;
    },
    'formwire http.request': async () => {
      let n = 0;
      const sink = new Writable({
        highWaterMark: 64 * 1024,
        write(c, _e, cb) {
          n += c.byteLength;
          perChunk();
          setImmediate(cb);
        },
      });
      await pipeline(Readable.from(fw.encodeFormData(fd), { objectMode: false }), sink);
      return n;
    },
    'Response(fd).body': () => drain(new Response(fd).body),
    'Response arrayBuffer': async () => (await new Response(fd).arrayBuffer()).byteLength,
  };
  globalThis.gc();
  globalThis.gc();
  writeFileSync('/proc/self/clear_refs', '5');
  const base = status('VmRSS');
  heldBase = process.memoryUsage().arrayBuffers;
  const n = await rows[row]();
  const peak = status('VmHWM');
  // Response's body has another boundary, so only formwire's length is checked exactly.
  if (row.startsWith('formwire') && n !== expected) throw new Error(`${row}: ${n} bytes, expected ${expected}`);
  console.log(JSON.stringify({ growth: peak - base, held, blob: blob.length, bytes: n }));
}

function parent() {
  const sizes = String(opt('mib', '10,100,1000')).split(',').map(Number);
  const rounds = Number(opt('rounds', 5));
  const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
  const run = (row, mib, gc) => {
    const g = [];
    for (let k = 0; k < rounds; k++) {
      const argv = ['--expose-gc', fileURLToPath(import.meta.url), `--row=${row}`, `--mib=${mib}`];
      if (gc) argv.push('--gc');
      g.push(JSON.parse(execFileSync(process.execPath, argv, { encoding: 'utf8' }).trim().split('\n').pop())[gc ? 'held' : 'growth']);
    }
    return med(g) / 2 ** 20;
  };
  const cell = (m, mib) => `${m.toFixed(2)} MiB (${(m / mib).toFixed(3)}x)`.padStart(22);
  console.log(`W5 streamed, median of ${rounds} processes each (x the blob size)`);
  console.log(`${'blob / row'.padEnd(28)}${'peak RSS growth'.padStart(22)}  ${'live ArrayBuffers'.padStart(22)}`);
  for (const mib of sizes) {
    console.log(`${mib} MiB`);
    for (const row of ROWS) {
      const natural = run(row, mib, false);
      const held = row === 'Response arrayBuffer' ? null : run(row, mib, true);
      console.log(`  ${row.padEnd(26)}${cell(natural, mib)}  ${held === null ? '-'.padStart(22) : cell(held, mib)}`);
    }
  }
}

const rowArg = args.find((a) => a.startsWith('--row='));
if (rowArg) await child(rowArg.slice(6), Number(args.find((a) => a.startsWith('--mib=')).slice(6)), args.includes('--gc'));
else parent();
