// clone() of arrays: the one-index-loop copy is taken only when the array's own enumerable keys are exactly
// "0" .. length-1 (kinds.ts arrayKeys, by Object.keys or, as on Bun, by a counting for-in), and a clone of any array
// (holes, non-enumerable indices, extra and inherited properties, other prototypes) is what HTML's structured clone
// makes of it: an Array of the same length holding the source's own enumerable keys, in order, with their values
// read by [[Get]]. Both ways of arrayKeys run on every runtime; the oracles are Object.keys, that rule applied to the
// source, and the runtime's structuredClone (not on Bun, whose structuredClone also copies non-enumerable indices),
// no node:v8, so this file runs on Bun and Deno too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clone } from '../../src/clone/clone.js';
import { arrayKeys } from '../../src/clone/kinds.js';

const indexKeys = (n: number): string[] => Array.from({ length: n }, (_, i) => String(i));

/** What arrayKeys must answer: null exactly when Object.keys is "0" .. len-1, else Object.keys. */
function expected(a: unknown[]): string[] | null {
  const keys = Object.keys(a);
  return JSON.stringify(keys) === JSON.stringify(indexKeys(a.length)) ? null : keys;
}

/**
 * What a value shows of itself: for an array its length, whether its prototype is Array.prototype, its own enumerable
 * keys in order with their values ([[Get]]); for another object its own enumerable keys and values.
 */
function shape(x: unknown): unknown {
  if (Array.isArray(x)) {
    return { length: x.length, arrayProto: Object.getPrototypeOf(x) === Array.prototype, own: Object.keys(x).map((k) => [k, shape((x as unknown as Record<string, unknown>)[k])]) };
  }
  if (typeof x === 'object' && x !== null) return { object: Object.keys(x).map((k) => [k, shape((x as Record<string, unknown>)[k])]) };
  return x;
}

/** The shape HTML's structured clone gives a source: its own shape, every array's prototype Array.prototype. */
function cloned(x: unknown): unknown {
  const fix = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fix);
    if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      return 'arrayProto' in o ? { ...o, arrayProto: true, own: fix(o.own) } : { object: fix(o.object) };
    }
    return v;
  };
  return fix(shape(x));
}

// Bun's structuredClone copies a non-enumerable array index too (HTML reads EnumerableOwnProperties), so there the
// oracle is the rule alone.
const nativeOracle = (globalThis as { Bun?: unknown }).Bun === undefined;

function check(a: unknown[], what: string): void {
  const want = expected(a);
  for (const byForIn of [false, true]) assert.deepEqual(arrayKeys(a, a.length, byForIn), want, `${what}: arrayKeys, for-in ${byForIn}`);
  const got = shape(clone(a));
  assert.deepEqual(got, cloned(a), `${what}: clone is HTML's structured clone`);
  if (nativeOracle) assert.deepEqual(got, shape(structuredClone(a)), `${what}: clone is structuredClone`);
}

function withProto<T>(target: object, key: PropertyKey, value: unknown, f: () => T): T {
  const had = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  try {
    return f();
  } finally {
    if (had) Object.defineProperty(target, key, had);
    else delete (target as Record<PropertyKey, unknown>)[key];
  }
}

