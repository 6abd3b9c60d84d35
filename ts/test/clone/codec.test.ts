// Decoder errors (code + offset, spec/errors.md), encoder canonical bytes, strings, limits and the fast paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { clone } from '../../src/clone/clone.js';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize } from '../../src/clone/deserialize.js';
import { latin1 } from '../../src/clone/strings.js';
import { postSerialized, receiveSerialized } from '../../src/clone/worker.js';

const H = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/[\s|]/g, ''), 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function rejects(input: string, code: string, offset: number, opts?: object): void {
  assert.throws(() => deserialize(H(input), opts), (e: unknown) => {
    const err = e as { code?: string; offset?: number; name?: string };
    assert.equal(err.name, 'FormwireError');
    assert.ok(e instanceof TypeError);
    assert.deepEqual({ code: err.code, offset: err.offset }, { code, offset }, input);
    return true;
  });
}

test('decode errors: codes and offsets', () => {
  rejects('', 'SC_TRUNCATED', 0);
  rejects('6f7b00', 'SC_VERSION', 0);
  rejects('ff0c 5f', 'SC_VERSION', 0);
  rejects('ff10 5f', 'SC_VERSION', 0);
  rejects('ff0f', 'SC_TRUNCATED', 2);
  rejects('ff0f 22 05 6162', 'SC_TRUNCATED', 6);
  rejects('ff0f 6f 22 01 61 49 02', 'SC_TRUNCATED', 8);
  rejects('ff0f 4d', 'SC_TAG', 2); // reserved legacy tag M
  rejects('ff0f 2d', 'SC_TAG', 2); // hole outside a dense array
  rejects('ff0f 7b 00', 'SC_TAG', 2); // end tag with nothing open
  rejects('ff0f 00 00 2d', 'SC_TAG', 4); // padding skipped before the tag
  rejects('ff0f 5f 5f', 'SC_TAG', 3); // bytes after the top-level value
  rejects('ff0f 49 ffffffff7f', 'SC_VARINT', 3);
  rejects('ff0f 49 8080808010', 'SC_VARINT', 3); // 5th byte carries bits above 32
  rejects('ff0f 5e 00', 'SC_REF', 2);
  rejects('ff0f 6f 5e 01', 'SC_KEY', 3);
  rejects('ff0f 6f 22 01 61 49 02 7b 02', 'SC_COUNT', 8);
  rejects('ff0f 41 01 49 02 24 00 02', 'SC_COUNT', 6);
  rejects('ff0f 63 03 616263', 'SC_STRING', 2);
  rejects('ff0f 53 02 c328', 'SC_STRING', 2);
  rejects('ff0f 6f 6f 7b 00 49 02 7b 01', 'SC_KEY', 3);
  rejects('ff0f 6f 22 01 61 49 02 22 01 61 49 04 7b 02', 'SC_KEY', 8); // duplicate key
  rejects('ff0f 41 01 49 02 22 06 6c656e677468 49 00 24 01 01', 'SC_KEY', 6); // array length key
});

test('decode errors: views, host objects, unsupported tags, limits', () => {
  rejects('ff0f 56 42 00 00 00', 'SC_VIEW', 2); // view without a buffer
  rejects('ff0f 42 02 0000 56 42 00 03 00', 'SC_VIEW', 6); // out of bounds
  rejects('ff0f 42 04 00000000 56 77 01 02 00', 'SC_VIEW', 8); // misaligned Int16Array
  rejects('ff0f 42 02 0000 56 7a 00 02 00', 'SC_VIEW', 6); // unknown subtag
  rejects('ff0f 42 02 0000 56 42 00 02 01', 'SC_VIEW', 6); // length-tracking flag on a fixed buffer
  rejects('ff0f 5c 63 01 00', 'SC_HOST', 2);
  rejects('ff0f 5c 03 03 000000', 'SC_HOST', 2); // Int16Array of 3 bytes
  for (const t of ['74', '75', '77', '6d', '70']) rejects(`ff0f ${t} 00`, 'SC_UNSUPPORTED', 2);
  rejects('ff0e 70 00', 'SC_TAG', 2); // p before version 15
  rejects('ff0f 41 01 41 01 41 00 24 00 00 24 00 01 24 00 01', 'SC_LIMIT_DEPTH', 6, { maxDepth: 2 });
  rejects('ff0f 5f', 'SC_LIMIT_BYTES', 0, { maxBytes: 2 });
  rejects('ff0f 41 05 5f', 'SC_TRUNCATED', 5); // dense length larger than the input left
  rejects('ff0f 5a 01', 'SC_TAG', 2); // -0n (spec SC-D-09; errors.md says SC_VALUE)
  rejects('ff0f 7e 04 02 00000000', 'SC_TAG', 2); // resizable buffer longer than its maximum
  rejects('ff0f 52 22 01 61 40', 'SC_TAG', 2); // RegExp linear flag
  rejects('ff0f 72 78 2e', 'SC_TAG', 3); // unknown Error subtag
});

