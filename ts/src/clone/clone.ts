/**
 * In-memory structured clone: the result `structuredClone(value)` gives, without the serialize/deserialize round trip.
 *
 * Semantics are HTML StructuredSerializeInternal + StructuredDeserialize as V8 implements them (SC rules):
 * own enumerable string keys in enumeration order, read with [[Get]] (getters run; a key deleted by an earlier getter
 * is skipped), prototypes, symbol keys and non-enumerables dropped, cycles and shared references kept, holes and extra
 * array properties kept, Map/Set snapshotted then copied, Date, RegExp (lastIndex dropped), primitive wrappers,
 * ArrayBuffer (resizable keeps its max length), typed arrays and DataView (views of one buffer share the copy,
 * length-tracking kept), Error (name coerced to one of the seven constructors, message only as an own data property,
 * stack when it is a string, cause as V8 clones it). Functions, symbols, WeakMap/WeakSet/WeakRef, Promise, Proxy,
 * detached buffers and out-of-bounds views throw a `DOMException` named `DataCloneError`.
 *
 * Fast paths: primitives and strings are returned as is (strings are immutable: constant time for any length);
 * plain objects whose values are primitives are built by a shape-cache factory; packed arrays are copied by one index
 * loop; buffers by one memcpy. Platform objects (Blob, File, ImageData, ...) go to the runtime's `structuredClone`.
 *
 * Proxy: HTML refuses Proxy objects, and JavaScript cannot see a Proxy. When the runtime offers `util.types.isProxy`
 * (Node, Deno, Bun: see kinds.ts) every object is checked. Without it (browsers) `clone()` gives any object value to
 * the runtime's `structuredClone`, unless `assumeNoProxies: true` says the graph holds none.
 */
import { dataCloneError } from './errors.js';
import {
  Kind, classify, hasProxyDetector, keysOf, hasOwn, ObjectProto, dateGetTime, reSource, regexpFlags, mapForEach,
  setForEach, mapSet, setAdd, boolValueOf, numValueOf, strValueOf, bigintValueOf, isDetached, copyArrayBuffer, viewInfo,
  makeView, ERROR_NAMES, makeError, markOrdinary,
} from './kinds.js';
import { factoryFor, sameKeys, defineValue, type Shape } from './shapes.js';

export interface CloneOptions {
  /** Walk objects in JavaScript even when no Proxy detector exists (the caller guarantees there are no Proxies). */
  assumeNoProxies?: boolean;
  /** Nesting limit (containers). Default: unlimited (the stack decides, as for `structuredClone`). */
  maxDepth?: number;
}

const gopd = Object.getOwnPropertyDescriptor;
const getProto = Object.getPrototypeOf;
const nativeStructuredClone = (globalThis as { structuredClone?: (v: unknown) => unknown }).structuredClone;

function native(v: unknown): unknown {
  if (typeof nativeStructuredClone !== 'function') throw dataCloneError(describe(v));
  return nativeStructuredClone(v);
}

function describe(v: unknown): string {
  try {
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'function') return String(v).slice(0, 60);
    return '#<' + ((v as { constructor?: { name?: string } })?.constructor?.name ?? 'Object') + '>';
  } catch {
    return '#<Object>';
  }
}

/** The error V8 throws when a cloned Error's cause refers back to the Error (it is not readable before it ends). */
const PENDING_ERROR = {};

/**
 * Clones `value` with the structured-clone algorithm. Throws like `structuredClone` (DataCloneError, or whatever a
 * getter throws).
 */
export function clone<T>(value: T, options?: CloneOptions): T {
  const t = typeof value;
  if (t !== 'object') {
    if (t === 'function' || t === 'symbol') throw dataCloneError(describe(value));
    return value; // primitives and strings: immutable, shared as is
  }
  if (value === null) return value;
  if (!hasProxyDetector() && !(options && options.assumeNoProxies)) return native(value) as T;
  const c = new Cloner(options?.maxDepth ?? Infinity);
  const out = c.value(value, 0);
  if (c.brokenErrorCause) throw new Error('Unable to deserialize cloned data.');
  return out as T;
}