test('arrays: packed, holes, non-enumerable indices and extra properties, alone and together', () => {
  const cases: [string, () => unknown[]][] = [
    ['empty', () => []],
    ['empty with a name', () => Object.assign([], { x: 1 })],
    ['packed', () => [1, 'a', null, undefined, { b: 2 }]],
    ['a hole', () => [1, , 3]],
    ['a trailing hole', () => [1, 2, ,]],
    ['all holes', () => new Array(5)],
    ['an extra name', () => Object.assign([1, 2], { x: 1 })],
    ['a hole and a name (as many keys as the length)', () => Object.assign([1, , 3], { x: 1 })],
    ['a trailing hole and a name', () => Object.assign([1, 2, ,], { x: 1 })],
    ['a name that looks like an index past the length', () => Object.assign([1, 2], { '-1': 1, '01': 2, '4294967295': 3 })],
    ['a non-enumerable last index', () => { const a = [1, 2, 3]; Object.defineProperty(a, 2, { value: 3, enumerable: false }); return a; }],
    ['a non-enumerable index and a name', () => { const a = [1, 2, 3]; Object.defineProperty(a, 1, { value: 2, enumerable: false }); return Object.assign(a, { x: 1 }); }],
    ['an enumerable getter index', () => { const a = [1, 2, 3]; Object.defineProperty(a, 1, { get: () => 'g', enumerable: true }); return a; }],
    ['a subclass', () => { class MyArray extends Array {} return MyArray.from([1, 2, 3]); }],
    ['a null prototype', () => Object.setPrototypeOf([1, 2], null) as unknown[]],
    ['an object prototype', () => Object.setPrototypeOf([1, 2], Object.prototype) as unknown[]],
    ['nested', () => [[1, , 3], Object.assign([4], { y: [5] })]],
  ];
  for (const [what, make] of cases) check(make(), what);
});

test('arrays: inherited enumerable properties (an index filling a hole, a name) never make a packed copy', () => {
  withProto(Array.prototype, 2, 'inherited', () => {
    check([1, 2, ,], 'Array.prototype[2] under a trailing hole');
    check([1, 2, 3], 'Array.prototype[2] under an own index');
    const a = [1, 2, 3];
    Object.defineProperty(a, 2, { value: 3, enumerable: false });
    check(a, 'Array.prototype[2] under a non-enumerable own index');
    check([1, 2, 3, 4], 'Array.prototype[2] under an array longer than it');
  });
  withProto(Array.prototype, 'zz', 1, () => check([1, 2, 3], 'an enumerable name on Array.prototype'));
  withProto(Object.prototype, 'zz', 1, () => check([1, 2, 3], 'an enumerable name on Object.prototype'));
  withProto(Object.prototype, 0, 'inherited', () => check([, 2], 'Object.prototype[0] under a hole'));
});

test('arrays: a Proxy in the prototype chain is never asked anything', () => {
  const asked: string[] = [];
  const handler: ProxyHandler<object> = {};
  for (const trap of ['ownKeys', 'getOwnPropertyDescriptor', 'has', 'get', 'getPrototypeOf'] as const) {
    (handler as Record<string, unknown>)[trap] = (...args: unknown[]) => {
      asked.push(trap);
      return (Reflect[trap] as (...a: unknown[]) => unknown)(...args);
    };
  }
  const a = Object.setPrototypeOf([1, 2, 3], new Proxy(Array.prototype, handler)) as unknown[];
  for (const byForIn of [false, true]) assert.equal(arrayKeys(a, 3, byForIn), null);
  const c = clone(a);
  assert.deepEqual([...c], [1, 2, 3]);
  assert.deepEqual(asked, []);
});

test('arrays: seeded random arrays of holes, names, non-enumerable and accessor indices, changed lengths', () => {
  let seed = 0x9e3779b9;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let c = 0; c < 3000; c++) {
    const n = rnd(8);
    const a: unknown[] = Array.from({ length: n }, (_, i) => i);
    const steps = rnd(4);
    for (let s = 0; s < steps; s++) {
      switch (rnd(6)) {
        case 0: if (n > 0) delete a[rnd(n)]; break;
        case 1: (a as unknown as Record<string, unknown>)[['x', '__proto__', '-0', '1.5', String(n + rnd(3))][rnd(5)]!] = s; break;
        case 2: if (n > 0) Object.defineProperty(a, rnd(n), { value: 'h', enumerable: false, configurable: true }); break;
        case 3: if (n > 0) Object.defineProperty(a, rnd(n), { get: () => 'g', enumerable: true, configurable: true }); break;
        case 4: a.length = a.length + rnd(3); break;
        default: a.length = Math.max(0, a.length - rnd(2));
      }
    }
    check(a, `case ${c}: ${JSON.stringify(Object.getOwnPropertyNames(a))}`);
  }
});
