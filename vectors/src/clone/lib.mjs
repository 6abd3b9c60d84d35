// Helpers for the clone vector generator (generate.mjs): byte builders, case constructors and the checks
// every case must pass against real V8 (Node's node:v8) and the reference codec before it is written.
import v8 from 'node:v8';
import { describe, build, neutralEqual } from '../../../conformance/oracles/neutral.mjs';
import { decode as refDecode, encode as refEncode } from '../../../conformance/oracles/reference.mjs';
import { v8Decode, v8RawEncode } from '../../../conformance/oracles/v8-testee.mjs';

export { describe, build };

// ------------------------------------------------------------------ bytes
/** Hex with optional spaces and `|` separators -> Buffer. */
export function H(s) {
  const clean = s.replace(/[\s|]/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new Error(`bad hex ${s}`);
  return Buffer.from(clean, 'hex');
}
export const hex = (b) => Buffer.from(b).toString('hex');
export function varint(v) {
  const out = [];
  do { let b = v % 128; v = Math.floor(v / 128); if (v) b |= 0x80; out.push(b); } while (v);
  return Buffer.from(out).toString('hex');
}
export function dbl(x) { const b = Buffer.alloc(8); b.writeDoubleLE(x); return b.toString('hex'); }
export function one(s) { // `"` one-byte string
  return `22${varint(s.length)}${Buffer.from(s, 'latin1').toString('hex')}`;
}
export const rawBytes = (v) => v8RawEncode(v);
export const nodeBytes = (v) => v8.serialize(v);
/** lib/internal/child_process/serialization.js ChildProcessSerializer (not exported by Node; same 8 lines). */
export function ipcBytes(v) {
  class ChildProcessSerializer extends v8.DefaultSerializer {
    _writeHostObject(object) {
      if (ArrayBuffer.isView(object)) { this.writeUint32(0); return super._writeHostObject(object); }
      this.writeUint32(1);
      this.writeValue({ ...object });
      return undefined;
    }
  }
  const s = new ChildProcessSerializer();
  s.writeHeader();
  s.writeValue(v);
  return s.releaseBuffer();
}

// ------------------------------------------------------------------ cases
export const cases = [];
const problems = [];
export function problem(id, msg) { problems.push(`${id}: ${msg}`); }
export function getProblems() { return problems; }

const seen = new Set();
function add(c) {
  if (!/^[a-z0-9-]+$/.test(c.id)) throw new Error(`bad id ${c.id}`);
  if (seen.has(c.id)) throw new Error(`duplicate id ${c.id}`);
  if (!c.rules || !c.rules.length) throw new Error(`${c.id}: no rules`);
  seen.add(c.id);
  cases.push(c);
}

const show = (x) => JSON.stringify(x);

function checkV8Decode(id, bytes, options, expected, v8Flag) {
  const r = v8Decode(bytes, options);
  if (v8Flag === 'rejects') {
    if (!r.threw) problem(id, 'flagged "V8 11.3 rejects" but V8 accepts');
    return;
  }
  if (v8Flag === 'unsupported') return; // needs a newer V8 than the one running (documented in the case)
  if (r.threw) { problem(id, `V8 rejects: ${r.threw}`); return; }
  const d = describe(r.value);
  if (!neutralEqual(d, expected)) problem(id, `V8 decodes to ${show(d)}\n   expected ${show(expected)}`);
}

/**
 * A decode case accepted by formwire. `bytes` is the input; the expected value is the reference decoder's
 * result, which must equal `expect` when given and what V8 decodes (unless `v8` flags a documented gap).
 */
export function decodeAccept({ id, bytes, rules, description, source, options, dialect, expect, v8: v8Flag }) {
  const ref = refDecode(bytes, options || {});
  if (ref.error) { problem(id, `reference decoder rejects: ${show(ref.error)}`); return; }
  if (expect !== undefined && !neutralEqual(ref.value, expect)) {
    problem(id, `reference decodes to ${show(ref.value)}\n   expected ${show(expect)}`);
  }
  checkV8Decode(id, bytes, options || {}, ref.value, v8Flag);
  add({
    id, kind: 'clone-decode', verdict: 'accept', rules, description, source, dialect, options,
    bytes, expect: { value: ref.value },
  });
}

/** A decode case formwire rejects with exactly {code, offset}. */
export function decodeReject({ id, bytes, code, offset, rules, description, source, options, dialect, v8: v8Flag }) {
  const ref = refDecode(bytes, options || {});
  if (!ref.error) problem(id, `reference decoder accepts: ${show(ref.value)}`);
  else if (ref.error.code !== code || ref.error.offset !== offset) {
    problem(id, `reference decoder gives ${ref.error.code}@${ref.error.offset}, case says ${code}@${offset}`);
  }
  const r = v8Decode(bytes, options || {});
  if (v8Flag === 'accepts') {
    if (r.threw) problem(id, `flagged "V8 11.3 accepts" but V8 rejects: ${r.threw}`);
  } else if (!r.threw && !code.startsWith('SC_LIMIT_')) {
    problem(id, `V8 accepts this input (decodes to ${show(describe(r.value))}); flag it v8:'accepts' with the rule that makes formwire stricter`);
  }
  add({
    id, kind: 'clone-decode', verdict: 'reject', rules, description, source, dialect, options,
    bytes, expect: { error: { code, offset } },
  });
}

/** Decode cases from a live JS value: the bytes V8 writes (raw dialect, and Node dialect when different). */
export function decodeFromValue({ name, make, rules, description, source, nodeRules, noNode }) {
  const value = make();
  const expect = describe(value);
  const rb = rawBytes(value);
  decodeAccept({
    id: `sc-raw-${name}`, bytes: rb, rules, description, dialect: 'raw', expect,
    source: source || 'bytes written by V8 11.3 (Node 20 new v8.Serializer) for the value in vectors/src/clone/generate.mjs',
  });
  if (noNode) return;
  const nb = nodeBytes(make());
  if (Buffer.compare(nb, rb) !== 0) {
    // Node dialect: views become host objects that own a copy of their bytes (SC-N-05).
    const real = v8.deserialize(nb); // Node's own reader: check the contents survive it too
    checkNodeDialectContents(`sc-node-${name}`, value, real);
    decodeAccept({
      id: `sc-node-${name}`, bytes: nb, rules: [...new Set([...rules, ...(nodeRules || ['SC-W-23', 'SC-D-26'])])],
      description: `${description} (Node v8.serialize dialect)`, dialect: 'node',
      source: 'bytes written by Node 20 v8.serialize (DefaultSerializer) for the value in vectors/src/clone/generate.mjs',
    });
  }
}

function checkNodeDialectContents(id, original, decoded) {
  const views = [];
  (function walk(a, b, depth) {
    if (depth > 20 || !a || typeof a !== 'object') return;
    if (ArrayBuffer.isView(a)) { views.push([a, b]); return; }
    if (Array.isArray(a)) { a.forEach((x, i) => walk(x, b && b[i], depth + 1)); return; }
    if (Object.getPrototypeOf(a) === Object.prototype) for (const k of Object.keys(a)) walk(a[k], b && b[k], depth + 1);
  })(original, decoded, 0);
  for (const [a, b] of views) {
    const sameKind = Object.prototype.toString.call(a) === Object.prototype.toString.call(b);
    const ab = Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const bb = b && Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    if (!sameKind || !bb || Buffer.compare(ab, bb) !== 0) problem(id, 'Node v8.deserialize does not give the original view back');
  }
}

/**
 * An encode case: neutral value -> canonical bytes (reference encoder, SC-E-*). Checked: equals `hex` when
 * given; V8 decodes the bytes to the same neutral value; the reference decoder too. V8's own writer output
 * for the built value is compared and the result noted in `source`.
 */
export function encodeAccept({ id, value, make, hex: want, rules, description, options }) {
  const neutral = value !== undefined ? value : describe(make());
  const r = refEncode(neutral, options || {});
  if (r.error) { problem(id, `reference encoder fails: ${show(r.error)}`); return; }
  if (want !== undefined && r.hex !== H(want).toString('hex')) problem(id, `canonical bytes ${r.hex}\n   case says ${H(want).toString('hex')}`);
  const bytes = Buffer.from(r.hex, 'hex');
  checkV8Decode(id, bytes, {}, neutral);
  const back = refDecode(bytes, {});
  if (back.error || !neutralEqual(back.value, neutral)) problem(id, `reference decoder does not give the value back: ${show(back)}`);
  let v8hex;
  try { v8hex = v8RawEncode(make ? make() : build(neutral)).toString('hex'); } catch (e) { v8hex = `throws ${e.message}`; }
  const note = v8hex === r.hex
    ? 'V8 11.3 (Node 20 new v8.Serializer) writes identical bytes'
    : `V8 11.3 (Node 20 new v8.Serializer) writes different bytes: ${v8hex}`;
  add({
    id, kind: 'clone-encode', verdict: 'accept', rules, description, options,
    source: `formwire canonical encoder (spec/structured-clone.md SC-E); ${note}`,
    value: neutral, expect: { hex: r.hex },
  });
}

export function encodeReject({ id, value, make, code, rules, description, options }) {
  const neutral = value !== undefined ? value : describe(make());
  const r = refEncode(neutral, options || {});
  if (!r.error || r.error.code !== code) problem(id, `reference encoder gives ${show(r)}, case says ${code}`);
  add({
    id, kind: 'clone-encode', verdict: 'reject', rules, description, options,
    source: 'formwire canonical encoder (spec/structured-clone.md SC-E-14)',
    value: neutral, expect: { error: { code } },
  });
}
