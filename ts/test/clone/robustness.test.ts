// Robustness of the clone codec (issue #13): inputs and options that once corrupted data or threw an uncoded error.
// Each test is a regression test: it failed on the code before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { clone } from '../../src/clone/clone.js';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize } from '../../src/clone/deserialize.js';
import { factoryFor } from '../../src/clone/shapes.js';

const show = (x: unknown): string => JSON.stringify(x);

// The three ways an object goes through a shape cache: clone(), our decoder reading Node's bytes, and ours.
const WAYS: Array<[string, (x: unknown) => unknown]> = [
  ['clone', (x) => clone(x)],
  ['deserialize(v8.serialize)', (x) => deserialize(v8.serialize(x))],
  ['deserialize(serialize)', (x) => deserialize(serialize(x))],
];

// Key lists that a NUL join cannot tell apart: one key "a\0b" against the keys a, b; [] against [""]; and key lists
// that are joins or prefixes of each other. Each batch runs with the cache warmed by the batch before it.
test('shape caches: key lists that join alike stay apart (warm cache, both orders)', () => {
  for (const [way, f] of WAYS) {
    for (const [tag, first, second] of [
      ['ab', (i: number) => ({ [`${way}a`]: i, b: i + 1 }), (i: number) => ({ [`${way}a\u0000b`]: i })],
      ['ba', (i: number) => ({ [`${way}c\u0000d`]: i }), (i: number) => ({ [`${way}c`]: i, d: i + 1 })],
      ['3', (i: number) => ({ [`${way}e`]: i, 'f\u0000g': 1 }), (i: number) => ({ [`${way}e\u0000f`]: i, g: 2 })],
      ['pre', (i: number) => ({ [`${way}h`]: i, k: 1, l: 2 }), (i: number) => ({ [`${way}h`]: i, k: 1 })],
    ] as Array<[string, (i: number) => object, (i: number) => object]>) {
      for (const make of [first, second, first]) {
        for (let i = 0; i < 5; i++) {
          const x = make(i);
          assert.equal(show(f(x)), show(x), `${way} ${tag} #${i}`);
          assert.deepEqual(Object.keys(f(x) as object), Object.keys(x), `${way} ${tag} #${i} keys`);
        }
      }
    }
    for (let i = 0; i < 4; i++) {
      assert.equal(show(f([{}, { '': i }, {}, { '': i }])), show([{}, { '': i }, {}, { '': i }]), `${way} [] and [""]`);
    }
  }
});

test('factoryFor: one factory per key list, not per joined signature', () => {
  const two = factoryFor(['x', 'y']);
  const one = factoryFor(['x\u0000y']);
  const again = factoryFor(['x', 'y']);
  if (two === null || one === null || again === null) return assert.fail('code generation is available under node --test');
  assert.deepEqual(Object.keys(one([7], 0)), ['x\u0000y']);
  assert.deepEqual(Object.keys(two([7, 8], 0)), ['x', 'y']);
  assert.deepEqual(Object.keys(again([7, 8], 0)), ['x', 'y']);
});

const H = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s/g, ''), 'hex'));
function codeOf(f: () => unknown): { code?: unknown; offset?: unknown; name?: string; formwireCode?: unknown } | 'ok' {
  try {
    f();
    return 'ok';
  } catch (e) {
    const x = e as { code?: unknown; offset?: unknown; name?: string; formwireCode?: unknown };
    return { code: x.code, offset: x.offset, name: x.name, formwireCode: x.formwireCode };
  }
}

// SC-D-06, SC-L-02: V8 reads a `?` prefix's count and goes on; 4,000 of them (8 KB) once overflowed our stack.
test('4,000 and 1,000,000 `?` verify-count prefixes are read in a loop, as v8.deserialize reads them', () => {
  for (const n of [4000, 1_000_000]) {
    const b = new Uint8Array(2 + 2 * n + 2);
    b[0] = 0xff;
    b[1] = 15;
    for (let i = 0; i < n; i++) {
      b[2 + 2 * i] = 0x3f; // '?'
      b[3 + 2 * i] = i & 0x7f; // its count (ignored)
    }
    b[2 + 2 * n] = 0x49; // 'I' 21
    b[3 + 2 * n] = 42;
    if (n <= 4000) assert.equal(v8.deserialize(b), 21, `${n}: node`); // V8 recurses: 10^6 overflows Node's stack
    assert.equal(deserialize(b), 21, `${n}: ours`);
    // prefixes before an object's values and keys too, with padding between
    const o = H('ff0f 6f 3f01 00 2201 61 3f02 3f03 00 4902 7b01');
    assert.deepEqual(v8.deserialize(o), { a: 1 });
    assert.deepEqual(deserialize(o), { a: 1 });
  }
});

