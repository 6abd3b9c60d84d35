// The inputs of bench/runtimes: one generator for every runtime (native.mjs under Node, Bun and Deno; chromium-page.mjs
// in a headless Chromium page), so each runtime's rows parse, encode and clone the same bytes and values.
// Runtime-neutral: no import, nothing but web APIs.

export const B = '----formwireBenchBoundary7MA4YWxkTrZu0gW';
export const CT = `multipart/form-data; boundary=${B}`;

const enc = new TextEncoder();

/** A multipart body of `parts` ([name, string or bytes, filename?]) as one Uint8Array. */
export function multipartBody(parts, boundary = B) {
  const chunks = [];
  for (const [name, value, filename] of parts) {
    chunks.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: application/octet-stream` : ''}\r\n\r\n`));
    chunks.push(typeof value === 'string' ? enc.encode(value) : value);
    chunks.push(enc.encode('\r\n'));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.length; }
  return out;
}

/** The file bytes of W1 (and the slices W3 and W5 take): `mib` MiB of a fixed pseudo-random pattern. */
export const fileBytes = (mib) => new Uint8Array(mib << 20).map((_, i) => (i * 2654435761) >>> 24);

/** The multipart bodies: W1 one file of `file`'s size, W2 10,000 fields, W3 (bench/README.md) 100 text fields of
 * 20-40 B interleaved with 100 file parts of 100 KiB. */
export function bodies(file) {
  return {
    W1: multipartBody([['note', 'upload'], ['file', file, 'big.bin']]),
    W2: multipartBody(Array.from({ length: 10000 }, (_, i) => [`field${i}`, `value-${i}-${'x'.repeat(i % 40)}`])),
    W3: multipartBody(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? [`t${i}`, 'v'.repeat(20 + (i % 21))] : [`f${i}`, file.subarray(i * 1024, i * 1024 + 102400), `f${i}.bin`]))),
  };
}

/** W5's form: 1,000 text fields and one 1 MiB file. */
export function w5Form(file) {
  const fd = new FormData();
  for (let i = 0; i < 1000; i++) fd.append(`f${i}`, `value ${i}`);
  fd.append('file', new Blob([file.subarray(0, 1 << 20)]), 'a.bin');
  return fd;
}

/** The W5 floor row's name. */
export const W5_FLOOR = 'floor: the entries read, their strings joined and UTF-8 encoded once, the file read into the body (no headers, no escaping), no encoder';
/**
 * W5's floor: the steps every multipart encoder written in JavaScript takes on W5's form, and nothing else. The
 * FormData's entries read (name and value); every name and string value joined into one string and UTF-8 encoded
 * once, by encodeInto, into a buffer of the body's length made by `alloc` (the caller's: the package's allocator,
 * which skips the zero-filling where the runtime allows it); each file's bytes read from its Blob's stream, chunk by
 * chunk into the buffer after the text (the one-copy read). No delimiter or header text, no escape check. Returns
 * the bytes written. native / floor is the most an encoder in JavaScript can win on W5 in a runtime.
 */
export async function w5Floor(fd, length, alloc) {
  const out = alloc(length);
  const files = [];
  let text = '';
  for (const [name, value] of fd) {
    text += name;
    if (typeof value === 'string') text += value;
    else files.push(value);
  }
  let o = enc.encodeInto(text, out).written;
  for (const f of files) {
    const r = f.stream().getReader();
    for (let c = await r.read(); !c.done; c = await r.read()) {
      out.set(c.value, o);
      o += c.value.length;
    }
  }
  return o;
}

