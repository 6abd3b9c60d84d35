// Reference structured-clone codec written from spec/structured-clone.md, rule by rule.
//
//   decode(bytes, options) -> {value: <neutral>} | {error: {code, offset, message}}   (SC-D-*)
//   encode(neutral, options) -> {hex} | {error: {code, offset, message}}               (SC-E-*)
//
// It exists to check the vectors and the spec against real V8 (conformance/oracles/v8-testee.mjs,
// vectors/src/clone/generate.mjs). It builds neutral descriptions, not live JS values, and favours
// clarity over speed. It is test infrastructure: library code lives in rust/, ts/, python/.
import { numberOut, numberIn, strField, strFieldIn, isWellFormed, ELEMENT_SIZE } from './neutral.mjs';

const DEFAULT_MAX_DEPTH = 1000; // spec/limits.md
const DEFAULT_MAX_BYTES = 268435456;
const DEFAULT_MAX_VALUES = 10000000;
const DEFAULT_MAX_BIGINT_BYTES = 1048576;

class ScError extends Error {
  constructor(code, offset, message) { super(message); this.code = code; this.offset = offset; }
}

// SC-W-04: the tag bytes, each named by its character (T.o is 0x6F), and the two without one. spec/v8-tags.json is
// the one table of them; scripts/check-v8-tags.py checks these lists against it.
const T = Object.fromEntries([...'_0TFIUNZS"c^o{aA$@D y x n z s R ; : \' , B ~ V r \\ ? - t u p w m'.replace(/ /g, '')].map((c) => [c, c.charCodeAt(0)]));
const VERSION_TAG = 0xff;
const PADDING_TAG = 0x00;

// SC-W-19: view subtags; SC-W-23: Node host type numbers.
const VIEW_SUBTAG = {
  b: 'Int8Array', B: 'Uint8Array', C: 'Uint8ClampedArray', w: 'Int16Array', W: 'Uint16Array', d: 'Int32Array',
  D: 'Uint32Array', h: 'Float16Array', f: 'Float32Array', F: 'Float64Array', q: 'BigInt64Array', Q: 'BigUint64Array',
  '?': 'DataView',
};
const SUBTAG_OF = Object.fromEntries(Object.entries(VIEW_SUBTAG).map(([k, v]) => [v, k.charCodeAt(0)]));
export const NODE_HOST_TYPE = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'DataView', 'Uint8Array' /* 10 = Buffer */, 'BigInt64Array', 'BigUint64Array',
  'Float16Array',
];
// SC-W-15: RegExp flag bits (V8 JSRegExp::Flags, src/regexp/regexp-flags.h).
export const REGEXP_FLAG_BITS = { g: 1, i: 2, m: 4, y: 8, u: 16, s: 32, l: 64, d: 128, v: 256 };
const REGEXP_FLAG_ORDER = 'dgimsuvy';
// SC-W-20: the Error subtags, by their character: prototypes, then the fields and the end.
const ERROR_PROTO = { E: 'EvalError', R: 'RangeError', F: 'ReferenceError', S: 'SyntaxError', T: 'TypeError', U: 'URIError' };
const ERROR_SUBTAG = { message: 'm', stack: 's', cause: 'c', end: '.' };
const ERROR_FIELD_OF = Object.fromEntries(Object.entries(ERROR_SUBTAG).map(([k, c]) => [c, k]));
const ERROR_PROTO_TAG = Object.fromEntries(Object.entries(ERROR_PROTO).map(([k, v]) => [v, k.charCodeAt(0)]));

const isArrayIndex = (name) => /^(0|[1-9][0-9]*)$/.test(name) && Number(name) <= 4294967294;

// ---------------------------------------------------------------- decoding

function timeClip(t) { // SC-D-17 (ECMA-262 TimeClip, V8 JSDate::New)
  if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) return NaN;
  const r = Math.trunc(t);
  return r === 0 ? 0 : r;
}

