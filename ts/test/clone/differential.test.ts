// Differential property test, fixed seed: random value graphs (every supported type, cycles, shared references,
// holes, lone surrogates, -0, NaN, big and small numbers) checked against Node's own V8:
//   v8.deserialize(serialize(x))  ≡ x        (our bytes read by V8)
//   deserialize(raw V8 bytes of x) ≡ x       (V8's bytes read by us; raw = new v8.Serializer(), what postMessage writes)
//   deserialize(v8.serialize(x))  ≡ x        (Node host-object dialect; for graphs whose views do not share buffers)
//   clone(x)                      ≡ structuredClone(x), including which inputs throw and with what
// "≡" compares neutral descriptions (vectors/SCHEMA.md), which include the identity structure (ids and refs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { clone } from '../../src/clone/clone.js';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize } from '../../src/clone/deserialize.js';
import { describe as neutral, type Neutral } from '../../testee/neutral.js';

const SEED = 0x5eed2026n;
const CASES = Number(process.env.FORMWIRE_DIFF_CASES ?? 3000);

function rng(seed: bigint): () => number {
  let s = seed;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  };
}

class Gen {
  r: () => number;
  pool: object[] = [];
  buffers: ArrayBuffer[] = [];
  views = 0;
  sharedBuffer = false;
  uncloneable = false;
  constructor(seed: bigint) { this.r = rng(seed); }
  int(n: number): number { return Math.floor(this.r() * n); }
  pick<T>(a: readonly T[]): T { return a[this.int(a.length)]!; }

