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
 *
 * Fast paths: a root primitive is written straight into an output of its exact size; otherwise one reused scratch
 * buffer is filled and copied out once. Ordinary objects are walked with for-in (see `plain`); each nesting level
 * remembers its last key list (the first objects of a call: each place in the walk remembers the key list it had in the
 * last call) and, when it repeats, writes the keys' bytes four at a time. The memory map is
 * identity.ts (exact for any graph: every object is recorded).
 */
import { CLONE_DEFAULTS } from '../core/registry.js';
import { scError } from './errors.js';
import { isStackOverflow } from './stack.js';
import {
  Kind, classify, keysOf, dateGetTime, reSource, regexpFlags, mapForEach, setForEach, boolValueOf, numValueOf,
  strValueOf, bigintValueOf, isDetached, isResizable, maxByteLength, abByteLength, viewInfo, ERROR_NAMES, markOrdinary,
  ObjectProto, arrayKeys,
} from './kinds.js';
import * as W from './wire.js';
import { T, E } from './wire.js';
import { Identity } from './identity.js';
import { allocFilled, latin1Into } from '../adapters/node.js';

export interface SerializeOptions {
  /**
   * Container nesting limit (spec/limits.md max_depth). Default 1000; Infinity or null for none (the stack still
   * bounds it: SC_LIMIT_DEPTH).
   */
  maxDepth?: number | null;
}

/** spec/limits.md `max_depth` default (generated from spec/registry.json). */
export const DEFAULT_MAX_DEPTH = CLONE_DEFAULTS.maxDepth;

const VERSION = W.VERSION;
const getProto = Object.getPrototypeOf;
// A local alias: V8 reduces hasOwn.call(o, key) inside for-in over o to a map check only when it knows the
// function, and it does not know a binding imported from another module (a cost per object; CHANGELOG.md).
const hasOwn = Object.prototype.hasOwnProperty;
const gopd = Object.getOwnPropertyDescriptor;
const f64 = new Float64Array(1);
const f64b = new Uint8Array(f64.buffer);
const encoder = new TextEncoder();
const EMPTY_KEYS: string[] = [];
/** Shapes are cached per nesting level (an array of objects and the objects inside them do not evict each other). */
const SHAPE_LEVELS = 32;
/**
 * The first objects of a call are cached by their order in the walk instead: a message serialized again has the same
 * key list at the same place, even where neighbours at one level differ (a nested config), so the writer (reused
 * across calls) writes their keys from the cache too. Later objects (a long array) use the per-level cache.
 */
const SHAPE_VISITS = 64;
const SCRATCH = 1 << 16;

/** The idle writer (with its 64 KiB scratch buffer), reused by the next call; a re-entrant call makes its own. */
let idle: Writer | null = null;

/**
 * Encodes `value`. Throws FormwireError SC_DATA_CLONE for what cannot be serialized, SC_LIMIT_DEPTH past maxDepth.
 *
 * Fast paths: a root string or other primitive is written straight into an output of its exact size (no writer, no
 * identity map); otherwise one reused scratch buffer is filled and the result is one copy of its used part.
 */
export function serialize(value: unknown, options?: SerializeOptions): Uint8Array {
  switch (typeof value) {
    case 'string': return rootString(value);
    case 'number': return rootNumber(value);
    case 'boolean': return root1(value ? T.TRUE : T.FALSE);
    case 'undefined': return root1(T.UNDEFINED);
    case 'object': if (value === null) return root1(T.NULL);
  }
  const md = options === undefined ? undefined : options.maxDepth;
  const maxDepth = md === undefined ? DEFAULT_MAX_DEPTH : md === null ? Infinity : md;
  let w = idle;
  if (w !== null) {
    idle = null;
    w.reset(maxDepth);
  } else {
    w = new Writer(maxDepth);
  }
  try {
    w.value(value, 0);
  } catch (e) {
    // SC-L-03: a raised maxDepth is still bounded by the stack, as a coded error
    if (isStackOverflow(e)) throw scError('SC_LIMIT_DEPTH', w.pos, 'nesting deeper than the stack allows');
    throw e;
  }
  const out = w.buf.slice(0, w.pos);
  // on a throw the writer is simply dropped (the next call makes a new one)
  w.done();
  idle = w;
  return out;
}