/** `depth` nested dense arrays, innermost empty: `A 01` x depth-1, `A 00 $ 00 00`, `$ 00 01` x depth-1. */
function nestedBytes(depth: number): Uint8Array {
  const b = new Uint8Array(2 + 2 * depth + 3 * depth);
  b[0] = 0xff;
  b[1] = 15;
  let p = 2;
  for (let i = 0; i < depth; i++) {
    b[p++] = 0x41;
    b[p++] = i === depth - 1 ? 0 : 1;
  }
  for (let i = 0; i < depth; i++) {
    b[p++] = 0x24;
    b[p++] = 0;
    b[p++] = i === 0 ? 0 : 1;
  }
  return b;
}
function nested(depth: number): unknown {
  let x: unknown = [];
  for (let i = 1; i < depth; i++) x = [x];
  return x;
}

// Depth of a decoded chain of one-element arrays, without recursion.
function chainDepth(x: unknown): number {
  let d = 0;
  for (let v = x; Array.isArray(v); v = v[0]) d++;
  return d;
}

// SC-L-02/03: a raised or unlimited maxDepth is still bounded by the stack, as a coded SC_LIMIT_DEPTH, never the
// engine's bare RangeError. How deep the stack reaches is the engine's: JavaScriptCore (Bun) holds 20,000 levels where
// Node's V8 does not, so a depth the stack held must come back whole instead.
test('deserialize: depth 20,000 and 1,000,000 with maxDepth raised or unlimited is SC_LIMIT_DEPTH', () => {
  for (const depth of [20_000, 1_000_000]) {
    const b = nestedBytes(depth);
    for (const maxDepth of [Infinity, 1e6, 2e6, null]) {
      let value: unknown;
      const got = codeOf(() => (value = deserialize(b, { maxDepth })));
      if (got === 'ok') {
        assert.equal(chainDepth(value), depth, `${depth} ${maxDepth}: decoded whole`);
        continue;
      }
      assert.equal(got.code, 'SC_LIMIT_DEPTH', `${depth} ${maxDepth}`);
      // at an `A` tag: the container where the stack ran out
      assert.equal(b[got.offset as number], 0x41, `${depth} ${maxDepth}: offset ${String(got.offset)}`);
      assert.ok((got.offset as number) > 2 * 100 && (got.offset as number) < 2 + 2 * depth);
    }
    // the declared limit still applies where it is lower than the stack's
    assert.deepEqual(codeOf(() => deserialize(b, { maxDepth: 100 })), { code: 'SC_LIMIT_DEPTH', offset: 2 + 2 * 100, name: 'FormwireError', formwireCode: undefined });
  }
  // a depth the stack holds is read whole
  assert.equal(JSON.stringify(deserialize(nestedBytes(500), { maxDepth: Infinity })), JSON.stringify(nested(500)));
});

test('serialize: depth 20,000 and 1,000,000 with maxDepth raised or unlimited is SC_LIMIT_DEPTH', () => {
  for (const depth of [20_000, 1_000_000]) {
    const x = nested(depth);
    for (const maxDepth of [Infinity, 1e6, 2e6, null]) {
      const got = codeOf(() => serialize(x, { maxDepth }));
      assert.notEqual(got, 'ok');
      if (got !== 'ok') assert.equal(got.code, 'SC_LIMIT_DEPTH', `${depth} ${maxDepth}`);
    }
  }
  // and the encoder is still usable afterwards
  assert.equal(Buffer.from(serialize([[1]])).toString('hex'), Buffer.from(v8raw([[1]])).toString('hex'));
});

