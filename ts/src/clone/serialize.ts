/**
 * Canonical encoder: JS value -> V8 ValueSerializer v15 bytes, raw dialect (what `structuredClone`, `postMessage`
 * and `new v8.Serializer()` write). Canonical choices (spec/structured-clone.md, clone-anchors (c)):
 *  - header FF 0F; strings `"` Latin-1 when every code unit is <= 0xFF, else `c` UTF-16LE after one 00 pad byte when
 *    needed so the payload starts at an even offset;
 *  - numbers `I` (zigzag) when integral, in int32 range and not -0, else `N` (f64 LE);
 *  - BigInt `Z` with 8-byte digit groups; keys that are array indices are written as numbers, other keys as strings;
 *  - arrays `A` (dense) when hole-free, else `a` (sparse); objects `o`; Map `;`, Set `'`; views `B`/`~` then `V`
 *    with flags (bit 0 length-tracking, bit 1 backed by a resizable buffer); Error `r` with subtags in the order
 *    prototype, `m`, `c`, `s`, `.`.
 * Values are read with the same rules as clone() (kinds.ts): getters run, prototypes dropped, and so on.
 */
import { scError } from './errors.js';
import {
  Kind, classify, keysOf, hasOwn, dateGetTime, reSource, regexpFlags, mapForEach, setForEach, boolValueOf, numValueOf,
  strValueOf, bigintValueOf, isDetached, isResizable, maxByteLength, abByteLength, viewInfo, ERROR_NAMES, markOrdinary,
  ObjectProto,
} from './kinds.js';
import * as W from './wire.js';
import { sameKeys } from './shapes.js';

export interface SerializeOptions {
  /** Container nesting limit (spec/limits.md max_depth). Default 1000; Infinity for none. */
  maxDepth?: number;
}

export const DEFAULT_MAX_DEPTH = 1000;

const getProto = Object.getPrototypeOf;
const gopd = Object.getOwnPropertyDescriptor;
const f64 = new Float64Array(1);
const f64b = new Uint8Array(f64.buffer);
const encoder = new TextEncoder();

let scratch: Uint8Array | null = new Uint8Array(1 << 16);

/** Encodes `value`. Throws FormwireError SC_DATA_CLONE for what cannot be serialized, SC_LIMIT_DEPTH past maxDepth. */
export function serialize(value: unknown, options?: SerializeOptions): Uint8Array {
  const w = new Writer(options?.maxDepth ?? DEFAULT_MAX_DEPTH);
  w.buf[0] = W.T_VERSION;
  w.buf[1] = W.VERSION;
  w.pos = 2;
  try {
    w.value(value, 0);
    return w.buf.slice(0, w.pos);
  } finally {
    w.release();
  }
}

/** Is `s` a canonical array index ("0" .. "4294967294")? */
function arrayIndex(s: string): number {
  const n = s.length;
  if (n === 0 || n > 10) return -1;
  const c0 = s.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || (c0 === 48 && n > 1)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v < 4294967295 ? v : -1;
}

interface KeyShape {
  keys: string[];
  /** encoded key bytes (tag included), or null for a key that must be written in place (two-byte strings) */
  bytes: Array<Uint8Array | null>;
}

class Writer {
  buf: Uint8Array;
  pos = 0;
  ids = new Map<object, number>();
  nextId = 0;
  shape: KeyShape | null = null;
  ownsScratch: boolean;
  constructor(readonly maxDepth: number) {
    if (scratch !== null) {
      this.buf = scratch;
      scratch = null; // re-entrant calls (from getters) get their own buffer
      this.ownsScratch = true;
    } else {
      this.buf = new Uint8Array(256);
      this.ownsScratch = false;
    }
  }

  release(): void {
    if (this.ownsScratch) scratch = this.buf.length <= 1 << 20 ? this.buf : new Uint8Array(1 << 16);
  }

  fail(what: string): never {
    throw scError('SC_DATA_CLONE', this.pos, `${what} could not be cloned`);
  }