class Cloner {
  readonly memo = new Map<object, unknown>();
  shape: Shape | null = null;
  brokenErrorCause = false;
  constructor(readonly maxDepth: number) {}

  value(v: unknown, depth: number): unknown {
    const t = typeof v;
    if (t !== 'object') {
      if (t === 'function' || t === 'symbol') throw dataCloneError(describe(v));
      return v;
    }
    if (v === null) return null;
    const o = v as object;
    const seen = this.memo.get(o);
    if (seen !== undefined) {
      if (seen === PENDING_ERROR) {
        this.brokenErrorCause = true;
        return undefined;
      }
      return seen;
    }
    if (depth >= this.maxDepth) throw new RangeError('Maximum nesting depth exceeded');
    const k = classify(o);
    switch (k) {
      case Kind.Plain: return this.plain(o as Record<string, unknown>, depth);
      case Kind.Array: return this.array(o as unknown[], depth);
      default: return this.special(o, k, depth);
    }
  }

  plain(o: Record<string, unknown>, depth: number): object {
    const keys = keysOf(o);
    const n = keys.length;
    let shape = this.shape;
    if (shape === null || !sameKeys(shape.keys, keys)) {
      shape = { keys, factory: factoryFor(keys) };
      this.shape = shape;
    }
    const f = shape.factory;
    if (f !== null) {
      const vals = new Array(n);
      let i = 0;
      for (; i < n; i++) {
        const key = keys[i]!;
        const x = o[key];
        const t = typeof x;
        if (t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint' || (x === null)) {
          vals[i] = x; // a primitive read from an own key (a deleted key reads undefined or an inherited object)
          continue;
        }
        if (!hasOwn.call(o, key)) break; // deleted by a getter: the slow path skips it
        if (t === 'undefined') {
          vals[i] = x;
          continue;
        }
        return this.plainSlow(o, keys, vals, i, x, true, depth);
      }
      if (i === n) {
        const out = f(vals);
        this.memo.set(o, out);
        return out;
      }
      return this.plainSlow(o, keys, vals, i, undefined, false, depth);
    }
    return this.plainSlow(o, keys, [], 0, undefined, false, depth);
  }

  /** Keys [0, i) are read into vals; key i was read into x when haveX, else is still to be checked. */
  plainSlow(o: Record<string, unknown>, keys: string[], vals: unknown[], i: number, x: unknown, haveX: boolean, depth: number): object {
    const out: Record<string, unknown> = {};
    this.memo.set(o, out);
    for (let j = 0; j < i; j++) defineValue(out, keys[j]!, vals[j]);
    const n = keys.length;
    if (haveX) {
      defineValue(out, keys[i]!, this.value(x, depth + 1));
      i++;
    }
    for (; i < n; i++) {
      const key = keys[i]!;
      if (!hasOwn.call(o, key)) continue;
      defineValue(out, key, this.value(o[key], depth + 1));
    }
    return out;
  }

