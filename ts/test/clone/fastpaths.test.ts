// The speed paths of clone/serialize/deserialize against their edge cases: the memory map at every size (linear,
// Map), for-in walks (exactly the own enumerable keys, getters that delete/add keys, polluted prototypes, Proxies in
// the prototype chain), the shape caches (encoder key bytes, decoder predictions and generated readers) when the
// next object does not match, the root fast paths, and lazily built copies in clone() reached by a cycle.
// Oracles: V8's own bytes (new v8.Serializer(): what postMessage writes), v8.deserialize, structuredClone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { clone } from '../../src/clone/clone.js';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize } from '../../src/clone/deserialize.js';
import { Identity } from '../../src/clone/identity.js';
import { describe as neutral } from '../../testee/neutral.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const H = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/[\s|]/g, ''), 'hex'));
function v8raw(x: unknown): Uint8Array {
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(x);
  return new Uint8Array(s.releaseBuffer());
}
/**
 * Everything a value must survive: both decoders read our bytes back, we read V8's, clone() is structuredClone(),
 * and (sameBytes) our bytes are V8's. V8's bytes depend on hidden-class history (a number in a field that once
 * held a double is written `N`, which also moves the padding before two-byte strings), so byte equality is only
 * asked where every number is an int32 written fresh.
 */
function roundTrips(x: unknown, what: string, sameBytes = true): void {
  const ours = serialize(x);
  const theirs = v8raw(x);
  if (sameBytes) assert.equal(hex(ours), hex(theirs), `${what}: bytes`);
  const want = neutral(x);
  assert.deepEqual(neutral(deserialize(ours)), want, `${what}: deserialize`);
  assert.deepEqual(neutral(deserialize(theirs)), want, `${what}: deserialize V8 bytes`);
  assert.deepEqual(neutral(v8.deserialize(ours)), want, `${what}: v8.deserialize`);
  assert.deepEqual(neutral(clone(x)), neutral(structuredClone(x)), `${what}: clone`);
}
function errorOf(f: () => unknown): { code?: string; offset?: number } | null {
  try {
    f();
    return null;
  } catch (e) {
    return { code: (e as { code?: string }).code, offset: (e as { offset?: number }).offset };
  }
}

test('memory map: shared references and cycles at every size (linear phase, Map phase)', () => {
  for (const n of [1, 2, 7, 8, 9, 31, 32, 33, 100, 300]) {
    const objs = Array.from({ length: n }, (_, i) => ({ name: 'Alice' + (i % 10), age: 30 + (i % 50), active: i % 2 === 0 }));
    const a: unknown[] = [...objs, objs[0], objs[n - 1], objs[n >> 1]];
    a.push(a); // a cycle through the root
    const holder = { list: a, first: objs[0], self: null as unknown };
    holder.self = holder;
    roundTrips(a, `n=${n} array`);
    roundTrips(holder, `n=${n} holder`);
    const c = clone(holder) as { list: unknown[]; first: unknown; self: unknown };
    assert.equal(c.self, c);
    assert.equal(c.list[n], c.first);
    assert.equal(c.list[0], c.first);
    assert.equal(c.list[n + 3], c.list);
    const d = deserialize(serialize(holder)) as typeof c;
    assert.equal(d.self, d);
    assert.equal(d.list[n], d.first);
    assert.equal(d.list[n + 3], d.list);
  }
});

test('memory map: views and their buffers take ids in V8 order at every size', () => {
  for (const n of [0, 7, 8, 40]) {
    const buf = new ArrayBuffer(16);
    new Uint8Array(buf).set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    const u8 = new Uint8Array(buf, 2, 4);
    const x = [...Array.from({ length: n }, (_, i) => ({ i })), u8, new Int16Array(buf, 4, 2), buf, u8, new DataView(buf, 1, 3)];
    roundTrips(x, `views after ${n} objects`);
    const c = clone(x) as unknown[];
    assert.equal((c[n] as Uint8Array).buffer, c[n + 2]);
    assert.equal(c[n + 3], c[n]);
  }
});

