#!/usr/bin/env node
// Conformance testee backed by Node's own V8 (conformance/PROTOCOL.md). Ops: clone.decode, clone.encode.
//
//   node conformance/oracles/v8-testee.mjs
//
// clone.decode: V8's ValueDeserializer (through node:v8) reads the bytes, raw and Node dialects alike; the
// result is described with neutral.mjs. Node's `v8.deserialize` would alias host-object views into the input
// buffer, so the host hook here copies each view into its own ArrayBuffer instead (SC-N-05); everything else
// is V8's own code. V8 only says "accept" or "reject": the error code and offset reported for a rejected
// input come from the reference checker (reference.mjs, written from spec/structured-clone.md), and the
// message says whether V8 agrees. Where the spec is stricter than V8 11.3, the message says so.
// An input the checker accepts but V8 rejects is reported as code V8_REJECTS (a known V8 11.3 limit,
// spec/structured-clone.md §2.8, or a bug in the vectors).
//
// clone.encode: the neutral value is built into live JS values and written with `new v8.Serializer()`
// (writeHeader + writeValue): V8's own bytes, which equal the canonical encoding only where
// spec/structured-clone.md SC-E-15 says they do. Use it for --cross decoding, not for byte-exact checks.
import readline from 'node:readline';
import v8 from 'node:v8';
import { describe, build } from './neutral.mjs';
import { decode as referenceDecode } from './reference.mjs';

const NODE_HOST_CTORS = [
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, DataView, Uint8Array, BigInt64Array, BigUint64Array, globalThis.Float16Array,
];

class HostDeserializer extends v8.Deserializer {
  constructor(buffer, ipc) { super(buffer); this.ipc = ipc; }
  _readHostObject() {
    if (this.ipc) { // lib/internal/child_process/serialization.js ChildProcessDeserializer
      const sub = this.readUint32();
      if (sub === 1) return this.readValue();
      if (sub !== 0) throw new Error(`unknown IPC host sub-tag ${sub}`);
    }
    // lib/v8.js DefaultDeserializer._readHostObject, but always copying
    const type = this.readUint32();
    const Ctor = NODE_HOST_CTORS[type];
    const n = this.readUint32();
    const raw = this.readRawBytes(n);
    if (!Ctor) throw new Error(`unknown host object type ${type}`);
    const ab = new ArrayBuffer(n);
    new Uint8Array(ab).set(raw);
    return new Ctor(ab, 0, n / (Ctor.BYTES_PER_ELEMENT || 1));
  }
}

/** V8's verdict: {value} (a live JS value) or {threw: message}. */
export function v8Decode(bytes, options = {}) {
  try {
    const d = new HostDeserializer(Buffer.from(bytes), options.node_ipc === true);
    d.readHeader();
    return { value: d.readValue() };
  } catch (e) {
    return { threw: String(e && e.message) };
  }
}

/** V8's raw-dialect bytes for a live JS value. */
export function v8RawEncode(value) {
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(value);
  return s.releaseBuffer();
}

function neutralDepth(n) { // containers as in SC-L-02
  let max = 0;
  (function walk(x, d) {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) { x.forEach((y) => walk(y, d)); return; }
    const container = ['object', 'array', 'map', 'set', 'error'].includes(x.t);
    const here = container ? d + 1 : d;
    if (here > max) max = here;
    for (const [k, v] of Object.entries(x)) if (k !== 't') walk(v, here);
  })(n, 0);
  return max;
}

function decodeOp(req) {
  const bytes = Buffer.from(req.input_b64 || '', 'base64');
  const options = req.options || {};
  const ref = referenceDecode(bytes, options);
  const v8r = v8Decode(bytes, options);
  let result;
  if (ref.error) {
    const verdict = v8r.threw ? `V8 also rejects (${v8r.threw})` : 'V8 11.3 accepts this input; formwire is stricter here';
    result = { error: { code: ref.error.code, offset: ref.error.offset, message: `${ref.error.message}; ${verdict}` } };
  } else if (v8r.threw) {
    result = { error: { code: 'V8_REJECTS', offset: -1, message: `V8 rejects: ${v8r.threw}` } };
  } else {
    result = { ok: { value: describe(v8r.value) } };
  }
  const chunkings = Array.isArray(req.chunkings) && req.chunkings.length ? req.chunkings : [[]];
  return { results: chunkings.map(() => result) };
}

function encodeOp(req) {
  const options = req.options || {};
  const maxDepth = options.max_depth === undefined ? 1000 : options.max_depth;
  if (maxDepth !== null && neutralDepth(req.value) > maxDepth) {
    return { error: { code: 'SC_LIMIT_DEPTH', offset: 0, message: `nesting deeper than max_depth ${maxDepth}` } };
  }
  let value;
  try { value = build(req.value); } catch (e) {
    return { error: { code: 'SC_DATA_CLONE', offset: 0, message: `cannot build the value here: ${e.message}` } };
  }
  try {
    return { ok: { hex: v8RawEncode(value).toString('hex') } };
  } catch (e) {
    return { error: { code: 'SC_DATA_CLONE', offset: 0, message: String(e && e.message) } };
  }
}

function handle(req) {
  switch (req.op) {
    case 'hello': return { ok: { lang: 'v8', version: `node ${process.version} v8 ${process.versions.v8}`, ops: ['clone.decode', 'clone.encode'] } };
    case 'clone.decode': return decodeOp(req);
    case 'clone.encode': return encodeOp(req);
    default: return { error: { code: 'UNSUPPORTED_OP', offset: 0, message: `op ${req.op} is not implemented by the v8 oracle` } };
  }
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let req;
    let out;
    try {
      req = JSON.parse(line);
      out = { id: req.id, ...handle(req) };
    } catch (e) {
      out = { id: req ? req.id : null, error: { code: 'TESTEE_ERROR', offset: 0, message: String(e && e.stack) } };
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  });
  rl.on('close', () => process.exit(0));
}
