// Neutral value description (vectors/SCHEMA.md §Neutral value description, spec/structured-clone.md §6 SC-N-*).
//
//   describe(jsValue)  -> neutral JSON (plain data, JSON.stringify-able)
//   build(neutral)     -> a live JS value graph
//
// Both preserve identity and cycles: objects get ids in first-visit depth-first order
// (SC-N-01: a view's buffer is visited before the view itself), a second visit is {"t":"ref","id":N}.
// Node-only (uses node:util and node:v8); this is conformance infrastructure, not library code.
import util from 'node:util';
import v8 from 'node:v8';

const { types } = util;

const ERROR_NAMES = ['EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError'];
export const VIEW_KINDS = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView',
];
export const ELEMENT_SIZE = {
  Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1, Int16Array: 2, Uint16Array: 2, Int32Array: 4, Uint32Array: 4,
  Float16Array: 2, Float32Array: 4, Float64Array: 8, BigInt64Array: 8, BigUint64Array: 8, DataView: 1,
};

// SC-N-04: numbers
export function numberOut(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0';
  return v;
}
export function numberIn(v) {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (v === '-0') return -0;
  if (typeof v !== 'number') throw new TypeError(`bad neutral number ${JSON.stringify(v)}`);
  // Same value; an int32 is returned as a Smi so that V8 writes it as `I` whatever hidden-class history
  // the number came through (a field once generalized to double yields HeapNumbers).
  if (Number.isInteger(v) && v >= -2147483648 && v <= 2147483647 && !Object.is(v, -0)) return v | 0;
  return v;
}