  number(): number {
    return this.pick([
      () => 0, () => -0, () => NaN, () => Infinity, () => -Infinity, () => this.int(100), () => -this.int(1000),
      () => 2 ** 31, () => -(2 ** 31), () => 2 ** 31 - 1, () => 2 ** 53 + 2, () => Number.MIN_VALUE, () => Number.MAX_VALUE,
      () => (this.r() - 0.5) * 1e6, () => 5e-324 * this.int(10), () => 1.5,
    ])();
  }
  string(): string {
    const n = this.pick([0, 1, 2, 5, 11, 20, 40, 70, 300]);
    const alphabet = this.pick([
      [0x61, 0x7a], [0x20, 0x7e], [0x80, 0xff], [0x00, 0x1f], [0x100, 0x7ff], [0x4e00, 0x4e40], [0xd800, 0xdfff],
    ] as Array<[number, number]>);
    let s = '';
    for (let i = 0; i < n; i++) {
      const k = this.int(20);
      if (k === 0) s += '😀';
      else if (k === 1) s += String.fromCharCode(0xd800 + this.int(0x800)); // lone surrogate
      else s += String.fromCharCode(alphabet[0] + this.int(alphabet[1] - alphabet[0] + 1));
    }
    return s;
  }
  bigint(): bigint {
    const digits = this.int(40);
    let v = 0n;
    for (let i = 0; i < digits; i++) v = v * 10n + BigInt(this.int(10));
    return this.int(2) ? -v : v;
  }
  primitive(): unknown {
    switch (this.int(8)) {
      case 0: return undefined;
      case 1: return null;
      case 2: return this.int(2) === 0;
      case 3: case 4: return this.number();
      case 5: case 6: return this.string();
      default: return this.bigint();
    }
  }
  key(): string {
    return this.pick([
      () => this.pick(['a', 'b', 'name', 'age', 'active', 'x', 'length', '__proto__', 'constructor', '']),
      () => String(this.int(20)), () => String(2 ** 32 + this.int(3) - 2), () => '-1', () => '1.5', () => this.string(),
      () => this.adversarialKey(), () => this.adversarialKey(),
    ])();
  }
  /**
   * Keys that caches and key encodings get wrong (issue #13): NUL and other control characters (a NUL-joined key list
   * once confused one key "a\0b" with the keys a, b), prototype names, integer-like keys at and around the array-index
   * bound and ones that are not canonical integers, lone surrogates, long keys, keys that are joins of others.
   */
  adversarialKey(): string {
    return this.pick([
      () => this.pick(['a\u0000b', 'b\u0000a', 'a\u0000', '\u0000a', '\u0000', 'a\u0001b', 'a\tb', '\u001f', '\u007f', 'ab', 'a,b']),
      () => this.pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__']),
      () => this.pick(['0', '1', '4294967294', '4294967295', '4294967296', '-0', '01', '00', '9007199254740991', '9007199254740992', '1e3', ' 1']),
      () => this.pick(['\ud800', '\udfff', 'a\udc00', '\ud83d\ude00', '\ud83d', 'é', 'ÿ', '\u0100']),
      () => 'k'.repeat(this.pick([127, 128, 129, 255, 256, 5000])),
      () => String.fromCharCode(this.int(32)) + this.pick(['', 'a', 'b']),
    ])();
  }
  /**
   * Key lists from one small family, so that many objects of one run (and of the runs before: the caches live for
   * the process) have lists that are prefixes, extensions and NUL-joins of each other.
   */
  keyList(): string[] {
    return this.pick([
      ['a', 'b'], ['a\u0000b'], ['a', 'b', 'c'], ['a'], ['a\u0000b', 'c'], ['a', 'b\u0000c'], ['a\u0000b\u0000c'], [''], [],
      ['b', 'a'], ['__proto__', 'a'], ['a', '__proto__'], ['0', 'a'], ['4294967295', 'a'], ['a', '01'], ['\ud800', 'a'],
    ]);
  }
  buffer(): ArrayBuffer {
    if (this.buffers.length && this.int(3) === 0) {
      this.sharedBuffer = true;
      return this.pick(this.buffers);
    }
    const n = this.int(5) * 8;
    const b = this.int(4) === 0
      ? new (ArrayBuffer as unknown as new (n: number, o: object) => ArrayBuffer)(n, { maxByteLength: n + 8 * this.int(4) })
      : new ArrayBuffer(n);
    const u = new Uint8Array(b);
    for (let i = 0; i < n; i++) u[i] = this.int(256);
    this.buffers.push(b);
    return b;
  }
  view(): object {
    this.views++;
    const buf = this.buffer();
    const names = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
      'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView'];
    const name = this.pick(names);
    const C = (globalThis as unknown as Record<string, new (b: ArrayBuffer, o: number, l?: number) => object>)[name]!;
    const es = name === 'DataView' ? 1 : (C as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    const len = buf.byteLength;
    const off = Math.floor(this.int(len + 1) / es) * es;
    const resizable = (buf as { resizable?: boolean }).resizable === true;
    if (resizable && this.int(2) === 0) return new C(buf, off); // length-tracking
    const count = Math.floor(this.int(len - off + 1) / es);
    return new C(buf, off, name === 'DataView' ? count * es : count);
  }
  value(depth: number): unknown {
    if (depth > 4 || this.int(3) === 0) return this.primitive();
    if (this.pool.length && this.int(8) === 0) return this.pick(this.pool); // shared reference or cycle
    const k = this.int(22);
    let o: object;
    switch (k) {
      case 0: case 1: case 2: {
        const r: Record<string, unknown> = {};
        this.pool.push(r);
        const n = this.int(6);
        for (let i = 0; i < n; i++) {
          const key = this.key();
          if (key === '__proto__') Object.defineProperty(r, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
          else r[key] = this.value(depth + 1);
        }
        return r;
      }
      case 3: case 4: {
        const n = this.int(8);
        const a: unknown[] = [];
        this.pool.push(a);
        for (let i = 0; i < n; i++) a.push(this.value(depth + 1));
        if (this.int(4) === 0 && n) delete a[this.int(n)]; // hole
        if (this.int(5) === 0) a.length = n + this.int(4); // trailing holes
        if (this.int(6) === 0) (a as unknown as Record<string, unknown>)[this.pick(['x', 'foo', '-1'])] = this.value(depth + 1);
        return a;
      }
      case 5: {
        // array of same-shape flat objects (the shape-cache path); half of the time with key lists that a cache
        // keyed by a join would confuse, runs of one list and then another
        const n = 1 + this.int(12);
        const a = [];
        if (this.int(2) === 0) {
          for (let i = 0; i < n; i++) a.push({ name: this.string(), age: this.number(), active: this.int(2) === 0 });
          return a;
        }
        let keys = this.keyList();
        for (let i = 0; i < n; i++) {
          if (this.int(4) === 0) keys = this.keyList();
          const o: Record<string, unknown> = {};
          for (const k of keys) {
            const v = this.int(4) === 0 ? this.value(depth + 2) : this.primitive();
            if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
            else o[k] = v;
          }
          a.push(o);
        }
        return a;
      }
      case 6: {
        const m = new Map();
        this.pool.push(m);
        for (let i = this.int(4); i > 0; i--) m.set(this.int(2) ? this.primitive() : this.value(depth + 1), this.value(depth + 1));
        return m;
      }
      case 7: {
        const s = new Set();
        this.pool.push(s);
        for (let i = this.int(4); i > 0; i--) s.add(this.int(2) ? this.primitive() : this.value(depth + 1));
        return s;
      }
      case 8: o = new Date(this.pick([0, -0, 8.64e15, -8.64e15, NaN, 1.5e12 + this.int(1e6)])); break;
      case 9: o = new RegExp(this.pick(['a+', '', '/', '\n', '[\u00e9-\u00ff]', '\\d{2}', '\ud83d\ude00']), this.pick(['', 'g', 'gimsuyd', 'y', 'v', 'dgi'])); break;
      case 10: o = Object(this.primitive() ?? 1) as object; break;
      case 11: o = this.buffer(); break;
      case 12: case 13: o = this.view(); break;
      case 14: {
        const C = this.pick([Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]);
        const e = this.int(3) ? new C(this.string()) : new C();
        if (this.int(2)) e.stack = this.int(2) ? this.string() : (undefined as unknown as string);
        if (this.int(3) === 0) Object.defineProperty(e, 'cause', { value: this.value(depth + 1), writable: true, configurable: true });
        if (this.int(5) === 0) e.name = this.pick(['RangeError', 'Custom', 'TypeError']);
        o = e;
        break;
      }
      case 15: {
        // class instance and a getter: prototype dropped, getter result cloned
        class P { x = 1; }
        const p = new P() as P & Record<string, unknown>;
        Object.defineProperty(p, 'g', { get: () => 42, enumerable: true });
        o = p;
        break;
      }
      case 16: o = Object.create(null, { a: { value: this.primitive(), enumerable: true } }); break;
      case 17: {
        if (this.int(4) === 0) {
          this.uncloneable = true;
          return this.pick([() => () => 1, () => Symbol('s'), () => new WeakMap(), () => Promise.resolve(), () => new Proxy({}, {})])();
        }
        return this.primitive();
      }
      default: return this.primitive();
    }
    this.pool.push(o);
    return o;
  }
}

const raw = (v: unknown): Buffer => {
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(v);
  return s.releaseBuffer();
};
const show = (n: unknown): string => JSON.stringify(n).slice(0, 400);
type Outcome = { value: Neutral } | { error: string };

/**
 * An empty view at the end of a resizable buffer already at its maximum length: whether it tracks the buffer's
 * length cannot be observed from JavaScript (the buffer can neither grow nor shrink by an element under it), so
 * clone and serialize record it as fixed-length while V8 knows. The description (V8's answer) is set to fixed-length
 * for such views on both sides of each comparison.
 */
function unprobeable(root: Neutral): Neutral {
  const maxById = new Map<unknown, unknown>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) return x.forEach(walk);
    if (!x || typeof x !== 'object') return;
    const n = x as Neutral;
    if (n.t === 'arraybuffer') maxById.set(n.id, n.max_byte_length);
    for (const v of Object.values(n)) walk(v);
    if (n.t === 'view' && n.byte_length === 0 && n.length_tracking) {
      const buf = n.buffer as Neutral;
      const max = buf.t === 'ref' ? maxById.get(buf.id) : buf.max_byte_length;
      if (n.byte_offset === max) n.length_tracking = false;
    }
  };
  walk(root);
  return root;
}
function outcome(f: () => unknown): Outcome {
  try {
    return { value: unprobeable(neutral(f())) };
  } catch (e) {
    const err = e as { name?: string; code?: unknown };
    return { error: `${err.name}:${typeof err.code === 'number' ? err.code : ''}` };
  }
}

