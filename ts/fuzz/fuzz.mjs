#!/usr/bin/env node
// Mutation fuzzer for the TS V8 decoder (`deserialize`) and the TS multipart parser (`MultipartParser`), over the
// build in ts/dist (run `npm --prefix ts run build` first). No dependencies: seeds are the shared vectors' inputs
// (and, for the decoder, Node's bytes for random values); each run mutates them under a time budget.
//
//   node ts/fuzz/fuzz.mjs [--target clone|multipart|all] [--seconds N] [--seed S] [--findings DIR]
//
// Short mode (make test): a few seconds per target. Long mode: --seconds 600 or more, by hand.
// Oracles, for every input:
//   clone      a value or a FormwireError with a registry SC_ code and an offset within the input; never another
//              exception; the same outcome a second time (warm shape caches); where Node's v8.deserialize also
//              accepts the bytes, the same value (neutral description, vectors/SCHEMA.md); what it accepts
//              serializes and reads back to the same value; no call over HANG_MS
//   multipart  parts or a FormwireError with a registry MP_ code; the same outcome fed whole, byte by byte (short
//              inputs) and at random split points; no call over HANG_MS
// Each finding is written to the findings folder (default ts/fuzz/findings/, ignored by git) as <target>-<n>.bin
// plus a .txt saying what failed. The closing line is `N passed, N failed`: targets without a finding, findings.
import { readFileSync, readdirSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

const HERE = dirname(fileURLToPath(import.meta.url));
const TS = join(HERE, '..');
const ROOT = join(TS, '..');
const DIST = join(TS, 'dist');
if (!existsSync(join(DIST, 'src', 'clone', 'deserialize.js'))) {
  console.error('fuzz: no build in ts/dist: run npm --prefix ts run build');
  process.exit(2);
}
const { deserialize } = await import(join(DIST, 'src/clone/deserialize.js'));
const { serialize } = await import(join(DIST, 'src/clone/serialize.js'));
const { describe: neutral } = await import(join(DIST, 'testee/neutral.js'));
const { isStackOverflow } = await import(join(DIST, 'src/clone/stack.js'));
const { FormwireError, MultipartParser, boundaryFromContentType, defaultIndexOf } = await import(join(DIST, 'src/index.js'));
const { ERROR_CODES, OPTION_NAMES } = await import(join(DIST, 'src/core/registry.js'));

const args = process.argv.slice(2);
const arg = (name, d) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : d;
};
const TARGET = arg('--target', 'all');
const SECONDS = Number(arg('--seconds', '3'));
const SEED = BigInt(arg('--seed', String(Date.now() % 1_000_000)));
const FINDINGS = arg('--findings', join(HERE, 'findings'));
const HANG_MS = 2000;
const MAX_PER_KIND = 5; // inputs saved per kind of finding

// ---- random ----
let state = SEED;
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
  return z ^ (z >> 31n);
}
const rnd = () => Number(next64() >> 11n) / 2 ** 53;
const int = (n) => Math.floor(rnd() * n);
const pick = (a) => a[int(a.length)];

// ---- findings ----
let findings = 0;
const seenKinds = new Map();
function finding(target, input, what, extra = '') {
  findings++;
  const kind = `${target}: ${what.split('\n')[0].replace(/\d+/g, 'N').slice(0, 120)}`;
  const n = (seenKinds.get(kind) ?? 0) + 1;
  seenKinds.set(kind, n);
  if (n === 1) console.log(`FINDING ${kind}`);
  if (n > MAX_PER_KIND) return;
  mkdirSync(FINDINGS, { recursive: true });
  const base = join(FINDINGS, `${target}-${SEED}-${findings}`);
  writeFileSync(base + '.bin', input);
  writeFileSync(base + '.txt', `${what}\n${extra}\n`);
}

// ---- mutation ----
const INTERESTING = [0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0x3f, 0x22, 0x63, 0x53, 0x49, 0x55, 0x4e, 0x5a, 0x7a, 0x6f, 0x7b,
  0x41, 0x24, 0x61, 0x40, 0x2d, 0x3b, 0x3a, 0x27, 0x2c, 0x42, 0x7e, 0x56, 0x5e, 0x72, 0x44, 0x5c, 0x0d, 0x0a, 0x2d, 0x3d, 0x5f];