// SC-N-03: a string is well-formed when it holds no lone surrogate.
export function isWellFormed(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      return false;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}
export function units(s) {
  const out = new Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
export function fromUnits(u) {
  let s = '';
  for (let i = 0; i < u.length; i += 4096) s += String.fromCharCode(...u.slice(i, i + 4096));
  return s;
}
// A string value: {"v": s} or {"u16": [...]} merged into the owning description.
function stringFields(s) { return isWellFormed(s) ? { v: s } : { u16: units(s) }; }
// A string-valued field (property key, RegExp source, Error message/stack): "s" or {"u16": [...]}.
export function strField(s) { return isWellFormed(s) ? s : { u16: units(s) }; }
export function strFieldIn(f) {
  if (typeof f === 'string') return f;
  if (f && Array.isArray(f.u16)) return fromUnits(f.u16);
  throw new TypeError(`bad neutral string field ${JSON.stringify(f)}`);
}
function stringIn(d) {
  if (typeof d.v === 'string') return d.v;
  if (Array.isArray(d.u16)) return fromUnits(d.u16);
  throw new TypeError(`bad neutral string ${JSON.stringify(d)}`);
}

const b64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');

// V8 knows whether a view tracks its buffer's length; JS does not expose it. Ask V8's own serializer:
// the view's flags varint (SC-W-19) is the last byte it writes for a lone view.
function isLengthTracking(view) {
  const buf = view.buffer;
  if (!buf.resizable) return false;
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(view);
  const out = s.releaseBuffer();
  return (out[out.length - 1] & 1) === 1;
}

function errorName(e) {
  let name;
  try { name = String(e.name); } catch { name = 'Error'; }
  return ERROR_NAMES.includes(name) ? name : 'Error';
}

/** JS value -> neutral description (what V8 would serialize; SC-N-*). */
export function describe(root) {
  const ids = new Map();
  let next = 0;
  const take = (o) => { const id = next++; ids.set(o, id); return id; };

  function d(v) {
    switch (typeof v) {
      case 'undefined': return { t: 'undefined' };
      case 'boolean': return { t: 'bool', v };
      case 'number': return { t: 'number', v: numberOut(v) };
      case 'bigint': return { t: 'bigint', v: v.toString() };
      case 'string': return { t: 'string', ...stringFields(v) };
      case 'symbol': case 'function': throw new TypeError(`cannot describe a ${typeof v}`);
      default: break;
    }
    if (v === null) return { t: 'null' };
    if (ids.has(v)) return { t: 'ref', id: ids.get(v) };

    if (ArrayBuffer.isView(v)) {
      // SC-N-05: the buffer first (as V8 writes it), then the view takes the next id.
      const buffer = d(v.buffer);
      const id = take(v);
      const kind = types.isDataView(v) ? 'DataView' : Object.prototype.toString.call(v).slice(8, -1);
      return {
        t: 'view', id, kind, buffer, byte_offset: v.byteOffset, byte_length: v.byteLength,
        length_tracking: isLengthTracking(v),
      };
    }
    if (types.isSharedArrayBuffer(v)) throw new TypeError('cannot describe a SharedArrayBuffer');
    if (types.isProxy(v)) throw new TypeError('cannot describe a Proxy');

    const id = take(v);
    if (types.isArrayBuffer(v)) {
      const out = { t: 'arraybuffer', id, base64: b64(new Uint8Array(v)) };
      if (v.resizable) out.max_byte_length = v.maxByteLength;
      return out;
    }
    if (Array.isArray(v)) {
      const items = [];
      const props = [];
      for (const k of Object.keys(v)) {
        const isIndex = /^(0|[1-9][0-9]*)$/.test(k) && Number(k) <= 4294967294;
        if (isIndex) items.push([Number(k), d(v[k])]);
        else props.push([strField(k), d(v[k])]);
      }
      return { t: 'array', id, length: v.length, items, props };
    }
    if (types.isDate(v)) return { t: 'date', id, v: numberOut(Date.prototype.getTime.call(v)) };
    if (types.isRegExp(v)) return { t: 'regexp', id, source: strField(v.source), flags: v.flags };
    if (types.isMap(v)) {
      const entries = [];
      for (const [k, val] of [...v]) { const dk = d(k); entries.push([dk, d(val)]); }
      return { t: 'map', id, entries };
    }
    if (types.isSet(v)) {
      const values = [];
      for (const x of [...v]) values.push(d(x));
      return { t: 'set', id, values };
    }
    if (types.isBooleanObject(v)) return { t: 'boolean-object', id, v: Boolean.prototype.valueOf.call(v) };
    if (types.isNumberObject(v)) return { t: 'number-object', id, v: numberOut(Number.prototype.valueOf.call(v)) };
    if (types.isBigIntObject(v)) return { t: 'bigint-object', id, v: BigInt.prototype.valueOf.call(v).toString() };
    if (types.isStringObject(v)) return { t: 'string-object', id, ...stringFields(String.prototype.valueOf.call(v)) };
    if (types.isNativeError(v)) {
      const out = { t: 'error', id, name: errorName(v) };
      const md = Object.getOwnPropertyDescriptor(v, 'message');
      if (md && 'value' in md) out.message = strField(String(md.value));
      const stack = v.stack;
      if (typeof stack === 'string') out.stack = strField(stack);
      const cd = Object.getOwnPropertyDescriptor(v, 'cause');
      if (cd && 'value' in cd) out.cause = d(cd.value);
      return out;
    }
    if (types.isWeakMap(v) || types.isWeakSet(v) || types.isPromise(v) || types.isGeneratorObject(v)) {
      throw new TypeError('cannot describe a value with internal slots');
    }
    const props = [];
    for (const k of Object.keys(v)) props.push([strField(k), d(v[k])]);
    return { t: 'object', id, props };
  }
  return d(root);
}

const ERROR_CTORS = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
const VIEW_CTORS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView,
};
if (typeof globalThis.Float16Array === 'function') VIEW_CTORS.Float16Array = globalThis.Float16Array;

const defineData = (o, k, value) => Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });

