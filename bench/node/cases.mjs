// The Node runner of bench/run: one case per process.
//
// `node cases.mjs JOB.json` loads the input named by the job's workload entry (bench/.work/<profile>/manifest.json),
// warms up, times each repetition around the work only (never process start or input loading), and prints one JSON
// line: per-repetition seconds, the result summary bench/run validates, peak RSS growth (VmHWM), version.
import { readFileSync, writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import querystring from 'node:querystring';
import { writeFloorBody } from './floors.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const W = job.work;
const require = createRequire(import.meta.url);
const fwUrl = (p) => pathToFileURL(join(job.formwire, p)).href;

/** The floor rows' core: a parser whose handler only counts parts and body bytes (no part objects, no promise). */
function countingCore(fw, ct, opts) {
  const c = { floor: true, parts: 0, bytes: 0 };
  const h = {
    onPartStart() {
      c.parts++;
    },
    onDataRange(ch, a, b) {
      c.bytes += b - a;
    },
    onData(v) {
      c.bytes += v.length;
    },
    onPartEnd() {},
    onEnd() {},
  };
  return { c, p: new fw.MultipartParser(fw.boundaryFromContentType(ct), h, opts) };
}

// The core row's handler, written as ts/README's core example writes one: its methods made once, the parse's state
// on a handler object made by a literal, so neither the methods' optimized code nor the shapes the parser's code
// checks die with the parse (a handler of closures made per parse was recompiled after every major GC; issue #20).
// Field values are decoded with Buffer's native UTF-8 slice from range events (no view per event), file bytes counted.
const utf8Slice = Buffer.prototype.utf8Slice;
function coreStart(p) {
  this.c.parts++;
  this.file = p.filename !== null;
  this.pieces = [];
  this.size = 0;
}
function coreRange(ch, a, b) {
  if (this.file) this.c.file_bytes += b - a;
  else {
    this.pieces.push(ch, a, b);
    this.size += b - a;
  }
}
function coreData(v) {
  this.onDataRange(v, 0, v.length);
}
function corePartEnd() {
  const c = this.c;
  if (this.file) c.files++;
  else {
    const pieces = this.pieces;
    let v;
    if (pieces.length === 3) v = utf8Slice.call(pieces[0], pieces[1], pieces[2]);
    else {
      const all = new Uint8Array(this.size);
      for (let i = 0, o = 0; i < pieces.length; i += 3) {
        all.set(pieces[i].subarray(pieces[i + 1], pieces[i + 2]), o);
        o += pieces[i + 2] - pieces[i + 1];
      }
      v = utf8Slice.call(all, 0, this.size);
    }
    c.fields++;
    c.field_bytes += v.length;
  }
}
function coreEnd() {}
const coreHandler = () => ({
  c: newCounts(),
  file: false,
  pieces: [],
  size: 0,
  onPartStart: coreStart,
  onDataRange: coreRange,
  onData: coreData,
  onPartEnd: corePartEnd,
  onEnd: coreEnd,
});

function depVersion(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    try {
      // packages whose exports hide package.json
      const main = require.resolve(name);
      const root = main.slice(0, main.lastIndexOf(`node_modules/${name}/`) + `node_modules/${name}/`.length);
      return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
    } catch {
      return '?';
    }
  }
}
let formwireVersion = '?';
try {
  formwireVersion = JSON.parse(readFileSync(join(job.formwire, '..', '..', 'package.json'), 'utf8')).version;
} catch {}