test('decode: what V8 reads beyond the canonical form', () => {
  assert.equal(deserialize(H('ff0f 53 03 c3a961')), 'éa'); // S UTF-8
  assert.equal(deserialize(H('ff0f 55 80 01')), 128); // U
  assert.equal(deserialize(H('ff0f 3f 02 49 04')), 2); // ? verify count
  assert.equal(deserialize(H('ff0d 49 04')), 2); // version 13
  assert.equal(deserialize(H('ff0f 5a 02 0a')), 10n); // short BigInt digits
  assert.deepEqual(deserialize(H('ff0f 41 03 49 02 2d 49 06 24 00 03')), [1, , 3]); // hole in a dense array
  const view13 = deserialize(H('ff0d 42 02 0102 56 42 00 02')) as Uint8Array; // v13 view, no flags
  assert.deepEqual([...view13], [1, 2]);
  const view13b = deserialize(H('ff0d 42 02 0102 56 42 00 02 00')) as Uint8Array; // broken v13: with flags
  assert.deepEqual([...view13b], [1, 2]);
  const e = deserialize(H('ff0f 72 63 5e 00 2e')) as Error & { cause: unknown }; // an Error whose cause is itself
  assert.equal(e.cause, e);
  const ipc = deserialize(H('ff0f 5c 01 6f 22 01 61 49 02 7b 01'), { nodeIpc: true });
  assert.deepEqual(ipc, { a: 1 });
});

test('encode: canonical bytes', () => {
  const cases: Array<[unknown, string]> = [
    [undefined, 'ff0f5f'], [64, 'ff0f498001'], [-1, 'ff0f4901'], [2 ** 31, 'ff0f4e000000000000e041'], [-0, 'ff0f4e0000000000000080'],
    [NaN, 'ff0f4e000000000000f87f'], ['hé', 'ff0f220268e9'], ['a\ud800b', 'ff0f6306610000d86200'], [['a', '€'], 'ff0f4102220161006302ac20240002'],
    [10n, 'ff0f5a100a00000000000000'], [{ 1: 'a', b: 2 }, 'ff0f6f49022201612201624904 7b02'.replace(/ /g, '')],
    [[1, , 3], 'ff0f6103490049024904490640 0203'.replace(/ /g, '')], [/ab/gimsuyd, 'ff0f5222026162bf01'],
    [new Uint8Array([1, 2, 3]), 'ff0f42030102035642000300'],
  ];
  for (const [v, h] of cases) assert.equal(hex(serialize(v)), h, String(v));
  // Error: prototype, message, stack, cause
  const e = new RangeError('m', { cause: 1 });
  e.stack = 'S';
  assert.equal(hex(serialize(e)), 'ff0f72526d22016d7322015363490 22e'.replace(/ /g, ''));
});