test(`differential: ${CASES} random values (seed ${SEED})`, () => {
  const failures: string[] = [];
  let throwing = 0;
  for (let i = 0; i < CASES && failures.length < 10; i++) {
    const g = new Gen(SEED + BigInt(i));
    const x = g.value(0);
    // clone vs structuredClone (values and errors)
    const a = outcome(() => clone(x));
    const b = outcome(() => structuredClone(x));
    if (JSON.stringify(a) !== JSON.stringify(b)) failures.push(`#${i} clone ${show(a)}\n   structuredClone ${show(b)}`);
    if ('error' in b) {
      throwing++;
      // serialize refuses the same inputs (FormwireError SC_DATA_CLONE) where V8 refuses them
      let code: unknown;
      try { serialize(x); } catch (e) { code = (e as { code?: unknown }).code; }
      if (b.error.startsWith('DataCloneError') && code !== 'SC_DATA_CLONE') failures.push(`#${i} serialize did not refuse (${String(code)})`);
      continue;
    }
    const want = b.value;
    const ours = serialize(x);
    const viaV8 = outcome(() => v8.deserialize(ours));
    if (JSON.stringify(viaV8) !== JSON.stringify({ value: want })) failures.push(`#${i} v8.deserialize(serialize(x)) ${show(viaV8)}\n   want ${show(want)}`);
    const fromRaw = outcome(() => deserialize(raw(x)));
    if (JSON.stringify(fromRaw) !== JSON.stringify({ value: want })) failures.push(`#${i} deserialize(raw v8) ${show(fromRaw)}\n   want ${show(want)}`);
    const back = outcome(() => deserialize(ours));
    if (JSON.stringify(back) !== JSON.stringify({ value: want })) failures.push(`#${i} deserialize(serialize(x)) ${show(back)}`);
    if (g.views === 0 && g.buffers.length === 0) {
      const fromNode = outcome(() => deserialize(v8.serialize(x)));
      if (JSON.stringify(fromNode) !== JSON.stringify({ value: want })) failures.push(`#${i} deserialize(v8.serialize(x)) ${show(fromNode)}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(throwing > 0 && throwing < CASES / 2, `uncloneable inputs seen: ${throwing}`);
});

test('differential: Node host-object views (v8.serialize) read as their bytes', () => {
  const g = new Gen(SEED);
  for (let i = 0; i < 300; i++) {
    const v = g.view() as ArrayBufferView;
    if ((v.buffer as { resizable?: boolean }).resizable) continue; // v8.serialize copies only the view's bytes
    const got = deserialize(v8.serialize(v)) as ArrayBufferView;
    assert.equal(Object.getPrototypeOf(got), Object.getPrototypeOf(v));
    assert.deepEqual(new Uint8Array(got.buffer, got.byteOffset, got.byteLength), new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  }
  const buf = Buffer.from('héllo');
  const got = deserialize(v8.serialize(buf)) as Uint8Array;
  assert.equal(Object.getPrototypeOf(got), Uint8Array.prototype);
  assert.deepEqual([...got], [...buf]);
});
