/**
 * Decoder: V8 ValueSerializer bytes (versions 13-15) -> JS value, reading everything V8's ValueDeserializer reads
 * (`S` UTF-8 strings, `U` uint32, `?` verify-count, padding anywhere a tag is expected, holes in dense arrays, short
 * BigInt digit groups, version-13 views with or without flags) plus Node's host-object typed arrays (`v8.serialize`).
 * Errors are FormwireError with the SC_ codes and offsets of spec/errors.md.
 *
 * Fast paths (each gives up, having committed nothing, at the first byte it does not expect; the general path then
 * reads the same bytes and decides, errors included):
 *  - a root one-byte string shorter than 128 bytes is read without a Reader;
 *  - a plain object is predicted to have the key list of the last all-primitive object (from any earlier call too):
 *    its keys are compared in place (V8's ReadExpectedString) and, once the key list has been seen twice, read by a
 *    generated reader for that list, which builds the object with one literal (born with its final hidden class);
 *  - objects that take the general path are built at the end, by the factory of their key list when it is known
 *    (the candidate list is found by first key, no key list joined), and made early only when referred to;
 *  - object ids are a plain array (push, index); short Latin-1 strings are one String.fromCharCode call.
 */
import { scError, type CloneErrorCode } from './errors.js';
import { mapSet, setAdd, makeView, ELEMENT_SIZE, VIEW_CTORS, makeError, hasOwn, copyBytes, ERROR_CTORS, sparseArray } from './kinds.js';
import { factoryFor, defineValue, canCodegen, sameKeys, type Factory } from './shapes.js';
import { latin1, utf16, utf8, short, SHORT } from './strings.js';
import * as W from './wire.js';
import { T, E } from './wire.js';
import { CLONE_DEFAULTS, type CloneLimits } from '../core/registry.js';
import { isStackOverflow } from './stack.js';
import { serialize } from './serialize.js';

/**
 * Limits (spec/limits.md; defaults generated from spec/registry.json). `null` or `Infinity`: no limit. Whatever the
 * limit, nesting deeper than the JavaScript stack holds is SC_LIMIT_DEPTH at the container where it ran out.
 */
export interface DeserializeOptions extends CloneLimits {
  /**
   * Node child_process `serialization: 'advanced'` framing of host objects: an extra varint before each (0: a typed
   * array follows, 1: a plain object follows). Off by default: it cannot be told from `v8.serialize` output.
   */
  nodeIpc?: boolean;
}

export const DEFAULT_MAX_BYTES = CLONE_DEFAULTS.maxBytes;

/** The limits a Reader enforces (Infinity: none). */
interface Limits {
  maxDepth: number;
  maxValues: number;
  maxBigintBytes: number;
}

/** An option's value: its default when absent, no limit for null. */
function limit(v: number | null | undefined, d: number): number {
  return v === undefined ? d : v === null ? Infinity : v;
}

/** An id that is assigned but whose object is not readable yet (an Error being read). */
const PENDING = {};
/** An id whose plain object is being read: a reference to it makes the (empty) object, filled when it is read. */
const PENDING_OBJECT = {};

class Retry13 extends Error {}

/**
 * Decodes V8 ValueSerializer bytes.
 *
 * Fast path: a root one-byte string shorter than 128 bytes (`FF <13..15> 22 <len> bytes`, nothing after) is read
 * without a Reader; everything else goes through the Reader.
 */
export function deserialize(bytes: Uint8Array, options?: DeserializeOptions): unknown {
  const end = bytes.length;
  let maxBytes = DEFAULT_MAX_BYTES;
  let lim = DEFAULT_LIMITS;
  let ipc = false;
  if (options !== undefined) {
    maxBytes = limit(options.maxBytes, DEFAULT_MAX_BYTES);
    lim = {
      maxDepth: limit(options.maxDepth, CLONE_DEFAULTS.maxDepth),
      maxValues: limit(options.maxValues, CLONE_DEFAULTS.maxValues),
      maxBigintBytes: limit(options.maxBigintBytes, CLONE_DEFAULTS.maxBigintBytes),
    };
    ipc = options.nodeIpc === true;
  }
  if (end > maxBytes) throw scError('SC_LIMIT_BYTES', 0, `input longer than ${maxBytes} bytes`);
  if (end >= 4 && bytes[0] === T.VERSION && bytes[2] === T.ONE_BYTE && lim.maxValues >= 1) {
    const v = bytes[1]!;
    const n = bytes[3]!;
    if (n < 0x80 && n + 4 === end && v >= W.MIN_VERSION && v <= W.VERSION) return latin1(bytes, 4, end);
  }
  return general(bytes, lim, ipc);
}

const DEFAULT_LIMITS: Limits = {
  maxDepth: CLONE_DEFAULTS.maxDepth,
  maxValues: CLONE_DEFAULTS.maxValues,
  maxBigintBytes: CLONE_DEFAULTS.maxBigintBytes,
};

function general(bytes: Uint8Array, lim: Limits, ipc: boolean): unknown {
  const r = new Reader(bytes, lim, false, ipc);
  let first = true;
  try {
    r.header();
    if (r.version !== 13) return r.root();
    // SC-D-23: V8 (crbug.com/1284506) wrote some version-13 data with view flags: read normally, then retry with
    // flags.
    try {
      return r.root();
    } catch (e) {
      const e1 = deep(e, r);
      if ((e1 as { code?: string }).code?.startsWith('SC_LIMIT_')) throw e1;
      first = false;
      const r2 = new Reader(bytes, lim, true, ipc);
      r2.header();
      try {
        return r2.root();
      } catch {
        throw e1;
      }
    }
  } catch (e) {
    throw first ? deep(e, r) : e;
  }
}

/** A stack overflow as SC_LIMIT_DEPTH at the container being opened when the stack ran out (SC-L-02). */
function deep(e: unknown, r: Reader): unknown {
  if (!isStackOverflow(e)) return e;
  return scError('SC_LIMIT_DEPTH', r.openTag, `nesting deeper than the stack allows (${r.depth} levels)`);
}

