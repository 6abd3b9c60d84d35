// The WPT structured-clone battery (html/webappapis/structured-clone/structured-clone-battery-of-tests.js), its
// cases rewritten as our own tests and run twice: against clone() and against deserialize(serialize(x)).
// Cases that need a document (FileList, ImageData, ImageBitmap) have no Node equivalent and are listed as skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clone } from '../../src/clone/clone.js';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize } from '../../src/clone/deserialize.js';

type Copier = (x: unknown) => unknown;
const COPIERS: Array<[string, Copier]> = [
  ['clone', (x) => clone(x)],
  ['wire', (x) => deserialize(serialize(x))],
];

const same = (a: unknown, b: unknown): void => assert.ok(Object.is(a, b), `${String(a)} is not ${String(b)}`);

function primitiveCase(name: string, v: unknown): void {
  for (const [how, copy] of COPIERS) test(`wpt ${how}: primitive ${name}`, () => same(copy(v), v));
}
primitiveCase('undefined', undefined);
primitiveCase('null', null);
primitiveCase('true', true);
primitiveCase('false', false);
primitiveCase('string, empty string', '');
primitiveCase('string, lone high surrogate', '\uD800');
primitiveCase('string, lone low surrogate', '\uDC00');
primitiveCase('string, NUL', '\u0000');
primitiveCase('string, astral character', '\uDBFF\uDFFD');
for (const n of [0.2, 0, -0, NaN, Infinity, -Infinity, 9007199254740992, -9007199254740992, 9007199254740994, -9007199254740994]) {
  primitiveCase(`number, ${Object.is(n, -0) ? '-0' : String(n)}`, n);
}
for (const b of [0n, -0n, -9007199254740994000n, -9007199254740994000900719925474099400090071992547409940009007199254740994000n]) {
  primitiveCase(`BigInt, ${b}n`, b);
}

const PRIMS = [undefined, null, true, false, '', '\uD800', '\uDC00', '\u0000', '\uDBFF\uDFFD', 0.2, 0, -0, NaN, Infinity, -Infinity,
  9007199254740992, -9007199254740992, 9007199254740994, -9007199254740994];