function mutate(seed, pool, extra) {
  let b = Array.from(seed);
  const n = 1 + int(int(4) === 0 ? 16 : 4);
  for (let k = 0; k < n; k++) {
    const len = b.length;
    const at = int(len + 1);
    switch (int(extra ? 12 : 10)) {
      case 0: if (len) b[int(len)] ^= 1 << int(8); break;
      case 1: if (len) b[int(len)] = pick(INTERESTING); break;
      case 2: if (len) b[int(len)] = int(256); break;
      case 3: b.splice(at, 0, pick(INTERESTING)); break;
      case 4: if (len) b.splice(int(len), 1 + int(Math.min(len, 8))); break;
      case 5: { // duplicate a slice (repeated, sometimes many times: nesting, long lists)
        if (!len) break;
        const s = int(len), e = Math.min(len, s + 1 + int(16));
        const times = int(8) === 0 ? 1 + int(2000) : 1 + int(3);
        const piece = b.slice(s, e);
        const ins = [];
        for (let t = 0; t < times; t++) ins.push(...piece);
        b.splice(e, 0, ...ins);
        break;
      }
      case 6: { // splice from another seed
        const o = pick(pool);
        if (!o.length) break;
        const s = int(o.length), e = Math.min(o.length, s + 1 + int(64));
        b.splice(at, int(4) === 0 ? int(8) : 0, ...o.subarray(s, e));
        break;
      }
      case 7: if (len) b.length = int(len); break; // truncate
      case 8: { // a long varint or a large count
        const v = pick([[0xff, 0xff, 0xff, 0xff, 0x0f], [0x80, 0x80, 0x80, 0x80, 0x10], [0xff, 0x7f], [0x80, 0x01], [0xff, 0xff, 0xff, 0x7f]]);
        b.splice(at, int(2), ...v);
        break;
      }
      case 9: { // swap two bytes
        if (len < 2) break;
        const i = int(len), j = int(len);
        const t = b[i]; b[i] = b[j]; b[j] = t;
        break;
      }
      default: b = extra(b, at); break;
    }
    if (b.length > 1 << 20) b.length = 1 << 20;
  }
  return Uint8Array.from(b);
}

// ---- clone target ----
const SC_CODES = new Set(Object.keys(ERROR_CODES).filter((c) => c.startsWith('SC_')));
const MP_CODES = new Set(Object.keys(ERROR_CODES).filter((c) => c.startsWith('MP_')));

function cloneSeeds() {
  const seeds = [];
  for (const verdict of ['accept', 'reject', 'lenient']) {
    const dir = join(ROOT, 'vectors', 'clone', verdict);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) {
      if (f.endsWith('.bin')) seeds.push(new Uint8Array(readFileSync(join(dir, f))));
      else if (f.endsWith('.json')) {
        const c = JSON.parse(readFileSync(join(dir, f), 'utf8'));
        if (c.kind === 'clone-decode' && c.input && typeof c.input.hex === 'string') {
          seeds.push(Uint8Array.from(Buffer.from(c.input.hex.replace(/\s/g, ''), 'hex')));
        }
      }
    }
  }
  // Node's bytes of values with shapes, references and every kind (Node host views, raw V8 buffer views)
  const shared = { k: 1 };
  const values = [
    [{ a: 1, b: 'x' }, { a: 2, b: 'y' }, { a: 3, b: 'z' }], { '__proto__': 1, 'constructor': 2, '0': 3, '4294967295': 4, 'a\u0000b': 5 },
    new Map([[1, { x: [1, , 3] }], ['k', new Set([1n, -(2n ** 70n)])]]), [shared, shared, { s: shared }], new Date(0), /a+/giu,
    new Uint8Array([1, 2, 3]), new Float64Array([1.5, NaN]), new DataView(new ArrayBuffer(8)), Object(1n), Object('str'),
    new RangeError('m', { cause: { c: 1 } }), ['\u00e9', '\ud800', 'x'.repeat(200)], { long: 'é'.repeat(70) },
  ];
  for (const v of values) {
    seeds.push(new Uint8Array(v8.serialize(v)));
    const s = new v8.Serializer();
    s.writeHeader();
    s.writeValue(v);
    seeds.push(new Uint8Array(s.releaseBuffer()));
  }
  return seeds;
}