interface DShape {
  keys: string[];
  /** the raw encoded key (tag + length + payload), compared in place */
  raw: Uint8Array[];
  /** raw[i]'s whole 4-byte groups as little-endian int32s (compared four bytes at a time; the rest byte by byte) */
  words: Int32Array[];
  /** undefined until the key list is seen a second time (no code is generated for one-off key lists); null: none */
  factory: Factory | null | undefined;
  /** the generated reader for this key list (decoderFor), made with the factory; null: none */
  decode: ShapeDecoder | null | undefined;
}

/**
 * Reads one object of a known key list (the `o` tag consumed; its id `id`, the `vi`-th object of the call). Returns
 * null, having committed nothing, when the bytes differ before any nested value was read; after one was, it hands
 * the rest of the object to the general path (Reader.resume), which reads on from there as if it had read all of it.
 */
type ShapeDecoder = (r: Reader, id: number, vi: number) => object | null;

/**
 * Generates the reader for one key list: V8's ReadExpectedString with the expected bytes as constants (compared four
 * at a time), each value read inline when it is a primitive, other values (nested objects, arrays, anything
 * unexpected) by Reader.value, and the object built by one literal, so it is born with its final hidden class.
 * Another key, a wrong count or the end of the input returns null before r.p is committed while only primitives were
 * read (the general path reads the same bytes again and decides, errors included: a varint error thrown here is the
 * one the general path would throw at the same offset), and goes to Reader.resume once a nested value was read.
 * A value read by Reader.value is read exactly as the general path reads it, so the errors are the same. The
 * object's id holds PENDING_OBJECT meanwhile: a reference back to it makes it early, and it is filled at the end.
 * Null when a key has no fixed bytes (index-like or two-byte keys), for `__proto__`, more than 32 keys, or when
 * code generation is not allowed.
 */
function decoderFor(s: DShape): ShapeDecoder | null {
  const n = s.keys.length;
  if (n === 0 || n > 32 || s.keys.includes('__proto__') || !canCodegen()) return null;
  for (const r of s.raw) if (r.length === 0) return null;
  const hex = (x: number): string => '0x' + (x >>> 0).toString(16);
  const vs = (k: number): string => '[' + Array.from({ length: k }, (_, j) => 'v' + j).join(', ') + ']';
  let src = 'const b = r.b, end = r.end, dv = r.dv !== null ? r.dv : r.makeDv();\nlet p = r.p, t = 0, x = 0, c = false;\n';
  for (let i = 0; i < n; i++) {
    const raw = s.raw[i]!;
    const w = s.words[i]!;
    const conds = [`p + ${raw.length} >= end`];
    for (let j = 0; j < w.length; j++) conds.push(`dv.getInt32(p + ${4 * j}, true) !== ${w[j]! | 0}`);
    for (let j = 4 * w.length; j < raw.length; j++) conds.push(`b[p + ${j}] !== ${hex(raw[j]!)}`);
    src += `// ${JSON.stringify(s.keys[i])}\nif (${conds.join(' || ')}) return c ? r.resume(id, vi, s, p, ${vs(i)}) : null;\np += ${raw.length};\nlet v${i};\n`;
    src += `t = b[p];
if (t === ${hex(T.ONE_BYTE)} && (x = b[p + 1]) < 0x80 && p + 2 + x <= end) {
  p += 2;
  v${i} = x <= ${SHORT} ? h.short(b, p, x) : h.latin1(b, p, p + x);
  p += x;
} else if (t === ${hex(T.INT32)} && (x = b[p + 1]) < 0x80) {
  p += 2;
  v${i} = (x >>> 1) ^ -(x & 1);
} else if (t === ${hex(T.TRUE)}) { v${i} = true; p++; }
else if (t === ${hex(T.FALSE)}) { v${i} = false; p++; }
else if (t === ${hex(T.NULL)}) { v${i} = null; p++; }
else if (t === ${hex(T.UNDEFINED)}) { v${i} = undefined; p++; }
else if (t === ${hex(T.DOUBLE)} && p + 9 <= end) {
  v${i} = dv.getFloat64(p + 1, true);
  p += 9;
} else {
  c = true;
  r.p = p;
  v${i} = r.value();
  p = r.p;
}
`;
  }
  src += `if (p + 1 >= end || b[p] !== ${hex(T.OBJECT_END)} || b[p + 1] !== ${n}) return c ? r.resume(id, vi, s, p, ${vs(n)}) : null;\nr.p = p + 2;\n`;
  src += `if (c) { const m = r.ids[id]; if (m !== h.P) return r.fill(m, s.keys, ${vs(n)}); }\n`;
  src += 'const o = {' + s.keys.map((k, i) => `${JSON.stringify(k)}: v${i}`).join(', ') + '};\nr.ids[id] = o;\nreturn o;';
  try {
    const make = new Function('h', 's', `return function readShape(r, id, vi) {\n${src}\n};`) as (h: object, s: DShape) => ShapeDecoder;
    return make({ short, latin1, P: PENDING_OBJECT }, s);
  } catch {
    return null;
  }
}

/** Encoded bytes of keys for in-place comparison (one-byte keys only; others never match). */
function rawKeys(keys: string[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const k of keys) {
    let ok = k.length < 128;
    for (let i = 0; ok && i < k.length; i++) if (k.charCodeAt(i) > 0xff) ok = false;
    if (!ok || isIndexLike(k)) {
      out.push(new Uint8Array(0));
      continue;
    }
    const r = new Uint8Array(2 + k.length);
    r[0] = T.ONE_BYTE;
    r[1] = k.length;
    for (let i = 0; i < k.length; i++) r[2 + i] = k.charCodeAt(i);
    out.push(r);
  }
  return out;
}