function utf8Decode(bytes) { // SC-D-10: strict UTF-8 (no overlongs, no surrogates, <= U+10FFFF); null if invalid
  let s = '';
  let i = 0;
  const n = bytes.length;
  const cps = [];
  while (i < n) {
    const b0 = bytes[i];
    let cp; let need; let min;
    if (b0 < 0x80) { cps.push(b0); i++; continue; }
    if (b0 >= 0xc2 && b0 <= 0xdf) { cp = b0 & 0x1f; need = 1; min = 0x80; }
    else if (b0 >= 0xe0 && b0 <= 0xef) { cp = b0 & 0x0f; need = 2; min = 0x800; }
    else if (b0 >= 0xf0 && b0 <= 0xf4) { cp = b0 & 0x07; need = 3; min = 0x10000; }
    else return null;
    if (i + need >= n) return null;
    for (let k = 1; k <= need; k++) {
      const bk = bytes[i + k];
      if (bk === undefined || (bk & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (bk & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
    cps.push(cp);
    i += need + 1;
  }
  for (let k = 0; k < cps.length; k += 4096) s += String.fromCodePoint(...cps.slice(k, k + 4096));
  return s;
}

// SameValueZero key for Map/Set (SC-D-20)
function szKey(v) {
  if (v && typeof v === 'object' && v.node) return v.node;
  switch (v.t) {
    case 'number': { const x = v.v; return Number.isNaN(x) ? 'n:NaN' : `n:${x === 0 ? 0 : x}`; }
    case 'string': return `s:${v.v}`;
    case 'bigint': return `b:${v.v}`;
    case 'bool': return `t:${v.v}`;
    default: return v.t;
  }
}

class Decoder {
  constructor(bytes, options, brokenV13) {
    this.b = bytes;
    this.len = bytes.length;
    this.pos = 0;
    this.maxDepth = options.max_depth === undefined ? DEFAULT_MAX_DEPTH : options.max_depth;
    this.maxValues = options.max_values === undefined ? DEFAULT_MAX_VALUES : options.max_values;
    this.maxBigintBytes = options.max_bigint_bytes === undefined ? DEFAULT_MAX_BIGINT_BYTES : options.max_bigint_bytes;
    this.values = 0;
    this.nodeIpc = options.node_ipc === true;
    this.brokenV13 = brokenV13;
    this.ids = []; // wire id -> node
    this.depth = 0;
  }

  fail(code, offset, message) { throw new ScError(code, offset, message); }
  truncated() { this.fail('SC_TRUNCATED', this.len, 'input ended inside a value'); }
  remaining() { return this.len - this.pos; }

  // SC-D-04: u8 varints take at most 2 bytes, u32 at most 5; the last allowed byte must end the varint
  // and must not carry bits above the type's width.
  varint(bits) {
    const start = this.pos;
    const maxBytes = Math.ceil(bits / 7);
    let value = 0;
    for (let i = 0; i < maxBytes; i++) {
      if (this.pos >= this.len) this.truncated();
      const byte = this.b[this.pos++];
      if (i === maxBytes - 1) {
        const room = bits - 7 * i; // bits the last byte may carry
        if (byte & 0x80 || byte >> room) this.fail('SC_VARINT', start, `varint does not fit in u${bits}`);
      }
      value += (byte & 0x7f) * 2 ** (7 * i);
      if (!(byte & 0x80)) return value;
    }
    /* unreachable */
    return value;
  }
  u32() { return this.varint(32); }
  u8() { return this.varint(8); }
  double() {
    if (this.remaining() < 8) this.truncated();
    const v = Buffer.from(this.b.buffer, this.b.byteOffset + this.pos, 8).readDoubleLE(0);
    this.pos += 8;
    return v;
  }
  raw(n) { // SC-D-05: lengths are checked against the remaining input before anything is allocated
    if (n > this.remaining()) this.truncated();
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skipPadding() { while (this.pos < this.len && this.b[this.pos] === PADDING_TAG) this.pos++; } // SC-D-06
  // SC-D-06: before any value: padding bytes and `?` verify-count prefixes (tag + u32) are skipped.
  // Returns the offset of the value's own tag.
  valueTag() {
    for (;;) {
      this.skipPadding();
      if (this.pos >= this.len) this.truncated();
      if (this.b[this.pos] !== T['?']) return this.pos;
      this.pos++;
      this.u32();
    }
  }

  assign(node) { this.ids.push(node); return this.ids.length - 1; }

  enter(tagOff) { // SC-D-29
    if (this.maxDepth !== null && this.depth + 1 > this.maxDepth) {
      this.fail('SC_LIMIT_DEPTH', tagOff, `nesting deeper than max_depth ${this.maxDepth}`);
    }
    this.depth++;
  }
  leave() { this.depth--; }

  // Strings: `"` Latin-1, `c` UTF-16LE, `S` UTF-8 (SC-D-10). tagOff points at the tag, pos after it.
  stringBody(tag, tagOff) {
    const n = this.u32();
    if (tag === T['"']) {
      const bytes = this.raw(n);
      let s = '';
      for (let i = 0; i < bytes.length; i += 4096) s += String.fromCharCode(...bytes.subarray(i, i + 4096));
      return s;
    }
    if (tag === T.c) {
      if (n % 2) this.fail('SC_STRING', tagOff, 'two-byte string with an odd byte length');
      const bytes = this.raw(n);
      const u = new Array(n / 2);
      for (let i = 0; i < n / 2; i++) u[i] = bytes[2 * i] | (bytes[2 * i + 1] << 8);
      let s = '';
      for (let i = 0; i < u.length; i += 4096) s += String.fromCharCode(...u.slice(i, i + 4096));
      return s;
    }
    const bytes = this.raw(n);
    const s = utf8Decode(bytes);
    if (s === null) this.fail('SC_STRING', tagOff, '`S` string is not valid UTF-8');
    return s;
  }

  // SC-D-11: positions that require a string (RegExp source, String object, Error message/stack).
  readString() {
    const tagOff = this.valueTag();
    const tag = this.b[tagOff];
    if (tag !== T['"'] && tag !== T.c && tag !== T.S) this.fail('SC_TAG', tagOff, 'a string is required here');
    this.pos = tagOff + 1;
    return this.stringBody(tag, tagOff);
  }

  // SC-D-12/13: a property key. Returns {name, tagOff}.
  readKey() {
    const tagOff = this.valueTag();
    const tag = this.b[tagOff];
    this.pos = tagOff + 1;
    if (tag === T['"'] || tag === T.c || tag === T.S) return { name: this.stringBody(tag, tagOff), tagOff };
    if (tag === T.I) {
      const u = this.u32();
      return { name: String(u & 1 ? -((u + 1) / 2) : u / 2), tagOff };
    }
    if (tag === T.U) return { name: String(this.u32()), tagOff };
    if (tag === T.N) {
      const v = this.double();
      if (!Number.isInteger(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) {
        this.fail('SC_KEY', tagOff, 'a number key must be a safe integer');
      }
      return { name: String(v === 0 ? 0 : v), tagOff };
    }
    this.fail('SC_KEY', tagOff, 'a property key must be a string or a number');
    return null;
  }

  // Reads key/value pairs into `node` until `endTag`; returns {count, endOff}. SC-D-12, SC-D-14..16.
  readProperties(node, endTag, isArray) {
    let count = 0;
    for (;;) {
      this.skipPadding();
      if (this.pos >= this.len) this.truncated();
      if (this.b[this.pos] === endTag) {
        const endOff = this.pos++;
        return { count, endOff };
      }
      const { name, tagOff } = this.readKey();
      if (isArray && name === 'length') this.fail('SC_KEY', tagOff, 'an array already has a `length` property');
      if (node.names.has(name)) this.fail('SC_KEY', tagOff, `duplicate property ${JSON.stringify(name)}`);
      node.names.add(name);
      const value = this.readValue();
      if (isArrayIndex(name)) {
        node.index.set(Number(name), value);
        if (isArray && Number(name) >= node.length) node.length = Number(name) + 1;
      } else {
        node.strs.push([name, value]);
      }
      count++;
    }
  }

  // After a buffer-valued item, a `V` (after padding only) makes it a view. SC-D-22.
  maybeView(bufferItem) {
    this.skipPadding();
    if (this.pos >= this.len || this.b[this.pos] !== T.V) return bufferItem;
    const vOff = this.pos++;
    const buffer = bufferItem.node;
    const subtag = this.u8();
    const byteOffset = this.u32();
    const byteLength = this.u32();
    const bufLen = buffer.bytes.length;
    if (byteOffset > bufLen || byteLength > bufLen - byteOffset) this.fail('SC_VIEW', vOff, 'view out of bounds');
    const flags = (this.version >= 14 || this.brokenV13) ? this.u32() : 0; // SC-D-23
    const kind = VIEW_SUBTAG[String.fromCharCode(subtag)];
    if (subtag > 0x7f || !kind) this.fail('SC_VIEW', vOff, 'unknown view subtag');
    const size = ELEMENT_SIZE[kind];
    if (byteOffset % size || byteLength % size) this.fail('SC_VIEW', vOff, 'view misaligned for its element size');
    const tracking = (flags & 1) === 1;
    const rab = (flags & 2) === 2;
    const resizable = buffer.max !== undefined;
    if ((tracking || rab) && !resizable) this.fail('SC_VIEW', vOff, 'view flags need a resizable buffer');
    if (resizable && !rab) this.fail('SC_VIEW', vOff, 'view on a resizable buffer must be flagged backed-by-RAB');
    const effLength = tracking ? Math.floor((bufLen - byteOffset) / size) * size : byteLength;
    const node = { t: 'view', kind, buffer, byte_offset: byteOffset, byte_length: effLength, length_tracking: tracking };
    this.assign(node);
    return { node };
  }

  // SC-D-26/27: `\` host objects (Node dialects).
  hostObject(tagOff) {
    if (this.nodeIpc) {
      const sub = this.u32();
      if (sub === 1) {
        const hostId = this.assign(null);
        const inner = this.valueTag();
        if (this.b[inner] !== T.o) this.fail('SC_HOST', tagOff, 'IPC host object sub-tag 1 must be followed by an object');
        this.pendingAlias = hostId;
        const item = this.readValue();
        return item;
      }
      if (sub !== 0) this.fail('SC_HOST', tagOff, `unknown IPC host object sub-tag ${sub}`);
    }
    const id = this.assign(null);
    const type = this.u32();
    const n = this.u32();
    const bytes = this.raw(n);
    const kind = NODE_HOST_TYPE[type];
    if (kind === undefined) this.fail('SC_HOST', tagOff, `unknown Node host object type ${type}`);
    if (n % ELEMENT_SIZE[kind]) this.fail('SC_HOST', tagOff, 'host view length is not a multiple of its element size');
    const buffer = { t: 'arraybuffer', bytes: Uint8Array.from(bytes) };
    const node = { t: 'view', kind, buffer, byte_offset: 0, byte_length: n, length_tracking: false };
    this.ids[id] = node;
    return { node };
  }

  bigintBody(tagOff) { // SC-D-09
    const bitfield = this.u32();
    const sign = bitfield & 1;
    const byteLen = Math.floor(bitfield / 2) & 0x3fffffff;
    if (this.maxBigintBytes !== null && byteLen > this.maxBigintBytes) { // SC-L-06: before the digits
      this.fail('SC_LIMIT_BIGINT', tagOff, `BigInt longer than max_bigint_bytes ${this.maxBigintBytes}`);
    }
    const bytes = this.raw(byteLen);
    if (byteLen === 0 && sign) this.fail('SC_TAG', tagOff, 'BigInt with a sign and no digits (-0n)');
    let mag = 0n;
    for (let i = bytes.length - 1; i >= 0; i--) mag = (mag << 8n) | BigInt(bytes[i]);
    return (sign ? -mag : mag).toString();
  }

  // SC-D-07: one value at a value position. Returns an item: {prim} or {node}.
  readValue() {
    const tagOff = this.valueTag();
    const tag = this.b[tagOff];
    this.pos = tagOff + 1;
    const alias = this.pendingAlias;
    this.pendingAlias = undefined;
    // SC-L-05: every value position (an IPC host object's inner object is the same value).
    if (alias === undefined && this.maxValues !== null && ++this.values > this.maxValues) {
      this.fail('SC_LIMIT_VALUES', tagOff, `more than max_values ${this.maxValues} values`);
    }
    switch (tag) {
      case T._: return { t: 'undefined' };
      case T['0']: return { t: 'null' };
      case T.T: return { t: 'bool', v: true };
      case T.F: return { t: 'bool', v: false };
      case T.I: { const u = this.u32(); return { t: 'number', v: u & 1 ? -((u + 1) / 2) : u / 2 }; }
      case T.U: return { t: 'number', v: this.u32() };
      case T.N: return { t: 'number', v: this.double() };
      case T.Z: return { t: 'bigint', v: this.bigintBody(tagOff) };
      case T['"']: case T.c: case T.S: return { t: 'string', v: this.stringBody(tag, tagOff) };
      case T['^']: { // SC-D-25
        const id = this.u32();
        if (id >= this.ids.length || this.ids[id] === null) this.fail('SC_REF', tagOff, `back-reference to unassigned id ${id}`);
        const node = this.ids[id];
        if (node.t === 'arraybuffer') return this.maybeView({ node });
        return { node };
      }
      case T.o: {
        this.enter(tagOff);
        const node = { t: 'object', index: new Map(), strs: [], names: new Set() };
        this.assign(node);
        if (alias !== undefined) this.ids[alias] = node;
        const { count, endOff } = this.readProperties(node, T['{'], false);
        const n = this.u32();
        if (n !== count) this.fail('SC_COUNT', endOff, `object declares ${n} properties, ${count} read`);
        this.leave();
        return { node };
      }
      case T.A: { // SC-D-14
        this.enter(tagOff);
        const length = this.u32();
        if (length > this.remaining()) this.truncated();
        const node = { t: 'array', length, index: new Map(), strs: [], names: new Set() };
        this.assign(node);
        for (let i = 0; i < length; i++) {
          this.skipPadding();
          if (this.pos >= this.len) this.truncated();
          if (this.b[this.pos] === T['-']) { this.pos++; continue; }
          node.index.set(i, this.readValue());
          node.names.add(String(i));
        }
        const { count, endOff } = this.readProperties(node, T.$, true);
        const n = this.u32();
        const l = this.u32();
        if (n !== count || l !== length) this.fail('SC_COUNT', endOff, 'dense array end counts do not match');
        this.leave();
        return { node };
      }
      case T.a: { // SC-D-15
        this.enter(tagOff);
        const length = this.u32();
        const node = { t: 'array', length, index: new Map(), strs: [], names: new Set() };
        this.assign(node);
        const { count, endOff } = this.readProperties(node, T['@'], true);
        const n = this.u32();
        const l = this.u32();
        if (n !== count || l !== length) this.fail('SC_COUNT', endOff, 'sparse array end counts do not match');
        this.leave();
        return { node };
      }
      case T.D: { const v = timeClip(this.double()); const node = { t: 'date', v }; this.assign(node); return { node }; }
      case T.y: case T.x: { const node = { t: 'boolean-object', v: tag === T.y }; this.assign(node); return { node }; }
      case T.n: { const node = { t: 'number-object' }; this.assign(node); node.v = this.double(); return { node }; }
      case T.z: { const node = { t: 'bigint-object' }; this.assign(node); node.v = this.bigintBody(tagOff); return { node }; }
      case T.s: { const node = { t: 'string-object' }; this.assign(node); node.v = this.readString(); return { node }; }
      case T.R: { // SC-D-19
        const node = { t: 'regexp' };
        this.assign(node);
        node.source = this.readString();
        const flags = this.u32();
        const allowed = 1 | 2 | 4 | 8 | 16 | 32 | 128 | 256;
        if (flags & ~allowed) this.fail('SC_TAG', tagOff, 'RegExp flags hold an unknown or linear (l) bit');
        if ((flags & 16) && (flags & 256)) this.fail('SC_TAG', tagOff, 'RegExp flags u and v together');
        node.flags = [...REGEXP_FLAG_ORDER].filter((f) => flags & REGEXP_FLAG_BITS[f]).join('');
        return { node };
      }
      case T[';']: { // SC-D-20
        this.enter(tagOff);
        const node = { t: 'map', entries: [], keys: new Map() };
        this.assign(node);
        let count = 0;
        let endOff;
        for (;;) {
          this.skipPadding();
          if (this.pos >= this.len) this.truncated();
          if (this.b[this.pos] === T[':']) { endOff = this.pos++; break; }
          let k = this.readValue();
          const v = this.readValue();
          if (k.t === 'number' && Object.is(k.v, -0)) k = { t: 'number', v: 0 };
          const key = szKey(k);
          if (node.keys.has(key)) node.entries[node.keys.get(key)][1] = v;
          else { node.keys.set(key, node.entries.length); node.entries.push([k, v]); }
          count += 2;
        }
        const n = this.u32();
        if (n !== count) this.fail('SC_COUNT', endOff, `map declares ${n}, ${count} read`);
        this.leave();
        return { node };
      }
      case T["'"]: {
        this.enter(tagOff);
        const node = { t: 'set', values: [], keys: new Set() };
        this.assign(node);
        let count = 0;
        let endOff;
        for (;;) {
          this.skipPadding();
          if (this.pos >= this.len) this.truncated();
          if (this.b[this.pos] === T[',']) { endOff = this.pos++; break; }
          let v = this.readValue();
          if (v.t === 'number' && Object.is(v.v, -0)) v = { t: 'number', v: 0 };
          const key = szKey(v);
          if (!node.keys.has(key)) { node.keys.add(key); node.values.push(v); }
          count++;
        }
        const n = this.u32();
        if (n !== count) this.fail('SC_COUNT', endOff, `set declares ${n}, ${count} read`);
        this.leave();
        return { node };
      }
      case T.B: case T['~']: { // SC-D-21
        const node = { t: 'arraybuffer' };
        this.assign(node);
        const n = this.u32();
        if (tag === T['~']) {
          const max = this.u32();
          if (n > max) this.fail('SC_TAG', tagOff, 'resizable buffer longer than its maximum');
          node.max = max;
        }
        node.bytes = Uint8Array.from(this.raw(n));
        return this.maybeView({ node });
      }
      case T.r: { // SC-D-24
        this.enter(tagOff);
        const node = { t: 'error', name: 'Error' };
        this.assign(node);
        const seen = new Set();
        for (;;) {
          const stOff = this.pos;
          const st = this.u8();
          const c = String.fromCharCode(st);
          const kind = ERROR_PROTO[c] ? 'proto' : ERROR_FIELD_OF[c];
          if (kind === 'end') break;
          if (kind === undefined) this.fail('SC_TAG', stOff, `unknown Error subtag 0x${st.toString(16)}`);
          if (seen.has(kind)) this.fail('SC_TAG', stOff, `repeated Error subtag ${c}`);
          seen.add(kind);
          if (kind === 'proto') node.name = ERROR_PROTO[c];
          else if (kind === 'message') node.message = this.readString();
          else if (kind === 'stack') node.stack = this.readString();
          else node.cause = this.readValue();
        }
        this.leave();
        return { node };
      }
      case T['\\']: return this.hostObject(tagOff);
      case T.V: this.fail('SC_VIEW', tagOff, 'view not directly after an ArrayBuffer'); break;
      case T.t: case T.u: case T.w: case T.m:
        this.fail('SC_UNSUPPORTED', tagOff, `tag ${String.fromCharCode(tag)} only has meaning inside one process`); break;
      case T.p:
        if (this.version >= 15) this.fail('SC_UNSUPPORTED', tagOff, 'shared object tag p');
        this.fail('SC_TAG', tagOff, 'tag p before version 15'); break;
      default:
        this.fail('SC_TAG', tagOff, `tag 0x${tag.toString(16)} is not allowed here`);
    }
    return null;
  }

  run() {
    // SC-D-03: header
    if (this.len === 0) this.truncated();
    if (this.b[0] !== VERSION_TAG) this.fail('SC_VERSION', 0, 'no version header');
    this.pos = 1;
    this.version = this.u32();
    if (this.version < 13 || this.version > 15) this.fail('SC_VERSION', 0, `version ${this.version} outside 13..15`);
    const item = this.readValue();
    // SC-D-28: only padding may follow the top-level value
    this.skipPadding();
    if (this.pos < this.len) this.fail('SC_TAG', this.pos, 'bytes after the top-level value');
    return item;
  }
}

// SC-D-30 / SC-N-01: neutral description of the decoded graph, ids in first-visit DFS order.
function toNeutral(root) {
  const ids = new Map();
  let next = 0;
  const prim = (it) => {
    switch (it.t) {
      case 'number': return { t: 'number', v: numberOut(it.v) };
      case 'string': return { t: 'string', ...strFields(it.v) };
      default: return { ...it };
    }
  };
  const strFields = (s) => (isWellFormed(s) ? { v: s } : { u16: Array.from({ length: s.length }, (_, i) => s.charCodeAt(i)) });
  function out(item) {
    if (!item.node) return prim(item);
    return outNode(item.node);
  }
  function outNode(n) {
    if (ids.has(n)) return { t: 'ref', id: ids.get(n) };
    if (n.t === 'view') {
      const buffer = outNode(n.buffer);
      const id = next++;
      ids.set(n, id);
      return { t: 'view', id, kind: n.kind, buffer, byte_offset: n.byte_offset, byte_length: n.byte_length, length_tracking: n.length_tracking };
    }
    const id = next++;
    ids.set(n, id);
    switch (n.t) {
      case 'object': case 'array': {
        const idx = [...n.index.keys()].sort((a, b) => a - b);
        if (n.t === 'object') {
          const props = [];
          for (const i of idx) props.push([String(i), out(n.index.get(i))]);
          for (const [k, v] of n.strs) props.push([strField(k), out(v)]);
          return { t: 'object', id, props };
        }
        const items = [];
        for (const i of idx) items.push([i, out(n.index.get(i))]);
        const props = [];
        for (const [k, v] of n.strs) props.push([strField(k), out(v)]);
        return { t: 'array', id, length: n.length, items, props };
      }
      case 'date': return { t: 'date', id, v: numberOut(n.v) };
      case 'boolean-object': return { t: n.t, id, v: n.v };
      case 'number-object': return { t: n.t, id, v: numberOut(n.v) };
      case 'bigint-object': return { t: n.t, id, v: n.v };
      case 'string-object': return { t: n.t, id, ...strFields(n.v) };
      case 'regexp': return { t: 'regexp', id, source: strField(n.source), flags: n.flags };
      case 'map': return { t: 'map', id, entries: n.entries.map(([k, v]) => { const kk = out(k); return [kk, out(v)]; }) };
      case 'set': return { t: 'set', id, values: n.values.map(out) };
      case 'arraybuffer': {
        const o = { t: 'arraybuffer', id, base64: Buffer.from(n.bytes).toString('base64') };
        if (n.max !== undefined) o.max_byte_length = n.max;
        return o;
      }
      case 'error': {
        const o = { t: 'error', id, name: n.name };
        if (n.message !== undefined) o.message = strField(n.message);
        if (n.stack !== undefined) o.stack = strField(n.stack);
        if (n.cause !== undefined) o.cause = out(n.cause);
        return o;
      }
      default: throw new Error(`internal: node ${n.t}`);
    }
  }
  return out(root);
}

function errorResult(e) {
  if (!(e instanceof ScError)) throw e;
  return { error: { code: e.code, offset: e.offset, message: e.message } };
}

/** SC-D-*: bytes (Uint8Array) -> {value} or {error}. options: max_depth, max_bytes, max_values, max_bigint_bytes, node_ipc. */
export function decode(bytes, options = {}) {
  const maxBytes = options.max_bytes === undefined ? DEFAULT_MAX_BYTES : options.max_bytes;
  if (maxBytes !== null && bytes.length > maxBytes) { // SC-L-01
    return { error: { code: 'SC_LIMIT_BYTES', offset: 0, message: `input longer than max_bytes ${maxBytes}` } };
  }
  const first = new Decoder(bytes, options, false);
  try {
    return { value: toNeutral(first.run()) };
  } catch (e) {
    // SC-D-23: V8's retry for data labelled 13 that was written with view flags (crbug.com/1284506).
    if (e instanceof ScError && first.version === 13 && !e.code.startsWith('SC_LIMIT_')) {
      try {
        return { value: toNeutral(new Decoder(bytes, options, true).run()) };
      } catch (e2) {
        if (!(e2 instanceof ScError)) throw e2;
      }
    }
    return errorResult(e);
  }
}

// ---------------------------------------------------------------- canonical encoding (SC-E-*)

class Writer {
  constructor() { this.chunks = []; this.len = 0; }
  byte(b) { this.chunks.push(Uint8Array.of(b)); this.len += 1; }
  bytes(u8) { this.chunks.push(u8); this.len += u8.length; }
  varint(v) { // SC-W-01
    const out = [];
    do { let b = v % 128; v = Math.floor(v / 128); if (v) b |= 0x80; out.push(b); } while (v);
    this.bytes(Uint8Array.from(out));
  }
  double(v) {
    const buf = Buffer.alloc(8);
    if (Number.isNaN(v)) buf.set([0, 0, 0, 0, 0, 0, 0xf8, 0x7f]); else buf.writeDoubleLE(v);
    this.bytes(buf);
  }
  result() { return Buffer.concat(this.chunks.map((c) => Buffer.from(c))); }
}
const varintLen = (v) => { let n = 1; while (v >= 128) { v = Math.floor(v / 128); n++; } return n; };

function encodeString(w, s) { // SC-E-05
  let oneByte = true;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) { oneByte = false; break; }
  if (oneByte) {
    w.byte(T['"']);
    w.varint(s.length);
    w.bytes(Uint8Array.from(s, (ch) => ch.charCodeAt(0)));
    return;
  }
  const byteLen = s.length * 2;
  if ((w.len + 1 + varintLen(byteLen)) & 1) w.byte(PADDING_TAG);
  w.byte(T.c);
  w.varint(byteLen);
  const u = new Uint8Array(byteLen);
  for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); u[2 * i] = c & 0xff; u[2 * i + 1] = c >> 8; }
  w.bytes(u);
}
function encodeNumber(w, v) { // SC-E-03
  if (Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0)) {
    w.byte(T.I);
    w.varint(v >= 0 ? v * 2 : -v * 2 - 1);
  } else {
    w.byte(T.N);
    w.double(v);
  }
}
function encodeIndexKey(w, i) { // SC-E-06
  if (i <= 2147483647) { w.byte(T.I); w.varint(i * 2); } else { w.byte(T.N); w.double(i); }
}
function encodeBigIntBody(w, str) { // SC-E-04
  let v = BigInt(str);
  const sign = v < 0n ? 1 : 0;
  if (sign) v = -v;
  const bytes = [];
  while (v > 0n) { bytes.push(Number(v & 0xffn)); v >>= 8n; }
  while (bytes.length % 8) bytes.push(0);
  w.varint(bytes.length * 2 + sign);
  w.bytes(Uint8Array.from(bytes));
}

/** SC-E-*: neutral -> canonical bytes. options: max_depth. */
export function encode(neutral, options = {}) {
  const maxDepth = options.max_depth === undefined ? DEFAULT_MAX_DEPTH : options.max_depth;
  const w = new Writer();
  const wireId = new Map(); // neutral id -> wire id
  let next = 0;
  let depth = 0;
  const fail = (code, message) => { throw new ScError(code, w.len, message); };
  const take = (n) => { wireId.set(n.id, next++); };
  const enter = () => { if (maxDepth !== null && depth + 1 > maxDepth) fail('SC_LIMIT_DEPTH', `nesting deeper than max_depth ${maxDepth}`); depth++; };
  const stringOf = (n) => (typeof n.v === 'string' ? n.v : String.fromCharCode(...n.u16));

  function props(list) { // enumeration order: array indices ascending, then the rest in order (SC-E-06)
    const idx = [];
    const rest = [];
    for (const [k, v] of list) {
      const name = strFieldIn(k);
      if (isArrayIndex(name)) idx.push([Number(name), v]); else rest.push([name, v]);
    }
    idx.sort((a, b) => a[0] - b[0]);
    return { idx, rest };
  }
  function enc(n) {
    switch (n.t) {
      case 'undefined': w.byte(T._); return;
      case 'null': w.byte(T['0']); return;
      case 'bool': w.byte(n.v ? T.T : T.F); return;
      case 'number': encodeNumber(w, numberIn(n.v)); return;
      case 'bigint': w.byte(T.Z); encodeBigIntBody(w, n.v); return;
      case 'string': encodeString(w, stringOf(n)); return;
      case 'ref': {
        if (!wireId.has(n.id)) fail('SC_DATA_CLONE', `neutral ref to unknown id ${n.id}`);
        w.byte(T['^']); w.varint(wireId.get(n.id)); return;
      }
      default: break;
    }
    switch (n.t) {
      case 'object': {
        enter(); take(n); w.byte(T.o);
        const { idx, rest } = props(n.props);
        for (const [i, v] of idx) { encodeIndexKey(w, i); enc(v); }
        for (const [k, v] of rest) { encodeString(w, k); enc(v); }
        w.byte(T['{']); w.varint(idx.length + rest.length); depth--; return;
      }
      case 'array': { // SC-E-07
        enter(); take(n);
        const items = [...n.items].sort((a, b) => a[0] - b[0]);
        const dense = items.length === n.length && items.every(([i], j) => i === j);
        const { rest } = props(n.props);
        if (dense) {
          w.byte(T.A); w.varint(n.length);
          for (const [, v] of items) enc(v);
          for (const [k, v] of rest) { encodeString(w, k); enc(v); }
          w.byte(T.$); w.varint(rest.length); w.varint(n.length);
        } else {
          w.byte(T.a); w.varint(n.length);
          for (const [i, v] of items) { encodeIndexKey(w, i); enc(v); }
          for (const [k, v] of rest) { encodeString(w, k); enc(v); }
          w.byte(T['@']); w.varint(items.length + rest.length); w.varint(n.length);
        }
        depth--; return;
      }
      case 'date': take(n); w.byte(T.D); w.double(numberIn(n.v)); return;
      case 'boolean-object': take(n); w.byte(n.v ? T.y : T.x); return;
      case 'number-object': take(n); w.byte(T.n); w.double(numberIn(n.v)); return;
      case 'bigint-object': take(n); w.byte(T.z); encodeBigIntBody(w, n.v); return;
      case 'string-object': take(n); w.byte(T.s); encodeString(w, stringOf(n)); return;
      case 'regexp': { // SC-E-09
        take(n); w.byte(T.R); encodeString(w, strFieldIn(n.source));
        let bits = 0;
        for (const f of n.flags) bits |= REGEXP_FLAG_BITS[f];
        w.varint(bits); return;
      }
      case 'map': enter(); take(n); w.byte(T[';']); for (const [k, v] of n.entries) { enc(k); enc(v); } w.byte(T[':']); w.varint(2 * n.entries.length); depth--; return;
      case 'set': enter(); take(n); w.byte(T["'"]); for (const v of n.values) enc(v); w.byte(T[',']); w.varint(n.values.length); depth--; return;
      case 'arraybuffer': { // SC-E-11
        take(n);
        const bytes = Buffer.from(n.base64, 'base64');
        if (n.max_byte_length === undefined) { w.byte(T.B); w.varint(bytes.length); } else { w.byte(T['~']); w.varint(bytes.length); w.varint(n.max_byte_length); }
        w.bytes(bytes); return;
      }
      case 'view': { // SC-E-12
        enc(n.buffer);
        take(n);
        const resizable = n.buffer.t === 'arraybuffer' ? n.buffer.max_byte_length !== undefined : resizableById.get(n.buffer.id);
        w.byte(T.V); w.byte(SUBTAG_OF[n.kind]); w.varint(n.byte_offset);
        w.varint(n.length_tracking ? 0 : n.byte_length); // a length-tracking view stores no length (V8 writes 0)
        w.varint((n.length_tracking ? 1 : 0) | (resizable ? 2 : 0)); return;
      }
      case 'error': { // SC-E-13
        enter(); take(n); w.byte(T.r);
        if (n.name !== 'Error' && ERROR_PROTO_TAG[n.name]) w.byte(ERROR_PROTO_TAG[n.name]);
        const sub = (k) => w.byte(ERROR_SUBTAG[k].charCodeAt(0));
        if (n.message !== undefined) { sub('message'); encodeString(w, strFieldIn(n.message)); }
        if (n.stack !== undefined) { sub('stack'); encodeString(w, strFieldIn(n.stack)); }
        if (n.cause !== undefined) { sub('cause'); enc(n.cause); }
        sub('end'); depth--; return;
      }
      default: fail('SC_DATA_CLONE', `unknown neutral type ${n.t}`);
    }
  }
  // resizable-ness of every arraybuffer by neutral id (a view may reference its buffer by ref)
  const resizableById = new Map();
  (function scan(x) {
    if (Array.isArray(x)) { x.forEach(scan); return; }
    if (x && typeof x === 'object') {
      if (x.t === 'arraybuffer') resizableById.set(x.id, x.max_byte_length !== undefined);
      Object.values(x).forEach(scan);
    }
  })(neutral);
  try {
    w.byte(VERSION_TAG); w.varint(15); // SC-E-01
    enc(neutral);
    return { hex: w.result().toString('hex') };
  } catch (e) {
    return errorResult(e);
  }
}