for (const [how, copy] of COPIERS) {
  test(`wpt ${how}: structural clone of an object`, () => {
    const obj = { a: 1, b: { a: 1, b: [2, 3, 4] }, c: [7, 8, 9] };
    const c = copy(obj);
    assert.equal(JSON.stringify(c), JSON.stringify(obj));
    assert.notEqual(c, obj);
  });
  test(`wpt ${how}: Array primitives`, () => {
    const a = [...PRIMS, -12n, -0n, 0n];
    const c = copy(a) as unknown[];
    assert.ok(Array.isArray(c));
    assert.notEqual(c, a);
    assert.equal(c.length, a.length);
    a.forEach((v, i) => same(c[i], v));
  });
  test(`wpt ${how}: Object primitives`, () => {
    const o: Record<string, unknown> = {};
    PRIMS.forEach((v, i) => { o[`k${i}`] = v; });
    Object.assign(o, { '0.2': 0.2, '0': 0, '-0': -0, NaN: NaN, Infinity: Infinity });
    const c = copy(o) as Record<string, unknown>;
    assert.ok(c instanceof Object && !Array.isArray(c));
    assert.notEqual(c, o);
    for (const k in o) same(c[k], o[k]);
    assert.deepEqual(Object.keys(c), Object.keys(o));
  });

  const wrapperCase = (label: string, make: () => object, T: (v: unknown) => unknown, Ctor: Function): void => {
    test(`wpt ${how}: ${label}`, () => {
      const input = make();
      const c = copy(input) as object;
      assert.ok(c instanceof Ctor, `instanceof ${Ctor.name}`);
      same(T(c), T(input));
      assert.notEqual(c, input);
      // in an array and in an object
      const ca = copy([input, input]) as object[];
      assert.ok(ca[0] instanceof Ctor);
      assert.equal(ca[0], ca[1]);
      const co = copy({ x: input }) as { x: object };
      same(T(co.x), T(input));
    });
  };
  wrapperCase('Boolean true', () => new Boolean(true), (v) => String(v), Boolean);
  wrapperCase('Boolean false', () => new Boolean(false), (v) => String(v), Boolean);
  for (const s of ['', '\uD800', '\uDC00', '\u0000', '\uDBFF\uDFFD']) wrapperCase(`String ${JSON.stringify(s)}`, () => new String(s), (v) => String(v), String);
  for (const n of [0.2, 0, -0, NaN, Infinity, -Infinity, 9007199254740992, -9007199254740992, 9007199254740994, -9007199254740994]) {
    wrapperCase(`Number ${Object.is(n, -0) ? '-0' : n}`, () => new Number(n), (v) => Number(v), Number);
  }
  wrapperCase('BigInt -9007199254740994n', () => Object(-9007199254740994n), (v) => BigInt(v as bigint), BigInt);
  for (const t of [0, -0, -8.64e15, 8.64e15]) wrapperCase(`Date ${t}`, () => new Date(t), (v) => Number(v), Date);

  const regexpCase = (label: string, make: () => RegExp, source: string): void => {
    test(`wpt ${how}: RegExp ${label}`, () => {
      for (const wrap of [(r: RegExp) => r, (r: RegExp) => [r], (r: RegExp) => ({ x: r })]) {
        const input = make();
        const w = wrap(input);
        const cw = copy(w) as RegExp | RegExp[] | { x: RegExp };
        const c = (cw instanceof RegExp ? cw : Array.isArray(cw) ? cw[0] : cw.x) as RegExp;
        assert.ok(c instanceof RegExp);
        for (const f of ['global', 'ignoreCase', 'multiline', 'sticky', 'unicode'] as const) assert.equal(c[f], input[f], f);
        assert.equal(c.source, source);
        assert.equal(c.lastIndex, 0);
        assert.notEqual(c, input);
      }
    });
  };
  regexpCase('flags and lastIndex', () => { const r = /foo/gim; r.lastIndex = 2; return r; }, 'foo');
  regexpCase('sticky flag', () => new RegExp('foo', 'y'), 'foo');
  regexpCase('unicode flag', () => new RegExp('foo', 'u'), 'foo');
  regexpCase('empty', () => new RegExp(''), '(?:)');
  regexpCase('slash', () => new RegExp('/'), '\\/');
  regexpCase('new line', () => new RegExp('\n'), '\\n');

  const compareError = (c: unknown, input: Error): void => {
    assert.ok(c instanceof Error);
    const e = c as Error & { foo?: unknown };
    assert.equal(e.constructor, input.constructor);
    assert.equal(e.name, input.name);
    assert.equal(Object.prototype.hasOwnProperty.call(e, 'message'), Object.prototype.hasOwnProperty.call(input, 'message'));
    assert.equal(e.message, input.message);
    assert.equal(e.foo, undefined);
  };
  test(`wpt ${how}: Empty Error object`, () => { const e = new Error(); compareError(copy(e), e); });
  for (const C of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]) {
    test(`wpt ${how}: ${C.name} object`, () => {
      const e = new C('Error message here') as Error & { foo?: string };
      e.foo = 'testing';
      compareError(copy(e), e);
    });
  }

  test(`wpt ${how}: Array sparse`, () => {
    const a = new Array(10);
    const c = copy(a) as unknown[];
    assert.equal(c.length, 10);
    assert.equal(Object.keys(c).length, 0);
  });
  test(`wpt ${how}: Array with non-index property`, () => {
    const a: unknown[] & { foo?: string } = [];
    a.foo = 'bar';
    const c = copy(a) as unknown[] & { foo?: string };
    assert.ok(Array.isArray(c));
    assert.equal(c.foo, 'bar');
  });
  test(`wpt ${how}: Object with index property and length`, () => {
    const c = copy({ '0': 'foo', length: 1 }) as Record<string, unknown>;
    assert.ok(!Array.isArray(c));
    assert.equal(c[0], 'foo');
    assert.equal(c.length, 1);
  });
  test(`wpt ${how}: Array with circular reference`, () => {
    const a: unknown[] = [];
    a[0] = a;
    const c = copy(a) as unknown[];
    assert.equal(c[0], c);
  });
  test(`wpt ${how}: Object with circular reference`, () => {
    const o: Record<string, unknown> = {};
    o.x = o;
    const c = copy(o) as Record<string, unknown>;
    assert.equal(c.x, c);
  });
  test(`wpt ${how}: identical property values`, () => {
    const obj = {};
    const ca = copy([obj, obj]) as object[];
    assert.equal(ca[0], ca[1]);
    const co = copy({ x: obj, y: obj }) as { x: object; y: object };
    assert.equal(co.x, co.y);
  });
  test(`wpt ${how}: Object with property on prototype`, () => {
    const Foo = function (this: object) {} as unknown as new () => object;
    Foo.prototype = { foo: 'bar' };
    const c = copy(new Foo()) as object;
    assert.ok(!('foo' in c));
  });
  test(`wpt ${how}: Object with non-enumerable property`, () => {
    const o = {};
    Object.defineProperty(o, 'foo', { value: 'bar', enumerable: false, writable: true, configurable: true });
    assert.ok(!('foo' in (copy(o) as object)));
  });
  test(`wpt ${how}: Object with non-writable / non-configurable property`, () => {
    const o1 = {};
    Object.defineProperty(o1, 'foo', { value: 'bar', enumerable: true, writable: false, configurable: true });
    const c1 = copy(o1) as { foo: string };
    c1.foo += ' baz';
    assert.equal(c1.foo, 'bar baz');
    const o2 = {};
    Object.defineProperty(o2, 'foo', { value: 'bar', enumerable: true, writable: true, configurable: false });
    const c2 = copy(o2) as { foo?: string };
    assert.equal(c2.foo, 'bar');
    delete c2.foo;
    assert.ok(!('foo' in c2));
  });
  test(`wpt ${how}: Object with a getter that throws`, () => {
    const exception = new Error();
    const o = { get testProperty(): never { throw exception; } };
    assert.throws(() => copy(o), (e) => e === exception);
  });
  test(`wpt ${how}: ObjectPrototype must lose its exotic-ness when cloned`, () => {
    const c = copy(Object.prototype) as object;
    assert.notEqual(c, Object.prototype);
    assert.ok(c instanceof Object);
    const proto = { some: 'proto' };
    Object.setPrototypeOf(c, proto);
    assert.equal(Object.getPrototypeOf(c), proto);
  });
  test(`wpt ${how}: Resizable ArrayBuffer`, () => {
    const ab = new (ArrayBuffer as unknown as new (n: number, o: object) => ArrayBuffer & { maxByteLength: number; resizable: boolean })(16, { maxByteLength: 1024 });
    const c = copy(ab) as typeof ab;
    assert.ok(c instanceof ArrayBuffer);
    assert.equal(c.byteLength, 16);
    assert.equal(c.maxByteLength, 1024);
    assert.equal(c.resizable, true);
  });
  const viewCase = (label: string, make: () => ArrayBufferView & { length?: number }): void => {
    test(`wpt ${how}: ${label}`, () => {
      const input = make();
      const c = copy(input) as typeof input;
      assert.equal(c.constructor, input.constructor);
      assert.equal(c.byteLength, input.byteLength);
      assert.equal(c.byteOffset, input.byteOffset);
      assert.notEqual(c.buffer, input.buffer);
      // length tracking survives: growing the copy's buffer grows the copy
      (c.buffer as unknown as { resize(n: number): void }).resize(32);
      assert.equal(c.byteLength, 32);
    });
  };
  const rab = (): ArrayBuffer => new (ArrayBuffer as unknown as new (n: number, o: object) => ArrayBuffer)(16, { maxByteLength: 1024 });
  viewCase('Length-tracking TypedArray', () => new Uint8Array(rab()));
  viewCase('Length-tracking DataView', () => new DataView(rab()));
  for (const [label, make] of [
    ['Serializing OOB TypedArray throws', () => { const ab = rab(); const ta = new Uint8Array(ab, 8); (ab as unknown as { resize(n: number): void }).resize(0); return ta; }],
    ['Serializing OOB DataView throws', () => { const ab = rab(); const dv = new DataView(ab, 8); (ab as unknown as { resize(n: number): void }).resize(0); return dv; }],
  ] as Array<[string, () => unknown]>) {
    test(`wpt ${how}: ${label}`, () => {
      assert.throws(() => copy(make()), (e: unknown) => how === 'clone' ? (e as Error).name === 'DataCloneError' && (e as { code?: number }).code === 25 : (e as { code?: string }).code === 'SC_DATA_CLONE');
    });
  }
}