function cloneExtra(b, at) {
  // insert a tag sequence: nesting, padding, `?` prefixes, refs, big BigInts
  const pieces = [[0x6f], [0x41, 0x01], [0x61, 0x05], [0x3b], [0x27], [0x00, 0x00], [0x3f, 0x00], [0x5e, 0x00], [0x5a, 0x10],
    [0x7b, 0x00], [0x24, 0x00, 0x00], [0x40, 0x00, 0x00], [0x3a, 0x00], [0x2c, 0x00], [0x42, 0x08], [0x56, 0x42, 0x00, 0x08, 0x00]];
  const p = pick(pieces);
  const times = int(6) === 0 ? 1 + int(5000) : 1;
  const ins = [];
  for (let t = 0; t < times; t++) ins.push(...p);
  b.splice(at, 0, ...ins);
  return b;
}

function cloneOptions() {
  switch (int(10)) {
    case 0: return { maxDepth: pick([0, 1, 2, 5, 100, Infinity, null]) };
    case 1: return { maxValues: pick([0, 1, 2, 3, 10, 100, null]) };
    case 2: return { maxBigintBytes: pick([0, 1, 8, 16, null]) };
    case 3: return { nodeIpc: true };
    case 4: return { maxBytes: pick([0, 2, 16, 64, null]) };
    default: return undefined;
  }
}

function describeOutcome(f) {
  try {
    const v = f();
    return { ok: true, v };
  } catch (e) {
    return { ok: false, e };
  }
}
const show = (x) => {
  try {
    return JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)).slice(0, 600);
  } catch {
    return String(x);
  }
};
const errShow = (e) => (e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}`.slice(0, 1500) : String(e));

function checkCoded(e, len, codes) {
  if (!(e instanceof FormwireError)) return `uncoded exception ${e && e.name}: ${e && e.message}`;
  if (!codes.has(e.code)) return `code ${e.code} not in the registry's set`;
  if (!Number.isInteger(e.offset) || e.offset < 0 || e.offset > len) return `offset ${e.offset} outside 0..${len} (${e.code})`;
  return null;
}

function sameOutcome(a, b) {
  if (a.ok !== b.ok) return false;
  if (!a.ok) return a.e.code === b.e.code && a.e.offset === b.e.offset;
  return JSON.stringify(a.n) === JSON.stringify(b.n);
}

function neutralOf(v) {
  try {
    return neutral(v);
  } catch (e) {
    return { neutralError: String(e) };
  }
}

/**
 * JavaScript cannot tell whether a view tracks its buffer's length except by resizing the buffer (kinds.ts): an
 * empty view at the end of a buffer that can neither grow nor shrink past it behaves the same either way, so the
 * serializer writes it as not tracking, and the round-trip comparison does not ask.
 */
function untrackable(n) {
  if (Array.isArray(n)) return n.map(untrackable);
  if (n === null || typeof n !== 'object') return n;
  const out = {};
  for (const [k, v] of Object.entries(n)) out[k] = untrackable(v);
  if (n.t === 'view' && n.byte_length === 0 && n.buffer && typeof n.buffer.base64 === 'string') {
    const len = Buffer.from(n.buffer.base64, 'base64').length;
    if (n.byte_offset === len && n.buffer.max_byte_length === len) out.length_tracking = 'either';
  }
  return out;
}

/**
 * Node's v8.deserialize makes a host-object view over a copy of the whole input (offset into it), ours over a buffer
 * of just the view's bytes: views compare by kind and bytes (vectors/SCHEMA.md keeps buffers, so this is for the
 * node:v8 comparison only).
 */