const flat = (i) => ({ name: 'Alice' + (i % 10), age: 30 + (i % 50), active: i % 2 === 0 });
/** The clone values, by row name. */
export const W6 = {
  'W6a string 3MB': 'Hello World!!!'.repeat(1024 * 256),
  'W6b 100 flat objects': Array.from({ length: 100 }, (_, i) => flat(i)),
  'W6d nested config': { service: { name: 'api-gateway', version: '2.14.1', env: 'production' }, server: { host: '0.0.0.0', port: 8443, tls: { enabled: true, ciphers: ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384'] }, timeouts: { read: 30000, write: 30000 } }, database: { replicas: [{ url: 'postgres://db-2.internal:5432/app', weight: 0.5 }, { url: 'postgres://db-3.internal:5432/app', weight: 0.5 }] }, features: { rollout: { percent: 12.5, cohorts: ['staff', 'beta'] } }, limits: { rps: 5000, burst: 10000 } },
};

/** The W6b floor row's name. */
export const W6B_FLOOR = 'floor: the steps of any exact clone in JavaScript (the array\'s keys; per object the Proxy check, a memory-map lookup and entry, a for-in; literal copies), no clone';
// The runtime's Proxy detector, where it has one (Node, Bun, Deno): HTML refuses a Proxy, and this is the only way
// JavaScript can tell one, so an exact clone calls it on every object.
const isProxy = globalThis.process?.getBuiltinModule?.('node:util')?.types?.isProxy ?? null;
/**
 * W6b's floor: the steps every exact structured clone written in JavaScript takes on W6b's array, and nothing else.
 * The array's own keys (what tells a packed array from one with holes or extra properties: `packed(a)`, the caller's
 * exact test, the package's arrayKeys, which takes the cheaper way of each runtime); per object
 * the runtime's Proxy check (where it has one), a lookup in the memory map and an entry there (the map that keeps
 * shared references and cycles exact, of the class `MemoryMap` the caller gives: the package's, Map or WeakMap,
 * whichever this runtime runs faster; a lookup before the entry, as a revisit must find the first copy), its own keys
 * by for-in (a clone cannot know the shape); each copy made by one object literal of the known keys (cheaper than any
 * general copy). No type dispatch, no shape cache. native / floor is the most an exact clone in JavaScript can win on
 * W6b in a runtime.
 */
export function w6bFloor(a, packed, MemoryMap) {
  const memory = new MemoryMap();
  if (isProxy !== null && isProxy(a)) throw new Error('W6b floor: a Proxy');
  memory.set(a, 0);
  if (!packed(a)) throw new Error('W6b floor: the array is not packed');
  const out = new Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const o = a[i];
    if (isProxy !== null && isProxy(o)) throw new Error('W6b floor: a Proxy');
    if (memory.get(o) !== undefined) throw new Error('W6b floor: a shared object');
    memory.set(o, i + 1);
    let n = 0;
    for (const k in o) if (k !== undefined) n++;
    if (n !== 3) throw new Error('W6b floor: not a flat object of three keys');
    out[i] = { name: o.name, age: o.age, active: o.active };
  }
  return out;
}

/** A byte stream over `bytes` in `chunk`-byte copies (a fresh chunk per pull, as a socket gives them). */
export function streamOf(bytes, chunk = 65536) {
  let o = 0;
  return new ReadableStream({ type: 'bytes', pull(c) { if (o >= bytes.length) { c.close(); return; } c.enqueue(bytes.slice(o, o + chunk)); o += chunk; } });
}

/**
 * The "parseMultipart (stream)" rows: parseMultipart as an application streams a form, file parts read chunk by chunk
 * and dropped, fields as text; the character and byte count. `parseMultipart` is the package's (each importer has its
 * own path to the build).
 */
export async function streamed(parseMultipart, body, options) {
  let n = 0;
  for await (const part of parseMultipart(body, CT, options)) {
    if (part.filename !== null) for await (const c of part) n += c.length;
    else n += (await part.text()).length;
  }
  return n;
}

/**
 * The "parseMultipart (stream), batches()" rows: ts/README's fast path for forms of many small fields, the parts
 * available now as arrays, complete ones read with textSync() (no promise per part), the rest as in `streamed`.
 */
export async function batched(parseMultipart, body, options) {
  let n = 0;
  for await (const batch of parseMultipart(body, CT, options).batches()) {
    for (const part of batch) {
      if (part.filename !== null) for await (const c of part) n += c.length;
      else n += (part.complete ? part.textSync() : await part.text()).length;
    }
  }
  return n;
}

/**
 * The "MultipartParser (sans-IO)" rows: the core fed the body in 64 KiB writes, with a handler written as ts/README's
 * core example says (methods made once at module level, each parse's state on an object made by a literal;
 * onDataRange, so no view per piece: a field's pieces are kept as (chunk, start, end) and viewed once at its end):
 * each field's value made a string (one TextDecoder call), file bytes counted. Returns the character and byte
 * count. `MultipartParser` is the package's.
 */
const fieldDecoder = new TextDecoder();
function sStart(info) {
  this.file = info.filename !== null;
  this.pieces.length = 0;
  this.size = 0;
}
function sRange(chunk, a, b) {
  if (this.file) this.n += b - a;
  else {
    this.pieces.push(chunk, a, b);
    this.size += b - a;
  }
}
function sData(bytes) {
  this.onDataRange(bytes, 0, bytes.length);
}
function sPartEnd() {
  if (this.file) return;
  const ps = this.pieces;
  let v;
  if (ps.length === 3) v = fieldDecoder.decode(ps[0].subarray(ps[1], ps[2]));
  else {
    const all = new Uint8Array(this.size);
    let o = 0;
    for (let k = 0; k < ps.length; k += 3) {
      all.set(ps[k].subarray(ps[k + 1], ps[k + 2]), o);
      o += ps[k + 2] - ps[k + 1];
    }
    v = fieldDecoder.decode(all);
  }
  this.n += v.length;
}
function sEnd() {}
export function sansIo(MultipartParser, bytes, options) {
  const h = { file: false, pieces: [], size: 0, n: 0, onPartStart: sStart, onDataRange: sRange, onData: sData, onPartEnd: sPartEnd, onEnd: sEnd };
  const p = new MultipartParser(B, h, options);
  for (let o = 0; o < bytes.length; o += CH) p.write(bytes.subarray(o, o + CH));
  p.end();
  return h.n;
}

const CH = 65536;
const pattern = new Uint8Array(CH).map((_, i) => (i * 2654435761) >>> 24);
/** The W1 peak-memory body's two ends (the parts around the file), exported for the drain floor's byte count. */
export const peakHead = enc.encode(`--${B}\r\nContent-Disposition: form-data; name="note"\r\n\r\nupload\r\n--${B}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
export const peakTail = enc.encode(`\r\n--${B}--\r\n`);
/** The W1 peak-memory body (one file of `mib` MiB), generated chunk by chunk as it is read (never held whole). */
export function peakBody(mib) {
  let left = mib * (1 << 20) / CH, stage = 0;
  // A fresh chunk per pull, as a socket gives them (a parser may keep references to what it is given).
  return new ReadableStream({ type: 'bytes', pull(c) {
    if (stage === 0) { c.enqueue(peakHead.slice()); stage = 1; return; }
    if (left > 0) { c.enqueue(pattern.slice()); left--; return; }
    if (stage === 1) { c.enqueue(peakTail.slice()); stage = 2; return; }
    c.close();
  } });
}
