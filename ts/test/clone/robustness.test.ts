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