function root1(tag: number): Uint8Array {
  const out = new Uint8Array(3);
  out[0] = T.VERSION;
  out[1] = VERSION;
  out[2] = tag;
  return out;
}

function rootNumber(x: number): Uint8Array {
  if ((x | 0) === x && (x !== 0 || 1 / x > 0)) {
    let z = ((x << 1) ^ (x >> 31)) >>> 0;
    let n = 4;
    for (let v = z; v >= 0x80; v >>>= 7) n++;
    const out = new Uint8Array(n);
    out[0] = T.VERSION;
    out[1] = VERSION;
    out[2] = T.INT32;
    let p = 3;
    while (z >= 0x80) {
      out[p++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    out[p] = z;
    return out;
  }
  const out = new Uint8Array(11);
  out[0] = T.VERSION;
  out[1] = VERSION;
  out[2] = T.DOUBLE;
  f64[0] = x !== x ? NaN : x;
  for (let i = 0; i < 8; i++) out[3 + i] = f64b[i]!;
  return out;
}

function varintLength(v: number): number {
  let n = 1;
  for (; v >= 0x80; v = Math.floor(v / 128)) n++;
  return n;
}

function putVarint(buf: Uint8Array, p: number, v: number): number {
  while (v >= 0x80) {
    buf[p++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 128);
  }
  buf[p++] = v;
  return p;
}

/** A root string: `FF 0F "` + Latin-1, or the padded `c` UTF-16LE form, in an output of exactly the right size. */
function rootString(s: string): Uint8Array {
  const n = s.length;
  const head = 3 + varintLength(n);
  // every byte is written below (head, then the n Latin-1 bytes) or the output is dropped for the two-byte form
  const out = allocFilled(head + n);
  out[0] = T.VERSION;
  out[1] = VERSION;
  out[2] = T.ONE_BYTE;
  putVarint(out, 3, n);
  if (n >= 48) {
    if (latin1Into(s, out, head)) return out;
    const r = encoder.encodeInto(s, out.subarray(head));
    if (r.read === n && r.written === n) return out; // all ASCII: the UTF-8 bytes are the Latin-1 bytes
  }
  for (let i = 0, p = head; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) return rootTwoByte(s);
    out[p++] = c;
  }
  return out;
}

function rootTwoByte(s: string): Uint8Array {
  const n = s.length;
  const bl = n * 2;
  const vl = varintLength(bl);
  const pad = (3 + vl) & 1; // payload at an even offset, as V8 writes it
  const out = new Uint8Array(3 + pad + vl + bl);
  out[0] = T.VERSION;
  out[1] = VERSION;
  let p = 2;
  if (pad) out[p++] = T.PADDING;
  out[p++] = T.TWO_BYTE;
  p = putVarint(out, p, bl);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    out[p++] = c & 0xff;
    out[p++] = c >>> 8;
  }
  return out;
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

/**
 * Shape cache, one entry per nesting level: the key list of the last object written at that level (keys[0..n),
 * overwritten in place when the next object differs, so no allocation per object), and, from the second object in a
 * row with that key list on, each key's encoded bytes, tag included. A two-byte key's bytes depend on the output
 * position (padding), so it has none and is written in place.
 */
interface KeyShape {
  keys: string[];
  n: number;
  bytes: Array<KeyBytes | null> | null;
}

/**
 * A key's encoded bytes as little-endian int32 words (the last one zero-padded), written four bytes at a time
 * through a DataView (cheaper than a byte loop). The padding bytes land past the key and are
 * overwritten by what follows.
 */
interface KeyBytes {
  length: number;
  words: Int32Array;
}

function keyWords(b: Uint8Array): KeyBytes {
  const words = new Int32Array((b.length + 3) >>> 2);
  for (let i = 0; i < b.length; i++) words[i >>> 2]! |= b[i]! << (8 * (i & 3));
  return { length: b.length, words };
}

class Writer {
  buf: Uint8Array = new Uint8Array(SCRATCH);
  /** a view of buf for four-byte writes; replaced with buf */
  dv: DataView = new DataView(this.buf.buffer);
  pos = 0;
  ids: Identity = new Identity();
  shapes: Array<KeyShape | undefined> = [];
  /** by order of visit in the call (SHAPE_VISITS) */
  visitShapes: Array<KeyShape | undefined> = [];
  visits = 0;
  constructor(public maxDepth: number) {
    this.reset(maxDepth);
  }

  reset(maxDepth: number): void {
    this.maxDepth = maxDepth;
    this.visits = 0;
    this.buf[0] = T.VERSION;
    this.buf[1] = VERSION;
    this.pos = 2;
  }

  /** Forgets the objects of this call (the writer is kept for the next one). */
  done(): void {
    this.ids = new Identity();
    if (this.buf.length > 1 << 20) this.setBuf(new Uint8Array(SCRATCH));
  }

  fail(what: string): never {
    throw scError('SC_DATA_CLONE', this.pos, `${what} could not be cloned`);
  }

  grow(need: number): void {
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const nb = new Uint8Array(cap);
    nb.set(this.buf.subarray(0, this.pos));
    this.setBuf(nb);
  }

  setBuf(b: Uint8Array): void {
    this.buf = b;
    this.dv = new DataView(b.buffer);
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
      const buf = this.buf;
      let p = this.pos;
      buf[p++] = T.INT32;
      let z = ((x << 1) ^ (x >> 31)) >>> 0;
      while (z >= 0x80) {
        buf[p++] = (z & 0x7f) | 0x80;
        z >>>= 7;
      }
      buf[p++] = z;
      this.pos = p;
    } else {
      this.byte(T.DOUBLE);
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
    if (start + n + 16 > this.buf.length) this.grow(start + n + 16);
    const buf = this.buf;
    let p = start;
    buf[p++] = T.ONE_BYTE;
    if (n < 0x80) buf[p++] = n;
    else p = putVarint(buf, p, n);
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
    const vl = varintLength(bl);
    this.ensure(bl + 16);
    if ((this.pos + 1 + vl) & 1) this.buf[this.pos++] = T.PADDING; // payload at an even offset, as V8 does
    this.buf[this.pos++] = T.TWO_BYTE;
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
    const b = this.buf[save] === T.TWO_BYTE || this.buf[save] === T.PADDING ? null : this.buf.slice(save, this.pos);
    this.pos = save;
    return b;
  }

  value(v: unknown, depth: number): void {
    switch (typeof v) {
      case 'string': this.string(v); return;
      case 'number': this.number(v); return;
      case 'boolean': this.byte(v ? T.TRUE : T.FALSE); return;
      case 'undefined': this.byte(T.UNDEFINED); return;
      case 'bigint': this.byte(T.BIGINT); this.bigintContents(v); return;
      case 'object':
        if (v === null) this.byte(T.NULL);
        else this.object(v, depth);
        return;
      default:
        this.fail(typeof v === 'symbol' ? v.toString() : 'A function');
    }
  }

  ref(id: number): void {
    this.byte(T.REF);
    this.varint(id);
  }

  open(depth: number): void {
    if (depth >= this.maxDepth) throw scError('SC_LIMIT_DEPTH', this.pos, `nesting deeper than ${this.maxDepth}`);
  }

  object(o: object, depth: number): void {
    // classify first (it has no side effects): a view takes its id after its buffer's
    const k = classify(o);
    if (k === Kind.View) {
      this.view(o);
      return;
    }
    const seen = this.ids.visit(o); // the next id, or a back-reference
    if (seen >= 0) {
      this.ref(seen);
      return;
    }
    switch (k) {
      case Kind.Plain: this.plain(o as Record<string, unknown>, depth); return;
      case Kind.Ordinary: this.plainKeys(o as Record<string, unknown>, depth); return;
      case Kind.Array: this.array(o as unknown[], depth); return;
      case Kind.Date: this.byte(T.DATE); this.double(dateGetTime.call(o) as number); return;
      case Kind.RegExp: {
        const src = reSource.call(o) as string;
        const fl = regexpFlags(o).bits;
        this.byte(T.REGEXP);
        this.string(src);
        this.varint(fl);
        return;
      }
      case Kind.BooleanObject: this.byte(boolValueOf.call(o) ? T.TRUE_OBJECT : T.FALSE_OBJECT); return;
      case Kind.NumberObject: this.byte(T.NUMBER_OBJECT); this.double(numValueOf.call(o) as number); return;
      case Kind.BigIntObject: this.byte(T.BIGINT_OBJECT); this.bigintContents(bigintValueOf.call(o) as bigint); return;
      case Kind.StringObject: this.byte(T.STRING_OBJECT); this.string(strValueOf.call(o) as string); return;
      case Kind.Map: {
        this.open(depth);
        const e: unknown[] = [];
        mapForEach.call(o, (v: unknown, key: unknown) => { e.push(key, v); });
        this.byte(T.MAP);
        for (let i = 0; i < e.length; i++) this.value(e[i], depth + 1);
        this.byte(T.MAP_END);
        this.varint(e.length);
        return;
      }
      case Kind.Set: {
        this.open(depth);
        const e: unknown[] = [];
        setForEach.call(o, (v: unknown) => { e.push(v); });
        this.byte(T.SET);
        for (let i = 0; i < e.length; i++) this.value(e[i], depth + 1);
        this.byte(T.SET_END);
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
          this.plainKeys(o as Record<string, unknown>, depth);
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
      this.byte(T.RESIZABLE_BUFFER);
      this.varint(len);
      this.varint(maxByteLength(b));
    } else {
      this.byte(T.ARRAY_BUFFER);
      this.varint(len);
    }
    this.bytes(new Uint8Array(b, 0, len));
  }

  view(o: object): void {
    const seen = this.ids.find(o);
    if (seen >= 0) {
      this.ref(seen);
      return;
    }
    const info = viewInfo(o);
    if (info === null) this.fail('An out-of-bounds or detached view');
    if (info === 'shared') this.fail('A view of a SharedArrayBuffer');
    const sub = W.VIEW_SUBTAG[info.name];
    if (sub === undefined) this.fail('A view');
    const bid = this.ids.find(info.buffer);
    if (bid >= 0) this.ref(bid);
    else {
      this.ids.add(info.buffer);
      this.arrayBuffer(info.buffer);
    }
    this.ids.add(o);
    this.ensure(20);
    this.buf[this.pos++] = T.VIEW;
    this.buf[this.pos++] = sub;
    this.varint(info.byteOffset);
    this.varint(info.lengthTracking ? 0 : info.byteLength); // SC-E-12: a length-tracking view stores no length (0)
    this.varint((info.lengthTracking ? 1 : 0) | (info.backedByRab ? 2 : 0));
  }

  /**
   * An ordinary object: own enumerable string keys in enumeration order, each read with [[Get]] if still own when
   * its turn comes (a key deleted by an earlier getter is skipped). `for-in` enumerates exactly the own enumerable
   * keys (in that order) followed by inherited enumerable ones, which the hasOwn check drops, as it drops deleted
   * keys; keys added during the walk are not visited, as in the key snapshot HTML takes. V8 turns the hasOwn check
   * and the read into field loads while the object keeps its hidden class. Only for objects whose prototype is
   * Object.prototype or null: with another prototype, for-in would also walk the prototype chain, where a Proxy's
   * traps could run (HTML and V8 look at own keys only), so those objects (Kind.Ordinary) take `plainKeys`.
   */
  plain(o: Record<string, unknown>, depth: number): void {
    this.open(depth);
    let lv: KeyShape | undefined;
    const vi = this.visits++;
    if (vi < SHAPE_VISITS) {
      lv = this.visitShapes[vi];
      if (lv === undefined) lv = this.visitShapes[vi] = { keys: [], n: 0, bytes: null };
    } else if (depth < SHAPE_LEVELS) {
      lv = this.shapes[depth];
      if (lv === undefined) lv = this.shapes[depth] = { keys: [], n: 0, bytes: null };
    }
    const lk = lv !== undefined ? lv.keys : EMPTY_KEYS;
    const skn = lv !== undefined ? lv.n : 0;
    const kb = lv !== undefined ? lv.bytes : null;
    let same = true; // the keys so far are the level's last key list
    this.byte(T.OBJECT);
    let i = 0;
    for (const key in o) {
      if (!hasOwn.call(o, key)) continue;
      const v = o[key];
      if (same && i < skn && lk[i] === key) {
        const b = kb !== null ? kb[i] : null;
        if (b) {
          const w = b.words;
          const nw = w.length;
          const p = this.pos;
          if (p + 4 * nw > this.buf.length) this.grow(p + 4 * nw);
          const dv = this.dv;
          for (let j = 0; j < nw; j++) dv.setInt32(p + 4 * j, w[j]!, true);
          this.pos = p + b.length;
        } else this.key(key);
      } else {
        same = false;
        if (lv !== undefined) lk[i] = key; // overwrite the level's list in place: no allocation per object
        this.key(key);
      }
      i++;
      switch (typeof v) {
        case 'string': this.string(v); break;
        case 'number': this.number(v); break;
        case 'boolean': this.byte(v ? T.TRUE : T.FALSE); break;
        case 'object':
          if (v === null) this.byte(T.NULL);
          else this.object(v, depth + 1);
          break;
        default: this.value(v, depth + 1);
      }
    }
    this.byte(T.OBJECT_END);
    this.varint(i);
    if (lv === undefined) return;
    if (same && i === skn) {
      if (kb === null) lv.bytes = this.shapeBytes(lk, i); // the key list repeats: encode its keys once
    } else {
      lv.n = i;
      lv.bytes = null;
    }
  }

  /** The encoded keys of a key list (kept out of `plain`: a closure using `this` there costs a context per call). */
  shapeBytes(keys: string[], n: number): Array<KeyBytes | null> {
    const out: Array<KeyBytes | null> = [];
    for (let i = 0; i < n; i++) {
      const b = this.keyBytes(keys[i]!);
      out.push(b === null ? null : keyWords(b));
    }
    return out;
  }

  /** An ordinary object with another prototype (a class instance, Object.create(x)): Object.keys snapshot. */
  plainKeys(o: Record<string, unknown>, depth: number): void {
    this.open(depth);
    const keys = keysOf(o);
    this.byte(T.OBJECT);
    let written = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!hasOwn.call(o, key)) continue; // deleted by an earlier getter
      const v = o[key];
      this.key(key);
      this.value(v, depth + 1);
      written++;
    }
    this.byte(T.OBJECT_END);
    this.varint(written);
  }

  array(a: unknown[], depth: number): void {
    this.open(depth);
    const len = a.length;
    const listed = arrayKeys(a, len); // null: exactly the indices below len (kinds.ts)
    const keys = listed === null ? EMPTY_KEYS : listed;
    if (listed === null || (keys.length >= len && (len === 0 || keys[len - 1] === String(len - 1)))) {
      this.byte(T.DENSE);
      this.varint(len);
      for (let i = 0; i < len; i++) {
        const x = a[i];
        switch (typeof x) {
          case 'string': this.string(x); break;
          case 'number': this.number(x); break;
          case 'boolean': this.byte(x ? T.TRUE : T.FALSE); break;
          case 'undefined':
            if (!hasOwn.call(a, i)) this.byte(T.HOLE); // deleted by a getter
            else this.byte(T.UNDEFINED);
            break;
          case 'object':
            if (x === null) this.byte(T.NULL);
            else this.object(x, depth + 1);
            break;
          default: this.value(x, depth + 1);
        }
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
      this.byte(T.DENSE_END);
      this.varint(written);
      this.varint(len);
      return;
    }
    this.byte(T.SPARSE);
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
    this.byte(T.SPARSE_END);
    this.varint(written);
    this.varint(len);
  }

  error(o: object, depth: number): void {
    this.open(depth);
    const md = gopd(o, 'message');
    const cd = gopd(o, 'cause');
    this.byte(T.ERROR);
    const name = '' + (o as { name?: unknown }).name;
    if (ERROR_NAMES.includes(name)) this.byte(W.ERROR_SUBTAG[name]!);
    if (md !== undefined && 'value' in md) {
      const m = '' + md.value;
      this.byte(E.MESSAGE);
      this.string(m);
    }
    // V8 reads the stack last (after writing the cause); the canonical order writes it before the cause.
    let causeWriter: (() => void) | null = null;
    if (cd !== undefined && 'value' in cd) {
      const cv = cd.value;
      causeWriter = () => {
        this.byte(E.CAUSE);
        this.value(cv, depth + 1);
      };
    }
    const st = (o as { stack?: unknown }).stack;
    if (typeof st === 'string') {
      this.byte(E.STACK);
      this.string(st);
    }
    if (causeWriter !== null) causeWriter();
    this.byte(E.END);
  }
}