  grow(need: number): void {
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.buf.subarray(0, this.pos));
    this.buf = nb;
  }

  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(this.pos + n);
  }

  byte(b: number): void {
    if (this.pos >= this.buf.length) this.grow(this.pos + 1);
    this.buf[this.pos++] = b;
  }

  varint(v: number): void {
    this.ensure(10);
    const buf = this.buf;
    let p = this.pos;
    while (v >= 0x80) {
      buf[p++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    buf[p++] = v;
    this.pos = p;
  }

  double(x: number): void {
    this.ensure(8);
    f64[0] = x !== x ? NaN : x; // one NaN bit pattern (quiet NaN, 00..f87f)
    const buf = this.buf;
    const p = this.pos;
    buf[p] = f64b[0]!; buf[p + 1] = f64b[1]!; buf[p + 2] = f64b[2]!; buf[p + 3] = f64b[3]!;
    buf[p + 4] = f64b[4]!; buf[p + 5] = f64b[5]!; buf[p + 6] = f64b[6]!; buf[p + 7] = f64b[7]!;
    this.pos = p + 8;
  }

  number(x: number): void {
    if ((x | 0) === x && (x !== 0 || 1 / x > 0)) {
      this.ensure(6);
      this.buf[this.pos++] = W.T_INT32;
      this.varint(((x << 1) ^ (x >> 31)) >>> 0);
    } else {
      this.byte(W.T_DOUBLE);
      this.double(x);
    }
  }

  bigintContents(b: bigint): void {
    const neg = b < 0n;
    let m = neg ? -b : b;
    const bytes: number[] = [];
    while (m > 0n) {
      bytes.push(Number(m & 0xffn));
      m >>= 8n;
    }
    const len = Math.ceil(bytes.length / 8) * 8;
    this.varint(len * 2 + (neg ? 1 : 0));
    this.ensure(len);
    for (let i = 0; i < len; i++) this.buf[this.pos++] = bytes[i] ?? 0;
  }

  bytes(src: Uint8Array): void {
    const n = src.length;
    this.ensure(n);
    if (n < 32) {
      const buf = this.buf;
      let p = this.pos;
      for (let i = 0; i < n; i++) buf[p++] = src[i]!;
      this.pos = p;
    } else {
      this.buf.set(src, this.pos);
      this.pos += n;
    }
  }

  string(s: string): void {
    const n = s.length;
    const start = this.pos;
    this.ensure(n + 16);
    const buf = this.buf;
    buf[start] = W.T_ONE_BYTE;
    this.pos = start + 1;
    this.varint(n);
    let p = this.pos;
    if (n >= 48) {
      const r = encoder.encodeInto(s, buf.subarray(p, p + n));
      if (r.read === n && r.written === n) {
        this.pos = p + n; // all ASCII: UTF-8 bytes are the Latin-1 bytes
        return;
      }
    }
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) {
        this.pos = start;
        this.twoByte(s);
        return;
      }
      buf[p++] = c;
    }
    this.pos = p;
  }

  twoByte(s: string): void {
    const n = s.length;
    const bl = n * 2;
    let vl = 1;
    for (let v = bl; v >= 0x80; v = Math.floor(v / 128)) vl++;
    this.ensure(bl + 16);
    if ((this.pos + 1 + vl) & 1) this.buf[this.pos++] = W.T_PADDING; // payload at an even offset, as V8 does
    this.buf[this.pos++] = W.T_TWO_BYTE;
    this.varint(bl);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      buf[p++] = c & 0xff;
      buf[p++] = c >>> 8;
    }
    this.pos = p;
  }

  key(k: string): void {
    const idx = arrayIndex(k);
    if (idx < 0) this.string(k);
    else this.number(idx);
  }

  /** The bytes of a key when they do not depend on the position (everything except two-byte strings). */
  keyBytes(k: string): Uint8Array | null {
    const save = this.pos;
    this.key(k);
    const b = this.buf[save] === W.T_TWO_BYTE || this.buf[save] === W.T_PADDING ? null : this.buf.slice(save, this.pos);
    this.pos = save;
    return b;
  }

  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'string': this.string(v); return;
      case 'number': this.number(v); return;
      case 'boolean': this.byte(v ? W.T_TRUE : W.T_FALSE); return;
      case 'undefined': this.byte(W.T_UNDEFINED); return;
      case 'bigint': this.byte(W.T_BIGINT); this.bigintContents(v); return;
      case 'object':
        if (v === null) this.byte(W.T_NULL);
        else this.object(v, depth);
        return;
      default:
        this.fail(typeof v === 'symbol' ? v.toString() : 'A function');
    }
  }

  ref(o: object): boolean {
    const id = this.ids.get(o);
    if (id === undefined) return false;
    this.byte(W.T_REF);
    this.varint(id);
    return true;
  }

  open(depth: number): void {
    if (depth >= this.maxDepth) throw scError('SC_LIMIT_DEPTH', this.pos, `nesting deeper than ${this.maxDepth}`);
  }

  object(o: object, depth: number): void {
    if (this.ref(o)) return;
    const k = classify(o);
    if (k === Kind.View) {
      this.view(o);
      return;
    }
    this.ids.set(o, this.nextId++);
    switch (k) {
      case Kind.Plain: this.plain(o as Record<string, unknown>, depth); return;
      case Kind.Array: this.array(o as unknown[], depth); return;
      case Kind.Date: this.byte(W.T_DATE); this.double(dateGetTime.call(o) as number); return;
      case Kind.RegExp: {
        const src = reSource.call(o) as string;
        const fl = regexpFlags(o).bits;
        this.byte(W.T_REGEXP);
        this.string(src);
        this.varint(fl);
        return;
      }
      case Kind.BooleanObject: this.byte(boolValueOf.call(o) ? W.T_TRUE_OBJECT : W.T_FALSE_OBJECT); return;
      case Kind.NumberObject: this.byte(W.T_NUMBER_OBJECT); this.double(numValueOf.call(o) as number); return;
      case Kind.BigIntObject: this.byte(W.T_BIGINT_OBJECT); this.bigintContents(bigintValueOf.call(o) as bigint); return;
      case Kind.StringObject: this.byte(W.T_STRING_OBJECT); this.string(strValueOf.call(o) as string); return;
      case Kind.Map: {
        this.open(depth);
        const e: unknown[] = [];
        mapForEach.call(o, (v: unknown, key: unknown) => { e.push(key, v); });
        this.byte(W.T_MAP);
        for (let i = 0; i < e.length; i++) this.value(e[i], depth + 1);
        this.byte(W.T_MAP_END);
        this.varint(e.length);
        return;
      }
      case Kind.Set: {
        this.open(depth);
        const e: unknown[] = [];
        setForEach.call(o, (v: unknown) => { e.push(v); });
        this.byte(W.T_SET);
        for (let i = 0; i < e.length; i++) this.value(e[i], depth + 1);
        this.byte(W.T_SET_END);
        this.varint(e.length);
        return;
      }
      case Kind.ArrayBuffer: this.arrayBuffer(o as ArrayBuffer); return;
      case Kind.Error: this.error(o, depth); return;
      case Kind.Platform: {
        // A platform interface the runtime clones as an ordinary object (e.g. Node's URL) is written as one.
        const sc = (globalThis as { structuredClone?: (v: unknown) => unknown }).structuredClone;
        let r: unknown;
        try {
          r = typeof sc === 'function' ? sc(o) : undefined;
        } catch {
          r = undefined;
        }
        if (r !== null && typeof r === 'object' && getProto(r) === ObjectProto && getProto(o) !== ObjectProto) {
          markOrdinary(o);
          this.plain(o as Record<string, unknown>, depth);
          return;
        }
        return this.fail('A platform object');
      }
      default:
        this.fail(k === Kind.SharedArrayBuffer ? 'A SharedArrayBuffer' : 'An object');
    }
  }

  arrayBuffer(b: ArrayBuffer): void {
    if (isDetached(b)) this.fail('A detached ArrayBuffer');
    const len = abByteLength.call(b) as number;
    if (isResizable(b)) {
      this.byte(W.T_RESIZABLE_BUFFER);
      this.varint(len);
      this.varint(maxByteLength(b));
    } else {
      this.byte(W.T_ARRAY_BUFFER);
      this.varint(len);
    }
    this.bytes(new Uint8Array(b, 0, len));
  }

  view(o: object): void {
    const info = viewInfo(o);
    if (info === null) this.fail('An out-of-bounds or detached view');
    if (info === 'shared') this.fail('A view of a SharedArrayBuffer');
    const sub = W.VIEW_SUBTAG[info.name];
    if (sub === undefined) this.fail('A view');
    if (!this.ref(info.buffer)) {
      this.ids.set(info.buffer, this.nextId++);
      this.arrayBuffer(info.buffer);
    }
    this.ids.set(o, this.nextId++);
    this.ensure(20);
    this.buf[this.pos++] = W.T_VIEW;
    this.buf[this.pos++] = sub;
    this.varint(info.byteOffset);
    this.varint(info.lengthTracking ? 0 : info.byteLength); // SC-E-12: a length-tracking view stores no length (0)
    this.varint((info.lengthTracking ? 1 : 0) | (info.backedByRab ? 2 : 0));
  }

  plain(o: Record<string, unknown>, depth: number): void {
    this.open(depth);
    const keys = keysOf(o);
    const n = keys.length;
    let shape = this.shape;
    if (shape === null || !sameKeys(shape.keys, keys)) {
      shape = { keys, bytes: keys.map((k) => this.keyBytes(k)) };
      this.shape = shape;
    }
    const kb = shape.bytes;
    this.byte(W.T_OBJECT);
    let written = 0;
    for (let i = 0; i < n; i++) {
      const key = keys[i]!;
      const v = o[key];
      // a key deleted by a getter reads undefined or an inherited value: only then ask whether it is still own
      if ((v === undefined || typeof v === 'object' || typeof v === 'function') && !hasOwn.call(o, key)) continue;
      const b = kb[i];
      if (b !== null && b !== undefined) this.bytes(b);
      else this.key(key);
      this.value(v, depth + 1);
      written++;
    }
    this.byte(W.T_OBJECT_END);
    this.varint(written);
  }

  array(a: unknown[], depth: number): void {
    this.open(depth);
    const len = a.length;
    const keys = keysOf(a);
    if (keys.length >= len && (len === 0 || keys[len - 1] === String(len - 1))) {
      this.byte(W.T_DENSE);
      this.varint(len);
      for (let i = 0; i < len; i++) {
        const x = a[i];
        if (x === undefined && !hasOwn.call(a, i)) this.byte(W.T_HOLE); // deleted by a getter
        else this.value(x, depth + 1);
      }
      let written = 0;
      for (let i = len; i < keys.length; i++) {
        const key = keys[i]!;
        if (!hasOwn.call(a, key)) continue;
        const v = (a as unknown as Record<string, unknown>)[key];
        this.key(key);
        this.value(v, depth + 1);
        written++;
      }
      this.byte(W.T_DENSE_END);
      this.varint(written);
      this.varint(len);
      return;
    }
    this.byte(W.T_SPARSE);
    this.varint(len);
    let written = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!hasOwn.call(a, key)) continue;
      const v = (a as unknown as Record<string, unknown>)[key];
      this.key(key);
      this.value(v, depth + 1);
      written++;
    }
    this.byte(W.T_SPARSE_END);
    this.varint(written);
    this.varint(len);
  }

  error(o: object, depth: number): void {
    this.open(depth);
    const md = gopd(o, 'message');
    const cd = gopd(o, 'cause');
    this.byte(W.T_ERROR);
    const name = '' + (o as { name?: unknown }).name;
    if (ERROR_NAMES.includes(name)) this.byte(W.ERROR_SUBTAG[name]!);
    if (md !== undefined && 'value' in md) {
      const m = '' + md.value;
      this.byte(W.E_MESSAGE);
      this.string(m);
    }
    // V8 reads the stack last (after writing the cause); the canonical order writes it before the cause.
    let causeWriter: (() => void) | null = null;
    if (cd !== undefined && 'value' in cd) {
      const cv = cd.value;
      causeWriter = () => {
        this.byte(W.E_CAUSE);
        this.value(cv, depth + 1);
      };
    }
    const st = (o as { stack?: unknown }).stack;
    if (typeof st === 'string') {
      this.byte(W.E_STACK);
      this.string(st);
    }
    if (causeWriter !== null) causeWriter();
    this.byte(W.E_END);
  }
}