function statusKb(key) {
  try {
    const m = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${key}:\\s+(\\d+)`, 'm'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
let rss = { base: 0, reset: false };
function resetHwm() {
  const base = statusKb('VmRSS');
  let reset = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    reset = true;
  } catch {}
  rss = { base: reset ? base : statusKb('VmHWM'), reset };
}

const now = () => Number(process.hrtime.bigint()) / 1e9;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds of this (the main) thread so far, from Linux's per-thread schedstat (ns); null elsewhere. */
function mainCpu() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]) / 1e9;
  } catch {
    return null;
  }
}
const HAS_MAIN_CPU = mainCpu() !== null;

/**
 * After a forced gc(): wait until V8's helper threads are done with it. gc() returns with sweeping (and freeing) still
 * running on background threads, several ms of CPU on this machine, which process CPU time would otherwise charge
 * to the timed run that follows, work left over from the garbage of earlier runs, not the run's own (issue #20). The
 * same wait for every implementation: background CPU (process minus this thread) is polled every ms until it has not
 * grown for 3 polls (at most 200 ms); without per-thread CPU, a fixed 20 ms.
 */
async function settle() {
  if (!HAS_MAIN_CPU) return sleep(20);
  const c0 = process.cpuUsage();
  const m0 = mainCpu();
  let last = 0;
  let quiet = 0;
  for (let waited = 0; waited < 200 && quiet < 3; waited++) {
    await sleep(1);
    const c = process.cpuUsage(c0);
    const bg = (c.user + c.system) / 1e6 - (mainCpu() - m0);
    quiet = bg - last < 50e-6 ? quiet + 1 : 0;
    last = bg;
  }
}

/** Warm-up, then at least `reps` timed runs (more while under min_time, up to max_reps). fn returns a result. */
async function measure(fn) {
  resetHwm();
  for (let i = 0; i < job.warmup; i++) {
    const t0 = now();
    const r = await fn();
    const t = now() - t0;
    // a pathologically slow case: its one (cold) run is the sample, flagged
    if (t > job.slow_s) return { times: [t], last: r, slow: true };
  }
  const times = [];
  const cpu = [];
  // this thread's CPU alone beside process CPU (which includes V8's helper threads: concurrent marking, sweeping)
  const mainT = [];
  // The GC profile (node --expose-gc): a full GC before each of its timed runs (issue #20: optimized code thrown away
  // at a major GC shows only there), run after the plain profile, as many runs. Not interleaved with it: a forced
  // full GC also shrinks V8's young generation, so a plain run right after one paid for extra scavenges on V8's helper
  // threads (W1 parseMultipart: +6.5 ms of process CPU, @fastify/busboy +3.1 ms): it was a second GC profile.
  const gc = job.gc_profile && typeof globalThis.gc === 'function' ? globalThis.gc : null;
  const gcTimes = [];
  const gcCpu = [];
  const gcMain = [];
  let total = 0;
  let last;
  while (times.length < job.reps || (total < job.min_time && times.length < job.max_reps)) {
    const m0 = mainCpu();
    const c0 = process.cpuUsage();
    const t0 = now();
    last = await fn();
    const t = now() - t0;
    const c = process.cpuUsage(c0);
    const m = mainCpu();
    times.push(t);
    cpu.push((c.user + c.system) / 1e6);
    if (m0 !== null) mainT.push(m - m0);
    total += t;
    if (t > job.slow_s) break;
  }
  if (gc !== null) {
    for (let i = 0; i < times.length; i++) {
      gc();
      await settle();
      const m0 = mainCpu();
      const g0 = process.cpuUsage();
      const s0 = now();
      last = await fn();
      const t = now() - s0;
      const c = process.cpuUsage(g0);
      const m = mainCpu();
      gcTimes.push(t);
      gcCpu.push((c.user + c.system) / 1e6);
      if (m0 !== null) gcMain.push(m - m0);
    }
  }
  if (gc !== null) gcRuns = { times: gcTimes, cpu: gcCpu, main: gcMain.length === gcTimes.length ? gcMain : null, per: 1 };
  mainRuns = mainT.length === times.length ? { main: mainT, per: 1 } : null;
  return { times, cpu, last, slow: times.length === 1 && total > job.slow_s };
}

/** The GC profile's runs of the last measure() (per operation after measurePerOp), or null. */
let gcRuns = null;
/** This thread's CPU seconds of the plain runs of the last measure() (per operation after measurePerOp), or null. */
let mainRuns = null;

/**
 * Per-operation timing for small synchronous operations: batches of at least batch_time seconds of CPU time. CPU, not
 * wall time: on a loaded machine a preempted calibration ended early and left one implementation with batches 16x
 * smaller than another's, so the GC profile (one full GC per batch) charged it 16x more GCs per operation. With
 * batches of equal CPU time, a GC's after-effects cost every implementation the same share.
 */
async function measurePerOp(fn) {
  let k = 1;
  for (;;) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < k; i++) fn();
    const c = process.cpuUsage(c0);
    if ((c.user + c.system) / 1e6 >= job.batch_time || k >= 1 << 24) break;
    k *= 2;
  }
  const r = await measure(() => {
    let x;
    for (let i = 0; i < k; i++) x = fn();
    return x;
  });
  // measure() timed whole batches; report per operation
  if (gcRuns !== null) gcRuns.per = k;
  if (mainRuns !== null) mainRuns.per = k;
  return { times: r.times.map((t) => t / k), cpu: r.cpu?.map((t) => t / k), last: r.last, k, slow: r.slow };
}

// ---------------------------------------------------------------------------------------------------------------
// Multipart parsing

function chunksOf(buf, size) {
  const out = [];
  for (let i = 0; i < buf.length; i += size) out.push(buf.subarray(i, Math.min(i + size, buf.length)));
  return out;
}

/** A pull ReadableStream over the chunks (one chunk per pull), like a request body. */
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

/**
 * A Node Readable over the chunks, pushing the next one each time the stream asks for more (its _read), as an
 * http.IncomingMessage pushes what its socket read: the body ts/README's `parseMultipart(req, contentType)` reads.
 * Default options (an IncomingMessage takes its socket's highWaterMark, the same default).
 */
function nodeStream(chunks) {
  let i = 0;
  return new Readable({
    read() {
      this.push(i < chunks.length ? chunks[i++] : null);
    },
  });
}

/** Writes chunks to a Writable with drain backpressure, then end(). */
async function feedWritable(w, chunks) {
  for (const c of chunks) {
    if (!w.write(c)) await once(w, 'drain');
  }
  w.end();
}

const newCounts = () => ({ parts: 0, fields: 0, files: 0, field_bytes: 0, file_bytes: 0 });

async function multipartCase(imp) {
  const body = readFileSync(join(job.dir, W.file));
  const chunks = chunksOf(body, W.chunk);
  const ct = W.content_type;
  const headers = { 'content-type': ct, 'content-length': String(body.length) };
  const fwOpts = { maxParts: Infinity, maxFields: Infinity, maxFiles: Infinity, allowPreamble: !!W.allow_preamble };

  if (imp === 'floor-file') {
    // Floor: the copy any parser returning a standard FormData must make. Inside the timer only `new File()` of the
    // file payload's 64 KiB chunk views (Node's Blob copies them into fresh memory); the views are made outside it.
    const off = W.payload_offset ?? 0;
    const len = W.payload_bytes ?? body.length - off;
    const views = chunksOf(body.subarray(off, off + len), W.chunk);
    return {
      version: `node ${process.version}`,
      ...(await measure(() => {
        const f = new File(views, 'payload.bin');
        return { floor: true, bytes: f.size };
      })),
    };
  }
  if (imp === 'floor-append') {
    // Floor: the FormData any formData() must return, built from the fields' names and values already decoded (by
    // the built-in Response.formData(), outside the timer): new FormData() and one append per field, nothing parsed.
    const fields = [];
    for (const [k, v] of await new Response(body, { headers: { 'content-type': ct } }).formData()) fields.push(k, v);
    const r = await measure(() => {
      const fd = new FormData();
      for (let i = 0; i < fields.length; i += 2) fd.append(fields[i], fields[i + 1]);
      return fd;
    });
    let n = 0;
    let chars = 0;
    for (const [, v] of r.last) {
      n++;
      chars += v.length;
    }
    return { version: `node ${process.version}`, ...r, last: { floor: true, fields: n, field_bytes: chars } };
  }
  if (imp === 'floor-touch') {
    // The least any JS parser pays on a body: every 64-byte cache line of every chunk loaded once (a delimiter may
    // start at any byte, so no search can skip a line), from JS, over the same 64 KiB chunk views, nothing else.
    // bench/rust's floor-read is the same row in Rust. Reports the lines read (validated against the body length).
    return {
      version: `node ${process.version}`,
      ...(await measure(() => {
        let lines = 0;
        let x = 0;
        for (const ch of chunks) {
          for (let i = 0; i < ch.length; i += 64) x ^= ch[i];
          lines += (ch.length + 63) >> 6;
        }
        return { floor: true, lines, bytes: body.length, sink: x };
      })),
    };
  }
  if (imp === 'floor-core-data') {
    // The floor of parseMultipart over a Node Readable (the formwire-parse row): the same Readable drained by
    // 'data' events, each chunk written to the core with a handler that only counts, no part objects, no promise.
    const fw = await import(fwUrl('index.js'));
    return {
      version: formwireVersion,
      ...(await measure(
        () =>
          new Promise((resolve, reject) => {
            const { c, p } = countingCore(fw, ct, fwOpts);
            nodeStream(chunks)
              .on('data', (ch) => p.write(ch))
              .on('end', () => {
                p.end();
                resolve(c);
              })
              .on('error', reject);
          }),
      )),
    };
  }
  if (imp === 'floor-core-pull') {
    // parseMultipart's own floor (not one of every implementation: the incumbents are fed by writes): the same pull
    // stream read as parseMultipart reads it (one reader.read() per chunk), each chunk written to the core with a
    // handler that only counts, no part objects, no promise per event. What parseMultipart adds is over this.
    const fw = await import(fwUrl('index.js'));
    return {
      version: formwireVersion,
      ...(await measure(() => {
        const { c, p } = countingCore(fw, ct, fwOpts);
        const reader = pullStream(chunks).getReader();
        // a promise chain as parseMultipart's driver makes (no async function frame)
        const step = (r) => {
          if (r.done) {
            p.end();
            return c;
          }
          p.write(r.value);
          return reader.read().then(step);
        };
        return reader.read().then(step);
      })),
    };
  }
  if (imp === 'formwire-core') {
    // The sans-IO core with coreHandler() (above).
    const fw = await import(fwUrl('index.js'));
    return {
      version: formwireVersion,
      ...(await measure(() => {
        const h = coreHandler();
        // Exactly the README's core example: no search argument (the runtime-detected default).
        const p = new fw.MultipartParser(fw.boundaryFromContentType(ct), h, fwOpts);
        for (const ch of chunks) p.write(ch);
        p.end();
        return h.c;
      })),
    };
  }
  if (imp === 'formwire-parse' || imp === 'formwire-parse-web') {
    // formwire-parse: ts/README's usage, parseMultipart(req, contentType) over a Node Readable; formwire-parse-web:
    // the same over a pull ReadableStream (Request/Response and web stream users)
    const fw = await import(fwUrl('index.js'));
    const source = imp === 'formwire-parse' ? nodeStream : pullStream;
    return {
      version: formwireVersion,
      ...(await measure(async () => {
        const c = newCounts();
        for await (const part of fw.parseMultipart(source(chunks), ct, fwOpts)) {
          c.parts++;
          if (part.filename === null) {
            const v = await part.text();
            c.fields++;
            c.field_bytes += v.length;
          } else {
            for await (const b of part) c.file_bytes += b.length;
            c.files++;
          }
        }
        return c;
      })),
    };
  }
  if (imp === 'formwire-formdata' || imp === 'response-builtin' || imp === 'response-undici') {
    let run;
    let version;
    if (imp === 'formwire-formdata') {
      const fw = await import(fwUrl('index.js'));
      run = () => fw.formData(pullStream(chunks), ct, fwOpts);
      version = formwireVersion;
    } else if (imp === 'response-builtin') {
      run = () => new Response(pullStream(chunks), { headers: { 'content-type': ct } }).formData();
      version = `undici ${process.versions.undici} (node ${process.version})`;
    } else {
      const { Response: R } = require('undici');
      run = () => new R(pullStream(chunks), { headers: { 'content-type': ct } }).formData();
      version = depVersion('undici');
    }
    // Only the parse into a FormData is timed; its entries are counted after (outside the timer). Node's FormData
    // iterator is itself thrown away at a major GC and recompiled on a helper thread: counting inside the timer added
    // ~4.5 ms of CPU to every row of the GC profile alike (10,000 fields), which is no parser's work (issue #20).
    const r = await measure(() => run());
    const c = newCounts();
    for (const [, v] of r.last) {
      c.parts++;
      if (typeof v === 'string') {
        c.fields++;
        c.field_bytes += v.length;
      } else {
        c.files++;
        c.file_bytes += v.size;
      }
    }
    return { version, ...r, last: c };
  }
  if (imp === 'busboy' || imp === 'fastify-busboy' || imp === 'formwire-busboy') {
    const isFastify = imp === 'fastify-busboy';
    const isFw = imp === 'formwire-busboy';
    const Busboy = isFastify
      ? require('@fastify/busboy')
      : isFw
        ? (await import(fwUrl('busboy.js'))).default
        : require('busboy');
    const limits = { fields: Infinity, files: Infinity, parts: Infinity, fieldSize: 1 << 30, fileSize: Infinity };
    // formwire/busboy keeps formwire's own limits under busboy's: raised the same way, plus the lenient flag X3 needs
    const fwConfig = isFw ? { formwire: fwOpts } : {};
    return {
      version: isFw ? formwireVersion : depVersion(isFastify ? '@fastify/busboy' : 'busboy'),
      ...(await measure(async () => {
        const c = newCounts();
        const bb = isFastify ? new Busboy({ headers, limits }) : Busboy({ headers, limits, ...fwConfig });
        let err = null;
        bb.on('error', (e) => (err = e));
        bb.on('field', (name, val) => {
          c.parts++;
          c.fields++;
          c.field_bytes += val.length;
        });
        bb.on('file', (name, stream) => {
          c.parts++;
          c.files++;
          stream.on('data', (d) => (c.file_bytes += d.length));
        });
        const done = once(bb, isFastify ? 'finish' : 'close');
        await feedWritable(bb, chunks);
        await done;
        if (err) throw err;
        return c;
      })),
    };
  }
  if (imp === 'formidable') {
    const formidable = require('formidable');
    const dir = mkdtempSync(join(tmpdir(), 'fwbench-'));
    try {
      return {
        version: depVersion('formidable'),
        ...(await measure(async () => {
          const form = (formidable.formidable ?? formidable.default)({
            uploadDir: dir,
            maxFields: Infinity,
            maxFiles: Infinity,
            maxFieldsSize: 1 << 30,
            maxFileSize: 2 ** 40,
            maxTotalFileSize: 2 ** 40,
            allowEmptyFiles: true,
            minFileSize: 0,
            hashAlgorithm: false,
          });
          const req = Readable.from(chunks, { objectMode: false });
          req.headers = headers;
          const [fields, files] = await form.parse(req);
          const c = newCounts();
          for (const k of Object.keys(fields)) {
            for (const v of fields[k]) {
              c.parts++;
              c.fields++;
              c.field_bytes += v.length;
            }
          }
          for (const k of Object.keys(files)) {
            for (const f of files[k]) {
              c.parts++;
              c.files++;
              c.file_bytes += f.size;
              rmSync(f.filepath, { force: true }); // removing the stored files is part of the work
            }
          }
          return c;
        })),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  throw new Error(`unknown multipart impl ${imp}`);
}

// ---------------------------------------------------------------------------------------------------------------
// urlencoded (JS gets the body as a string, decoded outside the timer: peers.md W4)

async function urlencodedCase(imp) {
  const str = readFileSync(join(job.dir, W.file), 'latin1'); // the body is ASCII
  const sumPairs = (pairs) => {
    let n = 0;
    let b = 0;
    for (const [k, v] of pairs) {
      n++;
      b += Buffer.byteLength(k) + Buffer.byteLength(v);
    }
    return { pairs: n, decoded_bytes: b };
  };
  const sumObject = (o) => {
    let n = 0;
    let b = 0;
    for (const k of Object.keys(o)) {
      const vs = Array.isArray(o[k]) ? o[k] : [o[k]];
      for (const v of vs) {
        n++;
        b += Buffer.byteLength(k) + Buffer.byteLength(String(v));
      }
    }
    return { pairs: n, decoded_bytes: b };
  };
  let run;
  let summarize;
  let version;
  if (imp === 'formwire') {
    const fw = await import(fwUrl('index.js'));
    run = () => fw.parseUrlencoded(str, { maxPairs: null });
    summarize = sumPairs;
    version = formwireVersion;
  } else if (imp === 'urlsearchparams') {
    run = () => {
      const u = new URLSearchParams(str);
      u.size; // counted, as peers.md
      return u;
    };
    summarize = sumPairs;
    version = `node ${process.version}`;
  } else if (imp === 'querystring') {
    run = () => querystring.parse(str, '&', '=', { maxKeys: 0 });
    summarize = sumObject;
    version = `node ${process.version}`;
  } else if (imp === 'fast-querystring') {
    const fq = require('fast-querystring');
    run = () => fq.parse(str);
    summarize = sumObject;
    version = depVersion('fast-querystring');
  } else if (imp === 'qs') {
    const qs = require('qs');
    run = () => qs.parse(str, { parameterLimit: Infinity, depth: 0, allowPrototypes: true });
    summarize = sumObject;
    version = depVersion('qs');
  } else throw new Error(`unknown urlencoded impl ${imp}`);
  const r = await measure(run);
  return { version, times: r.times, cpu: r.cpu, last: summarize(r.last), slow: r.slow };
}

// ---------------------------------------------------------------------------------------------------------------
// Serialize: build a form of text fields + one in-memory blob and serialize it into one contiguous body

function bodySummary(buf, boundary) {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const open = Buffer.from(`--${boundary}\r\n`);
  let delims = 0;
  for (let i = b.indexOf(open); i >= 0; i = b.indexOf(open, i + open.length)) delims++;
  const close = Buffer.from(`--${boundary}--\r\n`);
  // the close delimiter ends the body (form-data-encoder adds one more CRLF after it)
  const at = b.lastIndexOf(close);
  const closed = at >= 0 && at + close.length >= b.length - 2;
  return { bytes: b.length, delims, closed, boundary, sha256: null };
}

async function serializeCase(imp) {
  const fields = JSON.parse(readFileSync(join(job.dir, W.fields), 'utf8'));
  const blob = readFileSync(join(job.dir, W.blob));
  const B = W.boundary;
  let run;
  let version;
  let boundaryOf = () => B;
  if (imp === 'floor-build') {
    // Floor: the form building every W5 row does (1,000 appends + the File of the blob), nothing serialized.
    const r = await measure(async () => {
      const fd = new FormData();
      for (const [k, v] of fields) fd.append(k, v);
      fd.append('file', new File([blob], W.blob_name, { type: W.blob_type }));
      return fd;
    });
    return { version: `node ${process.version}`, times: r.times, cpu: r.cpu, last: { floor: true }, slow: r.slow };
  }
  if (imp === 'floor-body') {
    // Floor: the least work that turns this FormData into one complete contiguous body, which every W5 row must do:
    // build the form (as every row does), read its entries back, get the File's bytes out of Node's blob store the
    // cheapest way Node offers, and write the field text and those bytes into one output of the body's length.
    // - File.stream() with a default reader: Node copies the blob into one fresh ArrayBuffer (a single 10 MiB chunk)
    //   and hands it over. Node 20's arrayBuffer()/bytes() copy once more (the chunks are concatenated into a second
    //   ArrayBuffer, even when there is one); a BYOB reader cannot read into the caller's buffer either (the chunk
    //   is still made by Node, then copied into the view); reading slices costs a stream per slice; a Blob has no
    //   synchronous or zero-copy accessor (node:buffer resolveObjectURL gives back a Blob of the same store).
    // - The field text: every name and value concatenated and UTF-8 encoded once into the output (the cheapest way
    //   measured: one encodeInto of the rope beats a write per string); the framing (boundaries, headers), escaping
    //   and length computation are left out, so this row only undercounts (the body length is taken as known).
    const total = W.expect.bytes;
    const at = total - Buffer.byteLength(`\r\n--${B}--\r\n`) - blob.length; // where the File's bytes go
    const r = await measure(async () => {
      const fd = new FormData();
      for (const [k, v] of fields) fd.append(k, v);
      fd.append('file', new File([blob], W.blob_name, { type: W.blob_type }));
      return writeFloorBody(fd, Buffer.allocUnsafe(total), at);
    });
    const out = r.last;
    const last = { floor: true, bytes: out.length, blob_bytes: blob.length, blob_equal: blob.equals(out.subarray(at, at + blob.length)) };
    return { version: `node ${process.version}`, times: r.times, cpu: r.cpu, last, slow: r.slow };
  }
  if (imp === 'formwire' || imp === 'formwire-pairs') {
    const fw = await import(fwUrl('index.js'));
    version = formwireVersion;
    if (imp === 'formwire') {
      run = async () => {
        const fd = new FormData();
        for (const [k, v] of fields) fd.append(k, v);
        fd.append('file', new File([blob], W.blob_name, { type: W.blob_type }));
        return fw.encodeFormData(fd, { boundary: B }).bytes();
      };
    } else {
      run = async () => {
        const form = fields.map(([k, v]) => [k, v]);
        form.push(['file', new File([blob], W.blob_name, { type: W.blob_type })]);
        return fw.encodeFormData(form, { boundary: B }).bytes();
      };
    }
  } else if (imp === 'response-builtin' || imp === 'response-undici') {
    let FD = FormData;
    let R = Response;
    let F = File;
    if (imp === 'response-undici') {
      const u = require('undici');
      FD = u.FormData;
      R = u.Response;
      F = u.File ?? File;
      version = depVersion('undici');
    } else version = `undici ${process.versions.undici} (node ${process.version})`;
    let last;
    run = async () => {
      const fd = new FD();
      for (const [k, v] of fields) fd.append(k, v);
      fd.append('file', new F([blob], W.blob_name, { type: W.blob_type }));
      const res = new R(fd);
      last = res.headers.get('content-type');
      return new Uint8Array(await res.arrayBuffer());
    };
    boundaryOf = () => last.split('boundary=')[1];
  } else if (imp === 'form-data-encoder') {
    const { FormDataEncoder } = await import('form-data-encoder'); // ESM only
    version = depVersion('form-data-encoder');
    run = async () => {
      const fd = new FormData();
      for (const [k, v] of fields) fd.append(k, v);
      fd.append('file', new File([blob], W.blob_name, { type: W.blob_type }));
      const enc = new FormDataEncoder(fd, B);
      const parts = [];
      for await (const c of enc.encode()) parts.push(c);
      return Buffer.concat(parts);
    };
  } else if (imp === 'form-data') {
    const FormDataNpm = require('form-data');
    version = depVersion('form-data');
    run = async () => {
      const f = new FormDataNpm();
      f.setBoundary(B);
      for (const [k, v] of fields) f.append(k, v);
      f.append('file', blob, { filename: W.blob_name, contentType: W.blob_type });
      return f.getBuffer();
    };
  } else throw new Error(`unknown serialize impl ${imp}`);
  const r = await measure(run);
  const s = bodySummary(r.last, boundaryOf());
  if (imp.startsWith('formwire')) {
    const { createHash } = await import('node:crypto');
    s.sha256 = createHash('sha256').update(r.last).digest('hex');
  }
  return { version, times: r.times, cpu: r.cpu, last: s, slow: r.slow };
}

// ---------------------------------------------------------------------------------------------------------------
// Clone (per operation)

async function cloneCase(imp) {
  const all = JSON.parse(readFileSync(join(job.dir, W.file), 'utf8'));
  const x = all[W.key];
  let fn;
  let version = `node ${process.version}`;
  let extra = {};
  if (imp === 'structuredClone') fn = () => structuredClone(x);
  else if (imp === 'v8') fn = () => v8.deserialize(v8.serialize(x));
  else if (imp === 'json') fn = () => JSON.parse(JSON.stringify(x));
  else if (imp === 'formwire-clone' || imp === 'formwire-wire') {
    // the public entry (formwire/clone), as users import it: it finds Buffer's latin1Slice by itself
    const fc = await import(fwUrl('clone/index.js'));
    version = formwireVersion;
    if (imp === 'formwire-clone') fn = () => fc.clone(x);
    else {
      fn = () => fc.deserialize(fc.serialize(x));
      const mine = Buffer.from(fc.serialize(x));
      extra = { same_bytes_as_v8: mine.equals(v8.serialize(x)) };
    }
  } else if (imp === 'floor-bytes') {
    // W6a's floor: a round trip through bytes copies the string out once and back once; the least a Node program
    // can do for that is one Buffer of its length, latin1Write into it and latin1Slice out of it (no format, no tag)
    // (in a process that has loaded formwire/clone as the formwire rows have: the external memory of the copies starts
    // V8's concurrent marking, whose cost grows with the heap it marks)
    if (typeof x !== 'string') throw new Error('floor-bytes is the floor of a string workload');
    await import(fwUrl('clone/index.js'));
    fn = () => {
      const b = Buffer.allocUnsafe(x.length);
      b.latin1Write(x, 0);
      return b.latin1Slice(0, b.length);
    };
  } else throw new Error(`unknown clone impl ${imp}`);
  const r = await measurePerOp(fn);
  const same = JSON.stringify(r.last) === JSON.stringify(x);
  return {
    version,
    times: r.times,
    cpu: r.cpu,
    slow: r.slow,
    last: { json_bytes: Buffer.byteLength(JSON.stringify(r.last)), equal: same, ops_per_sample: r.k, ...extra,
      ...(imp.startsWith('floor-') ? { floor: true } : {}) },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Physical reference points over W1's random payload

async function refCase(imp) {
  const all = readFileSync(join(job.dir, W.file));
  const payload = all.subarray(W.offset, W.offset + W.bytes);
  const version = `node ${process.version}`;
  if (imp === 'buffer-copy') {
    const dst = Buffer.alloc(payload.length, 1); // pre-faulted
    const r = await measure(() => {
      payload.copy(dst);
      return { bytes: dst.length, found: -1 };
    });
    if (!dst.equals(payload)) throw new Error('copy differs');
    return { version, ...r };
  }
  if (imp === 'buffer-indexof') {
    const needle = Buffer.from(W.needle, 'latin1');
    const r = await measure(() => ({ bytes: payload.length, found: payload.indexOf(needle) }));
    return { version, ...r };
  }
  throw new Error(`unknown ref impl ${imp}`);
}

const kinds = { multipart: multipartCase, urlencoded: urlencodedCase, serialize: serializeCase, clone: cloneCase, ref: refCase };
try {
  const out = await kinds[W.kind](job.impl);
  console.log(
    JSON.stringify({
      ok: true,
      times: out.times,
      cpu: out.cpu ?? null,
      gc_times: gcRuns && gcRuns.times.map((t) => t / gcRuns.per),
      gc_cpu: gcRuns && gcRuns.cpu.map((t) => t / gcRuns.per),
      cpu_main: mainRuns && mainRuns.main.map((t) => t / mainRuns.per),
      gc_cpu_main: gcRuns && gcRuns.main && gcRuns.main.map((t) => t / gcRuns.per),
      result: out.last,
      version: out.version,
      rss_base_kb: rss.base,
      rss_peak_kb: statusKb('VmHWM'),
      hwm_reset: rss.reset,
      slow: !!out.slow,
    }),
  );
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String((e && e.stack) || e).split('\n').slice(0, 3).join(' | ') }));
}
