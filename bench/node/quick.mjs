// Quick same-run timings of formwire's multipart paths against the incumbents (not run by the tests).
//
//   npm --prefix ts run build
//   node bench/node/quick.mjs [w1] [w2] [rounds=N] [only=substring,...]
//
// Default: w2 only. W2 is bench/.work/full/w2.body as bench/run generated it (bench/lib/gen.py: 10,000 fields
// `field00000`…, values of 16–24 random alphanumerics). W1 reads bench/.work/full/w1.body when `bench/run` has generated it, else
// builds the same framing around 200 MiB of crypto-random bytes (random either way: the search speed depends on how
// often the delimiter's first byte occurs). Bodies are fed in 64 KiB chunks: Buffer views for the array sources, a
// pull ReadableStream (one chunk per pull, highWaterMark 0) for `Response.formData()` and the "web stream" rows,
// drain backpressure for busboy. Every row but the bare scans must return the expected count (field characters or
// file bytes), checked before timing.
//
// Every row is timed in CPU time (process.cpuUsage, so other load on a shared machine counts less than wall time)
// over batches of a few operations (fixed per row), rows interleaved round by round after two warm-up batches; the
// median of `rounds` batches (default 7) is printed with its min and max, then the ratios the targets are about.
// Reference rows: "floor" rows are costs no parser can avoid (10,000 FormData.append calls with ready strings;
// draining the web stream; on W1, building the in-memory File of the payload that formData() must return, which
// Node's Blob copies into fresh memory); "bare" rows scan the W1 chunks with Buffer.indexOf, once per 64 KiB chunk (the
// targets' reference) and in 16 KiB windows (what formwire's native search does, src/adapters/node.ts).
// busboy and @fastify/busboy rows appear when bench/node's npm project is installed (`bench/run` does that).
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { randomFillSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fw = await import(join(here, '..', '..', 'ts', 'dist', 'src', 'index.js'));
const fwBusboy = (await import(join(here, '..', '..', 'ts', 'dist', 'src', 'busboy.js'))).default;
let busboy = null;
let fastifyBusboy = null;
try {
  const req = createRequire(join(root, 'bench', 'node', 'package.json'));
  busboy = req('busboy');
  fastifyBusboy = req('@fastify/busboy');
} catch {
  // incumbents not installed: their rows are left out
}

const args = process.argv.slice(2);
const opt = (k, d) => {
  const a = args.find((x) => x.startsWith(k + '='));
  return a === undefined ? d : a.slice(k.length + 1);
};
const ROUNDS = Number(opt('rounds', 7));
const ONLY = opt('only', '').split(',').filter(Boolean);
const want = (w) => args.includes(w) || (w === 'w2' && !args.some((a) => /^w\d$/.test(a)));

const B = '----PeerBenchFormBoundary7MA4YWxkTrZu0g';
const CT = `multipart/form-data; boundary=${B}`;
const CHUNK = 65536;

// ---------------------------------------------------------------------------------------------------------------
// Inputs

/** A body bench/lib/gen.py wrote (bench/run generates bench/.work/full/ once); no second generator here. */
function generated(name) {
  const f = join(root, 'bench', '.work', 'full', name);
  if (!existsSync(f)) throw new Error(`${f} missing: run bench/run --workload W1,W2 --lang ts once`);
  return readFileSync(f);
}

function genW1() {
  const f = join(root, 'bench', '.work', 'full', 'w1.body');
  if (existsSync(f)) return readFileSync(f);
  const part = (name, v) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`;
  const head = Buffer.from(
    part('title', 'Quarterly upload: sensor dump #42') +
      part('description', 'benchmark W1 / peers.md') +
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const payload = randomFillSync(Buffer.allocUnsafe(200 * 1024 * 1024));
  return Buffer.concat([head, payload, Buffer.from(`\r\n--${B}--\r\n`)]);
}

function chunksOf(buf) {
  const out = [];
  for (let i = 0; i < buf.length; i += CHUNK) out.push(buf.subarray(i, Math.min(i + CHUNK, buf.length)));
  return out;
}

function pullStream(chunks) {
  let i = 0;
  return new ReadableStream(
    {
      pull(c) {
        if (i < chunks.length) c.enqueue(chunks[i++]);
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
}

async function feedWritable(w, chunks) {
  for (const c of chunks) if (!w.write(c)) await once(w, 'drain');
  w.end();
}

// ---------------------------------------------------------------------------------------------------------------
// Timing

/** rows: [name, fn, batch]; fn returns (a promise of) a check value. Interleaved rounds, CPU-time medians. */
async function run(title, rows, expect) {
  rows = rows.filter(([name]) => ONLY.length === 0 || ONLY.some((o) => name.includes(o)));
  console.log(`\n${title}`);
  for (const [name, fn] of rows) {
    const v = await fn();
    // every row but the bare scans must give the expected count (field characters, file bytes)
    if (!name.startsWith('bare') && v !== expect) throw new Error(`${name}: got ${v}, expected ${expect}`);
  }
  const res = new Map(rows.map(([name]) => [name, []]));
  for (let r = -2; r < ROUNDS; r++) {
    for (const [name, fn, batch] of rows) {
      const c0 = process.cpuUsage();
      for (let k = 0; k < batch; k++) await fn();
      const c = process.cpuUsage(c0);
      if (r >= 0) res.get(name).push((c.user + c.system) / 1000 / batch);
    }
  }
  const med = new Map();
  for (const [name, ts] of res) {
    ts.sort((a, b) => a - b);
    const m = ts[ts.length >> 1];
    med.set(name, m);
    console.log(`  ${name.padEnd(44)} ${m.toFixed(2).padStart(8)} ms  (min ${ts[0].toFixed(2)}, max ${ts[ts.length - 1].toFixed(2)})`);
  }
  return med;
}

function ratio(med, a, b, label) {
  if (!med.has(a) || !med.has(b)) return;
  console.log(`  ${label.padEnd(44)} ${(med.get(a) / med.get(b)).toFixed(2).padStart(8)}x`);
}

// ---------------------------------------------------------------------------------------------------------------
// W2

if (want('w2')) {
  const body = generated('w2.body');
  const chunks = chunksOf(body);
  const opts = { maxParts: Infinity, maxFields: Infinity };
  const count = (fd) => {
    let n = 0;
    for (const [, v] of fd) n += v.length;
    return n;
  };
  // precomputed strings for the FormData.append floor
  const pairs = [...(await fw.formData(chunks, CT, opts))];
  const expect = pairs.reduce((a, [, v]) => a + v.length, 0);
  console.log(`W2: ${body.length} B, ${pairs.length} fields, ${chunks.length} chunks, field chars ${expect}`);
  const bb = (Ctor, isNew) => async () => {
    let n = 0;
    const limits = { fields: Infinity, parts: Infinity, fieldSize: 1 << 30 };
    const b = isNew ? new Ctor({ headers: { 'content-type': CT }, limits }) : Ctor({ headers: { 'content-type': CT }, limits, formwire: opts });
    b.on('field', (_n, v) => (n += v.length));
    const done = once(b, isNew ? 'finish' : 'close');
    await feedWritable(b, chunks);
    await done;
    return n;
  };
  const rows = [
    ['Response.formData() (built-in)', async () => count(await new Response(pullStream(chunks), { headers: { 'content-type': CT } }).formData()), 5],
    ['fw.formData() web stream', async () => count(await fw.formData(pullStream(chunks), CT, opts)), 10],
    ['fw.formData() array', async () => count(await fw.formData(chunks, CT, opts)), 10],
    [
      'fw.parseMultipart + text() web stream',
      async () => {
        let n = 0;
        for await (const p of fw.parseMultipart(pullStream(chunks), CT, opts)) n += (await p.text()).length;
        return n;
      },
      10,
    ],
    [
      'fw.parseMultipart + text() array',
      async () => {
        let n = 0;
        for await (const p of fw.parseMultipart(chunks, CT, opts)) n += (await p.text()).length;
        return n;
      },
      10,
    ],
    [
      'fw.parseMultipart + textSync() if complete',
      async () => {
        let n = 0;
        for await (const p of fw.parseMultipart(pullStream(chunks), CT, opts)) n += (p.complete ? p.textSync() : await p.text()).length;
        return n;
      },
      10,
    ],
    [
      'fw.parseMultipart batches() + textSync()',
      async () => {
        let n = 0;
        for await (const batch of fw.parseMultipart(pullStream(chunks), CT, opts).batches()) {
          for (const p of batch) n += (p.complete ? p.textSync() : await p.text()).length;
        }
        return n;
      },
      10,
    ],
    [
      'core MultipartParser (utf8Slice values)',
      () => {
        let n = 0;
        const slice = Buffer.prototype.utf8Slice;
        let parts = [];
        const h = {
          onPartStart() {
            parts = [];
          },
          onDataRange(c, a, b) {
            parts.push(c, a, b);
          },
          onData(v) {
            parts.push(v, 0, v.length);
          },
          onPartEnd() {
            if (parts.length === 3) n += slice.call(parts[0], parts[1], parts[2]).length;
            else {
              let s = '';
              for (let i = 0; i < parts.length; i += 3) s += slice.call(parts[i], parts[i + 1], parts[i + 2]);
              n += s.length;
            }
          },
          onEnd() {},
        };
        const p = new fw.MultipartParser(B, h, opts);
        for (const c of chunks) p.write(c);
        p.end();
        return n;
      },
      10,
    ],
    [
      'floor: 10k FormData.append(precomputed)',
      () => {
        const fd = new FormData();
        for (let i = 0; i < pairs.length; i++) fd.append(pairs[i][0], pairs[i][1]);
        return count(fd);
      },
      20,
    ],
    ['fw busboy drop-in', bb(fwBusboy, false), 5],
  ];
  if (busboy !== null) rows.push(['busboy', bb(busboy, false), 3]);
  const med = await run('W2 many fields (CPU ms per parse, median)', rows, expect);
  console.log('  ratios (incumbent / formwire, higher is better)');
  ratio(med, 'Response.formData() (built-in)', 'fw.formData() web stream', 'Response.formData / fw.formData (web)');
  ratio(med, 'Response.formData() (built-in)', 'fw.formData() array', 'Response.formData / fw.formData (array)');
  ratio(med, 'busboy', 'fw.formData() web stream', 'busboy / fw.formData (web)');
  ratio(med, 'busboy', 'fw busboy drop-in', 'busboy / fw busboy drop-in');
  ratio(med, 'Response.formData() (built-in)', 'fw.parseMultipart + text() web stream', 'Response.formData / parseMultipart (web)');
  ratio(med, 'busboy', 'fw.parseMultipart + text() web stream', 'busboy / parseMultipart (web)');
  ratio(med, 'Response.formData() (built-in)', 'fw.parseMultipart + textSync() if complete', 'Response.formData / parseMultipart complete');
  ratio(med, 'Response.formData() (built-in)', 'fw.parseMultipart batches() + textSync()', 'Response.formData / parseMultipart batches');
  ratio(med, 'Response.formData() (built-in)', 'floor: 10k FormData.append(precomputed)', 'Response.formData / append floor');
  ratio(med, 'fw.formData() web stream', 'floor: 10k FormData.append(precomputed)', 'fw.formData (web) / append floor');
}

// ---------------------------------------------------------------------------------------------------------------
// W1

if (want('w1')) {
  const body = genW1();
  const chunks = chunksOf(body);
  const needle = Buffer.from('\r\n--' + B);
  const opts = {};
  const expect = 209715200;
  console.log(`W1: ${body.length} B, ${chunks.length} chunks`);
  const fileBytes = async (parts) => {
    let n = 0;
    for await (const p of parts) {
      if (p.filename === null) await p.text();
      else for await (const c of p) n += c.length;
    }
    return n;
  };
  const rows = [
    [
      'bare Buffer.indexOf scan of the chunks',
      () => {
        let x = 0;
        for (const c of chunks) x += c.indexOf(needle);
        return x;
      },
      3,
    ],
    [
      'bare indexOf scan in 16 KiB windows',
      () => {
        // what formwire's native search does (src/adapters/node.ts): one call per 16 KiB window, overlapping by
        // needle length - 1, so Node's search stays in its memchr-driven mode
        let x = 0;
        const span = 16384 + needle.length - 1;
        for (const c of chunks) {
          let w = 0;
          while (c.length - w > span) {
            x += c.subarray(w, w + span).indexOf(needle);
            w += 16384;
          }
          x += c.indexOf(needle, w);
        }
        return x;
      },
      3,
    ],
    [
      'core MultipartParser',
      () => {
        let n = 0;
        let file = false;
        const h = {
          onPartStart(p) {
            file = p.filename !== null;
          },
          onDataRange(_c, a, b) {
            if (file) n += b - a;
          },
          onData(v) {
            if (file) n += v.length;
          },
          onPartEnd() {},
          onEnd() {},
        };
        const p = new fw.MultipartParser(B, h, opts);
        for (const c of chunks) p.write(c);
        p.end();
        return n;
      },
      3,
    ],
    [
      'floor: drain the web stream (no parsing)',
      async () => {
        const r = pullStream(chunks).getReader();
        let n = 0;
        for (;;) {
          const x = await r.read();
          if (x.done) break;
          n += x.value.length;
        }
        return n === body.length ? expect : n;
      },
      3,
    ],
    ['fw.parseMultipart web stream', () => fileBytes(fw.parseMultipart(pullStream(chunks), CT, opts)), 3],
    ['fw.parseMultipart array', () => fileBytes(fw.parseMultipart(chunks, CT, opts)), 3],
  ];
  // formData(): the file part becomes an in-memory File, which Node's Blob constructor copies into fresh memory
  const fileSize = (fd) => fd.get('file').size;
  const payload = [];
  {
    const at = body.indexOf('\r\n\r\n', body.indexOf('filename=')) + 4;
    for (let i = at; i < at + expect; i += CHUNK) payload.push(body.subarray(i, Math.min(i + CHUNK, at + expect)));
  }
  rows.push(
    ['fw.formData() web stream', async () => fileSize(await fw.formData(pullStream(chunks), CT, opts)), 1],
    ['Response.formData() (built-in)', async () => fileSize(await new Response(pullStream(chunks), { headers: { 'content-type': CT } }).formData()), 1],
    ['floor: new File(the payload as 64 KiB views)', () => new File(payload, 'big.bin', { type: 'application/octet-stream', lastModified: 0 }).size, 1],
  );
  if (fastifyBusboy !== null) {
    rows.push([
      '@fastify/busboy',
      async () => {
        let n = 0;
        const b = new fastifyBusboy({ headers: { 'content-type': CT }, limits: { fileSize: Infinity } });
        b.on('file', (_n, s) => s.on('data', (d) => (n += d.length)));
        b.on('field', () => {});
        const done = once(b, 'finish');
        await feedWritable(b, chunks);
        await done;
        return n;
      },
      3,
    ]);
  }
  const med = await run('W1 big file (CPU ms per parse, median)', rows, expect);
  console.log('  ratios (other / formwire, higher is better)');
  ratio(med, 'bare Buffer.indexOf scan of the chunks', 'core MultipartParser', 'indexOf scan / core');
  ratio(med, 'bare Buffer.indexOf scan of the chunks', 'fw.parseMultipart web stream', 'indexOf scan / parseMultipart (web)');
  ratio(med, 'bare Buffer.indexOf scan of the chunks', 'fw.parseMultipart array', 'indexOf scan / parseMultipart (array)');
  ratio(med, 'bare indexOf scan in 16 KiB windows', 'fw.parseMultipart web stream', 'windowed scan / parseMultipart (web)');
  ratio(med, '@fastify/busboy', 'fw.parseMultipart web stream', '@fastify/busboy / parseMultipart (web)');
  ratio(med, '@fastify/busboy', 'core MultipartParser', '@fastify/busboy / core');
  ratio(med, 'Response.formData() (built-in)', 'fw.formData() web stream', 'Response.formData / fw.formData (web)');
  ratio(med, 'Response.formData() (built-in)', 'floor: new File(the payload as 64 KiB views)', 'Response.formData / new File floor');
}
