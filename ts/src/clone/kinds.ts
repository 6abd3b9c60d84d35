/**
 * What kind of object a value is, decided the way HTML StructuredSerializeInternal decides it: by internal slots
 * (brand checks through the intrinsic getters captured at load time), never by a user-patchable property.
 *
 * Standard JavaScript only. Two runtime facts cannot be observed from JavaScript:
 *  - whether an object is a Proxy (HTML: DataCloneError). `isProxy` is taken from Node's `util.types` when the runtime
 *    offers `process.getBuiltinModule` (Node >= 20.16, Deno, Bun), or installed with `setProxyDetector()`.
 *    Without a detector, `clone()` hands objects to the runtime's `structuredClone` (see clone.ts).
 *  - whether an object is a platform object (Blob, File, ImageData, ...). Their prototypes are looked up on
 *    `globalThis` (PLATFORM_NAMES) and more can be registered with `registerPlatformClass()`; `clone()` copies them
 *    with the runtime's `structuredClone`, `serialize()` refuses them (SC_DATA_CLONE).
 */
import { builtinModule } from '../adapters/node.js';

export const enum Kind {
  /** an ordinary object whose prototype is Object.prototype or null */
  Plain = 0,
  Array = 1,
  Date = 2,
  RegExp = 3,
  Map = 4,
  Set = 5,
  ArrayBuffer = 6,
  SharedArrayBuffer = 7,
  View = 8,
  Error = 9,
  BooleanObject = 10,
  NumberObject = 11,
  StringObject = 12,
  BigIntObject = 13,
  Platform = 14,
  Uncloneable = 15,
  /** an ordinary object with another prototype (class instance, Object.create(x), platform object cloned as ordinary) */
  Ordinary = 16,
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

const getProto = Object.getPrototypeOf;
const gopd = Object.getOwnPropertyDescriptor;
export const ObjectProto = Object.prototype;
export const ArrayProto = Array.prototype;
export const hasOwn = Object.prototype.hasOwnProperty;
const toStr = Object.prototype.toString;
export const isArray = Array.isArray;
export const keysOf = Object.keys;

function getter(proto: object | undefined, name: PropertyKey): AnyFn | undefined {
  if (proto === undefined) return undefined;
  const d = gopd(proto, name);
  return d && typeof d.get === 'function' ? (d.get as AnyFn) : undefined;
}

const G = globalThis as Record<string, unknown>;
type Ctor = { prototype: object } & ((...a: never[]) => unknown);
const ctor = (name: string): Ctor | undefined => {
  const c = G[name];
  return typeof c === 'function' ? (c as Ctor) : undefined;
};

/**
 * Whether `arrayKeys` counts an array's keys with for-in before listing them with Object.keys: on Bun, where
 * JavaScriptCore's Object.keys of an array makes every index string per call and a counting for-in costs about half
 * of it; V8 keeps Object.keys of a packed array the cheaper one (figures in CHANGELOG.md). Chosen by construction.
 */
const COUNT_BY_FOR_IN = G.Bun !== undefined;
const isEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * The own enumerable string keys of the Array `a` (not a Proxy) of length `len`, or null when they are exactly "0"
 * .. len-1 (no hole, no non-enumerable index, no extra property: a clone copies it by one index loop). Null is
 * exact. Where COUNT_BY_FOR_IN, for an array whose prototype chain is Array.prototype, Object.prototype (no Proxy on
 * it, so for-in runs no user code), for-in yields the own enumerable keys in [[OwnPropertyKeys]] order (indices
 * ascending, then names), then the inherited ones (ES2020 for-in order). If it yields len keys, the last one
 * "len-1", and a[len-1] is an own enumerable property, that last key is a's own (own keys come first), so nothing
 * came after a's indices, neither a name nor an inherited key: the len keys are distinct own enumerable indices below
 * len, which are all of them. Otherwise the list is Object.keys. (`countByForIn`: the tests take both paths on every
 * runtime.)
 */
export function arrayKeys(a: unknown[], len: number, countByForIn = COUNT_BY_FOR_IN): string[] | null {
  if (countByForIn && getProto(a) === ArrayProto && getProto(ArrayProto) === ObjectProto) {
    let n = 0;
    let last = '';
    for (const k in a) {
      n++;
      last = k;
    }
    if (n === len && (len === 0 || (last === String(len - 1) && isEnumerable.call(a, len - 1)))) return null;
  }
  const keys = keysOf(a);
  return keys.length === len && (len === 0 || keys[len - 1] === String(len - 1)) ? null : keys;
}

// ---- intrinsics (captured once) ----
export const TypedArrayProto: object = getProto(Uint8Array.prototype);
export const taTag = getter(TypedArrayProto, Symbol.toStringTag)!; // name of a typed array, undefined otherwise
export const taBuffer = getter(TypedArrayProto, 'buffer')!;
export const taByteOffset = getter(TypedArrayProto, 'byteOffset')!;
export const taByteLength = getter(TypedArrayProto, 'byteLength')!;
export const taLength = getter(TypedArrayProto, 'length')!;
const taAt = (TypedArrayProto as { at?: AnyFn }).at;
export const dvBuffer = getter(DataView.prototype, 'buffer')!;
export const dvByteOffset = getter(DataView.prototype, 'byteOffset')!;
export const dvByteLength = getter(DataView.prototype, 'byteLength')!;
export const abByteLength = getter(ArrayBuffer.prototype, 'byteLength')!;
export const abResizable = getter(ArrayBuffer.prototype, 'resizable');
export const abMaxByteLength = getter(ArrayBuffer.prototype, 'maxByteLength');
export const abDetached = getter(ArrayBuffer.prototype, 'detached');
const abSlice = ArrayBuffer.prototype.slice as unknown as AnyFn;
const abResize = (ArrayBuffer.prototype as { resize?: AnyFn }).resize;
const SAB = ctor('SharedArrayBuffer');
const sabByteLength = getter(SAB?.prototype, 'byteLength');
export const dateGetTime = Date.prototype.getTime as unknown as AnyFn;
const reGlobal = getter(RegExp.prototype, 'global')!;
export const reSource = getter(RegExp.prototype, 'source')!;
const FLAG_GETTERS: Array<[AnyFn | undefined, number, string]> = [
  // bit values of V8's RegExpFlag (g=1 i=2 m=4 y=8 u=16 s=32 linear=64 d=128 v=256), in 'dgimsuvy' order
  [getter(RegExp.prototype, 'hasIndices'), 128, 'd'],
  [getter(RegExp.prototype, 'global'), 1, 'g'],
  [getter(RegExp.prototype, 'ignoreCase'), 2, 'i'],
  [getter(RegExp.prototype, 'multiline'), 4, 'm'],
  [getter(RegExp.prototype, 'dotAll'), 32, 's'],
  [getter(RegExp.prototype, 'unicode'), 16, 'u'],
  [getter(RegExp.prototype, 'unicodeSets'), 256, 'v'],
  [getter(RegExp.prototype, 'sticky'), 8, 'y'],
];
export const mapSize = getter(Map.prototype, 'size')!;
export const setSize = getter(Set.prototype, 'size')!;
export const mapForEach = Map.prototype.forEach as unknown as AnyFn;
export const setForEach = Set.prototype.forEach as unknown as AnyFn;
export const mapSet = Map.prototype.set as unknown as AnyFn;
export const setAdd = Set.prototype.add as unknown as AnyFn;
export const boolValueOf = Boolean.prototype.valueOf as unknown as AnyFn;
export const numValueOf = Number.prototype.valueOf as unknown as AnyFn;
export const strValueOf = String.prototype.valueOf as unknown as AnyFn;
export const bigintValueOf = BigInt.prototype.valueOf as unknown as AnyFn;
const symValueOf = Symbol.prototype.valueOf as unknown as AnyFn;

/** The regexp's flags as V8's bit set and as the flags string, read from [[OriginalFlags]] (no user getters). */
export function regexpFlags(re: object): { bits: number; text: string } {
  let bits = 0;
  let text = '';
  for (const [get, bit, ch] of FLAG_GETTERS) {
    if (get !== undefined && get.call(re) === true) {
      bits |= bit;
      text += ch;
    }
  }
  return { bits, text };
}

// ---- Proxy detection ----
let isProxyFn: ((v: object) => boolean) | null = null;
try {
  const util = builtinModule('node:util') as { types?: { isProxy?: (v: unknown) => boolean } } | undefined;
  if (util && util.types && typeof util.types.isProxy === 'function') isProxyFn = util.types.isProxy as (v: object) => boolean;
} catch {
  isProxyFn = null;
}

/** Installs the function used to recognise Proxy objects (e.g. Node's `util.types.isProxy`). */
export function setProxyDetector(fn: ((v: object) => boolean) | null): void {
  isProxyFn = fn;
}
/** Whether a Proxy detector is available (then `clone()` walks objects itself). */
export function hasProxyDetector(): boolean {
  return isProxyFn !== null;
}
export function isProxy(o: object): boolean {
  return isProxyFn !== null && isProxyFn(o);
}

// ---- prototype -> kind table ----
const protoKinds = new Map<object, Kind>();
const addProto = (p: unknown, k: Kind): void => {
  if (p !== null && (typeof p === 'object' || typeof p === 'function')) protoKinds.set(p as object, k);
};
addProto(Date.prototype, Kind.Date);
addProto(RegExp.prototype, Kind.RegExp);
addProto(Map.prototype, Kind.Map);
addProto(Set.prototype, Kind.Set);
addProto(ArrayBuffer.prototype, Kind.ArrayBuffer);
if (SAB) addProto(SAB.prototype, Kind.SharedArrayBuffer);
addProto(Error.prototype, Kind.Error);
addProto(Boolean.prototype, Kind.BooleanObject);
addProto(Number.prototype, Kind.NumberObject);
addProto(String.prototype, Kind.StringObject);
addProto(BigInt.prototype, Kind.BigIntObject);
addProto(Symbol.prototype, Kind.Uncloneable);
for (const n of ['WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Promise']) addProto(ctor(n)?.prototype, Kind.Uncloneable);
{
  // iterators and generators (internal slots: not serializable)
  const iterProtos: unknown[] = [
    getProto([][Symbol.iterator]()),
    getProto(new Map()[Symbol.iterator]()),
    getProto(new Set()[Symbol.iterator]()),
    getProto(''[Symbol.iterator]()),
    getProto(/x/[Symbol.matchAll]('')),
    getProto(function* () {}.prototype),
    getProto(async function* () {}.prototype),
  ];
  for (const p of iterProtos) addProto(p, Kind.Uncloneable);
  const Intl = G.Intl as Record<string, unknown> | undefined;
  if (Intl) for (const n of Object.getOwnPropertyNames(Intl)) {
    const c = Intl[n];
    if (typeof c === 'function' && (c as Ctor).prototype) addProto((c as Ctor).prototype, Kind.Uncloneable);
  }
}

/** Serializable platform interfaces (HTML [Serializable]) looked up on globalThis. Cloned by the runtime. */
export const PLATFORM_NAMES = [
  'Blob', 'File', 'FileList', 'ImageData', 'ImageBitmap', 'DOMException', 'DOMMatrix', 'DOMMatrixReadOnly', 'DOMPoint',
  'DOMPointReadOnly', 'DOMRect', 'DOMRectReadOnly', 'DOMQuad', 'CryptoKey', 'RTCCertificate', 'RTCEncodedAudioFrame',
  'RTCEncodedVideoFrame', 'VideoFrame', 'AudioData', 'EncodedAudioChunk', 'EncodedVideoChunk', 'FileSystemHandle',
  'FileSystemFileHandle', 'FileSystemDirectoryHandle', 'GPUCompilationMessage', 'GPUCompilationInfo', 'MediaSourceHandle',
  'MessagePort', 'ReadableStream', 'WritableStream', 'TransformStream', 'OffscreenCanvas', 'Request', 'Response', 'Headers',
  'URL', 'URLSearchParams', 'FormData', 'AbortSignal', 'AbortController', 'Event', 'EventTarget', 'TextEncoder', 'TextDecoder',
];
for (const n of PLATFORM_NAMES) {
  const c = ctor(n);
  // only interfaces that are not plain JS classes to structuredClone are "platform" here: decided at first use
  if (c && c.prototype) addProto(c.prototype, Kind.Platform);
}
/** Registers a class whose instances the runtime clones natively (or refuses), e.g. Node's `BlockList`. */
export function registerPlatformClass(c: { prototype: object }): void {
  addProto(c.prototype, Kind.Platform);
}

function brand(k: Kind, o: object): boolean {
  try {
    switch (k) {
      case Kind.Date: dateGetTime.call(o); return true;
      case Kind.RegExp: if (o === RegExp.prototype) return false; reGlobal.call(o); return true;
      case Kind.Map: mapSize.call(o); return true;
      case Kind.Set: setSize.call(o); return true;
      case Kind.ArrayBuffer: abByteLength.call(o); return true;
      case Kind.SharedArrayBuffer: sabByteLength!.call(o); return true;
      case Kind.Error: return toStr.call(o) === '[object Error]';
      case Kind.BooleanObject: boolValueOf.call(o); return true;
      case Kind.NumberObject: numValueOf.call(o); return true;
      case Kind.StringObject: strValueOf.call(o); return true;
      case Kind.BigIntObject: bigintValueOf.call(o); return true;
      case Kind.Uncloneable:
        if (o === Symbol.prototype) return false;
        if (getProto(o) === Symbol.prototype) { symValueOf.call(o); return true; }
        return true; // decided by prototype (a brand check could run user-visible side effects)
      default: return true;
    }
  } catch {
    return false;
  }
}

/**
 * The kind of a non-null object that is not a function. Arrays and plain objects are answered first (fast path).
 */
export function classify(o: object): Kind {
  if (isProxyFn !== null && isProxyFn(o)) return Kind.Uncloneable;
  if (isArray(o)) return Kind.Array;
  const p = getProto(o);
  if (p === ObjectProto || p === null) {
    // arguments objects, module namespaces, the global object: exotic or internal-slot objects with an ordinary prototype
    if (hasOwn.call(o, 'callee') && toStr.call(o) === '[object Arguments]') return Kind.Uncloneable;
    if (p === null && (o as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module' && toStr.call(o) === '[object Module]') return Kind.Uncloneable;
    return Kind.Plain;
  }
  return classifySlow(o, p);
}

function classifySlow(o: object, p: object): Kind {
  if (o === globalThis) return Kind.Uncloneable;
  if (ArrayBuffer.isView(o)) return Kind.View;
  for (let q: object | null = p; q !== null; q = getProto(q)) {
    const k = protoKinds.get(q);
    if (k !== undefined) {
      if (k === Kind.Platform) return Kind.Platform;
      return brand(k, o) ? k : Kind.Ordinary;
    }
  }
  return Kind.Ordinary;
}

// ---- buffers and views ----

export function isDetached(buf: object): boolean {
  if (abDetached !== undefined) return abDetached.call(buf) === true;
  if ((abByteLength.call(buf) as number) !== 0) return false;
  try {
    abSlice.call(buf, 0, 0);
    return false;
  } catch {
    return true;
  }
}
export function isResizable(buf: object): boolean {
  return abResizable !== undefined && abResizable.call(buf) === true;
}
export function maxByteLength(buf: object): number {
  return abMaxByteLength !== undefined ? (abMaxByteLength.call(buf) as number) : (abByteLength.call(buf) as number);
}

const u8slice = Uint8Array.prototype.slice;
/**
 * A new ArrayBuffer holding b[start, end). (Node's Buffer#slice shares memory, so the intrinsic
 * Uint8Array.prototype.slice is used, whatever the subclass.)
 */
export function copyBytes(b: Uint8Array, start: number, end: number): ArrayBuffer {
  return u8slice.call(b, start, end).buffer as ArrayBuffer;
}

/** Copies the bytes of an ArrayBuffer into a new one (same resizability and max length). No species lookups. */
export function copyArrayBuffer(buf: ArrayBuffer): ArrayBuffer {
  const len = abByteLength.call(buf) as number;
  const out = isResizable(buf)
    ? new (ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer)(len, { maxByteLength: maxByteLength(buf) })
    : new ArrayBuffer(len);
  if (len > 0) new Uint8Array(out).set(new Uint8Array(buf, 0, len));
  return out;
}

export interface ViewInfo {
  /** constructor name: Int8Array ... BigUint64Array, Float16Array, DataView */
  name: string;
  buffer: ArrayBuffer;
  byteOffset: number;
  byteLength: number;
  lengthTracking: boolean;
  backedByRab: boolean;
  elementSize: number;
}

export const ELEMENT_SIZE: Record<string, number> = {
  Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1, Int16Array: 2, Uint16Array: 2, Int32Array: 4, Uint32Array: 4,
  Float16Array: 2, Float32Array: 4, Float64Array: 8, BigInt64Array: 8, BigUint64Array: 8, DataView: 1,
};

/**
 * Reads a view's layout. Returns null when the view is out of bounds or its buffer is detached (DataCloneError) or
 * its buffer is shared (the caller decides).
 */
export function viewInfo(v: object): ViewInfo | null | 'shared' {
  const name = taTag.call(v) as string | undefined;
  let buffer: ArrayBuffer;
  let byteOffset: number;
  let byteLength: number;
  let elementSize: number;
  if (name !== undefined) {
    buffer = taBuffer.call(v) as ArrayBuffer;
    if (!(protoKindOfBuffer(buffer) === Kind.ArrayBuffer)) return 'shared';
    if (isDetached(buffer)) return null;
    if (isResizable(buffer) && taAt !== undefined) {
      try { taAt.call(v, 0); } catch { return null; } // ValidateTypedArray: out of bounds
    }
    byteOffset = taByteOffset.call(v) as number;
    byteLength = taByteLength.call(v) as number;
    elementSize = ELEMENT_SIZE[name] ?? 1;
  } else {
    buffer = dvBuffer.call(v) as ArrayBuffer;
    if (!(protoKindOfBuffer(buffer) === Kind.ArrayBuffer)) return 'shared';
    if (isDetached(buffer)) return null;
    try {
      byteOffset = dvByteOffset.call(v) as number;
      byteLength = dvByteLength.call(v) as number;
    } catch {
      return null; // out of bounds
    }
    elementSize = 1;
  }
  const rab = isResizable(buffer);
  return { name: name ?? 'DataView', buffer, byteOffset, byteLength, lengthTracking: rab && isLengthTracking(v, name, buffer, byteOffset, elementSize), backedByRab: rab, elementSize };
}

function protoKindOfBuffer(b: object): Kind {
  try {
    abByteLength.call(b);
    return Kind.ArrayBuffer;
  } catch {
    return Kind.SharedArrayBuffer;
  }
}

function viewByteLength(v: object, isTA: boolean): number {
  try {
    return (isTA ? taByteLength.call(v) : dvByteLength.call(v)) as number;
  } catch {
    return -1;
  }
}

/**
 * Whether a view on a resizable buffer tracks the buffer's length. JavaScript has no getter for this, so the buffer
 * is resized by one element and back (synchronously; bytes are restored), and the view's length is watched.
 */
function isLengthTracking(v: object, name: string | undefined, buf: ArrayBuffer, byteOffset: number, es: number): boolean {
  if (abResize === undefined) return false;
  const isTA = name !== undefined;
  const len = abByteLength.call(buf) as number;
  const before = viewByteLength(v, isTA);
  if (byteOffset + before !== len) return false; // a tracking view always ends at the buffer's end
  const max = maxByteLength(buf);
  if (len + es <= max) {
    abResize.call(buf, len + es);
    const after = viewByteLength(v, isTA);
    abResize.call(buf, len);
    return after === before + es;
  }
  if (len - es >= byteOffset) {
    const tail = new Uint8Array(buf, len - es, es).slice();
    abResize.call(buf, len - es);
    const after = viewByteLength(v, isTA);
    abResize.call(buf, len);
    new Uint8Array(buf, len - es, es).set(tail);
    return after === before - es;
  }
  // an empty view at the very end of a buffer that can neither grow nor shrink by an element: probe by one byte
  if (len < max) {
    abResize.call(buf, len + 1);
    const after = viewByteLength(v, isTA);
    abResize.call(buf, len);
    return !isTA && after === before + 1;
  }
  return false;
}

export const VIEW_CTORS: Record<string, (new (b: ArrayBuffer, off: number, len?: number) => object) | undefined> = {};
for (const n of Object.keys(ELEMENT_SIZE)) VIEW_CTORS[n] = ctor(n) as unknown as (new (b: ArrayBuffer, off: number, len?: number) => object) | undefined;

/**
 * An empty array of length `len` whose memory does not grow with `len` (SC-L-04): setting a length of up to 2^25
 * directly makes V8 allocate every hole (256 MB for a 6-byte `a` tag), while a length above that makes dictionary
 * elements, which a shorter length keeps. Lengths up to `fill` (the elements that can really come) are set directly
 * and keep fast elements.
 */
export function sparseArray(len: number, fill: number): unknown[] {
  const a: unknown[] = [];
  if (len > fill) a.length = 0xffffffff;
  a.length = len;
  return a;
}

/** Builds a view over `buffer` (length-tracking when asked: no length argument). */
export function makeView(name: string, buffer: ArrayBuffer, byteOffset: number, byteLength: number, lengthTracking: boolean): object | undefined {
  const C = VIEW_CTORS[name];
  if (C === undefined) return undefined;
  const es = ELEMENT_SIZE[name] ?? 1;
  return lengthTracking ? new C(buffer, byteOffset) : new C(buffer, byteOffset, byteLength / es);
}

export const ERROR_NAMES = ['EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError'];
export const ERROR_CTORS: Record<string, ErrorConstructor> = {
  Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
};

/** Builds an Error like V8's deserializer: constructor by name, own message/cause/stack, no stack capture. */
export function makeError(name: string, hasMessage: boolean, message: string, hasCause: boolean, cause: unknown, stack: unknown): Error {
  const C = ERROR_CTORS[name] ?? Error;
  const E = Error as unknown as { stackTraceLimit?: number };
  const limit = E.stackTraceLimit;
  let e: Error;
  try {
    if (limit !== undefined) E.stackTraceLimit = 0;
    e = hasCause ? new (C as unknown as new (m?: string, o?: object) => Error)(hasMessage ? message : undefined, { cause }) : hasMessage ? new C(message) : new C();
  } finally {
    if (limit !== undefined) E.stackTraceLimit = limit;
  }
  Object.defineProperty(e, 'stack', { value: stack, writable: true, enumerable: false, configurable: true });
  return e;
}

/** Records that the runtime clones instances of this object's platform interface as ordinary objects. */
export function markOrdinary(o: object): void {
  for (let q: object | null = getProto(o); q !== null; q = getProto(q)) {
    if (protoKinds.get(q) === Kind.Platform) {
      protoKinds.set(q, Kind.Ordinary);
      return;
    }
  }
}