function viewBytes(n) {
  if (Array.isArray(n)) return n.map(viewBytes);
  if (n === null || typeof n !== 'object') return n;
  if (n.t === 'view') {
    const buf = n.buffer;
    const bytes = buf && typeof buf.base64 === 'string'
      ? Buffer.from(buf.base64, 'base64').subarray(n.byte_offset, n.byte_offset + n.byte_length).toString('base64') : null;
    return { t: 'view', kind: n.kind, bytes };
  }
  const out = {};
  for (const [k, v] of Object.entries(n)) if (k !== 'id') out[k] = viewBytes(v);
  return out;
}

function fuzzClone(budgetMs) {
  const seeds = cloneSeeds();
  const pool = seeds;
  const t0 = Date.now();
  let runs = 0, accepted = 0, v8Both = 0, tooDeep = 0;
  while (Date.now() - t0 < budgetMs) {
    const input = int(20) === 0 ? pick(seeds) : mutate(pick(seeds), pool, cloneExtra);
    const opts = cloneOptions();
    runs++;
    const s = performance.now();
    const a = describeOutcome(() => deserialize(input, opts));
    const dt = performance.now() - s;
    if (dt > HANG_MS) finding('clone', input, `slow: ${dt.toFixed(0)} ms`, show(opts));
    if (!a.ok) {
      const bad = checkCoded(a.e, input.length, SC_CODES);
      if (bad) { finding('clone', input, bad, `${show(opts)}\n${errShow(a.e)}`); continue; }
    } else {
      accepted++;
      a.n = neutralOf(a.v);
    }
    // the comparisons below recurse over the value (neutral form, JSON): a value too deep for them is counted, not
    // compared (the decode itself was checked above)
    try {
      // the same outcome again: shape caches are warm now
      const b = describeOutcome(() => deserialize(input, opts));
      if (b.ok) b.n = neutralOf(b.v);
      if (!sameOutcome(a, b)) {
        finding('clone', input, 'a second decode differs', `${show(opts)}\nfirst ${a.ok ? show(a.n) : a.e.code + '@' + a.e.offset}\nsecond ${b.ok ? show(b.n) : errShow(b.e)}`);
        continue;
      }
      if (!a.ok) continue;
      if (opts === undefined) {
        // Node's own decoder, where it accepts too
        // raw V8 (what postMessage reads: buffers and views as V8 writes them): exact
        const raw = describeOutcome(() => {
          const d = new v8.Deserializer(input);
          d.readHeader();
          return d.readValue();
        });
        if (raw.ok) {
          v8Both++;
          const tn = neutralOf(raw.v);
          if (JSON.stringify(tn) !== JSON.stringify(a.n)) finding('clone', input, 'differs from raw V8 (v8.Deserializer)', `ours ${show(a.n)}\nv8 ${show(tn)}`);
        } else {
          // Node's dialect (host-object views): views by kind and bytes, without ids (Node's views share one buffer)
          const node = describeOutcome(() => v8.deserialize(input));
          const tn = node.ok ? JSON.stringify(viewBytes(neutralOf(node.v))) : '';
          // a view whose buffer is another view's (bytes: null) has no bytes to compare: skipped
          if (node.ok && !tn.includes('"bytes":null')) {
            v8Both++;
            if (tn !== JSON.stringify(viewBytes(a.n))) finding('clone', input, 'differs from node:v8 deserialize', `ours ${show(a.n)}\nnode ${show(tn)}`);
          }
        }
      }
      // what we accept we can write and read back
      const w = describeOutcome(() => serialize(a.v, { maxDepth: null }));
      if (!w.ok) {
        const bad = checkCoded(w.e, Infinity, SC_CODES);
        if (bad && !(w.e && w.e.code === 'SC_DATA_CLONE')) finding('clone', input, `serialize of an accepted value: ${bad}`, errShow(w.e));
        continue;
      }
      const back = describeOutcome(() => deserialize(w.v, { maxDepth: null, maxValues: null, maxBigintBytes: null }));
      if (!back.ok) finding('clone', input, `our bytes of an accepted value do not read back: ${back.e.code}`, errShow(back.e));
      else if (JSON.stringify(untrackable(neutralOf(back.v))) !== JSON.stringify(untrackable(a.n))) finding('clone', input, 'round trip changes the value', `${show(a.n)}\n${show(neutralOf(back.v))}`);
    } catch (e) {
      if (!isStackOverflow(e)) throw e;
      tooDeep++;
    }
  }
  console.log(`clone: ${runs} inputs in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${accepted} accepted, ${v8Both} compared with node:v8, ${tooDeep} too deep to compare, seeds ${seeds.length}`);
  return runs;
}