test('memory map: Identity agrees with a Map for any sequence of visits, with a Map or a WeakMap past LINEAR', () => {
  let seed = 12345;
  const rnd = (k: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (let round = 0; round < 80; round++) {
    const pool = Array.from({ length: 1 + rnd(60) }, () => ({}));
    const id = new Identity(round % 2 === 0); // both memory-map classes, whatever the runtime's default
    const ref = new Map<object, number>();
    for (let step = 0; step < 200; step++) {
      const o = pool[rnd(pool.length)]!;
      const op = rnd(3);
      if (op === 0) {
        const want = ref.has(o) ? ref.get(o)! : -1;
        assert.equal(id.visit(o), want);
        if (want < 0) ref.set(o, ref.size);
      } else if (op === 1) {
        assert.equal(id.find(o), ref.has(o) ? ref.get(o)! : -1);
      } else if (!ref.has(o)) {
        assert.equal(id.add(o), ref.size);
        ref.set(o, ref.size);
      }
      assert.equal(id.size, ref.size);
    }
  }
});

test('for-in walks: own enumerable keys only, whatever the prototype chain holds', () => {
  const proto = Object.prototype as Record<string, unknown>;
  try {
    proto.polluted = 'inherited'; // enumerable on Object.prototype: for-in sees it, structured clone must not
    Object.defineProperty(Object.prototype, 'zz', { value: 'proto', configurable: true, writable: true });
    const cases: Array<[string, () => object]> = [
      ['plain', () => ({ a: 1, b: 'x' })],
      ['null prototype', () => Object.assign(Object.create(null), { 2: 'two', b: 1, 1: 'one', a: 2 })],
      ['getter deletes a later key that the prototype also has', () => ({ get a() { delete (this as Record<string, unknown>).zz; return 1; }, zz: 2, c: 3 })],
      ['getter adds a key', () => ({ get a() { (this as Record<string, unknown>).later = 1; return 0; }, b: 2 })],
      ['getter deletes and re-adds a later key', () => ({ get a() { const t = this as Record<string, unknown>; delete t.b; t.b = 5; return 0; }, b: 2, c: 3 })],
      ['getter makes a later key non-enumerable', () => ({ get a() { Object.defineProperty(this, 'b', { enumerable: false }); return 0; }, b: 2, c: 3 })],
      ['class instance', () => new (class A { x = 1; get y() { return 2; } })()],
      ['Object.create(object with enumerable keys)', () => Object.assign(Object.create({ inherited: 1 }), { own: 2 })],
      ['__proto__ own key', () => JSON.parse('{"a": 1, "__proto__": {"b": 2}, "c": 3}')],
    ];
    for (const [what, make] of cases) {
      const want = neutral(structuredClone(make()));
      assert.deepEqual(neutral(clone(make())), want, `${what}: clone`);
      assert.deepEqual(neutral(deserialize(serialize(make()))), want, `${what}: deserialize(serialize)`);
      assert.deepEqual(neutral(v8.deserialize(serialize(make()))), want, `${what}: v8.deserialize(serialize)`);
      assert.equal(hex(serialize(make())), hex(v8raw(make())), `${what}: bytes`);
    }
    // a getter in a nested object deletes a key of its parent that comes later
    const makeNested = (): Record<string, unknown> => {
      const p: Record<string, unknown> = { a: { get x() { delete p.b; return 1; } }, b: 2, c: 3 };
      return p;
    };
    const want = neutral(structuredClone(makeNested()));
    assert.deepEqual(neutral(clone(makeNested())), want);
    assert.deepEqual(neutral(deserialize(serialize(makeNested()))), want);
  } finally {
    delete proto.polluted;
    delete proto.zz;
  }
});

test('for-in walks: a Proxy in the prototype chain is not asked for keys or values', () => {
  const calls: string[] = [];
  const handler: ProxyHandler<object> = {
    ownKeys(t) { calls.push('ownKeys'); return Reflect.ownKeys(t); },
    getOwnPropertyDescriptor(t, k) { calls.push('gOPD ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
    get(t, k, r) { calls.push('get ' + String(k)); return Reflect.get(t, k, r); },
    has(t, k) { calls.push('has ' + String(k)); return Reflect.has(t, k); },
  };
  const make = (): object => Object.assign(Object.create(new Proxy({ fromProxy: 1 }, handler)), { own: 1, other: 'x' });
  const want = neutral(structuredClone(make()));
  assert.deepEqual(calls, []);
  assert.deepEqual(neutral(clone(make())), want);
  assert.deepEqual(neutral(deserialize(serialize(make()))), want);
  assert.deepEqual(calls, []);
});

test('shape caches: changing key lists at every level give V8 bytes, twice', () => {
  const forty = Object.fromEntries(Array.from({ length: 40 }, (_, i) => ['k' + i, i]));
  const sameKeysOtherValues = (n: number): object[] => Array.from({ length: n }, (_, i) => ({ name: 'n' + i, age: i * 7, active: !!(i & 1) }));
  const x = [
    { a: 1, b: 2 }, { a: 3, b: 4 }, { b: 5, a: 6 }, { a: 7 }, { a: 8, b: 9, c: 10 }, { a: 1, b: 2 }, {},
    { a: { x: 1 }, b: 2 }, { a: { x: 2 }, b: 3 }, { a: { y: 2 }, b: 3 }, { a: [{ x: 1 }, { x: 2 }], b: 0 },
    { abcd: 1, abcde: 2, abcdefgh: 3, abcdefghi: 4, '': 5 }, { abcd: 1, abcde: 2, abcdefgh: 3, abcdefghi: 4, '': 5 },
    { ключ: 1, k: 2 }, { ключ: 3, k: 4 }, { ключ: 5, k: 6 }, { 0: 'a', 1: 'b', x: 1 }, { 0: 'c', 1: 'd', x: 2 },
    { 4294967294: 1, 4294967295: 2, '-1': 3, '1.5': 4, '01': 5 }, { 4294967294: 1, 4294967295: 2, '-1': 3, '1.5': 4, '01': 5 },
    forty, forty, { ...forty, extra: 1 }, JSON.parse('{"__proto__": 1, "a": 2}'), JSON.parse('{"__proto__": 3, "a": 4}'),
    ...sameKeysOtherValues(5),
    { name: 'x', age: 1, active: true, more: 1 }, { name: 'x', age: 1 }, { age: 1, name: 'x', active: false },
    { name: 'ü'.repeat(3), age: 2 ** 40, active: null }, { name: 'a\ud800', age: -0, active: undefined }, { name: 'x', age: 1n, active: 'y' },
    { name: 'x'.repeat(200), age: -(2 ** 31), active: 1.5 }, { name: { nested: true }, age: [1], active: new Date(0) },
  ];
  roundTrips(x, 'first pass');
  roundTrips(x, 'second pass (shapes known)');
  roundTrips(x.slice().reverse(), 'reversed');
  for (let i = 0; i < x.length; i++) roundTrips(x[i], `element ${i} alone`);
});

test('shape caches: a nested config (other key lists at each level, lists sharing a first key) gives V8 bytes, call after call', () => {
  const config = (i: number): object => ({
    service: { name: 'gw', version: '1.' + i, replicas: 3 },
    http: { host: '0.0.0.0', port: 8443 + i, tls: { enabled: true, protocols: ['TLSv1.2'] }, timeouts: { read: 30, idle: 120 } },
    limits: { name: 'l', parts: 1000 }, // first key 'name' again, another list
    log: { level: 'info', redact: ['a', 'b'] },
    upstreams: [{ name: 's', url: 'u', weight: 3 }, { name: 'i', url: 'v', weight: 1 }, { name: 'j', url: 'w' }, { name: 'k', url: 'x', weight: 2, extra: 0 }],
    owner: { team: 'platform', oncall: null },
    empty: {},
  });
  for (let i = 0; i < 4; i++) roundTrips(config(i), `config ${i}`);
  roundTrips([config(5), config(6), { service: 1 }, { service: { name: 'x' } }, config(7)], 'configs in an array');
});

test('shape caches by place in the walk: the next call with other key lists at the same places gives V8 bytes', () => {
  // Encoder and decoder predict the k-th object of a call (k < 64) from the k-th object of the last call; each call
  // below puts another key list at the same places (a prefix, an extension, same-length decoy keys, reordered keys,
  // an index key, a two-byte key) and goes past 64 objects, where the per-level caches take over.
  const a = (i: number): object => ({ name: 'n' + i, age: i, active: true });
  const variants: Array<(i: number) => object> = [
    a,
    (i) => ({ name: 'n' + i, age: i }),
    (i) => ({ name: 'n' + i, age: i, active: false, more: i }),
    (i) => ({ namf: 'n' + i, agf: i, activf: true }),
    (i) => ({ age: i, name: 'n' + i, active: true }),
    (i) => ({ 0: i, name: 'n' + i, active: true }),
    (i) => ({ ключ: i, name: 'n' + i }),
    (i) => ({ name: { age: i, active: [i] }, age: { name: i } }),
  ];
  const msg = (f: (i: number) => object, n: number): object => ({ head: f(0), list: Array.from({ length: n }, (_, i) => f(i)), tail: { x: f(n) } });
  for (const n of [3, 70]) {
    for (let r = 0; r < 2; r++) {
      for (let v = 0; v < variants.length; v++) roundTrips(msg(variants[v]!, n), `variant ${v}, ${n} objects, round ${r}`);
      for (let v = variants.length - 1; v >= 0; v--) roundTrips(msg(variants[v]!, n), `variant ${v} backwards, ${n} objects, round ${r}`);
    }
    // interleaved per place: object k takes variant (k + call) mod 8
    for (let c = 0; c < 3; c++) roundTrips(Array.from({ length: n }, (_, k) => variants[(k + c) % variants.length]!(k)), `interleaved call ${c}, ${n} objects`);
  }
});

// Object bytes for the decoder tests: key 'name' / 'age' / 'active' (or same-length decoys), values as given.
const K = { name: '22046e616d65', age: '2203616765', active: '2206616374697665' };
const D = { name: '22046e616d66', age: '2203616766', active: '2206616374697666' }; // same lengths, other keys
const obj = (k: typeof K, name: string, age: string, active: string, count = '03'): string => `6f ${k.name} ${name} ${k.age} ${age} ${k.active} ${active} 7b ${count}`;
const ALICE = '22 05 416c696365';

test('decoder: a predicted or generated shape that does not match gives what the general path gives', () => {
  // learn the shape and make its factory and generated reader (a key list seen twice)
  deserialize(H(`ff0f 41 03 ${obj(K, ALICE, '49 3c', '54')} ${obj(K, ALICE, '49 3e', '46')} ${obj(K, ALICE, '49 40', '54')} 24 00 03`));
  const variants: Array<[string, string]> = [
    ['same shape', obj(K, ALICE, '49 3c', '54')],
    ['negative int, false', obj(K, ALICE, '49 3d', '46')],
    ['two-byte string value', obj(K, '00 63 04 4100 4200', '49 3c', '54')],
    ['two-byte string value, unpadded', obj(K, '63 04 4100 4200', '49 3c', '54')],
    ['UTF-8 string value', obj(K, '53 02 c3a9', '49 3c', '54')],
    ['BigInt value', obj(K, ALICE, '5a 10 0a00000000000000', '54')],
    ['nested object value', obj(K, '6f 22 01 78 49 02 7b 01', '49 3c', '54')],
    ['array value', obj(K, ALICE, '41 01 49 02 24 00 01', '54')],
    ['two-byte varint', obj(K, ALICE, '49 c801', '54')],
    ['five-byte varint', obj(K, ALICE, '49 feffffff0f', '54')],
    ['double value', obj(K, ALICE, '4e 000000000000f83f', '54')],
    ['uint32 value', obj(K, ALICE, '55 80 01', '54')],
    ['null, undefined', obj(K, '30', '5f', '54')],
    ['empty and 16- and 17-byte strings', obj(K, '22 00', '22 10 ' + '61'.repeat(16), '22 11 ' + '62'.repeat(17))],
    ['padding before a key', `6f 00 ${K.name} ${ALICE} ${K.age} 49 3c ${K.active} 54 7b 03`],
    ['padding before a value', `6f ${K.name} 00 ${ALICE} ${K.age} 49 3c ${K.active} 54 7b 03`],
    ['padding before the end', `6f ${K.name} ${ALICE} ${K.age} 49 3c ${K.active} 54 00 7b 03`],
    ['verify-count before a value', `6f ${K.name} 3f 01 ${ALICE} ${K.age} 49 3c ${K.active} 54 7b 03`],
    ['one key fewer', `6f ${K.name} ${ALICE} ${K.age} 49 3c 7b 02`],
    ['one key more', `6f ${K.name} ${ALICE} ${K.age} 49 3c ${K.active} 54 22 01 7a 54 7b 04`],
    ['keys in another order', `6f ${K.age} 49 3c ${K.name} ${ALICE} ${K.active} 54 7b 03`],
    ['a key as UTF-8', `6f 53 04 6e616d65 ${ALICE} ${K.age} 49 3c ${K.active} 54 7b 03`],
    ['a longer key with the same start', `6f 22 05 6e616d6573 ${ALICE} ${K.age} 49 3c ${K.active} 54 7b 03`],
    ['a reference to the object itself', obj(K, '5e 02', '49 3c', '54')],
    ['wrong count', obj(K, ALICE, '49 3c', '54', '02')],
    ['duplicate key', `6f ${K.name} ${ALICE} ${K.name} ${ALICE} ${K.active} 54 7b 03`],
    ['bad varint', obj(K, ALICE, '49 ffffffff7f', '54')],
    ['string past the end', `6f ${K.name} 22 7f 41`],
    ['ends inside a key', `6f ${K.name} ${ALICE} 22 03 61`],
    ['ends after a value', `6f ${K.name} ${ALICE} ${K.age} 49 3c ${K.active} 54`],
    ['ends after the end tag', `6f ${K.name} ${ALICE} ${K.age} 49 3c ${K.active} 54 7b`],
  ];
  for (const [what, x] of variants) {
    // the same bytes after an object of the shape (predicted) and after a decoy of the same length (not predicted)
    const predicted = H(`ff0f 41 02 ${obj(K, ALICE, '49 3c', '54')} ${x} 24 00 02`);
    const general = H(`ff0f 41 02 ${obj(D, ALICE, '49 3c', '54')} ${x} 24 00 02`);
    const e1 = errorOf(() => deserialize(predicted));
    const e2 = errorOf(() => deserialize(general));
    assert.deepEqual(e1, e2, what);
    if (e1 !== null) continue;
    const a = deserialize(predicted) as unknown[];
    const b = deserialize(general) as unknown[];
    assert.deepEqual(neutral(a[1]), neutral(b[1]), what);
    let v8ok = true;
    let want: unknown;
    try {
      want = v8.deserialize(predicted);
    } catch {
      v8ok = false;
    }
    if (v8ok) assert.deepEqual(neutral(a), neutral(want), `${what}: as V8 reads it`);
  }
  // at the root, where the object is the first thing read (and the prediction comes from the previous call)
  for (const [what, x] of variants) {
    const root = H(`ff0f ${x}`);
    const e = errorOf(() => deserialize(root));
    if (e === null) {
      let want: unknown;
      try {
        want = v8.deserialize(root);
      } catch {
        continue;
      }
      assert.deepEqual(neutral(deserialize(root)), neutral(want), `${what}: root`);
    } else assert.match(String(e.code), /^SC_/, `${what}: root`);
  }
});

test('decoder: a generated reader that read a nested value, then meets other bytes, gives what the general path gives', () => {
  const learn = (k: typeof K): void => {
    for (let i = 0; i < 2; i++) deserialize(H(`ff0f 41 03 ${obj(k, ALICE, '49 3c', '54')} ${obj(k, ALICE, '49 3e', '46')} ${obj(k, ALICE, '49 40', '54')} 24 00 03`));
  };
  const firsts: Array<[string, string]> = [
    ['a nested object', '6f 22 01 78 49 02 7b 01'],
    ['an array', '41 01 49 02 24 00 01'],
    ['a reference to the object itself', '5e 02'],
    ['a nested object referring to the object', '6f 22 01 78 5e 02 7b 01'],
    ['a 200-byte string', '22 c801 ' + '63'.repeat(200)],
  ];
  const rests: Array<[string, string]> = [
    ['the rest as predicted', `${K.age} 49 3c ${K.active} 54 7b 03`],
    ['one key fewer', `${K.age} 49 3c 7b 02`],
    ['one key more', `${K.age} 49 3c ${K.active} 54 22 01 7a 54 7b 04`],
    ['another second key', `${D.age} 49 3c ${K.active} 54 7b 03`],
    ['a repeated key', `${K.age} 49 3c ${K.name} 54 7b 03`],
    ['a wrong count', `${K.age} 49 3c ${K.active} 54 7b 02`],
    ['a two-byte count', `${K.age} 49 3c ${K.active} 54 7b 8300`],
    ['padding before the end', `${K.age} 49 3c ${K.active} 54 00 7b 03`],
    ['a nested value last', `${K.age} 49 3c ${K.active} 6f 7b 00 7b 03`],
    ['a bad varint', `${K.age} 49 ffffffff7f ${K.active} 54 7b 03`],
    ['a string past the end', `${K.age} 22 7f 41`],
    ['the end inside a key', `${K.age} 49 3c 22 06 6163`],
    ['the end after a value', `${K.age} 49 3c ${K.active} 54`],
    ['the end after the end tag', `${K.age} 49 3c ${K.active} 54 7b`],
  ];
  for (const [fw, first] of firsts) {
    for (const [rw, rest] of rests) {
      const what = `${fw}, then ${rw}`;
      const x = `6f ${K.name} ${first} ${rest}`;
      learn(K);
      const e1 = errorOf(() => deserialize(H(`ff0f 41 02 ${obj(K, ALICE, '49 3c', '54')} ${x} 24 00 02`)));
      learn(D);
      const e2 = errorOf(() => deserialize(H(`ff0f 41 02 ${obj(D, ALICE, '49 3c', '54')} ${x} 24 00 02`)));
      assert.deepEqual(e1, e2, what);
      if (e1 !== null) continue;
      learn(K);
      const predicted = H(`ff0f 41 02 ${obj(K, ALICE, '49 3c', '54')} ${x} 24 00 02`);
      const a = deserialize(predicted) as unknown[];
      learn(D);
      const b = deserialize(H(`ff0f 41 02 ${obj(D, ALICE, '49 3c', '54')} ${x} 24 00 02`)) as unknown[];
      assert.deepEqual(neutral(a[1]), neutral(b[1]), what);
      assert.deepEqual(Object.keys(a[1] as object), Object.keys(b[1] as object), `${what}: key order`);
      let want: unknown;
      try {
        want = v8.deserialize(predicted);
      } catch {
        continue;
      }
      assert.deepEqual(neutral(a), neutral(want), `${what}: as V8 reads it`);
      if (first.startsWith('5e 02')) assert.equal((a[1] as Record<string, unknown>).name, a[1], `${what}: the reference is the object`);
    }
  }
});

test('decoder: an object referred to while its values are read exists then and is filled in order', () => {
  const makers: Array<() => unknown> = [
    () => { const a: Record<string, unknown> = { x: 1 }; a.self = a; a.y = 'z'; return a; },
    () => { const a: Record<string, unknown> = {}; a.first = a; return a; },
    () => { const a: Record<string, unknown> = { p: { n: 1 }, r: 2 }; (a.p as Record<string, unknown>).back = a; return a; },
    () => { const s = { v: 1 }; const a = { l: [s, s], m: { s } }; return [a, a, s]; },
    () => Array.from({ length: 5 }, (_, i) => { const o: Record<string, unknown> = { i, self: null }; o.self = o; return o; }),
  ];
  for (const make of makers) {
    for (let pass = 0; pass < 2; pass++) {
      const x = make();
      const bytes = serialize(x);
      assert.equal(hex(bytes), hex(v8raw(x)));
      const want = neutral(v8.deserialize(bytes));
      const got = deserialize(bytes);
      assert.deepEqual(neutral(got), want);
      assert.deepEqual(neutral(got), neutral(x));
    }
  }
  const a = deserialize(serialize(makers[0]!())) as Record<string, unknown>;
  assert.equal(a.self, a);
  assert.deepEqual(Object.keys(a), ['x', 'self', 'y']);
  // Node IPC framing: a host object aliases the plain object that follows (two ids, one object), here referred to
  const ipc = deserialize(H('ff0f 5c 01 6f 22 01 61 49 02 22 01 62 5e 00 22 01 63 5e 01 7b 03'), { nodeIpc: true }) as Record<string, unknown>;
  assert.equal(ipc.b, ipc);
  assert.equal(ipc.c, ipc);
  assert.deepEqual(Object.keys(ipc), ['a', 'b', 'c']);
});

test('decoder: root strings and numbers take the fast path only when it is exact', () => {
  for (const n of [0, 1, 2, 15, 16, 17, 100, 127, 128, 129, 300]) {
    const s = 'abcdefghijklmnopqrstuvwxyzé'.repeat(12).slice(0, n);
    const body = Buffer.from(s, 'latin1').toString('hex');
    const len = n < 128 ? n.toString(16).padStart(2, '0') : ((n & 0x7f) | 0x80).toString(16) + (n >> 7).toString(16).padStart(2, '0');
    for (const ver of ['0d', '0e', '0f']) {
      assert.equal(deserialize(H(`ff${ver} 22 ${len} ${body}`)), s, `n=${n} v=${ver}`);
      assert.equal(deserialize(H(`ff${ver} 22 ${len} ${body} 00 00`)), s, `n=${n} padding after`);
    }
    const e = errorOf(() => deserialize(H(`ff0f 22 ${len} ${body} 5f`)));
    assert.deepEqual(e, { code: 'SC_TAG', offset: 3 + len.length / 2 + n }, `n=${n} trailing value`);
    if (n > 0) assert.deepEqual(errorOf(() => deserialize(H(`ff0f 22 ${len} ${body.slice(2)}`))), { code: 'SC_TRUNCATED', offset: 2 + len.length / 2 + n }, `n=${n} short`);
    assert.equal(hex(serialize(s)), hex(v8raw(s)), `n=${n} encode`);
    const two = s + '\u20ac';
    assert.equal(hex(serialize(two)), hex(v8raw(two)), `n=${n} two-byte encode`);
    assert.equal(deserialize(serialize(two)), two);
  }
  assert.deepEqual(errorOf(() => deserialize(H('ff10 22 01 61'))), { code: 'SC_VERSION', offset: 0 });
  assert.deepEqual(errorOf(() => deserialize(H('ff0c 22 01 61'))), { code: 'SC_VERSION', offset: 0 });
  for (const x of [0, -0, 1, -1, 63, 64, -64, -65, 2 ** 30, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1.5, NaN, Infinity, -Infinity, true, false, null, undefined]) {
    assert.equal(hex(serialize(x)), hex(v8raw(x)), String(x));
    assert.ok(Object.is(deserialize(serialize(x)), x), String(x));
  }
});

test('encoder: long root strings (native Latin-1 write into an unzeroed output) are exact at every size', () => {
  for (const n of [47, 48, 49, 4092, 4093, 4096, 5000, 70001]) {
    const ascii = 'Hello World!!!'.repeat(Math.ceil(n / 14)).slice(0, n);
    const latin = 'é' + ascii.slice(1, -1) + 'ÿ';
    const cases: Array<[string, string, boolean]> = [
      ['ascii', ascii, true],
      ['latin-1', latin, true],
      // a two-byte string whose units are all <= 0xFF: V8 writes it `c`, ours is the shorter `"` form of the same value
      ['two-byte stored latin-1', ('\u0100' + latin).slice(1), false],
      ['two-byte', ascii.slice(0, -1) + '\u20ac', true],
      ['lone surrogate', '\ud800' + ascii.slice(1), true],
    ];
    for (const [what, s, sameBytes] of cases) {
      const ours = serialize(s);
      if (sameBytes) assert.equal(hex(ours), hex(v8raw(s)), `n=${n} ${what}`);
      assert.equal(deserialize(ours), s, `n=${n} ${what} decode`);
      assert.equal(v8.deserialize(ours), s, `n=${n} ${what} V8 decode`);
    }
  }
});

test('clone: a copy reached by a cycle before its values are known is filled in order', () => {
  const makers: Array<[string, () => unknown]> = [
    ['self in the middle', () => { const a: Record<string, unknown> = { x: 1 }; a.self = a; a.y = 2; return a; }],
    ['self first', () => { const a: Record<string, unknown> = {}; a.self = a; a.x = 'v'; return a; }],
    ['through a child', () => { const a: Record<string, unknown> = { p: {}, r: 2 }; (a.p as Record<string, unknown>).q = a; return a; }],
    ['two levels', () => { const a = { l1: { l2: { l3: null as unknown } } }; a.l1.l2.l3 = a.l1; return a; }],
    ['shared leaf', () => { const s = { v: 1 }; return { a: s, b: s, c: [s] }; }],
    ['array of self-cycles (factory path)', () => Array.from({ length: 6 }, (_, i) => { const o: Record<string, unknown> = { i, self: null }; o.self = o; return o; })],
    ['cycle, then a getter deletes a later key', () => {
      const a: Record<string, unknown> = { x: 1 };
      a.self = a;
      Object.defineProperty(a, 'g', { get() { delete a.z; return 'g'; }, enumerable: true, configurable: true });
      a.z = 3;
      a.w = 4;
      return a;
    }],
  ];
  for (const [what, make] of makers) {
    const c = clone(make());
    assert.deepEqual(neutral(c), neutral(structuredClone(make())), what);
    assert.deepEqual(neutral(deserialize(serialize(make()))), neutral(structuredClone(make())), `${what}: wire`);
  }
  const a = makers[0]![1]() as Record<string, unknown>;
  const c = clone(a) as Record<string, unknown>;
  assert.equal(c.self, c);
  assert.deepEqual(Object.keys(c), ['x', 'self', 'y']);
});

test('clone maxDepth counts every new object, views included, and not references', () => {
  const u8 = new Uint8Array(2);
  assert.throws(() => clone([[u8]], { maxDepth: 2 }), RangeError);
  assert.throws(() => clone([[new Date(0)]], { maxDepth: 2 }), RangeError);
  assert.throws(() => clone([[{}]], { maxDepth: 2 }), RangeError);
  const ok = clone([u8, [u8]], { maxDepth: 2 }) as [Uint8Array, Uint8Array[]];
  assert.equal(ok[1][0], ok[0]);
});

test('re-entrant calls from getters and a throw half-way leave the next call intact', () => {
  const inner = { get v() { return [serialize({ in: 1 }), clone({ in: 2 }), deserialize(serialize('in'))]; } };
  const x = { a: 1, inner, b: 'after' };
  const want = neutral(structuredClone(x));
  assert.deepEqual(neutral(deserialize(serialize(x))), want);
  assert.deepEqual(neutral(clone(x)), want);
  assert.throws(() => serialize({ a: 1, f: () => 1 }));
  assert.throws(() => clone({ a: 1, f: () => 1 }));
  roundTrips({ a: 1, b: [1, 2, { c: 3 }] }, 'after a throw');
});

test('shape caches: seeded runs of objects drawn from a few key lists, with every kind of value', () => {
  let seed = 0x5eed;
  const rnd = (k: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  const lists = [['name', 'age', 'active'], ['name', 'age'], ['age', 'name', 'active'], ['id', 'tags', 'meta'], ['ключ', '0', 'x'], ['a']];
  const strs = ['', 'x', 'Alice', 'é'.repeat(5), 'a'.repeat(16), 'b'.repeat(17), 'c'.repeat(130), '€uro', 'a\ud800'];
  const nums = [0, -0, 1, -1, 63, 64, -65, 100, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1.5, NaN, -Infinity];
  for (let run = 0; run < 60; run++) {
    const made: object[] = [];
    const value = (depth: number): unknown => {
      switch (rnd(depth > 2 ? 6 : 9)) {
        case 0: case 1: return strs[rnd(strs.length)];
        case 2: case 3: return nums[rnd(nums.length)];
        case 4: return [true, false, null, undefined, 10n, -(2n ** 70n)][rnd(6)];
        case 5: return made.length ? made[rnd(made.length)] : 'none';
        case 6: return [value(depth + 1), value(depth + 1)];
        default: return object(depth + 1);
      }
    };
    const object = (depth: number): object => {
      const o: Record<string, unknown> = {};
      made.push(o);
      for (const k of lists[rnd(lists.length)]!) o[k] = value(depth);
      return o;
    };
    const x = Array.from({ length: 1 + rnd(40) }, () => object(0));
    roundTrips(x, `run ${run}`, false);
  }
});