/**
 * Shapes learned by any Reader: a prediction is always checked byte for byte, so it may come from an earlier call.
 * Found by first key, then key by key within that key's few lists (no joined signature: a join is not injective,
 * one key `"a\0b"` and the keys `a`, `b` would share an entry). `last` is where a new Reader starts.
 */
const MAX_SHAPES = 512;
/** key lists per first key (most recent last); at most BUCKET per key */
const shapes = new Map<string, DShape[]>();
const BUCKET = 8;
let shapeCount = 0;
let noKeys: DShape | null = null;
/** the last key list learned with a given first key */
const byFirstKey = new Map<string, DShape>();
let last: DShape | null = null;
/**
 * The key list the k-th object of the last call had (k < VISITS), the first prediction for the k-th object of this
 * call: a message read again has its key lists at the same places, even where neighbours differ (a nested config).
 */
const VISITS = 64;
const visitShapes: Array<DShape | undefined> = [];

function newShape(keys: string[]): DShape {
  const raw = rawKeys(keys);
  return { keys, raw, words: wordsOf(raw), factory: undefined, decode: undefined };
}

function learn(keys: string[]): DShape {
  const n = keys.length;
  if (n === 0) return (last = noKeys ??= newShape(keys));
  const first = keys[0]!;
  let bucket = shapes.get(first);
  let s: DShape | undefined;
  if (bucket !== undefined) {
    for (let i = bucket.length - 1; i >= 0; i--) {
      if (sameKeys(bucket[i]!.keys, keys)) {
        s = bucket[i]!;
        break;
      }
    }
  }
  if (s !== undefined) {
    if (s.factory === undefined) {
      // the key list is seen again (found here when another list with its first key came in between, as in a nested
      // config where two kinds of objects start with `name`): make its factory and reader, as the matched path does
      s.factory = factoryFor(s.keys);
      s.decode = decoderFor(s);
    }
  } else {
    s = newShape(keys);
    if (shapeCount >= MAX_SHAPES) {
      shapes.clear();
      byFirstKey.clear();
      shapeCount = 0;
      bucket = undefined;
    }
    if (bucket === undefined) shapes.set(first, (bucket = []));
    else if (bucket.length >= BUCKET) {
      bucket.shift();
      shapeCount--;
    }
    bucket.push(s);
    shapeCount++;
  }
  byFirstKey.set(first, s);
  last = s;
  return s;
}

function wordsOf(raw: Uint8Array[]): Int32Array[] {
  return raw.map((r) => {
    const w = new Int32Array(r.length >>> 2);
    for (let j = 0; j < w.length; j++) w[j] = r[4 * j]! | (r[4 * j + 1]! << 8) | (r[4 * j + 2]! << 16) | (r[4 * j + 3]! << 24);
    return w;
  });
}

const f64 = new Float64Array(1);
const f64b = new Uint8Array(f64.buffer);