// ---- multipart target ----
function multipartSeeds() {
  const seeds = [];
  for (const verdict of ['accept', 'reject', 'lenient']) {
    const dir = join(ROOT, 'vectors', 'multipart', verdict);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.json')) continue;
      const c = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      if (c.kind !== 'multipart-parse' || !c.input || !c.input.file || typeof c.content_type !== 'string') continue;
      const p = join(dir, c.input.file);
      if (!existsSync(p)) continue;
      const bytes = new Uint8Array(readFileSync(p));
      if (bytes.length > 65536) continue;
      seeds.push({ ct: c.content_type, bytes, options: c.options ?? {} });
    }
  }
  return seeds;
}

// Spec option names -> TypeScript names, from the generated registry: every flag and limit is drawn.
const CAMEL = OPTION_NAMES.multipart;
const FLAGS = Object.entries(CAMEL).filter(([k]) => k.startsWith('allow_')).map(([, v]) => v);
// The flags added with issues #16 and #17 that only accept more, so a body accepted without them reads the same with
// them (allow_cr and allow_rfc2231_continuations change how some accepted bodies read: CR--B, filename*0).
const WIDENING = ['allowMissingDisposition', 'allowAnyDispositionType', 'allowJunkAfterClose', 'allowUtf8HeaderNames', 'allowNearDelimiters', 'allow8bitParameterNames'];
function multipartOptions(fromVector) {
  const o = {};
  for (const [k, v] of Object.entries(fromVector)) if (CAMEL[k]) o[CAMEL[k]] = v === null ? Infinity : v;
  if (int(3) === 0) for (const f of FLAGS) if (int(2)) o[f] = true;
  if (int(4) === 0) {
    const lim = pick(['maxParts', 'maxFiles', 'maxFields', 'maxHeaders', 'maxHeaderBytes', 'maxFieldBytes', 'maxTotalFieldBytes', 'maxFileBytes', 'maxTotalBytes']);
    o[lim] = pick([0, 1, 2, 5, 17, 64, 100]);
  }
  return o;
}

// search: 'scan' (the core's own) or defaultIndexOf (the runtime's native one): the whole parse takes the scan, the
// chunked ones alternate, so every input also compares the two searches.
function parseWith(ct, input, opts, cuts, search) {
  const parts = [];
  let cur = null;
  const handler = {
    onPartStart(info) {
      cur = { name: info.name, filename: info.filename, nameStar: info.nameStar, filenameStar: info.filenameStar, contentType: info.contentType, headers: info.headers, body: [] };
      parts.push(cur);
    },
    onData(bytes) { cur.body.push(Buffer.from(bytes).toString('latin1')); },
    onPartEnd() { cur.body = cur.body.join(''); cur = null; },
    onEnd() { parts.push('end'); },
  };
  try {
    const boundary = boundaryFromContentType(ct, opts.maxBoundaryBytes);
    const p = new MultipartParser(boundary, handler, opts, search);
    let at = 0;
    for (const c of cuts) {
      p.write(input.subarray(at, c));
      at = c;
    }
    p.write(input.subarray(at));
    p.end();
    return { ok: true, n: parts };
  } catch (e) {
    return { ok: false, e, n: parts };
  }
}

function mpExtra(b, at) {
  const pieces = ['\r\n', '--', '\r\n\r\n', 'Content-Disposition: form-data; name="a"\r\n', '; filename="x\\"y"', ' \t', '\n', '"', '\\', '=?utf-8?', "name*=UTF-8''%C3%A9", 'Content-Type: text/plain\r\n',
    'Content-Disposition: \r\n', 'Content-Disposition: form-field; name="a"\r\n', 'F\xc3\xb8\xc3\xb8: 1\r\n', '\xc3\x98', '--junk',
    // allow_cr, allow_near_delimiters, allow_8bit_parameter_names, allow_rfc2231_continuations
    '\r', '\r--', '-x', '\rx', '; \xa0filename="a"', "; filename*0*=''%41%2", '; filename*1="b"', '; FILENAME*0=c'];
  const p = Buffer.from(pick(pieces), 'latin1');
  b.splice(at, 0, ...p);
  return b;
}

