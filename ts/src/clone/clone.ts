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
 * ordinary objects are walked with for-in, their values collected on one scratch stack, and the copy built at the
 * end by a shape-cache factory (one object literal) once the key list has been seen before; packed arrays are copied
 * by one index loop; buffers by one memcpy. The memory map is identity.ts (every object recorded, so cycles and
 * shared references are exact). Platform objects (Blob, File, ImageData, ...) go to the runtime's `structuredClone`.
 *
 * Proxy: HTML refuses Proxy objects, and JavaScript cannot see a Proxy. When the runtime offers `util.types.isProxy`
 * (Node, Deno, Bun: see kinds.ts) every object is checked. Without it (browsers) `clone()` gives any object value to
 * the runtime's `structuredClone`, unless `assumeNoProxies: true` says the graph holds none.
 */
import { dataCloneError } from './errors.js';
import {
  Kind, classify, hasProxyDetector, keysOf, ObjectProto, dateGetTime, reSource, regexpFlags, mapForEach,
  setForEach, mapSet, setAdd, boolValueOf, numValueOf, strValueOf, bigintValueOf, isDetached, copyArrayBuffer, viewInfo,
  makeView, ERROR_NAMES, makeError, markOrdinary, sparseArray, arrayKeys,
} from './kinds.js';
import { factoryFor, defineValue, type Factory } from './shapes.js';
import { Identity } from './identity.js';
import { isStackOverflow, cloneDepthError } from './stack.js';
import { SHAPES_SAMPLE } from './deserialize.js';

export interface CloneOptions {
  /** Walk objects in JavaScript even when no Proxy detector exists (the caller guarantees there are no Proxies). */
  assumeNoProxies?: boolean;
  /**
   * Nesting limit (containers, SC-L-03). Default: unlimited (the stack decides, as for `structuredClone`). Past it, or
   * past what the stack holds, a RangeError with `formwireCode` SC_LIMIT_DEPTH.
   */
  maxDepth?: number | null;
}

const gopd = Object.getOwnPropertyDescriptor;
const getProto = Object.getPrototypeOf;
// A local alias: V8 reduces hasOwn.call(o, key) inside for-in over o to a map check only when it knows the
// function, and it does not know a binding imported from another module (a cost per object; CHANGELOG.md).
const hasOwn = Object.prototype.hasOwnProperty;
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

/** outs[] marker: the Error is being read (a cause referring back to it cannot be read, as in V8). */
const PENDING_ERROR = {};
/** outs[] marker: a plain object whose values are being cloned; its copy is made when they are all known. */
const PENDING_OBJECT = {};

/**
 * Shape cache: a key list seen before and, from its second sighting on, the factory that builds an object with that
 * list in one step (shapes.ts). Looked up by nesting level, then by first key; always checked key by key.
 */
interface CShape {
  keys: string[];
  /** undefined: not made yet (made when the list is seen again); null: none possible */
  factory: Factory | null | undefined;
}
const SHAPE_LEVELS = 32;
const MAX_FIRST_KEYS = 4096;
const byLevel: Array<CShape | undefined> = [];
const byFirstKey = new Map<string, CShape>();
const EMPTY_KEYS: string[] = [];

function shapeFor(depth: number, firstKey: string): CShape | undefined {
  const s = depth < SHAPE_LEVELS ? byLevel[depth] : undefined;
  if (s !== undefined && s.keys[0] === firstKey) return s;
  return byFirstKey.get(firstKey);
}

function remember(depth: number, keys: string[]): void {
  if (keys.length === 0) return;
  const s: CShape = { keys, factory: undefined };
  if (depth < SHAPE_LEVELS) byLevel[depth] = s;
  if (byFirstKey.size >= MAX_FIRST_KEYS) byFirstKey.clear();
  byFirstKey.set(keys[0]!, s);
}

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
  if (!hasProxyDetector() && !(options !== undefined && options.assumeNoProxies)) return native(value) as T;
  const md = options === undefined || options.maxDepth === undefined || options.maxDepth === null ? Infinity : options.maxDepth;
  const c = new Cloner(md);
  let out: unknown;
  try {
    out = c.value(value, 0);
  } catch (e) {
    // SC-L-03: the stack bounds any depth; its RangeError (what structuredClone throws) gets the code SC_LIMIT_DEPTH
    if (isStackOverflow(e)) throw cloneDepthError(e as Error);
    throw e;
  }
  if (c.brokenErrorCause) throw new Error('Unable to deserialize cloned data.');
  return out as T;
}