// Platform objects: clone() copies them as the runtime does; the wire format cannot carry them (SC_DATA_CLONE).
test('wpt clone: Blob basic, empty, NUL, in arrays and objects', async () => {
  for (const parts of [['foo'], [''], ['\u0000'], [new Uint8Array([0xed, 0xa0, 0x80])]]) {
    const b = new Blob(parts as BlobPart[], { type: 'text/x-bar' });
    const c = clone(b);
    assert.ok(c instanceof Blob);
    assert.notEqual(c, b);
    assert.equal(c.size, b.size);
    assert.equal(c.type, b.type);
    assert.deepEqual(new Uint8Array(await c.arrayBuffer()), new Uint8Array(await b.arrayBuffer()));
    const ca = clone([b, b]);
    assert.equal(ca[0], ca[1]);
    assert.ok(clone({ x: b }).x instanceof Blob);
  }
});
test('wpt clone: File basic', { skip: typeof File !== 'function' ? 'no global File in this Node' : false }, () => {
  const f = new File(['foo'], 'bar', { type: 'text/x-bar', lastModified: 42 });
  const c = clone(f);
  // the runtime decides: Node 20's structuredClone gives a Blob for a File, browsers give a File
  const native = structuredClone(f);
  assert.equal(Object.getPrototypeOf(c), Object.getPrototypeOf(native));
  assert.equal(c.size, 3);
  assert.equal(c.type, 'text/x-bar');
  if (c instanceof File) {
    assert.equal(c.name, 'bar');
    assert.equal(c.lastModified, 42);
  }
});
test('wpt wire: Blob cannot be serialized to bytes', () => {
  assert.throws(() => serialize(new Blob(['x'])), (e: unknown) => (e as { code?: string }).code === 'SC_DATA_CLONE');
});
test('wpt clone: a non-serializable platform object clones as the runtime clones it', () => {
  const r = new Response();
  let native: unknown;
  let nativeErr: unknown;
  try { native = structuredClone(r); } catch (e) { nativeErr = e; }
  if (nativeErr) assert.throws(() => clone(r), (e: unknown) => (e as Error).name === (nativeErr as Error).name);
  else assert.deepEqual(clone(r), native);
});
test('wpt clone: Growable SharedArrayBuffer is shared or refused as the runtime does', () => {
  const sab = new (SharedArrayBuffer as unknown as new (n: number, o: object) => SharedArrayBuffer & { growable: boolean; maxByteLength: number })(16, { maxByteLength: 1024 });
  const c = clone(sab) as typeof sab;
  assert.ok(c instanceof SharedArrayBuffer);
  assert.equal(c.byteLength, 16);
  assert.throws(() => serialize(sab), (e: unknown) => (e as { code?: string }).code === 'SC_DATA_CLONE');
});
test('wpt: FileList, ImageData, ImageBitmap cases', { skip: 'need a document (requiresDocument in the battery): Node has no FileList, ImageData or ImageBitmap' }, () => {});