function fuzzMultipart(budgetMs) {
  const seeds = multipartSeeds();
  const pool = seeds.map((s) => s.bytes);
  const t0 = Date.now();
  let runs = 0, accepted = 0;
  while (Date.now() - t0 < budgetMs) {
    const seed = pick(seeds);
    // the boundary is in the content type: splice it into the body now and then
    const input = int(20) === 0 ? seed.bytes : mutate(seed.bytes, pool, mpExtra);
    const opts = multipartOptions(seed.options);
    const ct = int(30) === 0 ? seed.ct.replace(/boundary=/i, pick(['boundary="', 'boundary= ', 'BOUNDARY=', 'boundary=x; boundary='])) : seed.ct;
    runs++;
    const s = performance.now();
    const whole = parseWith(ct, input, opts, [], 'scan');
    const dt = performance.now() - s;
    if (dt > HANG_MS) finding('multipart', input, `slow: ${dt.toFixed(0)} ms`, ct);
    if (!whole.ok) {
      const bad = checkCoded(whole.e, Infinity, MP_CODES);
      if (bad) { finding('multipart', input, bad, `${ct}\n${show(opts)}\n${errShow(whole.e)}`); continue; }
    } else {
      accepted++;
      const wider = { ...opts };
      for (const f of WIDENING) wider[f] = true;
      const w = parseWith(ct, input, wider, [], 'scan');
      if (!w.ok || JSON.stringify(w.n) !== JSON.stringify(whole.n)) {
        finding('multipart', input, 'accepted body reads otherwise with the widening flags', `${ct}\n${show(opts)}\n${w.ok ? 'other parts' : errShow(w.e)}`);
      }
    }
    const splits = [];
    if (input.length <= 2048 && int(3) === 0) splits.push(Array.from({ length: Math.max(0, input.length - 1) }, (_, i) => i + 1));
    for (let k = 0; k < 2; k++) {
      const n = 1 + int(4);
      const c = Array.from({ length: n }, () => int(input.length + 1)).sort((x, y) => x - y);
      splits.push(c);
    }
    for (const [i, cuts] of splits.entries()) {
      const search = i % 2 === 0 ? defaultIndexOf : 'scan';
      const got = parseWith(ct, input, opts, cuts, search);
      // the result: the parts, or the error's code and offset (how much of a failing part's body was passed on
      // before the error depends on the chunks)
      const same = whole.ok === got.ok &&
        (whole.ok ? JSON.stringify(whole.n) === JSON.stringify(got.n) : whole.e.code === got.e.code && whole.e.offset === got.e.offset);
      if (!same) {
        finding('multipart', input, 'chunked differs from whole', `${ct}\n${show(opts)}\ncuts ${cuts.length > 20 ? 'every byte' : show(cuts)} (${search === 'scan' ? 'scan' : 'native search'})\nwhole ${whole.ok ? 'ok' : whole.e.code + '@' + whole.e.offset}\nchunked ${got.ok ? 'ok' : errShow(got.e)}`);
        break;
      }
    }
  }
  console.log(`multipart: ${runs} inputs in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${accepted} accepted, seeds ${seeds.length}`);
  return runs;
}

// ---- main ----
console.log(`fuzz: target ${TARGET}, ${SECONDS} s each, seed ${SEED}`);
// the closing line counts targets: one passed per target without findings, one failed per finding
let clean = 0;
for (const [name, run] of [['clone', fuzzClone], ['multipart', fuzzMultipart]]) {
  if (TARGET !== name && TARGET !== 'all') continue;
  const before = findings;
  run(SECONDS * 1000);
  if (findings === before) clean++;
}
if (findings) {
  console.log(`${findings} findings (${seenKinds.size} kinds) in ${FINDINGS}:`);
  for (const [k, n] of seenKinds) console.log(`  ${n} x ${k}`);
}
console.log(`${clean} passed, ${findings} failed`);
process.exit(findings ? 1 : 0);
