/**
 * Neutral value description (vectors/SCHEMA.md; SC-N rules): JSON that describes a JS value graph without loss.
 * `describe(value)` and `build(neutral)` keep identity and cycles (ids in first-visit depth-first order, a view's
 * buffer before the view). Standard JavaScript only; used by the conformance testee and the tests.
 */
import {
  Kind, classify, keysOf, dateGetTime, reSource, regexpFlags, mapForEach, setForEach, boolValueOf, numValueOf,
  strValueOf, bigintValueOf, viewInfo, ERROR_NAMES, ELEMENT_SIZE, VIEW_CTORS,
} from './kinds.js';

export type Neutral = { t: string; [k: string]: unknown };
type StrField = string | { u16: number[] };

export function numberOut(v: number): number | string {
  if (v !== v) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0 && 1 / v < 0) return '-0';
  return v;
}
export function numberIn(v: unknown): number {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  if (v === '-0') return -0;
  if (typeof v !== 'number') throw new TypeError(`bad neutral number ${JSON.stringify(v)}`);
  return v;
}
export function isWellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return false;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}
const units = (s: string): number[] => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
function fromUnits(u: number[]): string {
  let s = '';
  for (let i = 0; i < u.length; i += 4096) s += String.fromCharCode(...u.slice(i, i + 4096));
  return s;
}
const strFields = (s: string): { v: string } | { u16: number[] } => (isWellFormed(s) ? { v: s } : { u16: units(s) });
export const strField = (s: string): StrField => (isWellFormed(s) ? s : { u16: units(s) });
export function strFieldIn(f: unknown): string {
  if (typeof f === 'string') return f;
  if (f && Array.isArray((f as { u16?: unknown }).u16)) return fromUnits((f as { u16: number[] }).u16);
  throw new TypeError(`bad neutral string field ${JSON.stringify(f)}`);
}
function stringIn(d: Neutral): string {
  if (typeof d.v === 'string') return d.v;
  if (Array.isArray(d.u16)) return fromUnits(d.u16 as number[]);
  throw new TypeError(`bad neutral string ${JSON.stringify(d)}`);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
export function toBase64(u: Uint8Array): string {
  let s = '';
  let i = 0;
  for (; i + 2 < u.length; i += 3) {
    const n = (u[i]! << 16) | (u[i + 1]! << 8) | u[i + 2]!;
    s += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i < u.length) {
    const n = (u[i]! << 16) | ((u[i + 1] ?? 0) << 8);
    s += B64[n >> 18]! + B64[(n >> 12) & 63]! + (i + 1 < u.length ? B64[(n >> 6) & 63]! : '=') + '=';
  }
  return s;
}
export function fromBase64(s: string): Uint8Array {
  const clean = s.replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | B64.indexOf(clean[i]!);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

function isArrayIndex(k: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(k) && Number(k) <= 4294967294;
}

/** JS value -> neutral description. Throws TypeError for what has no description. */
export function describe(root: unknown): Neutral {
  const ids = new Map<object, number>();
  let next = 0;
  const take = (o: object): number => {
    const id = next++;
    ids.set(o, id);
    return id;
  };
  function d(v: unknown): Neutral {
    switch (typeof v) {
      case 'undefined': return { t: 'undefined' };
      case 'boolean': return { t: 'bool', v };
      case 'number': return { t: 'number', v: numberOut(v) };
      case 'bigint': return { t: 'bigint', v: v.toString() };
      case 'string': return { t: 'string', ...strFields(v) };
      case 'object': break;
      default: throw new TypeError(`cannot describe a ${typeof v}`);
    }
    if (v === null) return { t: 'null' };
    const o = v as object;
    const seen = ids.get(o);
    if (seen !== undefined) return { t: 'ref', id: seen };
    const k = classify(o);
    if (k === Kind.View) {
      const info = viewInfo(o);
      if (info === null || info === 'shared') throw new TypeError('cannot describe this view');
      const buffer = d(info.buffer);
      const id = take(o);
      return { t: 'view', id, kind: info.name, buffer, byte_offset: info.byteOffset, byte_length: info.byteLength, length_tracking: info.lengthTracking };
    }
    const id = take(o);
    switch (k) {
      case Kind.ArrayBuffer: {
        const ab = o as ArrayBuffer;
        const out: Neutral = { t: 'arraybuffer', id, base64: toBase64(new Uint8Array(ab)) };
        if ((ab as { resizable?: boolean }).resizable) out.max_byte_length = (ab as { maxByteLength?: number }).maxByteLength;
        return out;
      }
      case Kind.Array: {
        const a = o as unknown as Record<string, unknown>;
        const items: unknown[] = [];
        const props: unknown[] = [];
        for (const key of keysOf(a)) {
          if (isArrayIndex(key)) items.push([Number(key), d(a[key])]);
          else props.push([strField(key), d(a[key])]);
        }
        return { t: 'array', id, length: (o as unknown[]).length, items, props };
      }
      case Kind.Date: return { t: 'date', id, v: numberOut(dateGetTime.call(o) as number) };
      case Kind.RegExp: return { t: 'regexp', id, source: strField(reSource.call(o) as string), flags: regexpFlags(o).text };
      case Kind.Map: {
        const e: unknown[] = [];
        mapForEach.call(o, (val: unknown, key: unknown) => { e.push(key, val); });
        const entries: unknown[] = [];
        for (let i = 0; i < e.length; i += 2) {
          const dk = d(e[i]);
          entries.push([dk, d(e[i + 1])]);
        }
        return { t: 'map', id, entries };
      }
      case Kind.Set: {
        const e: unknown[] = [];
        setForEach.call(o, (val: unknown) => { e.push(val); });
        return { t: 'set', id, values: e.map(d) };
      }
      case Kind.BooleanObject: return { t: 'boolean-object', id, v: boolValueOf.call(o) };
      case Kind.NumberObject: return { t: 'number-object', id, v: numberOut(numValueOf.call(o) as number) };
      case Kind.BigIntObject: return { t: 'bigint-object', id, v: String(bigintValueOf.call(o)) };
      case Kind.StringObject: return { t: 'string-object', id, ...strFields(strValueOf.call(o) as string) };
      case Kind.Error: {
        let name: string;
        try {
          name = String((o as { name?: unknown }).name);
        } catch {
          name = 'Error';
        }
        const out: Neutral = { t: 'error', id, name: ERROR_NAMES.includes(name) ? name : 'Error' };
        const md = Object.getOwnPropertyDescriptor(o, 'message');
        if (md && 'value' in md) out.message = strField(String(md.value));
        const stack = (o as { stack?: unknown }).stack;
        if (typeof stack === 'string') out.stack = strField(stack);
        const cd = Object.getOwnPropertyDescriptor(o, 'cause');
        if (cd && 'value' in cd) out.cause = d(cd.value);
        return out;
      }
      case Kind.Plain:
      case Kind.Ordinary: {
        const r = o as Record<string, unknown>;
        const props: unknown[] = [];
        for (const key of keysOf(r)) props.push([strField(key), d(r[key])]);
        return { t: 'object', id, props };
      }
      default: throw new TypeError('cannot describe this object');
    }
  }
  return d(root);
}

const ERRORS: Record<string, ErrorConstructor> = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
const defineData = (o: object, k: string, value: unknown): void => {
  Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
};

/** Neutral description -> live JS value graph. */
export function build(root: Neutral): unknown {
  const byId = new Map<number, unknown>();
  const reg = <T>(id: unknown, o: T): T => {
    if (byId.has(id as number)) throw new TypeError(`neutral id ${String(id)} used twice`);
    byId.set(id as number, o);
    return o;
  };
  function b(n: Neutral): unknown {
    switch (n.t) {
      case 'undefined': return undefined;
      case 'null': return null;
      case 'bool': return n.v;
      case 'number': return numberIn(n.v);
      case 'bigint': return BigInt(n.v as string);
      case 'string': return stringIn(n);
      case 'ref':
        if (!byId.has(n.id as number)) throw new TypeError(`neutral ref to unknown id ${String(n.id)}`);
        return byId.get(n.id as number);
      case 'object': {
        const o = reg(n.id, {} as Record<string, unknown>);
        for (const [k, v] of n.props as Array<[unknown, Neutral]>) defineData(o, strFieldIn(k), b(v));
        return o;
      }
      case 'array': {
        const a = reg(n.id, new Array(n.length as number));
        for (const [i, v] of n.items as Array<[number, Neutral]>) a[i] = b(v);
        for (const [k, v] of n.props as Array<[unknown, Neutral]>) defineData(a, strFieldIn(k), b(v));
        return a;
      }
      case 'date': return reg(n.id, new Date(numberIn(n.v)));
      case 'regexp': return reg(n.id, new RegExp(strFieldIn(n.source), n.flags as string));
      case 'map': {
        const m = reg(n.id, new Map());
        for (const [k, v] of n.entries as Array<[Neutral, Neutral]>) {
          const kk = b(k);
          m.set(kk, b(v));
        }
        return m;
      }
      case 'set': {
        const s = reg(n.id, new Set());
        for (const v of n.values as Neutral[]) s.add(b(v));
        return s;
      }
      case 'boolean-object': return reg(n.id, Object(n.v));
      case 'number-object': return reg(n.id, Object(numberIn(n.v)));
      case 'bigint-object': return reg(n.id, Object(BigInt(n.v as string)));
      case 'string-object': return reg(n.id, Object(stringIn(n)));
      case 'arraybuffer': {
        const bytes = fromBase64(n.base64 as string);
        const ab = n.max_byte_length === undefined
          ? new ArrayBuffer(bytes.length)
          : new (ArrayBuffer as unknown as new (l: number, o: { maxByteLength: number }) => ArrayBuffer)(bytes.length, { maxByteLength: n.max_byte_length as number });
        new Uint8Array(ab).set(bytes);
        return reg(n.id, ab);
      }
      case 'view': {
        const buf = b(n.buffer as Neutral) as ArrayBuffer;
        const C = VIEW_CTORS[n.kind as string];
        if (!C) throw new TypeError(`view kind ${String(n.kind)} is not available in this runtime`);
        const size = ELEMENT_SIZE[n.kind as string]!;
        const view = n.length_tracking ? new C(buf, n.byte_offset as number) : new C(buf, n.byte_offset as number, (n.byte_length as number) / size);
        return reg(n.id, view);
      }
      case 'error': {
        const C = ERRORS[n.name as string] ?? Error;
        const e = n.message === undefined ? new C() : new C(strFieldIn(n.message));
        reg(n.id, e);
        Object.defineProperty(e, 'stack', { value: n.stack === undefined ? undefined : strFieldIn(n.stack), writable: true, enumerable: false, configurable: true });
        if (n.cause !== undefined) Object.defineProperty(e, 'cause', { value: b(n.cause as Neutral), writable: true, enumerable: false, configurable: true });
        return e;
      }
      default: throw new TypeError(`unknown neutral type ${JSON.stringify(n.t)}`);
    }
  }
  return b(root);
}

/** Deep equality of two neutral descriptions. */
export function neutralEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}
function canon(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(canon);
  if (x && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x).sort()) out[k] = canon((x as Record<string, unknown>)[k]);
    return out;
  }
  return x;
}