test('clone: depth 20,000 and 1,000,000 (default unlimited, raised) is a RangeError with formwireCode SC_LIMIT_DEPTH', () => {
  for (const depth of [20_000, 1_000_000]) {
    const x = nested(depth);
    // structuredClone throws a RangeError here too
    assert.equal((codeOf(() => structuredClone(x)) as { name?: string }).name, 'RangeError');
    for (const options of [undefined, { maxDepth: Infinity }, { maxDepth: 1e6 }, { maxDepth: null }]) {
      const got = codeOf(() => clone(x, options));
      assert.notEqual(got, 'ok');
      if (got === 'ok') continue;
      assert.equal(got.name, 'RangeError', `${depth} ${JSON.stringify(options)}`);
      assert.equal(got.formwireCode, 'SC_LIMIT_DEPTH', `${depth} ${JSON.stringify(options)}`);
    }
    const low = codeOf(() => clone(x, { maxDepth: 50 }));
    assert.notEqual(low, 'ok');
    if (low !== 'ok') assert.equal(low.formwireCode, 'SC_LIMIT_DEPTH');
  }
  assert.equal(JSON.stringify(clone(nested(500))), JSON.stringify(nested(500)));
});

function v8raw(x: unknown): Uint8Array {
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(x);
  return new Uint8Array(s.releaseBuffer());
}

// SC-L-05 with the shape caches warm: the fast paths read values without counting them, so counting turns them off.
test('maxValues counts the values of objects that the shape caches know', () => {
  const x = Array.from({ length: 5 }, (_, i) => ({ mvA: i, mvB: i + 1 }));
  const bytes = v8raw(x);
  for (let i = 0; i < 3; i++) assert.deepEqual(deserialize(bytes), x); // warm: predicted and generated readers
  const total = 1 + 5 * 3; // the array, each object, each property value
  assert.deepEqual(deserialize(bytes, { maxValues: total }), x);
  assert.deepEqual(deserialize(bytes, { maxValues: null }), x);
  const last = bytes.lastIndexOf(0x49); // the tag of the last value: the last object's mvB
  assert.deepEqual(codeOf(() => deserialize(bytes, { maxValues: total - 1 })), { code: 'SC_LIMIT_VALUES', offset: last, name: 'FormwireError', formwireCode: undefined });
  const ours = serialize(x);
  assert.equal(codeOf(() => deserialize(ours, { maxValues: total - 1 })) !== 'ok', true);
  assert.deepEqual(deserialize(ours, { maxValues: total }), x);
  // a BigInt one byte over the limit, at its tag, before its digits
  assert.deepEqual(codeOf(() => deserialize(v8raw([2n ** 64n]), { maxBigintBytes: 8 })), { code: 'SC_LIMIT_BIGINT', offset: 4, name: 'FormwireError', formwireCode: undefined });
  assert.equal(deserialize(v8raw(2n ** 63n), { maxBigintBytes: 8 }), 2n ** 63n);
});

// SC-L-04: a sparse array's declared length allocates nothing. Setting a length of up to 2^25 on an array makes V8
// allocate every hole: 6 bytes of input once took 256 MB and 0.7 s (found by ts/fuzz), and clone() of such an array
// the same.
test('a sparse length of 2^25 - 1 allocates no holes: deserialize and clone', () => {
  const bytes = H('ff0f 61 ffffff0f 40 00 ffffff0f');
  const heap = (): number => process.memoryUsage().heapUsed;
  let before = heap();
  const a = deserialize(bytes) as unknown[];
  assert.equal(a.length, 2 ** 25 - 1);
  assert.ok(heap() - before < 32e6, `deserialize: heap grew ${((heap() - before) / 1e6).toFixed(0)} MB`);
  a[7] = 'x';
  before = heap();
  const c = clone(a);
  assert.ok(heap() - before < 32e6, `clone: heap grew ${((heap() - before) / 1e6).toFixed(0)} MB`);
  assert.equal(c.length, 2 ** 25 - 1);
  assert.deepEqual(Object.keys(c), ['7']);
  // short sparse arrays keep their holes and elements
  const s = [1, , 3] as unknown[];
  s.length = 10;
  assert.deepEqual(Object.keys(deserialize(v8raw(s)) as object), ['0', '2']);
  assert.equal((deserialize(v8raw(s)) as unknown[]).length, 10);
  assert.equal(clone(s).length, 10);
});