  array(a: unknown[], depth: number): unknown[] {
    const len = a.length;
    const keys = keysOf(a);
    const out = new Array(len);
    this.memo.set(a, out);
    if (keys.length === len && (len === 0 || keys[len - 1] === String(len - 1))) {
      // packed, no extra properties: one index loop (each element is still read with [[Get]] in order)
      for (let i = 0; i < len; i++) {
        const x = a[i];
        out[i] = typeof x === 'object' || typeof x === 'function' || typeof x === 'symbol' ? this.value(x, depth + 1) : x;
      }
      return out;
    }
    const o = a as unknown as Record<string, unknown>;
    const r = out as unknown as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!hasOwn.call(o, key)) continue;
      defineValue(r, key, this.value(o[key], depth + 1));
    }
    return out;
  }

  special(o: object, k: Kind, depth: number): unknown {
    const memo = this.memo;
    switch (k) {
      case Kind.Date: {
        const out = new Date(dateGetTime.call(o) as number);
        memo.set(o, out);
        return out;
      }
      case Kind.RegExp: {
        const out = new RegExp(reSource.call(o) as string, regexpFlags(o).text);
        memo.set(o, out);
        return out;
      }
      case Kind.BooleanObject: return this.wrap(o, boolValueOf.call(o));
      case Kind.NumberObject: return this.wrap(o, numValueOf.call(o));
      case Kind.StringObject: return this.wrap(o, strValueOf.call(o));
      case Kind.BigIntObject: return this.wrap(o, bigintValueOf.call(o));
      case Kind.Map: {
        const entries: unknown[] = [];
        mapForEach.call(o, (v: unknown, key: unknown) => { entries.push(key, v); });
        const out = new Map();
        memo.set(o, out);
        for (let i = 0; i < entries.length; i += 2) {
          const key = this.value(entries[i], depth + 1);
          mapSet.call(out, key, this.value(entries[i + 1], depth + 1));
        }
        return out;
      }
      case Kind.Set: {
        const values: unknown[] = [];
        setForEach.call(o, (v: unknown) => { values.push(v); });
        const out = new Set();
        memo.set(o, out);
        for (let i = 0; i < values.length; i++) setAdd.call(out, this.value(values[i], depth + 1));
        return out;
      }
      case Kind.ArrayBuffer: {
        if (isDetached(o)) throw dataCloneError('An ArrayBuffer is detached and');
        const out = copyArrayBuffer(o as ArrayBuffer);
        memo.set(o, out);
        return out;
      }
      case Kind.View: {
        const info = viewInfo(o);
        if (info === null) throw dataCloneError(describe(o));
        if (info === 'shared') {
          const out = native(o);
          memo.set(o, out);
          return out;
        }
        let buf = memo.get(info.buffer) as ArrayBuffer | undefined;
        if (buf === undefined) {
          buf = copyArrayBuffer(info.buffer);
          memo.set(info.buffer, buf);
        }
        const out = makeView(info.name, buf, info.byteOffset, info.byteLength, info.lengthTracking);
        if (out === undefined) throw dataCloneError(describe(o));
        memo.set(o, out);
        return out;
      }
      case Kind.Error: return this.error(o, depth);
      case Kind.SharedArrayBuffer: {
        const out = native(o); // shared within the agent cluster, or DataCloneError: the runtime decides
        memo.set(o, out);
        return out;
      }
      case Kind.Platform: {
        const out = native(o);
        if (out !== null && typeof out === 'object' && getProto(out) === ObjectProto && getProto(o) !== ObjectProto) {
          // the runtime treats this interface as an ordinary object (e.g. Node's URL): walk it ourselves so that
          // shared references inside stay shared, and remember the answer for the interface.
          markOrdinary(o);
          return this.plain(o as Record<string, unknown>, depth);
        }
        memo.set(o, out);
        return out;
      }
      default:
        throw dataCloneError(describe(o));
    }
  }

  wrap(o: object, prim: unknown): object {
    const out = Object(prim) as object;
    this.memo.set(o, out);
    return out;
  }

  error(o: object, depth: number): Error {
    // V8 WriteJSError order: own "message" and "cause" descriptors, then name, then cause, then stack.
    const md = gopd(o, 'message');
    const cd = gopd(o, 'cause');
    let name = '' + (o as { name?: unknown }).name;
    if (!ERROR_NAMES.includes(name)) name = 'Error';
    const hasMessage = md !== undefined && 'value' in md;
    const message = hasMessage ? '' + md.value : '';
    const hasCause = cd !== undefined && 'value' in cd;
    let cause: unknown;
    this.memo.set(o, PENDING_ERROR); // V8 registers an Error after reading it: a cause pointing back cannot be read
    if (hasCause) cause = this.value(cd.value, depth + 1);
    const st = (o as { stack?: unknown }).stack;
    const out = makeError(name, hasMessage, message, hasCause, cause, typeof st === 'string' ? st : undefined);
    this.memo.set(o, out);
    return out;
  }
}