class Reader {
  p = 0;
  readonly end: number;
  version = 0;
  readonly ids: unknown[] = [];
  depth = 0;
  /** the tag of the container opened last (where a stack overflow is reported) */
  openTag = 0;
  keyPos = 0;
  readonly maxDepth: number;
  readonly maxValues: number;
  readonly maxBigintBytes: number;
  /**
   * SC-L-05: values are counted only when the input could hold more than maxValues of them (each takes a byte at
   * least); then the shape fast paths, which read values without counting them, are off.
   */
  readonly counting: boolean;
  values = 0;
  /** objects begun so far (the index into visitShapes) */
  visits = 0;
  /** nodeIpc: the id of a host object whose plain-object value is being read (it aliases the object) */
  aliasNext = -1;
  shape: DShape | null;
  /** values of the object being built by a shape factory */
  readonly vals: unknown[] = [];
  /** a view of the input for four-byte key comparisons, made on first use */
  dv: DataView | null = null;
  makeDv(): DataView {
    const b = this.b;
    return (this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength));
  }
  constructor(readonly b: Uint8Array, lim: Limits, readonly v13Flags: boolean, readonly nodeIpc: boolean) {
    this.end = b.length;
    this.maxDepth = lim.maxDepth;
    this.maxValues = lim.maxValues;
    this.maxBigintBytes = lim.maxBigintBytes;
    this.counting = b.length - 2 > lim.maxValues;
    this.shape = this.counting ? null : last;
  }

  err(code: CloneErrorCode, offset: number, msg: string): never {
    throw scError(code, offset, msg);
  }
  truncated(): never {
    this.err('SC_TRUNCATED', this.end, 'input ended inside a value');
  }

  header(): void {
    const b = this.b;
    if (this.end === 0) this.truncated();
    if (b[0] !== T.VERSION) this.err('SC_VERSION', 0, 'no version header');
    this.p = 1;
    const v = this.varint();
    if (v < W.MIN_VERSION || v > W.VERSION) this.err('SC_VERSION', 0, `version ${v} not in 13..15`);
    this.version = v;
  }

  root(): unknown {
    const v = this.value();
    // SC-D-28: only padding may follow the top-level value
    let p = this.p;
    while (p < this.end && this.b[p] === T.PADDING) p++;
    if (p < this.end) this.err('SC_TAG', p, 'bytes after the top-level value');
    return v;
  }

  /** SC-D-04: u32 varint, at most 5 bytes; the 5th must end it and carry no bits above 32. */
  varint(): number {
    const b = this.b;
    let p = this.p;
    if (p >= this.end) this.truncated();
    let x = b[p++]!;
    if (x < 0x80) {
      this.p = p;
      return x;
    }
    const start = p - 1;
    let v = x & 0x7f;
    let mul = 128;
    for (let i = 1; ; i++) {
      if (p >= this.end) this.truncated();
      x = b[p++]!;
      if (i === 4 && x > 0x0f) this.err('SC_VARINT', start, 'varint does not fit in u32');
      v += (x & 0x7f) * mul;
      if (x < 0x80) break;
      mul *= 128;
    }
    this.p = p;
    return v;
  }

  /** SC-D-04: u8 varint (view and Error subtags), at most 2 bytes. */
  u8(): number {
    const b = this.b;
    const start = this.p;
    if (start >= this.end) this.truncated();
    const x = b[start]!;
    if (x < 0x80) {
      this.p = start + 1;
      return x;
    }
    if (start + 1 >= this.end) this.truncated();
    const y = b[start + 1]!;
    if (y > 1) this.err('SC_VARINT', start, 'varint does not fit in u8');
    this.p = start + 2;
    return (x & 0x7f) | (y << 7);
  }

  double(): number {
    const p = this.p;
    if (p + 8 > this.end) this.truncated();
    const b = this.b;
    f64b[0] = b[p]!; f64b[1] = b[p + 1]!; f64b[2] = b[p + 2]!; f64b[3] = b[p + 3]!;
    f64b[4] = b[p + 4]!; f64b[5] = b[p + 5]!; f64b[6] = b[p + 6]!; f64b[7] = b[p + 7]!;
    this.p = p + 8;
    return f64[0]!;
  }

  /** Skips padding; returns the offset of the next tag (does not consume it). */
  peekPos(): number {
    const b = this.b;
    let p = this.p;
    while (p < this.end && b[p] === T.PADDING) p++;
    if (p >= this.end) this.truncated();
    return p;
  }

  open(tagPos: number): void {
    this.openTag = tagPos;
    if (++this.depth > this.maxDepth) this.err('SC_LIMIT_DEPTH', tagPos, `nesting deeper than ${this.maxDepth}`);
  }

  /**
   * One value. A view (`V`) must directly follow its buffer, so after a buffer, or a reference to one, the next tag is
   * looked at (SC-D-22).
   */
  value(): unknown {
    const b = this.b;
    let tp = this.p;
    if (tp >= this.end || b[tp] === T.PADDING) tp = this.peekPos();
    let t = b[tp]!;
    // SC-D-06, SC-L-02: `?` verify-count prefixes (a count, ignored, as V8 does) are read in a loop, not by
    // recursion: 4,000 of them in 8 KB overflowed the stack
    while (t === T.VERIFY_COUNT) {
      this.p = tp + 1;
      this.varint();
      tp = this.p;
      if (tp >= this.end || b[tp] === T.PADDING) tp = this.peekPos();
      t = b[tp]!;
    }
    if (this.counting && ++this.values > this.maxValues) this.err('SC_LIMIT_VALUES', tp, `more than ${this.maxValues} values`);
    this.p = tp + 1;
    switch (t) {
      case T.ONE_BYTE: {
        const n = this.varint();
        const s = this.p;
        if (s + n > this.end) this.truncated();
        this.p = s + n;
        return latin1(this.b, s, s + n);
      }
      case T.TWO_BYTE: {
        const n = this.varint();
        const s = this.p;
        if (n & 1) this.err('SC_STRING', tp, 'two-byte string with an odd byte length');
        if (s + n > this.end) this.truncated();
        this.p = s + n;
        return utf16(this.b, s, n >>> 1);
      }
      case T.UTF8: {
        const n = this.varint();
        const s = this.p;
        if (s + n > this.end) this.truncated();
        this.p = s + n;
        const r = utf8(this.b, s, s + n);
        if (r === null) this.err('SC_STRING', tp, 'S string is not valid UTF-8');
        return r;
      }
      case T.INT32: {
        const u = this.varint();
        return (u >>> 1) ^ -(u & 1);
      }
      case T.UINT32: return this.varint();
      case T.DOUBLE: return this.double();
      case T.UNDEFINED: return undefined;
      case T.NULL: return null;
      case T.TRUE: return true;
      case T.FALSE: return false;
      case T.BIGINT: return this.bigint(tp);
      case T.OBJECT: return this.object(tp);
      case T.DENSE: return this.dense(tp);
      case T.SPARSE: return this.sparse(tp);
      case T.REF: {
        const id = this.varint();
        if (id >= this.ids.length) this.err('SC_REF', tp, `reference to unassigned id ${id}`);
        const o = this.ids[id];
        if (o === PENDING_OBJECT) {
          const made = {}; // an object whose values are being read: it exists from its tag on, as in V8
          this.ids[id] = made;
          return made;
        }
        if (o === PENDING || o === undefined) this.err('SC_REF', tp, `reference to id ${id} before it is readable`);
        if (o instanceof ArrayBuffer) return this.maybeView(o);
        return o;
      }
      case T.DATE: {
        const id = this.ids.length;
        this.ids.push(PENDING);
        const d = new Date(this.double());
        this.ids[id] = d;
        return d;
      }
      case T.TRUE_OBJECT: return this.wrapper(true);
      case T.FALSE_OBJECT: return this.wrapper(false);
      case T.NUMBER_OBJECT: {
        const id = this.ids.length;
        this.ids.push(PENDING);
        const o = Object(this.double());
        this.ids[id] = o;
        return o;
      }
      case T.BIGINT_OBJECT: {
        const id = this.ids.length;
        this.ids.push(PENDING);
        const o = Object(this.bigint(tp));
        this.ids[id] = o;
        return o;
      }
      case T.STRING_OBJECT: {
        const id = this.ids.length;
        this.ids.push(PENDING);
        const o = Object(this.string());
        this.ids[id] = o;
        return o;
      }
      case T.REGEXP: return this.regexp(tp);
      case T.MAP: return this.map(tp);
      case T.SET: return this.set(tp);
      case T.ARRAY_BUFFER:
      case T.RESIZABLE_BUFFER: return this.maybeView(this.arrayBuffer(tp, t === T.RESIZABLE_BUFFER));
      case T.ERROR: return this.error(tp);
      case T.HOST: return this.host(tp);
      case T.VIEW: return this.err('SC_VIEW', tp, 'view not directly after an ArrayBuffer');
      case T.BUFFER_TRANSFER:
      case T.SHARED_BUFFER:
      case T.WASM_MODULE:
      case T.WASM_MEMORY:
        return this.err('SC_UNSUPPORTED', tp, `tag 0x${t.toString(16)} only has meaning inside one process`);
      case T.SHARED_OBJECT:
        if (this.version >= 15) this.err('SC_UNSUPPORTED', tp, 'shared object tag only has meaning inside one process');
        return this.err('SC_TAG', tp, 'shared object tag before version 15');
      default:
        this.err('SC_TAG', tp, `unexpected tag 0x${t.toString(16)}`);
    }
  }

  /** The view that directly follows buffer `buf`, or `buf` itself. */
  maybeView(buf: ArrayBuffer): unknown {
    const b = this.b;
    let p = this.p;
    while (p < this.end && b[p] === T.PADDING) p++;
    if (p < this.end && b[p] === T.VIEW) {
      this.p = p + 1;
      return this.view(buf, p);
    }
    return buf;
  }

  /** A value that must be a string (RegExp source, String object, Error message and stack). */
  string(): string {
    const tp = this.valueTag();
    const t = this.b[tp]!;
    if (t !== T.ONE_BYTE && t !== T.TWO_BYTE && t !== T.UTF8) this.err('SC_TAG', tp, 'a string is required here');
    return this.str(tp, t);
  }

  /** The string whose tag `t` (one-byte, two-byte or UTF-8) is at `tp`: part of an item, not a value (SC-L-05). */
  str(tp: number, t: number): string {
    this.p = tp + 1;
    const n = this.varint();
    const s = this.p;
    if (t === T.TWO_BYTE && n & 1) this.err('SC_STRING', tp, 'two-byte string with an odd byte length');
    if (s + n > this.end) this.truncated();
    this.p = s + n;
    if (t === T.ONE_BYTE) return latin1(this.b, s, s + n);
    if (t === T.TWO_BYTE) return utf16(this.b, s, n >>> 1);
    const r = utf8(this.b, s, s + n);
    if (r === null) this.err('SC_STRING', tp, 'S string is not valid UTF-8');
    return r;
  }

  /** SC-D-06: skips padding and `?` verify-count prefixes; the offset of the value's own tag (not consumed). */
  valueTag(): number {
    for (;;) {
      const p = this.peekPos();
      if (this.b[p] !== T.VERIFY_COUNT) return p;
      this.p = p + 1;
      this.varint();
    }
  }

  wrapper(v: boolean): object {
    const o = Object(v) as object;
    this.ids.push(o);
    return o;
  }

  bigint(tp: number): bigint {
    const bits = this.varint();
    const n = (bits >>> 1) & 0x3fffffff;
    // SC-L-06: before the digits are read
    if (n > this.maxBigintBytes) this.err('SC_LIMIT_BIGINT', tp, `BigInt longer than ${this.maxBigintBytes} bytes`);
    if (n === 0 && bits & 1) this.err('SC_TAG', tp, 'BigInt with a sign and no digits');
    const s = this.p;
    if (s + n > this.end) this.truncated();
    this.p = s + n;
    const b = this.b;
    let v = 0n;
    if (n <= 6) {
      let x = 0;
      for (let i = n - 1; i >= 0; i--) x = x * 256 + b[s + i]!;
      v = BigInt(x);
    } else {
      let hex = '';
      let i = n - 1;
      while (i >= 0 && b[s + i] === 0) i--;
      for (; i >= 0; i--) hex += (b[s + i]! < 16 ? '0' : '') + b[s + i]!.toString(16);
      v = hex === '' ? 0n : BigInt('0x' + hex);
    }
    return bits & 1 ? -v : v;
  }

  /** SC-D-12/13: a property key: a string, or an integer number (its property key string). */
  key(): string {
    const tp = this.valueTag();
    const t = this.b[tp]!;
    this.keyPos = tp;
    // keys are not values (SC-L-05): read here, not by value()
    if (t === T.ONE_BYTE || t === T.TWO_BYTE || t === T.UTF8) return this.str(tp, t);
    if (t === T.INT32) {
      this.p = tp + 1;
      const u = this.varint();
      return '' + ((u >>> 1) ^ -(u & 1));
    }
    if (t === T.UINT32) {
      this.p = tp + 1;
      return '' + this.varint();
    }
    if (t === T.DOUBLE) {
      this.p = tp + 1;
      const v = this.double();
      if (!Number.isInteger(v) || Math.abs(v) > Number.MAX_SAFE_INTEGER) this.err('SC_KEY', tp, 'a number key must be a safe integer');
      return '' + (v === 0 ? 0 : v);
    }
    return this.err('SC_KEY', tp, 'a property key must be a string or a number');
  }

  object(tp: number): object {
    this.open(tp);
    const alias = this.aliasNext;
    this.aliasNext = -1;
    const id = this.ids.length;
    this.ids.push(PENDING);
    const vi = this.visits++;
    let shape = this.shape;
    if (vi < VISITS && !this.counting) {
      const vs = visitShapes[vi];
      if (vs !== undefined) shape = vs;
      else if (shape !== null) visitShapes[vi] = shape;
    }
    if (shape !== null && !this.counting) {
      const save = this.p;
      const d = shape.decode;
      if (d && alias < 0) {
        this.ids[id] = PENDING_OBJECT;
        const o = d(this, id, vi);
        if (o !== null) {
          this.depth--;
          this.shape = shape;
          return o;
        }
      } else if (this.predicted(shape.raw, shape.words)) {
        let f = shape.factory;
        if (f === undefined) {
          // the key list is seen again: make its factory and reader
          f = shape.factory = factoryFor(shape.keys);
          shape.decode = decoderFor(shape);
        }
        const o = f !== null ? f(this.vals, 0) : this.assign(shape.keys, this.vals);
        this.depth--;
        this.shape = shape;
        this.ids[id] = o;
        if (alias >= 0) this.ids[alias] = o;
        return o;
      }
      this.p = save;
    }
    // General path. Keys and values are collected and the object is built at the end, by the factory of its key list
    // when that list is known; a reference back to the object while its values are read makes it exist then (empty),
    // and it is filled at the end (nothing else can see it before deserialize returns). With a nodeIpc alias the
    // object is made first (two ids share it).
    if (alias >= 0) {
      const made = {};
      this.ids[id] = made;
      this.ids[alias] = made;
    } else this.ids[id] = PENDING_OBJECT;
    const o = this.rest(id, vi, shape, shape !== null, [], []);
    this.depth--;
    return o;
  }

  /**
   * A generated reader's object from its i-th key on (i = vals.length; the keys before it were the key list's, read
   * from `p` on): the general path goes on from there with the same state as if it had read the whole object.
   */
  resume(id: number, vi: number, s: DShape, p: number, vals: unknown[]): object {
    this.p = p;
    return this.rest(id, vi, s, true, s.keys.slice(0, vals.length), vals);
  }

  /** Fills an object made early (a reference back to it was read inside it) with its keys and values. */
  fill(o: Record<string, unknown>, keys: string[], vals: unknown[]): object {
    for (let j = 0; j < vals.length; j++) defineValue(o, keys[j]!, vals[j]);
    return o;
  }

  /**
   * The general path's keys and values from keys.length on, then the object (the id's PENDING_OBJECT, or the object
   * made early). `cand`: the key list the keys are compared with, byte for byte (V8's ReadExpectedString).
   */
  rest(id: number, vi: number, cand: DShape | null, matched: boolean, keys: string[], vals: unknown[]): object {
    const b = this.b;
    let pk = cand !== null ? cand.raw : null;
    let seen: Set<string> | null = null; // duplicate check for long key lists
    for (let i = keys.length; ; i++) {
      const kp = this.peekPos();
      if (b[kp] === T.OBJECT_END) {
        this.p = kp + 1;
        const count = this.varint();
        if (count !== i) this.err('SC_COUNT', kp, `object end says ${count} properties, read ${i}`);
        break;
      }
      let key: string;
      const raw = matched && i < pk!.length ? pk![i]! : null;
      if (raw !== null && this.match(raw)) key = cand!.keys[i]!;
      else {
        key = this.key();
        matched = false;
        if (i === 0) {
          // another key list than predicted: the last one seen with this first key, if any
          const c = byFirstKey.get(key);
          if (c !== undefined) {
            cand = c;
            pk = c.raw;
            matched = true;
          }
        }
        if (!matched) {
          let dup: boolean;
          if (keys.length < 32) dup = keys.indexOf(key) >= 0;
          else {
            if (seen === null) seen = new Set(keys);
            dup = seen.has(key);
          }
          if (dup) this.err('SC_KEY', this.keyPos, `duplicate property ${JSON.stringify(key)}`);
        }
      }
      keys.push(key);
      if (seen !== null) seen.add(key);
      vals.push(this.value());
    }
    const n = keys.length;
    let o = this.ids[id] as Record<string, unknown>;
    if (o !== PENDING_OBJECT) {
      for (let j = 0; j < n; j++) defineValue(o, keys[j]!, vals[j]);
      return o;
    }
    // build with the factory of the key list (made when a key list is seen the second time)
    let f: Factory | null | undefined;
    if (matched && cand !== null && n === cand.keys.length) {
      f = cand.factory;
      if (f === undefined) {
        f = cand.factory = factoryFor(cand.keys);
        cand.decode = decoderFor(cand);
      }
      last = cand;
      this.shape = cand;
    } else {
      const learned = learn(keys);
      this.shape = learned;
      f = learned.factory;
    }
    if (vi < VISITS) visitShapes[vi] = this.shape;
    o = (f !== null && f !== undefined ? f(vals, 0) : this.assign(keys, vals)) as Record<string, unknown>;
    this.ids[id] = o;
    return o;
  }

  /**
   * True when the object's bytes are exactly: the predicted keys' bytes (`raw`, compared in place: V8's
   * ReadExpectedString), each followed by a primitive value (read into this.vals), then `{` and the key count.
   * Otherwise false, and the caller rewinds: the general path reads the same bytes again and decides (errors
   * included; a varint error thrown here is the one the general path would throw at the same offset). Reading
   * primitives has no side effects, so giving up part way is invisible.
   */
  predicted(raw: Uint8Array[], words: Int32Array[]): boolean {
    const b = this.b;
    const end = this.end;
    const vals = this.vals;
    const n = raw.length;
    const dv = this.dv !== null ? this.dv : this.makeDv();
    let p = this.p;
    for (let i = 0; i < n; i++) {
      const r = raw[i]!;
      const rl = r.length;
      if (rl === 0 || p + rl >= end) return false;
      const w = words[i]!;
      const nw = w.length;
      for (let j = 0; j < nw; j++) if (dv.getInt32(p + 4 * j, true) !== w[j]) return false;
      for (let j = nw * 4; j < rl; j++) if (b[p + j] !== r[j]) return false;
      p += rl;
      const t = b[p++];
      switch (t) {
        case T.ONE_BYTE: {
          if (p >= end) return false;
          let len = b[p]!;
          if (len < 0x80) p++;
          else {
            this.p = p;
            len = this.varint(); // throws what the general path would throw here
            p = this.p;
          }
          if (p + len > end) return false;
          vals[i] = latin1(b, p, p + len);
          p += len;
          break;
        }
        case T.INT32: {
          if (p >= end) return false;
          let u = b[p]!;
          if (u < 0x80) p++;
          else {
            this.p = p;
            u = this.varint();
            p = this.p;
          }
          vals[i] = (u >>> 1) ^ -(u & 1);
          break;
        }
        case T.DOUBLE:
          if (p + 8 > end) return false;
          f64b[0] = b[p]!; f64b[1] = b[p + 1]!; f64b[2] = b[p + 2]!; f64b[3] = b[p + 3]!;
          f64b[4] = b[p + 4]!; f64b[5] = b[p + 5]!; f64b[6] = b[p + 6]!; f64b[7] = b[p + 7]!;
          vals[i] = f64[0]!;
          p += 8;
          break;
        case T.TRUE: vals[i] = true; break;
        case T.FALSE: vals[i] = false; break;
        case T.NULL: vals[i] = null; break;
        case T.UNDEFINED: vals[i] = undefined; break;
        default: return false;
      }
    }
    if (n >= 0x80 || p + 1 >= end || b[p] !== T.OBJECT_END || b[p + 1] !== n) return false;
    this.p = p + 2;
    return true;
  }

  match(raw: Uint8Array): boolean {
    const n = raw.length;
    if (n === 0) return false;
    const b = this.b;
    const p = this.p;
    if (p + n > this.end) return false;
    for (let i = 0; i < n; i++) if (b[p + i] !== raw[i]) return false;
    this.p = p + n;
    return true;
  }

  assign(keys: string[], vals: unknown[]): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) defineValue(o, keys[i]!, vals[i]);
    return o;
  }

  /** Reads (key, value) pairs into `o` until `endTag`; returns the count. */
  props(o: Record<string, unknown>, endTag: number): [number, number] {
    const b = this.b;
    let n = 0;
    for (;;) {
      const kp = this.peekPos();
      if (b[kp] === endTag) {
        this.p = kp + 1;
        return [n, kp];
      }
      const key = this.key();
      // an array's own `length`, or a key read before: V8 refuses to redefine (SC-D-12)
      if (hasOwn.call(o, key)) this.err('SC_KEY', this.keyPos, `duplicate property ${JSON.stringify(key)}`);
      defineValue(o, key, this.value());
      n++;
    }
  }

  dense(tp: number): unknown[] {
    this.open(tp);
    const len = this.varint();
    if (len > this.end - this.p) this.truncated(); // each element takes at least one byte
    const a = new Array(len);
    this.ids.push(a);
    const b = this.b;
    const end = this.end;
    for (let i = 0; i < len; i++) {
      let ep = this.p;
      if (ep >= end || b[ep] === T.PADDING) ep = this.peekPos();
      if (b[ep] === T.HOLE) {
        this.p = ep + 1;
        continue;
      }
      a[i] = this.value();
    }
    const [n, ep] = this.props(a as unknown as Record<string, unknown>, T.DENSE_END);
    const count = this.varint();
    const len2 = this.varint();
    if (count !== n || len2 !== len) this.err('SC_COUNT', ep, 'dense array end does not match');
    this.depth--;
    return a;
  }

  sparse(tp: number): unknown[] {
    this.open(tp);
    const len = this.varint();
    const a = sparseArray(len, this.end - this.p);
    this.ids.push(a);
    const [n, ep] = this.props(a as unknown as Record<string, unknown>, T.SPARSE_END);
    const count = this.varint();
    const len2 = this.varint();
    if (count !== n || len2 !== len) this.err('SC_COUNT', ep, 'sparse array end does not match');
    this.depth--;
    return a;
  }

  regexp(tp: number): RegExp {
    const id = this.ids.length;
    this.ids.push(PENDING);
    const source = this.string();
    const bits = this.varint();
    if (bits & ~W.REGEXP_KNOWN_BITS) this.err('SC_TAG', tp, `RegExp flags 0x${bits.toString(16)} not supported`);
    if (bits & 16 && bits & 256) this.err('SC_TAG', tp, 'RegExp flags u and v together');
    let flags = '';
    for (const [bit, ch] of W.REGEXP_FLAG_BITS) if (bits & bit) flags += ch;
    let re: RegExp;
    try {
      re = new RegExp(source, flags);
    } catch {
      this.err('SC_TAG', tp, 'invalid RegExp');
    }
    this.ids[id] = re;
    return re;
  }

  map(tp: number): Map<unknown, unknown> {
    this.open(tp);
    const m = new Map();
    this.ids.push(m);
    const b = this.b;
    let n = 0;
    for (;;) {
      const ep = this.peekPos();
      if (b[ep] === T.MAP_END) {
        this.p = ep + 1;
        const count = this.varint();
        if (count !== n) this.err('SC_COUNT', ep, 'map end does not match');
        break;
      }
      const k = this.value();
      const v = this.value();
      mapSet.call(m, k, v);
      n += 2;
    }
    this.depth--;
    return m;
  }

  set(tp: number): Set<unknown> {
    this.open(tp);
    const s = new Set();
    this.ids.push(s);
    const b = this.b;
    let n = 0;
    for (;;) {
      const ep = this.peekPos();
      if (b[ep] === T.SET_END) {
        this.p = ep + 1;
        const count = this.varint();
        if (count !== n) this.err('SC_COUNT', ep, 'set end does not match');
        break;
      }
      setAdd.call(s, this.value());
      n++;
    }
    this.depth--;
    return s;
  }

  arrayBuffer(tp: number, resizable: boolean): ArrayBuffer {
    const id = this.ids.length;
    this.ids.push(PENDING);
    const len = this.varint();
    let max = len;
    if (resizable) {
      max = this.varint();
      if (len > max) this.err('SC_TAG', tp, 'resizable buffer longer than its maximum');
    }
    const s = this.p;
    if (s + len > this.end) this.truncated();
    let buf: ArrayBuffer;
    if (resizable) {
      buf = new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer)(len, { maxByteLength: max });
      new Uint8Array(buf).set(this.b.subarray(s, s + len));
    } else {
      buf = copyBytes(this.b, s, s + len);
    }
    this.p = s + len;
    this.ids[id] = buf;
    return buf;
  }

  view(buf: ArrayBuffer, tp: number): object {
    // SC-D-22: subtag, offset, length, bounds; then flags (v14+); then kind, alignment and flags checks
    const sub = this.u8();
    const off = this.varint();
    const len = this.varint();
    const bl = buf.byteLength;
    if (off > bl || len > bl - off) this.err('SC_VIEW', tp, 'view out of bounds');
    const flags = this.version >= 14 || this.v13Flags ? this.varint() : 0;
    const name = W.VIEW_BY_SUBTAG[sub];
    if (name === undefined) this.err('SC_VIEW', tp, `unknown view subtag 0x${sub.toString(16)}`);
    const es = ELEMENT_SIZE[name]!;
    if (off % es !== 0 || len % es !== 0) this.err('SC_VIEW', tp, 'view misaligned for its element size');
    const tracking = (flags & 1) !== 0;
    const rab = (flags & 2) !== 0;
    const resizable = (buf as { resizable?: boolean }).resizable === true;
    if ((tracking || rab) && !resizable) this.err('SC_VIEW', tp, 'view flags need a resizable buffer');
    if (resizable && !rab) this.err('SC_VIEW', tp, 'view of a resizable buffer without the flag');
    if (VIEW_CTORS[name] === undefined) this.err('SC_VIEW', tp, `${name} is not available in this runtime`);
    const v = makeView(name, buf, off, len, tracking)!;
    this.ids.push(v);
    return v;
  }

  /** SC-D-24: the Error exists (and has its id) before its fields are read, so a cause may refer back to it. */
  error(tp: number): Error {
    this.open(tp);
    const e = makeError('Error', false, '', false, undefined, undefined);
    this.ids.push(e);
    let seen = 0;
    for (;;) {
      const sp = this.p;
      const sub = this.u8();
      if (sub === E.END) break;
      const en = W.ERROR_BY_SUBTAG[sub];
      const bit = en !== undefined ? 1 : sub === E.MESSAGE ? 2 : sub === E.CAUSE ? 4 : sub === E.STACK ? 8 : 0;
      if (bit === 0) this.err('SC_TAG', sp, `unknown Error subtag 0x${sub.toString(16)}`);
      if (seen & bit) this.err('SC_TAG', sp, `repeated Error subtag 0x${sub.toString(16)}`);
      seen |= bit;
      if (en !== undefined) Object.setPrototypeOf(e, ERROR_CTORS[en]!.prototype);
      else if (sub === E.MESSAGE) defineHidden(e, 'message', this.string());
      else if (sub === E.CAUSE) defineHidden(e, 'cause', this.value());
      else defineHidden(e, 'stack', this.string());
    }
    this.depth--;
    return e;
  }

  /** SC-D-26/27: Node host objects: `v8.serialize` typed arrays; with nodeIpc, child_process framing. */
  host(tp: number): unknown {
    if (this.nodeIpc) {
      const sub = this.varint();
      if (sub === 1) {
        // the host object is a plain object that follows; it takes the host's id
        const id = this.ids.length;
        this.ids.push(PENDING);
        const ip = this.valueTag();
        if (this.b[ip] !== T.OBJECT) this.err('SC_HOST', tp, 'IPC host object sub-tag 1 must be followed by an object');
        this.aliasNext = id;
        this.values--; // the object is this host item's value, counted at the host's tag (SC-L-05)
        return this.value();
      }
      if (sub !== 0) this.err('SC_HOST', tp, `unknown IPC host object sub-tag ${sub}`);
    }
    const id = this.ids.length;
    this.ids.push(PENDING);
    const type = this.varint();
    const len = this.varint();
    const s = this.p;
    if (s + len > this.end) this.truncated();
    this.p = s + len;
    const name = W.NODE_HOST_TYPES[type];
    if (name === undefined) this.err('SC_HOST', tp, `host object type ${type} is not a Node typed array`);
    const es = ELEMENT_SIZE[name]!;
    if (len % es !== 0) this.err('SC_HOST', tp, 'host view length is not a multiple of its element size');
    if (VIEW_CTORS[name] === undefined) this.err('SC_HOST', tp, `${name} is not available in this runtime`);
    const v = makeView(name, copyBytes(this.b, s, s + len), 0, len, false)!;
    this.ids[id] = v;
    return v;
  }
}