test('encode: refusals and limits', () => {
  for (const v of [() => 1, Symbol('s'), new WeakMap(), new WeakSet(), Promise.resolve(), new Proxy({}, {}), [Symbol.iterator]]) {
    assert.throws(() => serialize(v), (e: unknown) => (e as { code?: string }).code === 'SC_DATA_CLONE');
  }
  const ab = new ArrayBuffer(4);
  structuredClone(ab, { transfer: [ab] }); // detaches
  assert.throws(() => serialize(ab), (e: unknown) => (e as { code?: string }).code === 'SC_DATA_CLONE');
  assert.throws(() => clone(ab), (e: unknown) => (e as Error).name === 'DataCloneError');
  let deep: unknown = 1;
  for (let i = 0; i < 5; i++) deep = [deep];
  assert.throws(() => serialize(deep, { maxDepth: 4 }), (e: unknown) => (e as { code?: string }).code === 'SC_LIMIT_DEPTH');
  assert.doesNotThrow(() => serialize(deep, { maxDepth: 5 }));
});

test('strings: Latin-1 bytes 0x80-0x9F are not windows-1252, lone surrogates survive', () => {
  const all = new Uint8Array(256 * 2);
  for (let i = 0; i < all.length; i++) all[i] = i & 0xff;
  const s = latin1(all, 0, all.length);
  for (let i = 0; i < all.length; i++) assert.equal(s.charCodeAt(i), i & 0xff);
  const big = '\u0080\u009f\u00ff'.repeat(5000);
  assert.equal(deserialize(serialize(big)), big);
  assert.equal(v8.deserialize(serialize(big)), big);
  const lone = 'x\udc00y\ud800'.repeat(3000);
  assert.equal(deserialize(serialize(lone)), lone);
  assert.equal(deserialize(new Uint8Array(v8.serialize(lone))), lone);
  const odd = new Uint8Array(v8.serialize('€€')); // decode from an odd absolute offset
  const shifted = new Uint8Array(odd.length + 1);
  shifted.set(odd, 1);
  assert.equal(deserialize(shifted.subarray(1)), '€€');
});

test('fast paths: strings by reference, shape cache with changing shapes, getters, __proto__ keys', () => {
  const s = 'Hello World!!!'.repeat(262144);
  const t0 = process.hrtime.bigint();
  const c = clone(s);
  const dt = Number(process.hrtime.bigint() - t0);
  assert.equal(c, s);
  assert.ok(dt < 1e6, `clone of a 3.67 MB string took ${dt} ns`);
  const arr = [{ a: 1, b: 2 }, { a: 3, b: 4 }, { b: 5, a: 6 }, { a: 7 }, { a: 8, b: 9, c: { d: 1 } }, { a: 1, b: 2 }];
  for (const copy of [clone, (x: unknown) => deserialize(serialize(x)), (x: unknown) => deserialize(new Uint8Array(v8.serialize(x)))]) {
    const out = copy(arr) as Array<Record<string, unknown>>;
    assert.deepEqual(out, arr);
    assert.deepEqual(out.map((o) => Object.keys(o)), arr.map((o) => Object.keys(o)));
  }
  const g = { get a() { delete (this as Record<string, unknown>).b; return 1; }, b: 2, c: 3 };
  assert.deepEqual(clone(g), structuredClone(g));
  assert.deepEqual(deserialize(serialize({ ...g })), { a: 1, c: 3 });
  const p = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
  for (const out of [clone(p), deserialize(serialize(p))] as Array<Record<string, unknown>>) {
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.keys(out), ['__proto__', 'y']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')!.value, { x: 1 });
  }
});

test('worker helper: bytes are transferred and decoded', () => {
  const { port1, port2 } = new MessageChannel();
  let sent: unknown[] = [];
  const fake = { postMessage(m: unknown, t?: unknown) { sent = [m, t]; } };
  postSerialized(fake, { a: [1, 2] });
  const [m, t] = sent as [Uint8Array, ArrayBuffer[]];
  assert.ok(m instanceof Uint8Array);
  assert.equal(t[0], m.buffer);
  assert.deepEqual(receiveSerialized(m), { a: [1, 2] });
  assert.deepEqual(receiveSerialized({ data: m }), { a: [1, 2] });
  port1.close();
  port2.close();
});