class Cloner {
  /** the memory map: source objects in first-visit order (identity.ts) ... */
  readonly ids = new Identity();
  /** ... and their copies, by the same index (or a PENDING_ marker) */
  readonly outs: unknown[] = [];
  /**
   * values of the plain objects being read, as a stack: an object's values from vals[base] on (base = top when it
   * starts), a nested object's values after the ones its parent has read so far (top = base + i while it runs)
   */
  readonly scratch: unknown[] = [];
  top = 0;
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
    const k = classify(o);
    if (k === Kind.View) return this.view(o, depth);
    const seen = this.ids.visit(o);
    if (seen >= 0) {
      const r = this.outs[seen];
      if (r === PENDING_OBJECT) {
        // a cycle back to an object still being read: its copy must exist now; it is filled when its values are known
        const out = {};
        this.outs[seen] = out;
        return out;
      }
      if (r === PENDING_ERROR) {
        this.brokenErrorCause = true;
        return undefined;
      }
      return r;
    }
    const idx = this.outs.length;
    if (depth >= this.maxDepth) throw cloneDepthError('Maximum nesting depth exceeded');
    switch (k) {
      case Kind.Plain: return this.plain(o as Record<string, unknown>, idx, depth);
      case Kind.Ordinary: return this.plainKeys(o as Record<string, unknown>, idx, depth);
      case Kind.Array: return this.array(o as unknown[], idx, depth);
      default: return this.special(o, idx, k, depth);
    }
  }

  /**
   * An ordinary object: `for-in` gives the own enumerable keys in order (then inherited ones, which hasOwn drops, as
   * it drops keys deleted by an earlier getter); keys added during the walk are not visited (HTML takes a key
   * snapshot). Values (copies of nested ones included) are collected first, on the scratch stack, and the copy is
   * built at the end by the shape's factory; if a cycle reaches the object before that, the copy is made then
   * (empty) and filled at the end. Nothing outside can see the copy before clone() returns, so the order of these
   * steps is not observable. for-in only for objects whose prototype is Object.prototype or null (Kind.Plain, see
   * serialize.ts `plain`); others take `plainKeys`.
   */
  plain(o: Record<string, unknown>, idx: number, depth: number): object {
    const outs = this.outs;
    outs.push(PENDING_OBJECT);
    const vals = this.scratch;
    const base = this.top; // this object's values go to vals[base ...]; a nested object's after them
    let shape: CShape | undefined;
    let sk = EMPTY_KEYS;
    let own: string[] | null = null; // the key list, once it leaves sk
    let i = 0;
    for (const key in o) {
      if (!hasOwn.call(o, key)) continue;
      const v = o[key];
      if (i === 0) {
        shape = shapeFor(depth, key);
        if (shape !== undefined) sk = shape.keys;
      }
      if (own === null && (i >= sk.length || sk[i] !== key)) own = sk.slice(0, i);
      if (own !== null) own.push(key);
      const t = typeof v;
      if ((t === 'object' && v !== null) || t === 'function' || t === 'symbol') {
        this.top = base + i;
        const c = this.value(v, depth + 1);
        vals[base + i++] = c;
      } else vals[base + i++] = v;
    }
    this.top = base;
    let keys: string[];
    let factory: Factory | null | undefined = null;
    if (own === null && shape !== undefined && i === sk.length) {
      keys = sk;
      factory = shape.factory;
      if (factory === undefined) factory = shape.factory = factoryFor(keys);
    } else {
      keys = own !== null ? own : sk.slice(0, i);
      remember(depth, keys);
    }
    let out = outs[idx] as Record<string, unknown>;
    if (out === PENDING_OBJECT) {
      if (factory !== null && factory !== undefined) {
        out = factory(vals, base) as Record<string, unknown>;
        outs[idx] = out;
        return out;
      }
      out = {};
      outs[idx] = out;
    }
    for (let j = 0; j < i; j++) defineValue(out, keys[j]!, vals[base + j]);
    return out;
  }

  /** An ordinary object with another prototype (Kind.Ordinary): Object.keys snapshot, copy made first. */
  plainKeys(o: Record<string, unknown>, idx: number, depth: number): object {
    const out: Record<string, unknown> = {};
    this.outs.push(out);
    const keys = keysOf(o);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (!hasOwn.call(o, key)) continue; // deleted by an earlier getter
      defineValue(out, key, this.value(o[key], depth + 1));
    }
    return out;
  }

  array(a: unknown[], idx: number, depth: number): unknown[] {
    const len = a.length;
    const keys = arrayKeys(a, len);
    // a sparse source (a length of 2^25 costs it nothing) must not cost its copy every hole either (kinds.ts)
    const out = keys === null ? new Array(len) : sparseArray(len, keys.length + 1024);
    this.outs.push(out);
    if (keys === null) {
      // packed, no extra properties: one index loop (each element is still read with [[Get]] in order)
      for (let i = 0; i < len; i++) {
        const x = a[i];
        const t = typeof x;
        if ((t === 'object' && x !== null) || t === 'function' || t === 'symbol') out[i] = this.value(x, depth + 1);
        else if (x !== undefined || hasOwn.call(a, i)) out[i] = x; // else deleted by a getter: a hole
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

  view(o: object, depth: number): unknown {
    const seen = this.ids.find(o);
    if (seen >= 0) return this.outs[seen];
    if (depth >= this.maxDepth) throw cloneDepthError('Maximum nesting depth exceeded');
    const info = viewInfo(o);
    if (info === null) throw dataCloneError(describe(o));
    if (info === 'shared') {
      const out = native(o);
      this.ids.add(o);
      this.outs.push(out);
      return out;
    }
    const bi = this.ids.find(info.buffer);
    let buf: ArrayBuffer;
    if (bi >= 0) buf = this.outs[bi] as ArrayBuffer;
    else {
      buf = copyArrayBuffer(info.buffer);
      this.ids.add(info.buffer);
      this.outs.push(buf);
    }
    const out = makeView(info.name, buf, info.byteOffset, info.byteLength, info.lengthTracking);
    if (out === undefined) throw dataCloneError(describe(o));
    this.ids.add(o);
    this.outs.push(out);
    return out;
  }

  /** Everything but plain objects, arrays and views. The copy goes to outs[idx] before anything nested is read. */
  special(o: object, idx: number, k: Kind, depth: number): unknown {
    const outs = this.outs;
    switch (k) {
      case Kind.Date: {
        const out = new Date(dateGetTime.call(o) as number);
        outs.push(out);
        return out;
      }
      case Kind.RegExp: {
        const out = new RegExp(reSource.call(o) as string, regexpFlags(o).text);
        outs.push(out);
        return out;
      }
      case Kind.BooleanObject: return this.wrap(boolValueOf.call(o));
      case Kind.NumberObject: return this.wrap(numValueOf.call(o));
      case Kind.StringObject: return this.wrap(strValueOf.call(o));
      case Kind.BigIntObject: return this.wrap(bigintValueOf.call(o));
      case Kind.Map: {
        const entries: unknown[] = [];
        mapForEach.call(o, (v: unknown, key: unknown) => { entries.push(key, v); });
        const out = new Map();
        outs.push(out);
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
        outs.push(out);
        for (let i = 0; i < values.length; i++) setAdd.call(out, this.value(values[i], depth + 1));
        return out;
      }
      case Kind.ArrayBuffer: {
        if (isDetached(o)) throw dataCloneError('An ArrayBuffer is detached and');
        const out = copyArrayBuffer(o as ArrayBuffer);
        outs.push(out);
        return out;
      }
      case Kind.Error: return this.error(o, idx, depth);
      case Kind.SharedArrayBuffer: {
        const out = native(o); // shared within the agent cluster, or DataCloneError: the runtime decides
        outs.push(out);
        return out;
      }
      case Kind.Platform: {
        const out = native(o);
        if (out !== null && typeof out === 'object' && getProto(out) === ObjectProto && getProto(o) !== ObjectProto) {
          // the runtime treats this interface as an ordinary object (e.g. Node's URL): walk it ourselves so that
          // shared references inside stay shared, and remember the answer for the interface.
          markOrdinary(o);
          return this.plainKeys(o as Record<string, unknown>, idx, depth);
        }
        outs.push(out);
        return out;
      }
      default:
        throw dataCloneError(describe(o));
    }
  }

  wrap(prim: unknown): object {
    const out = Object(prim) as object;
    this.outs.push(out);
    return out;
  }

  error(o: object, idx: number, depth: number): Error {
    // V8 registers an Error after reading it: a cause pointing back cannot be read
    this.outs.push(PENDING_ERROR);
    // V8 WriteJSError order: own "message" and "cause" descriptors, then name, then cause, then stack.
    const md = gopd(o, 'message');
    const cd = gopd(o, 'cause');
    let name = '' + (o as { name?: unknown }).name;
    if (!ERROR_NAMES.includes(name)) name = 'Error';
    const hasMessage = md !== undefined && 'value' in md;
    const message = hasMessage ? '' + md.value : '';
    const hasCause = cd !== undefined && 'value' in cd;
    let cause: unknown;
    if (hasCause) cause = this.value(cd.value, depth + 1);
    const st = (o as { stack?: unknown }).stack;
    const out = makeError(name, hasMessage, message, hasCause, cause, typeof st === 'string' ? st : undefined);
    this.outs[idx] = out;
    return out;
  }
}

/**
 * @internal A Cloner alive as long as the module (issue #20), for the reason deserialize.ts keeps a Reader: otherwise
 * a major GC frees the Cloner's and its Identity's hidden classes with the last call's objects and throws away the
 * optimized code that embeds them. Last in the module; never used afterwards.
 */
export const KEEP_CLONER: object = keepCloner();

function keepCloner(): object {
  let c: Cloner | null = null;
  for (let i = 0; i < 3; i++) {
    c = new Cloner(Infinity);
    c.value(SHAPES_SAMPLE, 0);
  }
  return c!;
}