function defineHidden(o: object, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, writable: true, enumerable: false, configurable: true });
}

function isIndexLike(k: string): boolean {
  const c = k.charCodeAt(0);
  return c >= 48 && c <= 57;
}

/**
 * @internal A value whose reading takes the decoder's paths: the general object path, nested objects, dense arrays,
 * short and long strings, doubles, a key list repeated often enough to get its generated reader (shared by
 * clone.ts, which keeps a Cloner alive the same way).
 */
export const SHAPES_SAMPLE: unknown = {
  a: 'x', b: 1.5, c: [1, 'two', null, true, undefined, -7], d: { k: 'a string longer than sixteen bytes', n: 7, f: false },
  e: [{ k: 'v', n: 1 }, { k: 'w', n: 2 }, { k: 'x', n: 3 }, { k: 'y', n: 4 }], f: {}, g: [], h: { i: { j: [0.25] } },
};

/**
 * @internal A Reader alive as long as the module (issue #20). A Reader's hidden class (V8 map) is reached from its
 * class only through weak transitions, so when the last call's Reader is garbage a major GC frees it and throws away
 * every optimized function that embeds it (`--trace-deopt`: "weak objects", 20+ functions, the generated key-list
 * readers included): after each GC the decoder ran cold again. One Reader that has read SHAPES_SAMPLE keeps the
 * shapes. Built once at load (last in the module); never used afterwards.
 */
export const KEEP_READER: object = keepReader();

function keepReader(): object {
  const bytes = serialize(SHAPES_SAMPLE);
  let r: Reader | null = null;
  for (let i = 0; i < 3; i++) {
    r = new Reader(bytes, DEFAULT_LIMITS, false, false);
    r.header();
    r.root();
  }
  return r!;
}