/** Neutral description -> live JS value graph. */
export function build(root) {
  const byId = new Map();
  const reg = (id, o) => {
    if (byId.has(id)) throw new TypeError(`neutral id ${id} used twice`);
    byId.set(id, o);
    return o;
  };
  function b(n) {
    switch (n.t) {
      case 'undefined': return undefined;
      case 'null': return null;
      case 'bool': return n.v;
      case 'number': return numberIn(n.v);
      case 'bigint': return BigInt(n.v);
      case 'string': return stringIn(n);
      case 'ref': {
        if (!byId.has(n.id)) throw new TypeError(`neutral ref to unknown id ${n.id}`);
        return byId.get(n.id);
      }
      case 'object': {
        const o = reg(n.id, {});
        // Dictionary mode (delete a property that is not the last one added): V8 then writes each value
        // with its own representation instead of the hidden class's field representation.
        o.__formwire0 = 0; o.__formwire1 = 0; delete o.__formwire0; delete o.__formwire1;
        for (const [k, v] of n.props) defineData(o, strFieldIn(k), b(v));
        return o;
      }
      case 'array': {
        const dense = n.items.length === n.length && n.items.every(([i], j) => i === j);
        let a;
        if (dense) {
          a = reg(n.id, []);
          for (const [, v] of n.items) a.push(undefined);
          // keep PACKED elements: assign in order
          n.items.forEach(([i, v]) => { a[i] = b(v); });
        } else {
          a = reg(n.id, new Array(n.length));
          for (const [i, v] of n.items) a[i] = b(v);
        }
        for (const [k, v] of n.props) defineData(a, strFieldIn(k), b(v));
        return a;
      }
      case 'date': return reg(n.id, new Date(numberIn(n.v)));
      case 'regexp': return reg(n.id, new RegExp(strFieldIn(n.source), n.flags));
      case 'map': {
        const m = reg(n.id, new Map());
        for (const [k, v] of n.entries) { const kk = b(k); m.set(kk, b(v)); }
        return m;
      }
      case 'set': {
        const s = reg(n.id, new Set());
        for (const v of n.values) s.add(b(v));
        return s;
      }
      case 'boolean-object': return reg(n.id, Object(n.v));
      case 'number-object': return reg(n.id, Object(numberIn(n.v)));
      case 'bigint-object': return reg(n.id, Object(BigInt(n.v)));
      case 'string-object': return reg(n.id, Object(stringIn(n)));
      case 'arraybuffer': {
        const bytes = Buffer.from(n.base64, 'base64');
        const ab = n.max_byte_length === undefined
          ? new ArrayBuffer(bytes.length)
          : new ArrayBuffer(bytes.length, { maxByteLength: n.max_byte_length });
        new Uint8Array(ab).set(bytes);
        return reg(n.id, ab);
      }
      case 'view': {
        const buf = b(n.buffer);
        const Ctor = VIEW_CTORS[n.kind];
        if (!Ctor) throw new TypeError(`view kind ${n.kind} is not available in this runtime`);
        const size = ELEMENT_SIZE[n.kind];
        let view;
        if (n.length_tracking) view = new Ctor(buf, n.byte_offset);
        else view = new Ctor(buf, n.byte_offset, n.byte_length / size);
        return reg(n.id, view);
      }
      case 'error': {
        const C = ERROR_CTORS[n.name] || Error;
        const e = n.message === undefined ? new C() : new C(strFieldIn(n.message));
        reg(n.id, e);
        if (n.stack === undefined) e.stack = undefined;
        else e.stack = strFieldIn(n.stack);
        if (n.cause !== undefined) {
          Object.defineProperty(e, 'cause', { value: b(n.cause), writable: true, enumerable: false, configurable: true });
        }
        return e;
      }
      default: throw new TypeError(`unknown neutral type ${JSON.stringify(n.t)}`);
    }
  }
  return b(root);
}

/** Deep equality of two neutral descriptions (numbers compared as values, -0/NaN as their strings). */
export function neutralEqual(a, b) {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}
export function canon(x) {
  if (Array.isArray(x)) return x.map(canon);
  if (x && typeof x === 'object') {
    const out = {};
    for (const k of Object.keys(x).sort()) out[k] = canon(x[k]);
    return out;
  }
  return x;
}
