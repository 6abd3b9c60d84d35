#!/usr/bin/env node
// Generates vectors/clone/{accept,reject}/ (clone-decode and clone-encode cases, vectors/SCHEMA.md).
//
//   node vectors/src/clone/generate.mjs          write the cases (replaces vectors/clone/)
//   node vectors/src/clone/generate.mjs --check  regenerate in memory, fail if vectors/clone/ differs
//   ... --with-proposed                           also write the cases that need a contract extension (PROPOSED)
//
// Needs Node 20 (V8 11.3): every case is checked against real V8 and against the reference codec in
// conformance/oracles/reference.mjs before anything is written; any disagreement aborts the run.
// Rule ids refer to spec/structured-clone.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  H, hex, varint, dbl, one, ipcBytes, cases, getProblems, describe,
  decodeAccept, decodeReject, decodeFromValue, encodeAccept, encodeReject,
} from './lib.mjs';
import { rawBytes } from './lib.mjs';
import { decode as refDecode } from '../../../conformance/oracles/reference.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, '../../clone');
const V8UT = 'V8 test/unittests/objects/value-serializer-unittest.cc';

// =================================================================== 1. decode: bytes V8 writes for JS values
// Each value gives sc-raw-<name> (new v8.Serializer, raw dialect) and, when the bytes differ,
// sc-node-<name> (v8.serialize, Node host-object dialect).
const withStack = (e, s) => { e.stack = s; return e; };
const noStack = (e) => { e.stack = undefined; return e; };
const V = [
  // oddballs and numbers
  ['undefined', () => undefined, ['SC-W-05'], 'undefined'],
  ['null', () => null, ['SC-W-05'], 'null'],
  ['true', () => true, ['SC-W-05'], 'true'],
  ['false', () => false, ['SC-W-05'], 'false'],
  ['int-0', () => 0, ['SC-W-06', 'SC-D-08'], 'number 0 as I'],
  ['int-1', () => 1, ['SC-W-06', 'SC-D-08'], 'number 1 as I (zigzag 2)'],
  ['int-minus-1', () => -1, ['SC-W-06', 'SC-D-08'], 'number -1 as I (zigzag 1)'],
  ['int-64', () => 64, ['SC-W-01', 'SC-W-06'], '64 needs a two-byte varint'],
  ['int32-max', () => 2147483647, ['SC-W-06', 'SC-D-08'], '2^31-1, the largest I'],
  ['int32-min', () => -2147483648, ['SC-W-06', 'SC-D-08'], '-2^31, the smallest I'],
  ['double-2p31', () => 2 ** 31, ['SC-W-06', 'SC-D-08'], '2^31 does not fit int32: N'],
  ['double-minus-2p31-minus-1', () => -(2 ** 31) - 1, ['SC-W-06', 'SC-D-08'], '-2^31-1: N'],
  ['double-1-5', () => 1.5, ['SC-W-06'], '1.5 as N'],
  ['double-minus-0', () => -0, ['SC-W-06', 'SC-D-08', 'SC-N-04'], '-0 keeps its sign'],
  ['double-nan', () => NaN, ['SC-W-06', 'SC-D-08', 'SC-N-04'], 'NaN'],
  ['double-infinity', () => Infinity, ['SC-W-06', 'SC-N-04'], 'Infinity'],
  ['double-minus-infinity', () => -Infinity, ['SC-W-06', 'SC-N-04'], '-Infinity'],
  ['double-2p53-minus-1', () => 2 ** 53 - 1, ['SC-W-06'], 'Number.MAX_SAFE_INTEGER'],
  ['double-2p53', () => 2 ** 53, ['SC-W-06'], '2^53 (2^53+1 is the same double)'],
  ['double-2p53-plus-2', () => 2 ** 53 + 2, ['SC-W-06'], '2^53+2'],
  ['double-min-subnormal', () => 5e-324, ['SC-W-06'], 'smallest subnormal double'],
  ['double-max', () => Number.MAX_VALUE, ['SC-W-06'], 'largest finite double'],
  // BigInt
  ['bigint-0', () => 0n, ['SC-W-07', 'SC-D-09'], '0n has no digits'],
  ['bigint-1', () => 1n, ['SC-W-07', 'SC-D-09'], '1n, one 8-byte digit'],
  ['bigint-minus-1', () => -1n, ['SC-W-07', 'SC-D-09'], '-1n: sign bit set'],
  ['bigint-2p63', () => 2n ** 63n, ['SC-W-07'], '2^63 fills one digit'],
  ['bigint-2p64', () => 2n ** 64n, ['SC-W-07'], '2^64 needs two digits'],
  ['bigint-minus-2p64', () => -(2n ** 64n), ['SC-W-07'], '-(2^64)'],
  ['bigint-huge', () => 2n ** 300n + 12345678901234567890n, ['SC-W-07', 'SC-D-09'], 'a 301-bit BigInt'],
  // strings
  ['string-empty', () => '', ['SC-W-08', 'SC-D-10'], 'empty string'],
  ['string-ascii', () => 'hello', ['SC-W-08', 'SC-D-10'], 'ASCII as a one-byte string'],
  ['string-latin1', () => 'hé', ['SC-W-08', 'SC-D-10'], 'Latin-1 (not UTF-8) one-byte string'],
  ['string-latin1-ff', () => 'ÿ\u0080', ['SC-W-08', 'SC-D-10'], 'one-byte string with U+00FF and U+0080'],
  ['string-bmp', () => 'h€', ['SC-W-08', 'SC-D-10'], 'BMP character: two-byte string'],
  ['string-astral', () => '😀', ['SC-W-08', 'SC-D-10'], 'astral character: surrogate pair'],
  ['string-lone-high-surrogate', () => 'a\ud800b', ['SC-W-08', 'SC-D-10', 'SC-N-03'], 'lone high surrogate survives (u16 form)'],
  ['string-lone-low-surrogate', () => '\udc00', ['SC-W-08', 'SC-N-03'], 'lone low surrogate (u16 form)'],
  ['string-reversed-pair', () => '\udc00\ud800', ['SC-W-08', 'SC-N-03'], 'low then high surrogate: two lone surrogates'],
  ['string-padding', () => ['a', '€'], ['SC-W-03', 'SC-W-08', 'SC-E-05'], 'V8 pads before `c` so UTF-16 starts at an even offset'],
  ['string-long-two-byte', () => `${' '.repeat(200)}😀`, ['SC-W-03', 'SC-W-08'], 'two-byte string with a 2-byte length varint and padding'],
  // objects
  ['object-empty', () => ({}), ['SC-W-09'], 'empty object'],
  ['object-one', () => ({ a: 1 }), ['SC-W-09', 'SC-W-10'], 'one string key'],
  ['object-key-order', () => ({ b: 1, a: 2, c: 3 }), ['SC-W-09', 'SC-D-12'], 'string keys keep insertion order'],
  ['object-integer-keys', () => ({ b: 2, 1: 'a', 0: 'z' }), ['SC-W-10', 'SC-D-12'], 'integer keys are written as numbers, first and ascending'],
  ['object-index-boundary', () => ({ a: 3, 4294967295: 1, 4294967294: 2, 2147483648: 4 }), ['SC-W-10', 'SC-D-12', 'SC-D-13'], '2^32-2 is an index (N key), 2^32-1 is not (string key)'],
  ['object-empty-key', () => ({ '': 1 }), ['SC-W-09'], 'empty-string key'],
  ['object-proto-key', () => JSON.parse('{"__proto__": {"x": 1}}'), ['SC-W-09', 'SC-D-12'], 'an own property named __proto__ stays an own property'],
  ['object-two-byte-key', () => ({ é: 1, '€': 2 }), ['SC-W-09', 'SC-W-08'], 'one-byte and two-byte keys'],
  ['object-keys-nul-join', () => [{ a: 1, b: 2 }, { a: 3, b: 4 }, { a: 5, b: 6 }, { 'a\u0000b': 7 }, { 'a\u0000b': 8 }, { 'a\u0000b': 9 }, { a: 10, b: 11 }, { 'a\u0000b': 12, c: 13 }, { a: 14, 'b\u0000c': 15 }, {}, { '': 16 }, {}, { '': 17 }], ['SC-W-09', 'SC-D-12'], 'repeated key lists that a NUL join would confuse (a, b and "a\\0b"; [] and [""]) stay apart (shape caches)'],
  ['object-lone-surrogate-key', () => ({ '\ud800': 1 }), ['SC-W-09', 'SC-N-03'], 'a key with a lone surrogate (u16 key form)'],
  ['object-nested', () => ({ a: { b: { c: [1, { d: null }] } }, e: 'x' }), ['SC-W-09', 'SC-W-21'], 'nested objects and arrays'],
  // arrays
  ['array-empty', () => [], ['SC-W-11'], 'empty array: dense'],
  ['array-dense', () => [1, 2, 3], ['SC-W-11', 'SC-D-14'], 'packed array: dense'],
  ['array-mixed', () => [1, 'a', null, undefined, true, 1.5], ['SC-W-11'], 'dense array of mixed values'],
  ['array-doubles', () => [1.5, 2], ['SC-W-11', 'SC-E-15'], 'packed double array: V8 writes 2 as N'],
  ['array-undefined-element', () => [undefined], ['SC-W-11'], 'undefined element is not a hole'],
  ['array-holey', () => [1, , 3], ['SC-W-12', 'SC-D-15'], 'holey array: V8 writes it sparse'],
  ['array-holey-full', () => new Array(3).fill(1), ['SC-W-12', 'SC-E-07', 'SC-E-15'], 'HOLEY array without holes: V8 still writes it sparse'],
  ['array-all-holes', () => new Array(5), ['SC-W-12', 'SC-D-15'], 'array of 5 holes'],
  ['array-sparse-far', () => { const a = []; a[10] = 1; return a; }, ['SC-W-12', 'SC-D-15'], 'a[10] = 1'],
  ['array-sparse-huge-length', () => { const a = []; a[4294967294] = 1; return a; }, ['SC-W-12', 'SC-W-10', 'SC-L-04'], 'length 2^32-1: index key written as N, nothing allocated'],
  ['array-extra-props', () => Object.assign([1, 2], { x: 'y' }), ['SC-W-11', 'SC-D-14'], 'dense array with a named property'],
  ['array-sparse-extra-props', () => Object.assign(new Array(3), { 1: 'b', foo: 'bar' }), ['SC-W-12', 'SC-D-15'], 'sparse array with an element and a named property'],
  ['array-nested', () => [[1, [2, [3]]], []], ['SC-W-11'], 'nested arrays'],
  // identity
  ['cycle-object', () => { const o = {}; o.self = o; return o; }, ['SC-W-21', 'SC-D-25', 'SC-N-01'], 'object referring to itself'],
  ['cycle-array', () => { const a = []; a[0] = a; return a; }, ['SC-W-21', 'SC-D-25'], 'array containing itself'],
  ['shared-reference', () => { const x = {}; return [x, x]; }, ['SC-W-21', 'SC-D-25', 'SC-N-01'], 'the same object twice'],
  ['shared-deep', () => { const x = { v: 1 }; const y = [x]; return { a: y, b: { c: x, d: y } }; }, ['SC-W-21', 'SC-N-01'], 'shared objects at several depths'],
  ['cycle-map', () => { const m = new Map(); m.set(m, m); return m; }, ['SC-W-16', 'SC-W-21'], 'map that is its own key and value'],
  // Date
  ['date-epoch', () => new Date(0), ['SC-W-13', 'SC-D-17'], 'Date(0)'],
  ['date-recent', () => new Date(1700000000123), ['SC-W-13'], 'a recent Date with milliseconds'],
  ['date-before-1970', () => new Date(Date.UTC(1867, 6, 1)), ['SC-W-13'], 'negative time value'],
  ['date-nan', () => new Date(NaN), ['SC-W-13', 'SC-D-17', 'SC-N-04'], 'invalid Date (NaN)'],
  // RegExp
  ...['d', 'g', 'i', 'm', 's', 'u', 'v', 'y'].map((f) => [`regexp-flag-${f}`, () => new RegExp('a.b', f), ['SC-W-15', 'SC-D-19'], `RegExp with flag ${f}`]),
  ['regexp-flags-all', () => /ab/dgimsy, ['SC-W-15', 'SC-D-19'], 'RegExp with flags dgimsy (bits 0xAF)'],
  ['regexp-flags-guv', () => /[\p{L}--[a-z]]/gv, ['SC-W-15'], 'v-mode RegExp with a set subtraction'],
  ['regexp-empty', () => new RegExp(''), ['SC-W-15'], 'empty pattern: source (?:)'],
  ['regexp-slash', () => new RegExp('a/b\n'), ['SC-W-15', 'SC-D-19'], 'source is the escaped .source text (a\\/b\\n)'],
  ['regexp-two-byte', () => /€+/u, ['SC-W-15', 'SC-W-08'], 'two-byte source'],
  ['regexp-lone-surrogate', () => new RegExp('\ud800x'), ['SC-W-15', 'SC-N-03'], 'source with a lone surrogate (u16 field form)'],
  // Map / Set
  ['map-empty', () => new Map(), ['SC-W-16'], 'empty Map'],
  ['map-one', () => new Map([[1, 2]]), ['SC-W-16', 'SC-D-20'], 'Map{1 => 2}'],
  ['map-order-and-object-keys', () => { const k = { k: 1 }; return new Map([['z', 1], [k, 'obj'], [1, k], [NaN, 0]]); }, ['SC-W-16', 'SC-D-20', 'SC-W-21'], 'insertion order, object and NaN keys, shared key'],
  ['set-empty', () => new Set(), ['SC-W-17'], 'empty Set'],
  ['set-values', () => { const o = {}; return new Set(['a', 1, o, [o]]); }, ['SC-W-17', 'SC-D-20', 'SC-W-21'], 'Set with a shared object'],
  // wrappers
  ['boolean-object-true', () => Object(true), ['SC-W-14', 'SC-D-18'], 'new Boolean(true)'],
  ['boolean-object-false', () => Object(false), ['SC-W-14'], 'new Boolean(false)'],
  ['number-object', () => Object(3), ['SC-W-14', 'SC-D-18'], 'new Number(3) is written as a double'],
  ['number-object-minus-0', () => Object(-0), ['SC-W-14', 'SC-N-04'], 'new Number(-0)'],
  ['number-object-nan', () => Object(NaN), ['SC-W-14'], 'new Number(NaN)'],
  ['string-object', () => Object('x'), ['SC-W-14', 'SC-D-18'], 'new String("x")'],
  ['string-object-two-byte', () => Object('€'), ['SC-W-14', 'SC-W-03'], 'new String("€"): padding inside the wrapper'],
  ['string-object-lone-surrogate', () => Object('\udbff'), ['SC-W-14', 'SC-N-03'], 'String object with a lone surrogate (u16 form)'],
  ['bigint-object', () => Object(1n), ['SC-W-14'], 'Object(1n)'],
  ['wrappers-shared', () => { const b = Object(true); return { a: b, b }; }, ['SC-W-14', 'SC-W-21'], 'wrapper objects have identity'],
  // ArrayBuffer
  ['arraybuffer-empty', () => new ArrayBuffer(0), ['SC-W-18', 'SC-D-21'], 'empty ArrayBuffer'],
  ['arraybuffer-bytes', () => new Uint8Array([0, 128, 255]).buffer, ['SC-W-18', 'SC-D-21'], 'ArrayBuffer with bytes'],
  ['arraybuffer-resizable', () => { const b = new ArrayBuffer(2, { maxByteLength: 8 }); new Uint8Array(b).set([7, 9]); return b; }, ['SC-W-18', 'SC-D-21'], 'resizable ArrayBuffer keeps its maximum'],
  // views: every kind (raw `B…V`; Node dialect `\ type length bytes`)
  ['int8array', () => new Int8Array([-128, 0, 127]), ['SC-W-19', 'SC-D-22'], 'Int8Array'],
  ['uint8array', () => new Uint8Array([1, 2, 3]), ['SC-W-19', 'SC-D-22'], 'Uint8Array'],
  ['uint8clampedarray', () => new Uint8ClampedArray([0, 255]), ['SC-W-19', 'SC-D-22'], 'Uint8ClampedArray'],
  ['int16array', () => new Int16Array([-32768, 256]), ['SC-W-19', 'SC-D-22'], 'Int16Array'],
  ['uint16array', () => new Uint16Array([65535, 1]), ['SC-W-19', 'SC-D-22'], 'Uint16Array'],
  ['int32array', () => new Int32Array([-2147483648, 7]), ['SC-W-19', 'SC-D-22'], 'Int32Array'],
  ['uint32array', () => new Uint32Array([4294967295]), ['SC-W-19', 'SC-D-22'], 'Uint32Array'],
  ['float32array', () => new Float32Array([0, -0.5, NaN, Infinity]), ['SC-W-19', 'SC-D-22'], 'Float32Array'],
  ['float64array', () => new Float64Array([1, -0]), ['SC-W-19', 'SC-D-22'], 'Float64Array'],
  ['bigint64array', () => new BigInt64Array([-1n, 2n ** 62n]), ['SC-W-19', 'SC-D-22'], 'BigInt64Array'],
  ['biguint64array', () => new BigUint64Array([2n ** 64n - 1n]), ['SC-W-19', 'SC-D-22'], 'BigUint64Array'],
  ['dataview', () => { const d = new DataView(new ArrayBuffer(3)); d.setUint8(1, 9); return d; }, ['SC-W-19', 'SC-D-22'], 'DataView'],
  ['buffer', () => Buffer.alloc(2, 'ab'), ['SC-W-19', 'SC-D-26'], 'Node Buffer: Node host type 10, read back as a Uint8Array'],
  ['empty-uint8array', () => new Uint8Array(0), ['SC-W-19'], 'empty Uint8Array'],
  ['views-share-buffer', () => { const b = new ArrayBuffer(4); return [new Uint8Array(b), new Uint16Array(b, 2, 1)]; }, ['SC-W-19', 'SC-W-21', 'SC-D-22', 'SC-N-05'], 'two views of one buffer: one `B`, then `^` + `V`'],
  ['view-with-offset', () => new Uint16Array(new Uint8Array([1, 2, 3, 4, 5, 6]).buffer, 2, 2), ['SC-W-19', 'SC-D-22'], 'Uint16Array at byte offset 2'],
  ['dataview-with-offset', () => new DataView(new Uint8Array([1, 2, 3, 4]).buffer, 1, 2), ['SC-W-19', 'SC-D-22'], 'DataView at offset 1, length 2'],
  ['buffer-and-view', () => { const b = new Uint8Array([5, 6]).buffer; return { b, v: new Uint8Array(b) }; }, ['SC-W-19', 'SC-W-21'], 'an ArrayBuffer and a view of it'],
  ['view-shared-twice', () => { const v = new Uint8Array([1]); return [v, v]; }, ['SC-W-19', 'SC-W-21'], 'the same view twice: second is `^` to the view'],
  ['view-length-tracking', () => { const b = new ArrayBuffer(4, { maxByteLength: 16 }); return new Uint16Array(b); }, ['SC-W-19', 'SC-D-22', 'SC-N-05'], 'length-tracking view on a resizable buffer (flags 3)'],
  ['view-fixed-on-resizable', () => { const b = new ArrayBuffer(4, { maxByteLength: 16 }); return new Uint8Array(b, 1, 2); }, ['SC-W-19', 'SC-D-22'], 'fixed-length view on a resizable buffer (flags 2)'],
  ['dataview-length-tracking', () => new DataView(new ArrayBuffer(4, { maxByteLength: 8 }), 1), ['SC-W-19', 'SC-D-22'], 'length-tracking DataView'],
  // Errors
  ['error-plain', () => withStack(new Error('m'), 'S'), ['SC-W-20', 'SC-D-24', 'SC-N-06'], 'Error with message and stack'],
  ...['EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError'].map((n) => [
    `error-${n.toLowerCase()}`, () => withStack(new globalThis[n]('m'), 'S'), ['SC-W-20', 'SC-D-24'], `${n}: prototype subtag`]),
  ['error-no-message', () => noStack(new Error()), ['SC-W-20', 'SC-D-24', 'SC-N-06'], 'Error without message or stack'],
  ['error-cause', () => noStack(new Error('m', { cause: 1 })), ['SC-W-20', 'SC-D-24'], 'Error with a primitive cause'],
  ['error-cause-object-and-stack', () => withStack(new TypeError('m', { cause: { a: [1] } }), 'S'), ['SC-W-20', 'SC-D-24', 'SC-E-15'], 'V8 11.3 writes message, cause, stack'],
  ['error-subclass', () => { class X extends RangeError {} return withStack(new X('m'), 'S'); }, ['SC-W-20', 'SC-N-06'], 'a RangeError subclass is a RangeError'],
  ['error-aggregate', () => withStack(new AggregateError([1], 'm'), 'S'), ['SC-W-20', 'SC-N-06'], 'AggregateError becomes Error; errors are dropped'],
  ['error-two-byte-message', () => withStack(new Error('€'), 'S'), ['SC-W-20', 'SC-W-08'], 'two-byte message'],
  ['error-lone-surrogate-message', () => withStack(new Error('\ud800'), 'a\udc00'), ['SC-W-20', 'SC-N-03'], 'message and stack with lone surrogates (u16 field form)'],
  ['error-in-object', () => ({ e: withStack(new Error('m'), 'S'), again: null }), ['SC-W-20', 'SC-W-21'], 'Error inside an object'],
];
for (const [name, make, rules, description] of V) decodeFromValue({ name, make, rules, description });

// =================================================================== 2. decode-only inputs V8 never writes
const A = (id, h, rules, description, extra = {}) => decodeAccept({ id, bytes: H(h), rules, description, dialect: extra.dialect || 'raw', ...extra });
const R = (id, h, code, offset, rules, description, extra = {}) => decodeReject({ id, bytes: H(h), code, offset, rules, description, dialect: extra.dialect || 'raw', ...extra });
const num = (v) => ({ t: 'number', v });
const str = (v) => ({ t: 'string', v });

A('sc-dec-utf8-ascii', `ff0f 53 05 ${hex(Buffer.from('hello'))}`, ['SC-W-08', 'SC-D-10'], '`S` UTF-8 string', { expect: str('hello') });
A('sc-dec-utf8-multibyte', `ff0f 53 ${varint(Buffer.byteLength('é€😀'))} ${hex(Buffer.from('é€😀'))}`, ['SC-W-08', 'SC-D-10'], '`S` with 2-, 3- and 4-byte sequences', { expect: str('é€😀') });
A('sc-dec-utf8-key', `ff0f 6f 53 02 ${hex(Buffer.from('é'))} 54 7b 01`, ['SC-W-08', 'SC-D-12'], '`S` as a property key', { expect: { t: 'object', id: 0, props: [['é', { t: 'bool', v: true }]] } });
A('sc-dec-uint32', 'ff0f 55 2a', ['SC-W-06', 'SC-D-08'], '`U` uint32', { expect: num(42) });
A('sc-dec-uint32-max', 'ff0f 55 ffffffff0f', ['SC-W-06', 'SC-D-04', 'SC-D-08'], '`U` 2^32-1: five-byte varint', { expect: num(4294967295) });
A('sc-dec-varint-non-minimal', 'ff0f 49 8080808000', ['SC-D-04'], 'non-minimal varints are accepted (5-byte zero)', { expect: num(0) });
A('sc-dec-version-non-minimal', 'ff 8f00 5f', ['SC-D-03', 'SC-D-04'], 'version varint 15 written in two bytes', { expect: { t: 'undefined' } });
A('sc-dec-int-zigzag-min', 'ff0f 49 ffffffff0f', ['SC-W-01', 'SC-D-08'], 'zigzag 2^32-1 is -2^31', { expect: num(-2147483648) });
A('sc-dec-padding-everywhere', 'ff0f 00 6f 00 220161 00 4902 00 7b01 00 00', ['SC-W-03', 'SC-D-06', 'SC-D-28'], 'padding before a value, a key, an end tag and after the value', { expect: { t: 'object', id: 0, props: [['a', num(1)]] } });
A('sc-dec-verify-count', 'ff0f 3f00 6f 3f01 220161 3f01 4902 7b01', ['SC-W-22', 'SC-D-06'], '`?` verify-count prefixes before values and keys are ignored', { expect: { t: 'object', id: 0, props: [['a', num(1)]] } });
A('sc-dec-verify-count-chain', 'ff0f 3f00 3f05 00 3f07 5f', ['SC-W-22', 'SC-D-06'], 'several `?` prefixes and padding in a row', { expect: { t: 'undefined' } });
A('sc-dec-verify-count-4000', 'ff0f ' + '3f00'.repeat(4000) + ' 492a', ['SC-W-22', 'SC-D-06', 'SC-L-02'], '4,000 `?` prefixes (8 KB) before one value: read in a loop, never by recursion (V8 reads and ignores each count)', { expect: { t: 'number', v: 21 } });
A('sc-dec-trailing-padding', 'ff0f 5f 00 00 00', ['SC-D-28'], 'padding after the top-level value is allowed', { expect: { t: 'undefined' } });
A('sc-dec-dense-holes', 'ff0f 41 03 2d 4902 2d 2400 03', ['SC-W-11', 'SC-D-14'], 'dense array with `-` holes', { expect: { t: 'array', id: 0, length: 3, items: [[1, num(1)]], props: [] } });
A('sc-dec-dense-hole-padding', 'ff0f 41 02 00 2d 00 5f 2400 02', ['SC-D-06', 'SC-D-14'], 'padding before a hole', { expect: { t: 'array', id: 0, length: 2, items: [[1, { t: 'undefined' }]], props: [] } });
A('sc-dec-dense-hole-then-key', 'ff0f 41 02 2d 4902 4900 54 2401 02', ['SC-D-14', 'SC-D-12'], 'a hole filled by a later index key', { expect: { t: 'array', id: 0, length: 2, items: [[0, { t: 'bool', v: true }], [1, num(1)]], props: [] } });
A('sc-dec-dense-index-beyond-length', 'ff0f 41 01 4902 4910 54 2401 01', ['SC-D-14'], 'an index key at or past the length extends the array', { expect: { t: 'array', id: 0, length: 9, items: [[0, num(1)], [8, { t: 'bool', v: true }]], props: [] } });
A('sc-dec-sparse-index-beyond-length', 'ff0f 61 02 4910 54 4001 02', ['SC-D-15'], 'sparse index key past the declared length extends the array', { expect: { t: 'array', id: 0, length: 9, items: [[8, { t: 'bool', v: true }]], props: [] } });
A('sc-dec-sparse-unordered-keys', 'ff0f 61 05 220178 54 4904 4902 4900 4904 4003 05', ['SC-D-15', 'SC-D-12'], 'keys in any order; the result lists indices ascending, then names', { expect: { t: 'array', id: 0, length: 5, items: [[0, num(2)], [2, num(1)]], props: [['x', { t: 'bool', v: true }]] } });
A('sc-dec-bigint-short', 'ff0f 5a 02 2a', ['SC-W-07', 'SC-D-09'], 'BigInt with a 1-byte digit storage', { expect: { t: 'bigint', v: '42' } });
A('sc-dec-bigint-odd-length', 'ff0f 5a 17 efcdab9078563412 334455', ['SC-W-07', 'SC-D-09'], 'negative BigInt with 11 bytes', { expect: { t: 'bigint', v: (-0x5544331234567890abcdefn).toString() } });
A('sc-dec-bigint-high-zero-digit', 'ff0f 5a 20 0a00000000000000 0000000000000000', ['SC-D-09'], 'zero high digit is allowed', { expect: { t: 'bigint', v: '10' } });
A('sc-dec-bigint-signed-zero-digits', 'ff0f 5a 11 0000000000000000', ['SC-D-09'], 'sign set with an all-zero digit is 0n', { expect: { t: 'bigint', v: '0' } });
A('sc-dec-bigint-bit31', 'ff0f 5a 8280808008 0a', ['SC-D-09'], 'bitfield bit 31 is ignored', { expect: { t: 'bigint', v: '10' } });
A('sc-dec-twobyte-odd-offset', 'ff0f 6f 63 02 ac20 54 7b01', ['SC-W-03', 'SC-D-10'], '`c` without padding at an odd offset', { expect: { t: 'object', id: 0, props: [['€', { t: 'bool', v: true }]] } });
A('sc-dec-twobyte-ascii', 'ff0f 63 04 6100 6200', ['SC-D-10'], '`c` holding only Latin-1 characters', { expect: str('ab') });
A('sc-dec-twobyte-extra-padding', 'ff0f 41 01 00 00 00 63 02 ac20 2400 01', ['SC-W-03', 'SC-D-06'], 'several padding bytes before `c`', { expect: { t: 'array', id: 0, length: 1, items: [[0, str('€')]], props: [] } });
A('sc-dec-key-uint32', 'ff0f 6f 55 feffffff0f 54 55 ffffffff0f 46 7b02', ['SC-D-13', 'SC-D-12'], '`U` keys: 2^32-2 is an index, 2^32-1 a name', { expect: { t: 'object', id: 0, props: [['4294967294', { t: 'bool', v: true }], ['4294967295', { t: 'bool', v: false }]] } });
A('sc-dec-key-negative-int', 'ff0f 6f 220162 54 49 01 46 7b02', ['SC-D-13'], '`I` -1 key is the name "-1" (not an index)', { expect: { t: 'object', id: 0, props: [['b', { t: 'bool', v: true }], ['-1', { t: 'bool', v: false }]] } });
A('sc-dec-key-double-index', `ff0f 6f 4e ${dbl(7)} 54 7b01`, ['SC-D-13'], '`N` 7.0 key is index 7', { expect: { t: 'object', id: 0, props: [['7', { t: 'bool', v: true }]] } });
A('sc-dec-key-double-minus-0', `ff0f 6f 4e ${dbl(-0)} 54 7b01`, ['SC-D-13'], '`N` -0 key is "0"', { expect: { t: 'object', id: 0, props: [['0', { t: 'bool', v: true }]] } });
A('sc-dec-key-string-index', 'ff0f 6f 220162 54 22023035 54 220135 46 7b03', ['SC-D-12'], '"5" is an index (first), "05" is a name', { expect: { t: 'object', id: 0, props: [['5', { t: 'bool', v: false }], ['b', { t: 'bool', v: true }], ['05', { t: 'bool', v: true }]] } });
A('sc-dec-map-duplicate-key', 'ff0f 3b 4902 4904 4906 5f 4902 4906 3a06', ['SC-D-20'], 'a repeated Map key keeps its first position and takes the last value', { expect: { t: 'map', id: 0, entries: [[num(1), num(3)], [num(3), { t: 'undefined' }]] } });
A('sc-dec-map-minus-0-key', `ff0f 3b 4e ${dbl(-0)} 4904 3a02`, ['SC-D-20'], 'Map key -0 becomes +0 (Map.prototype.set)', { expect: { t: 'map', id: 0, entries: [[num(0), num(2)]] } });
A('sc-dec-set-duplicates', `ff0f 27 4e ${dbl(NaN)} 4e 000000000000f47f 4900 4e ${dbl(-0)} 2c04`, ['SC-D-20'], 'Set values are SameValueZero-deduplicated (NaN twice, 0 and -0)', { expect: { t: 'set', id: 0, values: [num('NaN'), num(0)] } });
A('sc-dec-date-fraction', `ff0f 44 ${dbl(-1.5)}`, ['SC-D-17'], 'Date time value is truncated toward zero (TimeClip)', { expect: { t: 'date', id: 0, v: -1 } });
A('sc-dec-date-minus-0', `ff0f 44 ${dbl(-0)}`, ['SC-D-17'], 'Date -0 becomes +0', { expect: { t: 'date', id: 0, v: 0 } });
A('sc-dec-date-out-of-range', `ff0f 44 ${dbl(8.64e15 + 1)}`, ['SC-D-17'], 'Date beyond 8.64e15 ms is NaN', { expect: { t: 'date', id: 0, v: 'NaN' } });
A('sc-dec-date-limit', `ff0f 44 ${dbl(-8.64e15)}`, ['SC-D-17'], 'Date at -8.64e15 ms is kept', { expect: { t: 'date', id: 0, v: -8.64e15 } });
A('sc-dec-date-infinity', `ff0f 44 ${dbl(Infinity)}`, ['SC-D-17'], 'Date Infinity is NaN', { expect: { t: 'date', id: 0, v: 'NaN' } });
A('sc-dec-regexp-utf8-source', 'ff0f 52 530161 03', ['SC-D-11', 'SC-D-19'], 'RegExp source as `S`', { expect: { t: 'regexp', id: 0, source: 'a', flags: 'gi' } });
A('sc-dec-string-object-utf8', 'ff0f 73 3f00 5302 c3a9', ['SC-D-11', 'SC-D-18'], 'String object with a `?` prefix and `S` payload', { expect: { t: 'string-object', id: 0, v: 'é' } });
A('sc-dec-view-padding-before-v', 'ff0f 42 02 0000 00 00 56 42 00 02 00', ['SC-W-03', 'SC-D-22'], 'padding between a buffer and its `V`', { expect: { t: 'view', id: 1, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 0, base64: 'AAA=' }, byte_offset: 0, byte_length: 2, length_tracking: false } });
A('sc-dec-view-spurious-flags', 'ff0f 42 02 0000 56 42 00 02 04', ['SC-D-22'], 'view flag bits above bit 1 are ignored', { expect: { t: 'view', id: 1, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 0, base64: 'AAA=' }, byte_offset: 0, byte_length: 2, length_tracking: false } });
A('sc-dec-view-tracking-length', 'ff0f 7e 04 08 01020304 56 42 01 00 03', ['SC-D-22'], 'a length-tracking view takes its length from the buffer, not the wire', { expect: { t: 'view', id: 1, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 0, base64: 'AQIDBA==', max_byte_length: 8 }, byte_offset: 1, byte_length: 3, length_tracking: true } });
A('sc-dec-dataview-at-end', 'ff0f 42 02 0000 56 3f 02 00 00', ['SC-D-22'], 'zero-length DataView at the end of its buffer', { expect: { t: 'view', id: 1, kind: 'DataView', buffer: { t: 'arraybuffer', id: 0, base64: 'AAA=' }, byte_offset: 2, byte_length: 0, length_tracking: false } });
A('sc-dec-view-ref-buffer', 'ff0f 41 02 42 02 0102 5e 01 56 42 01 01 00 2400 02', ['SC-W-19', 'SC-W-21', 'SC-D-22', 'SC-N-05'], 'a buffer in an array, then a view of it through `^`', { expect: { t: 'array', id: 0, length: 2, items: [[0, { t: 'arraybuffer', id: 1, base64: 'AQI=' }], [1, { t: 'view', id: 2, kind: 'Uint8Array', buffer: { t: 'ref', id: 1 }, byte_offset: 1, byte_length: 1, length_tracking: false }]], props: [] } });
A('sc-dec-view-float16', 'ff0f 42 04 0000 003c 56 68 00 04 00', ['SC-W-19', 'SC-D-22'], 'Float16Array subtag `h` (V8 12.x+; Node 20 cannot read it)', { v8: 'unsupported', source: 'V8 src/objects/value-serializer.cc ArrayBufferViewTag::kFloat16Array (newer than V8 11.3)' });
A('sc-dec-error-new-order', 'ff0f 72 52 6d 22016d 73 220153 63 4902 2e', ['SC-W-20', 'SC-D-24'], 'Error subtags in the order newer V8 writes (m, s, c)', { expect: { t: 'error', id: 0, name: 'RangeError', message: 'm', stack: 'S', cause: num(1) } });
A('sc-dec-error-any-order', 'ff0f 72 6d 220161 73 220162 54 2e', ['SC-D-24'], 'prototype subtag after message and stack', { expect: { t: 'error', id: 0, name: 'TypeError', message: 'a', stack: 'b' } });
A('sc-dec-error-empty', 'ff0f 72 2e', ['SC-W-20', 'SC-D-24'], 'Error with no subtags', { expect: { t: 'error', id: 0, name: 'Error' } });
A('sc-dec-error-subtag-varint', 'ff0f 72 ed00 220161 2e', ['SC-D-04', 'SC-D-24'], 'subtags are u8 varints: ed 00 is `m`', { expect: { t: 'error', id: 0, name: 'Error', message: 'a' } });
A('sc-dec-error-circular-cause', 'ff0f 72 6d 22016d 63 5e00 2e', ['SC-D-24', 'SC-D-25'], 'an Error whose cause is itself (newer V8 reads it; V8 11.3 cannot)', { v8: 'rejects', expect: { t: 'error', id: 0, name: 'Error', message: 'm', cause: { t: 'ref', id: 0 } }, source: 'V8 value-serializer.cc ReadJSError (newer: the error is registered before its cause)' });
A('sc-dec-v13-primitive', 'ff0d 4954', ['SC-W-02', 'SC-W-27', 'SC-D-03'], 'version 13 header', { expect: num(42) });
A('sc-dec-v14-object', 'ff0e 6f 220161 22026278 7b01', ['SC-W-27', 'SC-D-03'], 'version 14 header', { expect: { t: 'object', id: 0, props: [['a', str('bx')]] } });
A('sc-dec-v13-view-no-flags', 'ff0d 42 02 0102 56 42 00 02', ['SC-W-27', 'SC-D-23'], 'version 13 views have no flags varint', { expect: { t: 'view', id: 1, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 0, base64: 'AQI=' }, byte_offset: 0, byte_length: 2, length_tracking: false } });
A('sc-dec-v13-view-in-array', 'ff0d 41 02 42 01 07 56 42 00 01 5f 2400 02', ['SC-W-27', 'SC-D-23'], 'version 13 view followed by another element', { expect: { t: 'array', id: 0, length: 2, items: [[0, { t: 'view', id: 2, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 1, base64: 'Bw==' }, byte_offset: 0, byte_length: 1, length_tracking: false }], [1, { t: 'undefined' }]], props: [] } });
A('sc-dec-v13-broken-flags', 'ff0d 7e 02 08 0000 56 42 00 02 02', ['SC-D-23'], '"broken v13": labelled 13 but written with view flags; read on retry', { expect: { t: 'view', id: 1, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 0, base64: 'AAA=', max_byte_length: 8 }, byte_offset: 0, byte_length: 2, length_tracking: false }, source: 'V8 value-serializer.cc ReadObjectWrapper (crbug.com/1284506)' });
A('sc-dec-v14-p-absent', 'ff0e 5f', ['SC-W-27'], 'version 14 header, undefined', { expect: { t: 'undefined' } });
A('sc-dec-node-float16', 'ff0f 5c 0d 04 0000003c', ['SC-W-23', 'SC-D-26'], 'Node host type 13 is Float16Array (newer Node)', { dialect: 'node', v8: 'unsupported', source: 'Node lib/v8.js arrayBufferViewIndexToType (newer than Node 20)' });
A('sc-dec-node-dataview', 'ff0f 5c 09 03 010203', ['SC-W-23', 'SC-D-26'], 'Node host type 9 is a DataView', { dialect: 'node' });
A('sc-dec-node-shared-ref', 'ff0f 41 02 5c 01 02 0102 5e 01 2400 02', ['SC-W-23', 'SC-D-25', 'SC-D-26'], 'a `^` to a Node host view gives the same view', { dialect: 'node', expect: { t: 'array', id: 0, length: 2, items: [[0, { t: 'view', id: 2, kind: 'Uint8Array', buffer: { t: 'arraybuffer', id: 1, base64: 'AQI=' }, byte_offset: 0, byte_length: 2, length_tracking: false }], [1, { t: 'ref', id: 2 }]], props: [] } });
A('sc-dec-node-misaligned-copy', 'ff0f 41 02 5f 5c 08 08 000000000000f03f 2400 02', ['SC-D-26'], 'a Float64Array host object at an odd offset (Node copies it)', { dialect: 'node' });
// Node child_process 'advanced' serialization (option node_ipc)
decodeAccept({ id: 'sc-ipc-view', bytes: ipcBytes(new Uint16Array([1, 2])), rules: ['SC-W-24', 'SC-D-27'], description: 'child_process advanced serialization: host sub-tag 0 then a Node view', dialect: 'node-ipc', options: { node_ipc: true }, source: 'bytes from lib/internal/child_process/serialization.js ChildProcessSerializer (replicated in vectors/src/clone/lib.mjs)' });
A('sc-ipc-plain-object', 'ff0f 41 03 5c 01 6f 220161 4902 7b01 5e01 5e02 2400 03', ['SC-W-24', 'SC-D-27', 'SC-D-25'], 'host sub-tag 1: a plain object follows; both its ids refer to it', { dialect: 'node-ipc', options: { node_ipc: true }, expect: { t: 'array', id: 0, length: 3, items: [[0, { t: 'object', id: 1, props: [['a', num(1)]] }], [1, { t: 'ref', id: 1 }], [2, { t: 'ref', id: 1 }]], props: [] } });
// limits at the edge
A('sc-dec-depth-at-limit', 'ff0f 41 01 6f 220161 3b 4900 27 2c00 3a02 7b01 2400 01', ['SC-D-29', 'SC-L-02'], 'nesting of exactly max_depth (4) containers', { options: { max_depth: 4 } });
A('sc-dec-max-bytes-at-limit', 'ff0f 22 01 61', ['SC-L-01'], 'input exactly max_bytes long', { options: { max_bytes: 5 }, expect: str('a') });
A('sc-dec-depth-refs-do-not-count', 'ff0f 41 01 41 01 5e 00 2400 01 2400 01', ['SC-D-29', 'SC-L-02'], 'a back-reference opens no level', { options: { max_depth: 2 } });

// =================================================================== 3. V8 unit-test vectors (decode)
// From V8 test/unittests/objects/value-serializer-unittest.cc. Most were written as version 9 and are checked
// there for every later version ("DecodeTestFutureVersions"); they are given here with version 13 (ff 0d),
// or 14 (ff 0e) where the test starts at 14. Tests that only apply up to version 13 keep 13.
const U = (id, h, test, rules, description, extra = {}) => A(`v8ut-${id}`, h, rules, description, { source: `${V8UT} ${test}`, ...extra });
const UR = (id, h, code, offset, test, rules, description, extra = {}) => R(`v8ut-rej-${id}`, h, code, offset, rules, description, { source: `${V8UT} ${test}`, ...extra });
U('oddball-undefined-blink', 'ff0d 3f00 5f 00', 'DecodeOddball', ['SC-W-05', 'SC-W-22', 'SC-D-28'], 'undefined as Blink wrote it: `?` prefix and trailing padding');
U('oddball-null-blink', 'ff0d 3f00 30 00', 'DecodeOddball', ['SC-W-05', 'SC-W-22'], 'null as Blink wrote it');
U('oddball-true', 'ff0d 54', 'DecodeOddball', ['SC-W-05'], 'true');
U('number-int32-42', 'ff0d 4954', 'DecodeNumber', ['SC-W-06'], '42 zigzag');
U('number-uint32-42', 'ff0d 552a', 'DecodeNumber', ['SC-W-06', 'SC-D-08'], '42 as `U`');
U('number-int32-160', 'ff0d 49c002', 'DecodeNumber', ['SC-W-06'], '160 zigzag, two bytes');
U('number-uint32-160', 'ff0d 55a001', 'DecodeNumber', ['SC-W-06'], '160 as `U`, two bytes');
U('number-double', 'ff0d 4e 000000000000d0bf', 'DecodeNumber', ['SC-W-06'], '-0.25');
U('number-quiet-nan', 'ff0d 4e 000000000000f87f', 'DecodeNumber', ['SC-W-06', 'SC-D-08'], 'quiet NaN');
U('number-signaling-nan', 'ff0d 4e 000000000000f47f', 'DecodeNumber', ['SC-W-06', 'SC-D-08'], 'signalling NaN reads as NaN');
U('bigint-4-bytes', 'ff0d 5a 08 2a000000', 'DecodeBigInt', ['SC-W-07', 'SC-D-09'], '42n with 4 digit bytes');
U('bigint-object-negative', 'ff0d 7a 11 2a00000000000000', 'DecodeBigInt', ['SC-W-14', 'SC-D-09'], 'BigInt object -42n');
U('bigint-8-bytes', 'ff0d 5a 10 efcdab9078563412', 'DecodeBigInt', ['SC-W-07'], '0x1234567890abcdefn');
U('bigint-11-bytes', 'ff0d 5a 17 efcdab9078563412 334455', 'DecodeBigInt', ['SC-W-07', 'SC-D-09'], '-0x5544331234567890abcdefn');
U('bigint-1-byte', 'ff0d 5a 02 2a', 'DecodeBigInt', ['SC-W-07', 'SC-D-09'], '42n with 1 digit byte');
U('string-utf8-empty', 'ff0d 53 00', 'DecodeString', ['SC-W-08'], 'empty `S`');
U('string-utf8-hello', 'ff0d 53 05 48656c6c6f', 'DecodeString', ['SC-W-08'], '`S` Hello');
U('string-utf8-quebec', 'ff0d 53 07 5175c3a9626563', 'DecodeString', ['SC-W-08', 'SC-D-10'], '`S` Québec');
U('string-utf8-emoji', 'ff0d 53 04 f09f918a', 'DecodeString', ['SC-W-08', 'SC-D-10'], '`S` emoji');
U('string-latin1-empty', 'ff0d 22 00', 'DecodeString', ['SC-W-08'], 'empty `"`');
U('string-latin1-quebec', 'ff0d 22 06 5175e9626563', 'DecodeString', ['SC-W-08'], '`"` Québec (Latin-1)');
U('string-twobyte-empty', 'ff0d 63 00', 'DecodeString', ['SC-W-08'], 'empty `c`');
U('string-twobyte-hello', 'ff0d 63 0a 480065006c006c006f00', 'DecodeString', ['SC-W-08'], '`c` Hello');
U('string-twobyte-emoji', 'ff0d 63 04 3dd84adc', 'DecodeString', ['SC-W-08'], '`c` emoji');
U('object-empty', 'ff0d 3f00 6f 7b00 00', 'DecodeDictionaryObject', ['SC-W-09'], 'empty object');
U('object-string-key', 'ff0d 3f00 6f 3f01 530161 3f01 4954 7b01', 'DecodeDictionaryObject', ['SC-W-09', 'SC-W-22'], '{a: 42} with `S` key and `?` prefixes');
U('object-integer-key', 'ff0d 3f00 6f 3f01 4954 3f01 530161 7b01', 'DecodeDictionaryObject', ['SC-W-10'], '{42: "a"}');
U('object-key-order', 'ff0d 3f00 6f 3f01 530178 3f01 4902 3f01 530179 3f01 4904 3f01 530161 3f01 4906 7b03', 'DecodeDictionaryObject', ['SC-D-12'], 'key order x, y, a');
U('object-enumeration-order', 'ff0d 3f00 6f 3f01 4902 3f01 4900 3f01 55feffffff0f 3f01 4906 3f01 530161 3f01 4904 3f01 530a 34323934393637323935 3f01 4902 7b04', 'DecodeDictionaryObject', ['SC-D-12', 'SC-D-13'], 'enumeration order 1, 4294967294, a, 4294967295');
U('object-self-reference', 'ff0d 3f00 6f 3f01 5304 73656c66 3f01 5e00 7b01 00', 'DecodeDictionaryObject', ['SC-W-21', 'SC-D-25'], 'object referring to itself');
U('array-dense', 'ff0d 3f00 41 05 3f01 4902 3f01 4904 3f01 4906 3f01 4908 3f01 490a 2400 05 00', 'DecodeArray', ['SC-W-11'], '[1, 2, 3, 4, 5]');
U('array-sparse', 'ff0d 3f00 61 e807 3f01 49 e807 3f01 4954 4001 e807', 'DecodeArray', ['SC-W-12'], 'length 1000, [500] = 42');
U('array-duplicate-reference', 'ff0d 3f00 41 02 3f01 6f 7b00 3f02 5e01 2400 02', 'DecodeArray', ['SC-W-21'], '[y, y]');
U('array-sparse-duplicate-reference', 'ff0d 3f00 61 e807 3f01 4902 3f01 6f 7b00 3f02 49 e807 3f02 5e01 4002 e807 00', 'DecodeArray', ['SC-W-21'], 'sparse [1] and [500] the same object');
U('array-self-reference', 'ff0d 3f00 41 01 3f01 5e00 2400 01 00', 'DecodeArray', ['SC-W-21'], 'y[0] = y');
U('array-sparse-self-reference', 'ff0d 3f00 61 e807 3f01 49 8e08 3f01 5e00 4001 e807', 'DecodeArray', ['SC-W-21'], 'sparse y[519] = y');
U('array-extra-property', 'ff0d 3f00 41 02 3f01 4902 3f01 4904 3f01 5303 666f6f 3f01 5303 626172 2401 02 00', 'DecodeArray', ['SC-W-11'], '[1, 2] with foo = "bar"');
U('array-sparse-extra-property', 'ff0d 3f00 61 e807 3f01 5303 666f6f 3f01 5303 626172 4001 e807 00', 'DecodeArray', ['SC-W-12'], 'length 1000 with foo = "bar"');
U('array-hole-vs-undefined', 'ff0d 61 02 4902 5f 4001 02', 'DecodeArray', ['SC-W-12', 'SC-D-15'], '[, undefined] written sparse');
U('array-dense-undefined', 'ff0d 41 01 5f 2400 01', 'DecodeDenseArrayContainingUndefined', ['SC-W-11'], '[undefined]');
U('array-dense-hole', 'ff0d 41 01 2d 2400 01', 'DecodeDenseArrayContainingUndefined', ['SC-W-11', 'SC-D-14'], '[,] as a dense hole');
U('date-1e6', 'ff0d 3f00 44 0000000080842e41 00', 'DecodeDate', ['SC-W-13'], 'Date(1e6)');
U('date-1867', 'ff0d 3f00 44 00002045278987c2 00', 'DecodeDate', ['SC-W-13'], 'Date 1867-07-01');
U('date-nan', 'ff0d 3f00 44 000000000000f87f 00', 'DecodeDate', ['SC-W-13'], 'Date(NaN)');
U('date-shared', 'ff0d 3f00 6f 3f01 530161 3f01 44 0020395037 6a7542 3f02 530162 3f02 5e01 7b02', 'DecodeDate', ['SC-W-21'], 'a: date, b: the same date');
U('boolean-object-true', 'ff0d 3f00 79 00', 'DecodeValueObjects', ['SC-W-14'], 'new Boolean(true)');
U('boolean-object-false', 'ff0d 3f00 78 00', 'DecodeValueObjects', ['SC-W-14'], 'new Boolean(false)');
U('boolean-object-shared', 'ff0d 3f00 6f 3f01 530161 3f01 79 3f02 530162 3f02 5e01 7b02', 'DecodeValueObjects', ['SC-W-14', 'SC-W-21'], 'a shared Boolean object');
U('number-object', 'ff0d 3f00 6e 00000000000045c0 00', 'DecodeValueObjects', ['SC-W-14'], 'new Number(-42)');
U('number-object-nan', 'ff0d 3f00 6e 000000000000f87f 00', 'DecodeValueObjects', ['SC-W-14'], 'new Number(NaN)');
U('number-object-shared', 'ff0d 3f00 6f 3f01 530161 3f01 6e 0000000000001840 3f02 530162 3f02 5e01 7b02', 'DecodeValueObjects', ['SC-W-14', 'SC-W-21'], 'a shared Number object');
U('string-object-latin1', 'ff0d 73 22 06 5175e9626563', 'DecodeValueObjects', ['SC-W-14', 'SC-D-11'], 'String object with a Latin-1 string');
U('regexp-latin1', 'ff0d 52 22 06 5175e9626563 02', 'DecodeRegExp', ['SC-W-15'], '/Québec/i');
U('map', 'ff0d 3f00 3b 3f01 4954 3f01 5303 666f6f 3a02', 'DecodeMap', ['SC-W-16'], 'Map{42 => "foo"}');
U('map-self', 'ff0d 3f00 3b 3f01 5e00 3f01 5e00 3a02 00', 'DecodeMap', ['SC-W-16', 'SC-W-21'], 'm.set(m, m)');
U('map-order', 'ff0d 3f00 3b 3f01 4902 3f01 4900 3f01 530161 3f01 4900 3f01 4906 3f01 4900 3f01 4904 3f01 4900 3a08', 'DecodeMap', ['SC-W-16', 'SC-D-20'], 'Map keys 1, a, 3, 2 in order');
U('set', 'ff0d 3f00 27 3f01 4954 3f01 5303 666f6f 2c02', 'DecodeSet', ['SC-W-17'], 'Set{42, "foo"}');
U('set-self', 'ff0d 3f00 27 3f01 5e00 2c01 00', 'DecodeSet', ['SC-W-17', 'SC-W-21'], 's.add(s)');
U('set-order', 'ff0d 3f00 27 3f01 4902 3f01 530161 3f01 4906 3f01 4904 2c04', 'DecodeSet', ['SC-W-17', 'SC-D-20'], 'Set 1, a, 3, 2 in order');
U('arraybuffer-empty', 'ff0d 3f00 42 00', 'DecodeArrayBuffer', ['SC-W-18'], 'empty ArrayBuffer');
U('arraybuffer-bytes', 'ff0d 3f00 42 03 0080ff 00', 'DecodeArrayBuffer', ['SC-W-18'], 'ArrayBuffer 0, 128, 255');
U('arraybuffer-shared', 'ff0d 3f00 6f 3f01 530161 3f01 42 00 3f02 530162 3f02 5e01 7b02 00', 'DecodeArrayBuffer', ['SC-W-18', 'SC-W-21'], 'a shared ArrayBuffer');
for (const [k, sub, n] of [['uint8', '42', 2], ['int8', '62', 2], ['uint16', '57', 4], ['int16', '77', 4], ['uint32', '44', 8], ['int32', '64', 8], ['float32', '66', 8], ['float64', '46', 16]]) {
  const zeros = '00'.repeat(n);
  U(`typedarray-${k}`, `ff0e 3f00 3f00 42 ${varint(n)} ${zeros} 56 ${sub} 00 ${varint(n)} 00`, 'DecodeTypedArray', ['SC-W-19', 'SC-D-22'], `${k} view, version 14 (with flags)`);
  U(`typedarray-${k}-v13`, `ff0d 3f00 3f00 42 ${varint(n)} ${zeros} 56 ${sub} 00 ${varint(n)}`, 'DecodeTypedArrayBackwardsCompatiblity', ['SC-W-19', 'SC-W-27', 'SC-D-23'], `${k} view, version 13 (no flags)`);
}
U('typedarray-values-uint8', 'ff0e 3f00 3f00 42 03 0180ff 56 42 00 03 00 00', 'DecodeTypedArray', ['SC-W-19'], 'Uint8Array 1, 128, 255');
U('typedarray-values-int16', 'ff0e 3f00 3f00 42 06 000000010080 56 77 00 06 00', 'DecodeTypedArray', ['SC-W-19'], 'Int16Array 0, 256, -32768');
U('typedarray-values-float32', 'ff0e 3f00 3f00 42 10 00000000 000000bf 0000c07f 0000807f 56 66 00 10 00', 'DecodeTypedArray', ['SC-W-19'], 'Float32Array 0, -0.5, NaN, Infinity');
const u8sharing = (ver, flags) => `ff${ver} 3f00 6f 3f01 5302 7538 3f01 3f01 42 20 ${'00'.repeat(32)} 56 42 00 20 ${flags} 3f03 5304 75385f32 3f03 5e02 3f03 5303 663332 3f03 3f03 5e01 56 66 04 14 ${flags} 3f04 530162 3f04 5e01 7b04`;
U('typedarray-sharing', u8sharing('0e', '00') + ' 00', 'DecodeTypedArray', ['SC-W-19', 'SC-W-21', 'SC-D-22'], 'u8, u8 again, f32 on the same buffer, the buffer');
U('typedarray-sharing-v13', u8sharing('0d', ''), 'DecodeTypedArrayBackwardsCompatiblity', ['SC-W-19', 'SC-W-27', 'SC-D-23'], 'views sharing a buffer, version 13');
U('dataview', 'ff0e 3f00 3f00 42 04 00000000 56 3f 01 02 00', 'DecodeDataView', ['SC-W-19'], 'DataView offset 1 length 2');
U('dataview-v13', 'ff0d 3f00 3f00 42 04 00000000 56 3f 01 02', 'DecodeDataViewBackwardsCompatibility', ['SC-W-19', 'SC-D-23'], 'DataView, version 13');

// V8 unit-test invalid inputs
UR('header-only', 'ff', 'SC_TRUNCATED', 1, 'DecodeInvalid', ['SC-D-03', 'SC-D-05'], 'version tag and nothing else');
UR('version-too-large', 'ff 7f 5f', 'SC_VERSION', 0, 'DecodeInvalid', ['SC-D-03'], 'version 127');
UR('nonsense-tag', 'ff0d dd', 'SC_TAG', 2, 'DecodeInvalid', ['SC-D-07'], 'unknown tag 0xdd');
UR('array-too-large', 'ff0d 41 8080808004', 'SC_TRUNCATED', 8, 'DecodeInvalidOverLargeArray', ['SC-D-14', 'SC-L-04'], 'dense length 2^30 with no bytes left: nothing is allocated');
UR('array-no-elements', 'ff0d 41 01', 'SC_TRUNCATED', 4, 'DecodeInvalidOverLargeArray', ['SC-D-14', 'SC-L-04'], 'dense length 1 with no bytes left');
UR('utf8-short', 'ff0d 53 10 7638', 'SC_TRUNCATED', 6, 'DecodeInvalidString', ['SC-D-05', 'SC-D-10'], '`S` declares 16 bytes, 2 present');
UR('latin1-short', 'ff0d 22 10 7638', 'SC_TRUNCATED', 6, 'DecodeInvalidString', ['SC-D-05'], '`"` declares 16 bytes, 2 present');
UR('twobyte-short', 'ff0d 63 10 76003800', 'SC_TRUNCATED', 8, 'DecodeInvalidString', ['SC-D-05'], '`c` declares 16 bytes, 4 present');
UR('twobyte-odd', 'ff0d 63 03 760038', 'SC_STRING', 2, 'DecodeInvalidString', ['SC-D-10'], '`c` with odd byte length 3');
UR('object-invalid-key', 'ff0d 6f 61 00 40 00 00 7b 01', 'SC_KEY', 3, 'InvalidDecodeObjectWithInvalidKeyType', ['SC-D-12'], 'a sparse array as an object key');
UR('arraybuffer-short', 'ff0d 42 ffff00', 'SC_TRUNCATED', 6, 'DecodeInvalidArrayBuffer', ['SC-D-05', 'SC-D-21'], 'ArrayBuffer declares 16383 bytes, none present');
UR('view-offset-out-of-range', 'ff0e 42 02 0000 56 42 03 01 00', 'SC_VIEW', 6, 'DecodeInvalidTypedArray', ['SC-D-22'], 'byte offset 3 in a 2-byte buffer');
UR('view-length-out-of-range', 'ff0e 42 02 0000 56 42 01 03 00', 'SC_VIEW', 6, 'DecodeInvalidTypedArray', ['SC-D-22'], 'offset 1 + length 3 > 2');
UR('view-offset-misaligned', 'ff0d 42 04 00000000 56 77 01 02', 'SC_VIEW', 8, 'DecodeInvalidTypedArray', ['SC-D-22', 'SC-D-23'], 'Int16Array at odd byte offset (version 13)');
UR('view-length-misaligned', 'ff0d 42 04 00000000 56 77 02 01', 'SC_VIEW', 8, 'DecodeInvalidTypedArray', ['SC-D-22', 'SC-D-23'], 'Int16Array with odd byte length (version 13)');
UR('view-bad-subtag', 'ff0e 42 02 0000 56 ff01 01 01 00', 'SC_VIEW', 6, 'DecodeInvalidTypedArray', ['SC-D-22'], 'view subtag 0xff (a u8 varint ff 01)');
UR('dataview-offset-out-of-range', 'ff0e 42 02 0000 56 3f 03 01 00', 'SC_VIEW', 6, 'DecodeInvalidDataView', ['SC-D-22'], 'DataView offset 3 in 2 bytes');
UR('dataview-length-out-of-range', 'ff0e 42 02 0000 56 3f 01 03 00', 'SC_VIEW', 6, 'DecodeInvalidDataView', ['SC-D-22'], 'DataView 1 + 3 > 2');
UR('array-length-property', 'ff0d 41 03 4902 4904 4906 22066c656e677468 4902 2401 03', 'SC_KEY', 10, 'DecodeArrayWithLengthProperty1', ['SC-D-12', 'SC-D-14'], 'a dense array with a `length` key');
UR('array-length-property-object', 'ff0d 41 03 4902 4904 4906 22066c656e677468 6f7b00 2401 03', 'SC_KEY', 10, 'DecodeArrayWithLengthProperty2', ['SC-D-12', 'SC-D-14'], 'a `length` key whose value is an object');

// =================================================================== 4. decode: rejected inputs
// Offsets: the header is bytes 0-1, the top-level value starts at 2 (spec/errors.md §SC_).
const V8A = { v8: 'accepts' }; // V8 11.3 accepts the input; formwire is stricter (rule cited in `rules`)
// truncation (SC-D-05)
R('sc-rej-empty', '', 'SC_TRUNCATED', 0, ['SC-D-03', 'SC-D-05'], 'empty input');
R('sc-rej-no-value', 'ff0f', 'SC_TRUNCATED', 2, ['SC-D-05'], 'header without a value');
R('sc-rej-version-varint-truncated', 'ff 8f', 'SC_TRUNCATED', 2, ['SC-D-03', 'SC-D-05'], 'input ends inside the version varint');
R('sc-rej-trunc-varint', 'ff0f 49 80', 'SC_TRUNCATED', 4, ['SC-D-04', 'SC-D-05'], 'input ends inside an I varint');
R('sc-rej-trunc-double', 'ff0f 4e 000000', 'SC_TRUNCATED', 6, ['SC-D-05'], 'input ends inside a double');
R('sc-rej-trunc-string', 'ff0f 22 05 6869', 'SC_TRUNCATED', 6, ['SC-D-05', 'SC-L-04'], 'one-byte string declares 5 bytes, 2 present');
R('sc-rej-trunc-object-after-value', 'ff0f 6f 220161 4902', 'SC_TRUNCATED', 8, ['SC-D-05'], 'input ends where a key or `{` is expected');
R('sc-rej-trunc-end-count', 'ff0f 6f 7b', 'SC_TRUNCATED', 4, ['SC-D-05', 'SC-D-16'], 'input ends before the property count');
R('sc-rej-trunc-dense-end', 'ff0f 41 02 4902 4904 24 00', 'SC_TRUNCATED', 10, ['SC-D-05', 'SC-D-16'], 'input ends before the dense array length');
R('sc-rej-trunc-buffer', 'ff0f 42 04 0102', 'SC_TRUNCATED', 6, ['SC-D-05', 'SC-D-21'], 'ArrayBuffer declares 4 bytes, 2 present');
R('sc-rej-trunc-bigint', 'ff0f 5a 10 0a00', 'SC_TRUNCATED', 6, ['SC-D-05', 'SC-D-09'], 'BigInt declares 8 bytes, 2 present');
R('sc-rej-trunc-view', 'ff0f 42 02 0000 56 42 00', 'SC_TRUNCATED', 9, ['SC-D-05', 'SC-D-22'], 'input ends inside a view');
R('sc-rej-trunc-error', 'ff0f 72 6d', 'SC_TRUNCATED', 4, ['SC-D-05', 'SC-D-24'], 'input ends after an Error `m` subtag');
R('sc-rej-trunc-error-no-end', 'ff0f 72 6d 220161', 'SC_TRUNCATED', 7, ['SC-D-05', 'SC-D-24'], 'Error without its `.`');
R('sc-rej-trunc-map', 'ff0f 3b 4902', 'SC_TRUNCATED', 5, ['SC-D-05', 'SC-D-20'], 'input ends after a Map key');
R('sc-rej-huge-dense-array', 'ff0f 41 ffffffff0f 5f', 'SC_TRUNCATED', 9, ['SC-D-14', 'SC-L-04'], 'dense array declaring 2^32-1 elements with 1 byte left: rejected before allocating');
R('sc-rej-huge-string', 'ff0f 22 ffffffff0f 61', 'SC_TRUNCATED', 9, ['SC-D-05', 'SC-L-04'], 'string declaring 4 GiB with 1 byte left');
R('sc-rej-huge-buffer', 'ff0f 42 ffffffff0f', 'SC_TRUNCATED', 8, ['SC-D-05', 'SC-L-04'], 'ArrayBuffer declaring 4 GiB');
R('sc-rej-huge-host-view', 'ff0f 5c 01 ffffffff0f 00', 'SC_TRUNCATED', 10, ['SC-D-26', 'SC-L-04'], 'Node host view declaring 4 GiB', { dialect: 'node' });
// header (SC-D-03)
R('sc-rej-no-header', '5f', 'SC_VERSION', 0, ['SC-D-03'], 'no version header (legacy version 0 data)');
R('sc-rej-version-0', 'ff 00 5f', 'SC_VERSION', 0, ['SC-D-03'], 'version 0');
R('sc-rej-version-12', 'ff 0c 5f', 'SC_VERSION', 0, ['SC-D-03'], 'version 12 is below 13');
R('sc-rej-version-16', 'ff 10 5f', 'SC_VERSION', 0, ['SC-D-03'], 'version 16 is above 15');
R('sc-rej-version-varint-overlong', 'ff 8f80808080 00 5f', 'SC_VARINT', 1, ['SC-D-03', 'SC-D-04'], 'version varint longer than 5 bytes', V8A);
R('sc-rej-padding-before-header', '00 ff0f 5f', 'SC_VERSION', 0, ['SC-D-03'], 'padding before the header');
// tags (SC-D-07)
for (const [t, name] of [['4d', 'M'], ['62', 'b'], ['69', 'i'], ['66', 'f'], ['65', 'e'], ['64', 'd'], ['6c', 'l'], ['4c', 'L'], ['23', '#'], ['67', 'g'], ['47', 'G'], ['48', 'H'], ['4b', 'K'], ['6b', 'k']]) {
  R(`sc-rej-reserved-tag-${t}`, `ff0f ${t} 00`, 'SC_TAG', 2, ['SC-W-26', 'SC-D-07'], `reserved legacy tag ${name}`);
}
R('sc-rej-end-tag-toplevel', 'ff0f 7b 00', 'SC_TAG', 2, ['SC-D-07', 'SC-D-16'], 'an end tag with no open container');
R('sc-rej-hole-toplevel', 'ff0f 2d', 'SC_TAG', 2, ['SC-D-07', 'SC-D-14'], '`-` outside a dense array');
R('sc-rej-hole-in-sparse', 'ff0f 61 01 4900 2d 4001 01', 'SC_TAG', 6, ['SC-D-07', 'SC-D-15'], '`-` as a sparse array value');
R('sc-rej-hole-as-property-value', 'ff0f 6f 220161 2d 7b01', 'SC_TAG', 6, ['SC-D-07'], '`-` as an object property value');
R('sc-rej-hole-after-verify-count', 'ff0f 41 01 3f00 2d 2400 01', 'SC_TAG', 6, ['SC-D-06', 'SC-D-14'], 'a hole cannot follow a `?` prefix');
R('sc-rej-version-tag-inside', 'ff0f 41 01 ff0f 5f 2400 01', 'SC_TAG', 4, ['SC-D-07'], '`ff` inside the data');
R('sc-rej-dense-premature-end', 'ff0f 41 02 4902 2400 02', 'SC_TAG', 6, ['SC-D-14', 'SC-D-16'], 'end tag where a dense element is expected');
R('sc-rej-map-end-in-set', 'ff0f 27 3a 00', 'SC_TAG', 3, ['SC-D-07', 'SC-D-20'], 'Map end tag inside a Set');
R('sc-rej-map-odd-entries', 'ff0f 3b 4902 3a 01', 'SC_TAG', 5, ['SC-D-16', 'SC-D-20'], 'Map end tag where a value is expected');
R('sc-rej-error-end-as-value', 'ff0f 41 01 2e 2400 01', 'SC_TAG', 4, ['SC-D-07'], 'Error end subtag `.` as a value');
R('sc-rej-trailing-byte', 'ff0f 5f 54', 'SC_TAG', 3, ['SC-D-28'], 'a byte after the top-level value', V8A);
R('sc-rej-trailing-after-padding', 'ff0f 5f 00 00 49 00', 'SC_TAG', 5, ['SC-D-28'], 'a tag after trailing padding', V8A);
R('sc-rej-verify-count-before-view', 'ff0f 42 02 0000 3f00 56 42 00 02 00', 'SC_TAG', 6, ['SC-D-06', 'SC-D-22', 'SC-D-28'], '`?` between a buffer and `V`: the buffer ends the value, `?` is trailing', V8A);
// in-process tags (SC-D-07)
R('sc-rej-shared-array-buffer', 'ff0f 75 00', 'SC_UNSUPPORTED', 2, ['SC-W-25', 'SC-D-07'], 'SharedArrayBuffer `u`');
R('sc-rej-transfer', 'ff0f 74 00', 'SC_UNSUPPORTED', 2, ['SC-W-25', 'SC-D-07'], 'transferred ArrayBuffer `t`');
R('sc-rej-wasm-module', 'ff0f 77 00', 'SC_UNSUPPORTED', 2, ['SC-W-25', 'SC-D-07'], 'wasm module transfer `w`');
R('sc-rej-wasm-memory', 'ff0f 6d 02 00 75 00', 'SC_UNSUPPORTED', 2, ['SC-W-25', 'SC-D-07'], 'wasm memory `m`');
R('sc-rej-shared-object-v15', 'ff0f 70 00', 'SC_UNSUPPORTED', 2, ['SC-W-25', 'SC-W-27', 'SC-D-07'], 'shared object `p` (version 15)');
R('sc-rej-shared-object-v14', 'ff0e 70 00', 'SC_TAG', 2, ['SC-W-27', 'SC-D-07'], '`p` is an unknown tag before version 15');
R('sc-rej-unsupported-nested', 'ff0f 6f 220161 75 00 7b01', 'SC_UNSUPPORTED', 6, ['SC-D-07'], 'SharedArrayBuffer as a property value');
R('sc-rej-transfer-then-view', 'ff0f 74 00 56 42 00 00 00', 'SC_UNSUPPORTED', 2, ['SC-D-07', 'SC-D-22'], 'a view of a transferred buffer');
// varints (SC-D-04)
R('sc-rej-varint-six-bytes', 'ff0f 55 8080808080 00', 'SC_VARINT', 3, ['SC-D-04'], 'u32 varint of 6 bytes', V8A);
R('sc-rej-varint-u32-overflow', 'ff0f 55 ffffffff10', 'SC_VARINT', 3, ['SC-D-04'], '5-byte varint above 2^32-1', V8A);
R('sc-rej-varint-length-overflow', 'ff0f 22 8080808070', 'SC_VARINT', 3, ['SC-D-04'], 'string length varint above 2^32-1', V8A);
R('sc-rej-varint-u8-subtag', 'ff0f 42 02 0000 56 ff02 00 02 00', 'SC_VARINT', 7, ['SC-D-04', 'SC-D-22'], 'view subtag varint above 255');
R('sc-rej-varint-u8-too-long', 'ff0f 72 8080 2e', 'SC_VARINT', 3, ['SC-D-04', 'SC-D-24'], 'Error subtag varint of 3 bytes');
R('sc-rej-varint-zigzag-key', 'ff0f 6f 49 8080808080 00 54 7b01', 'SC_VARINT', 4, ['SC-D-04', 'SC-D-12'], 'I key with an overlong varint', V8A);
// back-references (SC-D-25)
R('sc-rej-ref-nothing-assigned', 'ff0f 5e 00', 'SC_REF', 2, ['SC-W-21', 'SC-D-25'], '`^` with no object yet');
R('sc-rej-ref-forward', 'ff0f 41 02 5e 02 6f 7b00 2400 02', 'SC_REF', 4, ['SC-D-25'], '`^` to a later id');
R('sc-rej-ref-self-id', 'ff0f 6f 220161 5e 01 7b01', 'SC_REF', 6, ['SC-D-25'], '`^` to the next id');
R('sc-rej-ref-primitive', 'ff0f 41 02 220161 5e 01 2400 02', 'SC_REF', 7, ['SC-W-21', 'SC-D-25'], 'strings get no id');
R('sc-rej-ref-huge', 'ff0f 5e ffffffff0f', 'SC_REF', 2, ['SC-D-25'], '`^` to id 2^32-1');
// counts (SC-D-16)
R('sc-rej-object-count', 'ff0f 6f 220161 4902 7b 02', 'SC_COUNT', 8, ['SC-D-16'], 'object declares 2 properties, 1 read');
R('sc-rej-object-count-zero', 'ff0f 6f 220161 4902 7b 00', 'SC_COUNT', 8, ['SC-D-16'], 'object declares 0 properties, 1 read');
R('sc-rej-dense-length-mismatch', 'ff0f 41 01 4902 24 00 02', 'SC_COUNT', 6, ['SC-D-16'], 'dense array end says length 2, begin said 1');
R('sc-rej-dense-props-mismatch', 'ff0f 41 01 4902 24 01 01', 'SC_COUNT', 6, ['SC-D-16'], 'dense array end says 1 property, 0 read');
R('sc-rej-sparse-length-mismatch', 'ff0f 61 02 4900 54 40 01 03', 'SC_COUNT', 7, ['SC-D-16'], 'sparse array end length differs');
R('sc-rej-sparse-count-mismatch', 'ff0f 61 02 4900 54 40 02 02', 'SC_COUNT', 7, ['SC-D-16'], 'sparse array end count differs');
R('sc-rej-map-count', 'ff0f 3b 4902 4904 3a 01', 'SC_COUNT', 7, ['SC-D-16', 'SC-D-20'], 'Map end count 1 for one entry (must be 2)');
R('sc-rej-set-count', 'ff0f 27 4902 2c 02', 'SC_COUNT', 5, ['SC-D-16', 'SC-D-20'], 'Set end count 2 for one value');
R('sc-rej-map-count-after-dedupe', 'ff0f 3b 4902 5f 4902 5f 3a 02', 'SC_COUNT', 9, ['SC-D-16', 'SC-D-20'], 'Map count counts entries read, not distinct keys');
// strings (SC-D-10, SC-D-11)
R('sc-rej-twobyte-odd-length', 'ff0f 63 03 610062', 'SC_STRING', 2, ['SC-D-10'], '`c` with an odd byte length');
R('sc-rej-twobyte-odd-before-truncation', 'ff0f 63 05 61', 'SC_STRING', 2, ['SC-D-10', 'SC-D-01'], 'odd length is reported before the missing bytes');
R('sc-rej-utf8-invalid-byte', 'ff0f 53 02 ff61', 'SC_STRING', 2, ['SC-D-10'], '`S` with byte 0xff', V8A);
R('sc-rej-utf8-surrogate', 'ff0f 53 03 eda080', 'SC_STRING', 2, ['SC-D-10'], '`S` encoding U+D800 (CESU-8)', V8A);
R('sc-rej-utf8-overlong', 'ff0f 53 02 c0af', 'SC_STRING', 2, ['SC-D-10'], '`S` with an overlong sequence', V8A);
R('sc-rej-utf8-cut-sequence', 'ff0f 53 02 e282', 'SC_STRING', 2, ['SC-D-10'], '`S` ending inside a 3-byte sequence', V8A);
R('sc-rej-utf8-above-max', 'ff0f 53 04 f4908080', 'SC_STRING', 2, ['SC-D-10'], '`S` above U+10FFFF', V8A);
R('sc-rej-twobyte-odd-key', 'ff0f 6f 63 01 61 4902 7b01', 'SC_STRING', 3, ['SC-D-10', 'SC-D-12'], 'odd-length two-byte key');
R('sc-rej-regexp-source-not-string', 'ff0f 52 4902 01', 'SC_TAG', 3, ['SC-D-11', 'SC-D-19'], 'RegExp source must be a string');
R('sc-rej-string-object-not-string', 'ff0f 73 5f', 'SC_TAG', 3, ['SC-D-11', 'SC-D-18'], 'String object payload must be a string');
R('sc-rej-error-stack-not-string', 'ff0f 72 73 4902 2e', 'SC_TAG', 4, ['SC-D-11', 'SC-D-24'], 'Error stack must be a string');
R('sc-rej-error-message-ref', 'ff0f 41 02 220161 72 6d 5e00 2e 2400 02', 'SC_TAG', 9, ['SC-D-11', 'SC-D-24'], 'Error message cannot be a `^`');
// keys (SC-D-12, SC-D-13)
R('sc-rej-key-undefined', 'ff0f 6f 5f 4902 7b01', 'SC_KEY', 3, ['SC-D-12'], 'undefined as a key');
R('sc-rej-key-object', 'ff0f 6f 6f 7b00 4902 7b01', 'SC_KEY', 3, ['SC-D-12'], 'an object as a key');
R('sc-rej-key-ref', 'ff0f 6f 5e00 4902 7b01', 'SC_KEY', 3, ['SC-D-12'], 'a back-reference as a key');
R('sc-rej-key-bigint', 'ff0f 6f 5a00 54 7b01', 'SC_KEY', 3, ['SC-D-12'], 'a BigInt as a key');
R('sc-rej-key-unknown-tag', 'ff0f 6f dd 7b00', 'SC_KEY', 3, ['SC-D-12'], 'an unknown tag at a key position');
R('sc-rej-key-verify-count-before-end', 'ff0f 6f 3f00 7b00', 'SC_KEY', 5, ['SC-D-06', 'SC-D-12'], '`?` cannot precede an end tag');
R('sc-rej-key-fraction', `ff0f 6f 4e ${dbl(1.5)} 54 7b01`, 'SC_KEY', 3, ['SC-D-13'], 'number key 1.5', V8A);
R('sc-rej-key-nan', `ff0f 6f 4e ${dbl(NaN)} 54 7b01`, 'SC_KEY', 3, ['SC-D-13'], 'number key NaN', V8A);
R('sc-rej-key-2p53', `ff0f 6f 4e ${dbl(2 ** 53)} 54 7b01`, 'SC_KEY', 3, ['SC-D-13'], 'number key 2^53 (not a safe integer)', V8A);
R('sc-rej-key-duplicate', 'ff0f 6f 220161 4902 220161 4904 7b02', 'SC_KEY', 8, ['SC-D-12'], 'the same key twice');
R('sc-rej-key-duplicate-number-string', 'ff0f 6f 4902 54 220131 46 7b02', 'SC_KEY', 6, ['SC-D-12', 'SC-D-13'], 'key 1 then key "1"');
R('sc-rej-key-duplicate-encodings', 'ff0f 6f 2201e9 54 6302e900 46 7b02', 'SC_KEY', 7, ['SC-D-12'], '"é" as one-byte then as two-byte');
R('sc-rej-key-duplicate-before-value', 'ff0f 6f 220161 54 220161 dd 7b02', 'SC_KEY', 7, ['SC-D-01', 'SC-D-12'], 'a duplicate key is reported before its (bad) value');
R('sc-rej-dense-element-duplicate', 'ff0f 41 01 4902 4900 54 2401 01', 'SC_KEY', 6, ['SC-D-12', 'SC-D-14'], 'index key 0 on a dense array that has element 0');
R('sc-rej-sparse-duplicate-index', 'ff0f 61 02 4900 54 4900 46 4002 02', 'SC_KEY', 7, ['SC-D-12', 'SC-D-15'], 'index 0 twice in a sparse array');
R('sc-rej-sparse-length-key', 'ff0f 61 00 22066c656e677468 4900 4001 00', 'SC_KEY', 4, ['SC-D-12', 'SC-D-15'], 'a `length` key on a sparse array');
// views (SC-D-22, SC-D-23)
R('sc-rej-view-toplevel', 'ff0f 56 42 00 00 00', 'SC_VIEW', 2, ['SC-D-07', 'SC-D-22'], '`V` with no buffer before it');
R('sc-rej-view-after-object-ref', 'ff0f 41 03 6f 7b00 5e01 56 42000000 2400 03', 'SC_VIEW', 9, ['SC-D-22'], '`V` after a `^` to an object');
R('sc-rej-view-twice', 'ff0f 41 02 42 02 0000 56 42 00 02 00 56 42 00 02 00 2400 02', 'SC_VIEW', 13, ['SC-D-22'], 'a second `V` right after a view');
R('sc-rej-view-unknown-subtag', 'ff0f 42 02 0000 56 78 00 02 00', 'SC_VIEW', 6, ['SC-D-22'], 'view subtag `x`');
R('sc-rej-view-oob-before-flags', 'ff0f 42 02 0000 56 42 00 05', 'SC_VIEW', 6, ['SC-D-01', 'SC-D-22'], 'bounds are checked before the flags are read');
R('sc-rej-view-flags-before-subtag', 'ff0f 42 02 0000 56 78 00 02', 'SC_TRUNCATED', 10, ['SC-D-01', 'SC-D-22'], 'flags are read before the subtag is checked');
R('sc-rej-view-misaligned-offset', 'ff0f 42 08 0000000000000000 56 64 02 04 00', 'SC_VIEW', 12, ['SC-D-22'], 'Int32Array at byte offset 2');
R('sc-rej-view-misaligned-length', 'ff0f 42 08 0000000000000000 56 46 00 04 00', 'SC_VIEW', 12, ['SC-D-22'], 'Float64Array of 4 bytes');
R('sc-rej-view-rab-flag-fixed-buffer', 'ff0f 42 02 0000 56 42 00 02 02', 'SC_VIEW', 6, ['SC-D-22'], 'backed-by-RAB flag on a fixed-length buffer');
R('sc-rej-view-tracking-fixed-buffer', 'ff0f 42 02 0000 56 42 00 02 01', 'SC_VIEW', 6, ['SC-D-22'], 'length-tracking flag on a fixed-length buffer');
R('sc-rej-view-resizable-without-flag', 'ff0f 7e 02 08 0000 56 42 00 02 00', 'SC_VIEW', 7, ['SC-D-22'], 'view of a resizable buffer without the RAB flag');
R('sc-rej-v13-retry-fails', 'ff0d 7e 02 08 0000 56 42 00 02 dd', 'SC_VIEW', 7, ['SC-D-23'], 'version 13: both readings fail, the first error is reported');
// other payloads
R('sc-rej-resizable-length-over-max', 'ff0f 7e 04 02 00000000', 'SC_TAG', 2, ['SC-D-21'], 'resizable buffer longer than its maximum');
R('sc-rej-bigint-minus-zero', 'ff0f 5a 01', 'SC_TAG', 2, ['SC-D-09'], 'BigInt -0n (sign bit, no digits)');
R('sc-rej-bigint-object-minus-zero', 'ff0f 7a 01', 'SC_TAG', 2, ['SC-D-09', 'SC-D-18'], 'BigInt object -0n');
R('sc-rej-regexp-linear-flag', 'ff0f 52 220178 40', 'SC_TAG', 2, ['SC-W-15', 'SC-D-19'], 'RegExp flag bit 64 (linear, l)');
R('sc-rej-regexp-unknown-flag', 'ff0f 52 220178 8004', 'SC_TAG', 2, ['SC-W-15', 'SC-D-19'], 'RegExp flag bit 512');
R('sc-rej-regexp-flags-ff', 'ff0f 52 2203666f6f ff01', 'SC_TAG', 2, ['SC-D-19'], 'RegExp flags 0xff', { source: `${V8UT} DecodeRegExpDotAll (flags 0xff, as a tagged-source version)` });
R('sc-rej-regexp-u-and-v', 'ff0f 52 220178 9002', 'SC_TAG', 2, ['SC-D-19'], 'RegExp flags u and v together', V8A);
R('sc-rej-error-unknown-subtag', 'ff0f 72 78 2e', 'SC_TAG', 3, ['SC-D-24'], 'Error subtag `x`');
R('sc-rej-error-padding-subtag', 'ff0f 72 00 2e', 'SC_TAG', 3, ['SC-D-06', 'SC-D-24'], 'no padding inside an Error: 00 is an unknown subtag');
R('sc-rej-error-repeated-message', 'ff0f 72 6d220161 6d220162 2e', 'SC_TAG', 7, ['SC-D-24'], 'Error with two `m` subtags', V8A);
R('sc-rej-error-two-prototypes', 'ff0f 72 52 54 2e', 'SC_TAG', 4, ['SC-D-24'], 'Error with two prototype subtags', V8A);
// host objects (SC-D-26, SC-D-27)
R('sc-rej-host-unknown-type', 'ff0f 5c 0e 00', 'SC_HOST', 2, ['SC-D-26'], 'Node host type 14', { dialect: 'node' });
R('sc-rej-host-misaligned-length', 'ff0f 5c 04 03 010203', 'SC_HOST', 2, ['SC-D-26'], 'Uint16Array host object of 3 bytes', { dialect: 'node', ...V8A });
R('sc-rej-host-truncated', 'ff0f 5c 01 05 0102', 'SC_TRUNCATED', 7, ['SC-D-05', 'SC-D-26'], 'host view declares 5 bytes, 2 present', { dialect: 'node' });
R('sc-rej-host-bytes-before-type', 'ff0f 5c 0e 05 01', 'SC_TRUNCATED', 6, ['SC-D-01', 'SC-D-26'], 'missing bytes are reported before an unknown type', { dialect: 'node' });
R('sc-rej-ipc-bad-subtag', 'ff0f 5c 02 00', 'SC_HOST', 2, ['SC-D-27'], 'IPC host sub-tag 2', { dialect: 'node-ipc', options: { node_ipc: true } });
R('sc-rej-ipc-not-object', 'ff0f 5c 01 4902', 'SC_HOST', 2, ['SC-D-27'], 'IPC host sub-tag 1 followed by a number', { dialect: 'node-ipc', options: { node_ipc: true } });
R('sc-rej-ipc-array', 'ff0f 5c 01 4100 2400 00', 'SC_HOST', 2, ['SC-D-27'], 'IPC host sub-tag 1 followed by an array', { dialect: 'node-ipc', options: { node_ipc: true }, ...V8A });
// limits (SC-D-29, SC-L-*)
const D3 = { options: { max_depth: 3 } };
R('sc-rej-depth-array', 'ff0f 4101 4101 4101 4101 5f 240001 240001 240001 240001', 'SC_LIMIT_DEPTH', 8, ['SC-D-29', 'SC-L-02'], 'four nested arrays with max_depth 3', D3);
R('sc-rej-depth-object', 'ff0f 6f 220161 6f 220161 6f 220161 6f 7b00 7b01 7b01 7b01', 'SC_LIMIT_DEPTH', 14, ['SC-D-29', 'SC-L-02'], 'four nested objects with max_depth 3', D3);
R('sc-rej-depth-mixed', 'ff0f 3b 5f 27 72 63 6f 7b00 2e 2c01 3a02', 'SC_LIMIT_DEPTH', 7, ['SC-D-29', 'SC-L-02'], 'Map > Set > Error > cause object with max_depth 3', D3);
R('sc-rej-depth-sparse', 'ff0f 61 01 4900 61 01 4900 61 01 4900 61 00 4000 00 4001 01 4001 01 4001 01', 'SC_LIMIT_DEPTH', 14, ['SC-D-29', 'SC-L-02'], 'four nested sparse arrays with max_depth 3', D3);
R('sc-rej-depth-before-length', 'ff0f 4101 4101 4101 41', 'SC_LIMIT_DEPTH', 8, ['SC-D-01', 'SC-D-29'], 'the depth limit is checked at the tag, before the length', D3);
R('sc-rej-depth-error-chain', 'ff0f 72 63 72 63 72 2e 2e 2e', 'SC_LIMIT_DEPTH', 6, ['SC-D-29', 'SC-L-02'], 'Error cause chain of three with max_depth 2', { options: { max_depth: 2 } });
R('sc-rej-depth-zero', 'ff0f 6f 7b00', 'SC_LIMIT_DEPTH', 2, ['SC-D-29', 'SC-L-02'], 'max_depth 0 allows no container', { options: { max_depth: 0 } });
R('sc-rej-depth-default', `ff0f ${'4101'.repeat(1001)} 5f ${'240001'.repeat(1001)}`, 'SC_LIMIT_DEPTH', 2002, ['SC-D-29', 'SC-L-02'], '1001 nested arrays exceed the default max_depth 1000');
R('sc-rej-max-bytes', 'ff0f 22 01 61', 'SC_LIMIT_BYTES', 0, ['SC-L-01'], 'input longer than max_bytes', { options: { max_bytes: 4 } });
R('sc-rej-max-bytes-first', 'ff0c', 'SC_LIMIT_BYTES', 0, ['SC-L-01', 'SC-D-02'], 'max_bytes is checked before the header', { options: { max_bytes: 1 } });
const B16 = '0000000000000000 0100000000000000'; // 2n ** 64n as V8 writes it (16 digit bytes)
A('sc-dec-values-at-limit', 'ff0f 4103 4902 4904 4906 2400 03', ['SC-L-05'], 'an array and its 3 elements with max_values 4', { options: { max_values: 4 } });
A('sc-dec-values-ref-hole-padding', 'ff0f 4103 6f7b00 00 5e01 2d 2400 03', ['SC-L-05', 'SC-D-06'], 'a back-reference is a value, a hole and padding are not: 3 values with max_values 3', { options: { max_values: 3 } });
A('sc-dec-values-null-unlimited', 'ff0f 4103 4902 4904 4906 2400 03', ['SC-L-05'], 'max_values null is no limit', { options: { max_values: null } });
A('sc-dec-bigint-at-limit', `ff0f 5a20 ${B16}`, ['SC-L-06', 'SC-D-09'], 'a BigInt of 16 digit bytes with max_bigint_bytes 16', { options: { max_bigint_bytes: 16 } });
R('sc-rej-values-array', 'ff0f 4103 4902 4904 4906 2400 03', 'SC_LIMIT_VALUES', 8, ['SC-L-05'], 'an array and its 3 elements with max_values 3: the third element', { options: { max_values: 3 } });
R('sc-rej-values-zero', 'ff0f 4902', 'SC_LIMIT_VALUES', 2, ['SC-L-05'], 'max_values 0 refuses even a top-level primitive', { options: { max_values: 0 } });
R('sc-rej-values-ref', 'ff0f 4103 6f7b00 00 5e01 2d 2400 03', 'SC_LIMIT_VALUES', 8, ['SC-L-05'], 'the back-reference is value 3 (after padding) with max_values 2', { options: { max_values: 2 } });
R('sc-rej-values-object', 'ff0f 6f 220161 4902 220162 4904 7b02', 'SC_LIMIT_VALUES', 11, ['SC-L-05'], 'object {a: 1, b: 2} with max_values 2: the value of b', { options: { max_values: 2 } });
R('sc-rej-values-map-value', 'ff0f 3b 4902 4904 3a02', 'SC_LIMIT_VALUES', 5, ['SC-L-05'], 'Map key and value are two values: the value with max_values 2', { options: { max_values: 2 } });
R('sc-rej-values-error-cause', 'ff0f 72 6d2201 78 63 4902 2e', 'SC_LIMIT_VALUES', 8, ['SC-L-05'], 'an Error cause is a value, its message is not: max_values 1', { options: { max_values: 1 } });
R('sc-rej-values-after-verify', 'ff0f 4102 4902 3f01 00 4904 2400 02', 'SC_LIMIT_VALUES', 9, ['SC-L-05', 'SC-D-06'], 'the offset is the tag after a `?` prefix and padding', { options: { max_values: 2 } });
R('sc-rej-bigint-limit', `ff0f 5a20 ${B16}`, 'SC_LIMIT_BIGINT', 2, ['SC-L-06', 'SC-D-09'], 'a BigInt of 16 digit bytes with max_bigint_bytes 15', { options: { max_bigint_bytes: 15 } });
R('sc-rej-bigint-object-limit', `ff0f 4102 4902 7a20 ${B16} 2400 02`, 'SC_LIMIT_BIGINT', 6, ['SC-L-06', 'SC-D-18'], 'a BigInt wrapper: its `z` tag', { options: { max_bigint_bytes: 8 } });
{
  // SC-L-05 where decoders read without frames (records of one shape, an array of names, arrays inside objects):
  // the limit at many values, offsets as the reference decoder counts them.
  const rows = [];
  for (let i = 0; i < 6; i++) rows.push({ id: i, name: `n${i}`, ok: i % 2 === 0 });
  const bytes = hex(rawBytes({ rows, names: ['x', 'y', 'z', 'w'], nested: { a: [1, 2, 3], b: { c: 'd' } }, after: [{ k: 1 }, { k: 2 }] }));
  let total = 0;
  while (refDecode(H(bytes), { max_values: total }).error) total++;
  A('sc-dec-values-fast-paths-at-limit', bytes, ['SC-L-05'], `records, names and nested arrays: exactly max_values (${total}) values`, { options: { max_values: total } });
  for (const k of [1, 2, 4, 7, 9, 16, 25, 30, 34, total - 1]) {
    const e = refDecode(H(bytes), { max_values: k }).error;
    R(`sc-rej-values-fast-paths-${k}`, bytes, 'SC_LIMIT_VALUES', e.offset, ['SC-L-05'], `records, names and nested arrays with max_values ${k} (of ${total})`, { options: { max_values: k } });
  }
}
R('sc-rej-bigint-limit-before-digits', 'ff0f 5a20 00', 'SC_LIMIT_BIGINT', 2, ['SC-L-06', 'SC-D-01'], 'the limit is checked before the digits are read (16 declared, 1 present)', { options: { max_bigint_bytes: 8 } });

// =================================================================== 5. encode: canonical bytes (SC-E-*)
const E = (id, make, want, rules, description, extra = {}) => encodeAccept({ id, make, hex: want, rules, description, ...extra });
E('sc-enc-undefined', () => undefined, 'ff0f 5f', ['SC-E-01', 'SC-W-05'], 'undefined');
E('sc-enc-null', () => null, 'ff0f 30', ['SC-E-01'], 'null');
E('sc-enc-true', () => true, 'ff0f 54', ['SC-E-01'], 'true');
E('sc-enc-false', () => false, 'ff0f 46', ['SC-E-01'], 'false');
E('sc-enc-int-0', () => 0, 'ff0f 49 00', ['SC-E-03'], '0 as I');
E('sc-enc-int-minus-1', () => -1, 'ff0f 49 01', ['SC-E-03'], '-1 as I');
E('sc-enc-int32-max', () => 2147483647, 'ff0f 49 feffffff0f', ['SC-E-03'], '2^31-1 as I');
E('sc-enc-int32-min', () => -2147483648, 'ff0f 49 ffffffff0f', ['SC-E-03'], '-2^31 as I');
E('sc-enc-2p31', () => 2 ** 31, `ff0f 4e ${dbl(2 ** 31)}`, ['SC-E-03'], '2^31 as N');
E('sc-enc-minus-2p31-minus-1', () => -(2 ** 31) - 1, `ff0f 4e ${dbl(-(2 ** 31) - 1)}`, ['SC-E-03'], '-2^31-1 as N');
E('sc-enc-minus-0', () => -0, 'ff0f 4e 0000000000000080', ['SC-E-03'], '-0 is N, never I');
E('sc-enc-nan', () => NaN, 'ff0f 4e 000000000000f87f', ['SC-E-03'], 'NaN as the canonical quiet NaN');
E('sc-enc-infinity', () => Infinity, 'ff0f 4e 000000000000f07f', ['SC-E-03'], 'Infinity');
E('sc-enc-minus-infinity', () => -Infinity, 'ff0f 4e 000000000000f0ff', ['SC-E-03'], '-Infinity');
E('sc-enc-1-5', () => 1.5, 'ff0f 4e 000000000000f83f', ['SC-E-03'], '1.5');
E('sc-enc-2p53-plus-2', () => 2 ** 53 + 2, `ff0f 4e ${dbl(2 ** 53 + 2)}`, ['SC-E-03'], '2^53+2 (integral but outside int32)');
E('sc-enc-bigint-0', () => 0n, 'ff0f 5a 00', ['SC-E-04'], '0n: no digits');
E('sc-enc-bigint-1', () => 1n, 'ff0f 5a 10 0100000000000000', ['SC-E-04'], '1n: one 8-byte digit');
E('sc-enc-bigint-minus-1', () => -1n, 'ff0f 5a 11 0100000000000000', ['SC-E-04'], '-1n: sign bit');
E('sc-enc-bigint-2p64', () => 2n ** 64n, 'ff0f 5a 20 0000000000000000 0100000000000000', ['SC-E-04'], '2^64: two digits');
E('sc-enc-bigint-minus-2p63', () => -(2n ** 63n), 'ff0f 5a 11 0000000000000080', ['SC-E-04'], '-(2^63)');
E('sc-enc-string-empty', () => '', 'ff0f 22 00', ['SC-E-05'], 'empty string');
E('sc-enc-string-latin1', () => 'hé', 'ff0f 22 02 68e9', ['SC-E-05'], 'Latin-1 as a one-byte string');
E('sc-enc-string-ff', () => 'ÿ', 'ff0f 22 01 ff', ['SC-E-05'], 'U+00FF is still one-byte');
E('sc-enc-string-bmp', () => 'h€', 'ff0f 63 04 6800ac20', ['SC-E-05'], 'two-byte string, no padding needed');
E('sc-enc-string-astral', () => '😀', 'ff0f 63 04 3dd800de', ['SC-E-05'], 'surrogate pair');
E('sc-enc-string-lone-surrogate', () => 'a\ud800b', 'ff0f 63 06 6100 00d8 6200', ['SC-E-05', 'SC-N-03'], 'lone surrogate kept');
E('sc-enc-string-padding', () => ['a', '€'], 'ff0f 41 02 220161 00 6302 ac20 2400 02', ['SC-E-05', 'SC-W-03'], 'padding so the UTF-16 payload starts at an even offset');
E('sc-enc-string-padding-long', () => `${' '.repeat(200)}😀`, `ff0f 00 63 9403 ${'2000'.repeat(200)} 3dd800de`, ['SC-E-05', 'SC-W-03'], 'padding counts the 2-byte length varint', { source: `${V8UT} EncodeTwoByteStringUsesPadding` });
E('sc-enc-key-padding', () => ({ '€': 1 }), 'ff0f 6f 00 6302 ac20 4902 7b01', ['SC-E-05', 'SC-E-06'], 'a two-byte key is padded too');
E('sc-enc-key-no-padding', () => ({ a: 1, '€': 2 }), 'ff0f 6f 220161 4902 6302 ac20 4904 7b02', ['SC-E-05', 'SC-E-06'], 'no padding when the payload already starts even');
E('sc-enc-string-object-padding', () => Object('€'), 'ff0f 73 00 6302 ac20', ['SC-E-05', 'SC-E-08'], 'padding inside a String object');
E('sc-enc-object-empty', () => ({}), 'ff0f 6f 7b00', ['SC-E-06'], 'empty object');
E('sc-enc-object-one', () => ({ a: 1 }), 'ff0f 6f 220161 4902 7b01', ['SC-E-06'], '{a: 1}');
E('sc-enc-object-integer-keys', () => ({ b: 2, 1: 'a', 0: 'z' }), 'ff0f 6f 4900 22017a 4902 220161 220162 4904 7b03', ['SC-E-06'], 'index keys first, ascending, as I');
E('sc-enc-object-index-2p31', () => ({ 2147483648: 1, 2147483647: 2 }), `ff0f 6f 49 feffffff0f 4904 4e ${dbl(2 ** 31)} 4902 7b02`, ['SC-E-06'], 'index keys above 2^31-1 are N');
E('sc-enc-object-not-index', () => ({ 4294967295: 1, '01': 2 }), 'ff0f 6f 220a 34323934393637323935 4902 22023031 4904 7b02', ['SC-E-06'], '2^32-1 and "01" are string keys');
E('sc-enc-object-lone-surrogate-key', () => ({ '\udfff': 1 }), 'ff0f 6f 00 6302 ffdf 4902 7b01', ['SC-E-05', 'SC-E-06', 'SC-N-03'], 'key with a lone surrogate');
E('sc-enc-object-nested', () => ({ a: { b: [1, { c: null }] } }), 'ff0f 6f 220161 6f 220162 4102 4902 6f 220163 30 7b01 2400 02 7b01 7b01', ['SC-E-06', 'SC-E-02'], 'nested containers');
E('sc-enc-array-empty', () => [], 'ff0f 41 00 2400 00', ['SC-E-07'], 'empty array is dense');
E('sc-enc-array-dense', () => [1, 2], 'ff0f 41 02 4902 4904 2400 02', ['SC-E-07'], 'hole-free array is dense');
E('sc-enc-array-doubles', () => [1.5, 2], 'ff0f 41 02 4e 000000000000f83f 4904 2400 02', ['SC-E-03', 'SC-E-07', 'SC-E-15'], '2 in a double array is still I');
E('sc-enc-array-holey-full', () => new Array(3).fill(1), 'ff0f 41 03 4902 4902 4902 2400 03', ['SC-E-07', 'SC-E-15'], 'no holes: dense, whatever V8 elements kind');
E('sc-enc-array-undefined', () => [undefined], 'ff0f 41 01 5f 2400 01', ['SC-E-07'], 'undefined is an element, not a hole');
E('sc-enc-array-holey', () => [1, , 3], 'ff0f 61 03 4900 4902 4904 4906 4002 03', ['SC-E-07'], 'a hole makes it sparse');
E('sc-enc-array-all-holes', () => new Array(3), 'ff0f 61 03 4000 03', ['SC-E-07'], 'only holes');
E('sc-enc-array-extra-props', () => Object.assign([1], { x: 2 }), 'ff0f 41 01 4902 220178 4904 2401 01', ['SC-E-07'], 'dense with a named property');
E('sc-enc-array-sparse-props', () => Object.assign(new Array(3), { 1: 'b', foo: 'bar' }), 'ff0f 61 03 4902 220162 2203666f6f 2203626172 4002 03', ['SC-E-07'], 'sparse: indices then names, count covers both');
E('sc-enc-array-sparse-big-index', () => { const a = []; a[4294967294] = 1; return a; }, `ff0f 61 ffffffff0f 4e ${dbl(4294967294)} 4902 4001 ffffffff0f`, ['SC-E-06', 'SC-E-07'], 'index 2^32-2 as an N key');
E('sc-enc-cycle', () => { const o = {}; o.self = o; return o; }, 'ff0f 6f 2204 73656c66 5e00 7b01', ['SC-E-02'], 'cycle through `^`');
E('sc-enc-shared', () => { const x = {}; return [x, x]; }, 'ff0f 41 02 6f 7b00 5e01 2400 02', ['SC-E-02'], 'shared reference');
E('sc-enc-date-epoch', () => new Date(0), 'ff0f 44 0000000000000000', ['SC-E-08'], 'Date(0)');
E('sc-enc-date-nan', () => new Date(NaN), 'ff0f 44 000000000000f87f', ['SC-E-08'], 'invalid Date');
E('sc-enc-regexp-flags', () => /ab/dgimsy, 'ff0f 52 22026162 af01', ['SC-E-09'], 'flags dgimsy = 0xaf');
E('sc-enc-regexp-v', () => /x/v, 'ff0f 52 220178 8002', ['SC-E-09'], 'flag v = 256');
E('sc-enc-regexp-u', () => /x/u, 'ff0f 52 220178 10', ['SC-E-09'], 'flag u = 16');
E('sc-enc-regexp-escaped-source', () => new RegExp('a/b'), 'ff0f 52 2204 615c2f62 00', ['SC-E-09'], 'the source is the escaped `.source` text');
E('sc-enc-map', () => new Map([[1, 2]]), 'ff0f 3b 4902 4904 3a02', ['SC-E-10'], 'Map{1 => 2}');
E('sc-enc-map-object-key', () => { const k = {}; return new Map([[k, k], ['a', [k]]]); }, 'ff0f 3b 6f7b00 5e01 220161 4101 5e01 2400 01 3a04', ['SC-E-10', 'SC-E-02'], 'object key reused as value');
E('sc-enc-set', () => new Set(['a', 1]), 'ff0f 27 220161 4902 2c02', ['SC-E-10'], 'Set{"a", 1}');
E('sc-enc-boolean-object', () => Object(true), 'ff0f 79', ['SC-E-08'], 'new Boolean(true)');
E('sc-enc-number-object', () => Object(3), 'ff0f 6e 0000000000000840', ['SC-E-08'], 'new Number(3) is always a double');
E('sc-enc-number-object-minus-0', () => Object(-0), 'ff0f 6e 0000000000000080', ['SC-E-08'], 'new Number(-0)');
E('sc-enc-bigint-object', () => Object(-2n), 'ff0f 7a 11 0200000000000000', ['SC-E-04', 'SC-E-08'], 'Object(-2n)');
E('sc-enc-arraybuffer-empty', () => new ArrayBuffer(0), 'ff0f 42 00', ['SC-E-11'], 'empty ArrayBuffer');
E('sc-enc-arraybuffer', () => new Uint8Array([0, 128, 255]).buffer, 'ff0f 42 03 0080ff', ['SC-E-11'], 'ArrayBuffer');
E('sc-enc-arraybuffer-resizable', () => { const b = new ArrayBuffer(2, { maxByteLength: 8 }); new Uint8Array(b).set([7, 9]); return b; }, 'ff0f 7e 02 08 0709', ['SC-E-11'], 'resizable ArrayBuffer');
E('sc-enc-uint8array', () => new Uint8Array([1, 2, 3]), 'ff0f 42 03 010203 56 42 00 03 00', ['SC-E-12'], 'Uint8Array: buffer then view (raw dialect)');
E('sc-enc-bigint64array', () => new BigInt64Array([-1n]), 'ff0f 42 08 ffffffffffffffff 56 71 00 08 00', ['SC-E-12'], 'BigInt64Array');
E('sc-enc-dataview', () => { const d = new DataView(new ArrayBuffer(3)); d.setUint8(1, 9); return d; }, 'ff0f 42 03 000900 56 3f 00 03 00', ['SC-E-12'], 'DataView');
E('sc-enc-views-share-buffer', () => { const b = new ArrayBuffer(4); return [new Uint8Array(b), new Uint16Array(b, 2, 1)]; }, 'ff0f 41 02 42 04 00000000 56 42 00 04 00 5e01 56 57 02 02 00 2400 02', ['SC-E-12', 'SC-E-02'], 'second view refers to the buffer with `^`');
E('sc-enc-view-length-tracking', () => new Uint16Array(new ArrayBuffer(4, { maxByteLength: 16 })), 'ff0f 7e 04 10 00000000 56 57 00 00 03', ['SC-E-12'], 'length-tracking view: flags 3, byte length written as 0');
E('sc-enc-dataview-length-tracking', () => new DataView(new ArrayBuffer(4, { maxByteLength: 8 }), 1), 'ff0f 7e 04 08 00000000 56 3f 01 00 03', ['SC-E-12'], 'length-tracking DataView');
E('sc-enc-view-fixed-on-resizable', () => new Uint8Array(new ArrayBuffer(4, { maxByteLength: 16 }), 1, 2), 'ff0f 7e 04 10 00000000 56 42 01 02 02', ['SC-E-12'], 'fixed view of a resizable buffer: flags 2');
E('sc-enc-error', () => withStack(new RangeError('m'), 'S'), 'ff0f 72 52 6d 22016d 73 220153 2e', ['SC-E-13'], 'RangeError with message and stack');
E('sc-enc-error-cause-order', () => withStack(new TypeError('m', { cause: { a: [1] } }), 'S'), 'ff0f 72 54 6d 22016d 73 220153 63 6f 220161 4101 4902 2400 01 7b01 2e', ['SC-E-13', 'SC-E-15'], 'subtags in the order m, s, c (V8 11.3 writes m, c, s)');
E('sc-enc-error-empty', () => noStack(new Error()), 'ff0f 72 2e', ['SC-E-13'], 'Error without message or stack');
for (const [n, t] of [['EvalError', '45'], ['ReferenceError', '46'], ['SyntaxError', '53'], ['URIError', '55']]) {
  E(`sc-enc-error-${n.toLowerCase()}`, () => noStack(new globalThis[n]('x')), `ff0f 72 ${t} 6d 220178 2e`, ['SC-E-13'], `${n} prototype subtag`);
}
E('sc-enc-depth-at-limit', () => [[[1]]], 'ff0f 41 01 41 01 41 01 4902 2400 01 2400 01 2400 01', ['SC-E-14', 'SC-L-03'], 'nesting of exactly max_depth', { options: { max_depth: 3 } });
encodeReject({ id: 'sc-enc-rej-depth-array', make: () => [[[1]]], code: 'SC_LIMIT_DEPTH', rules: ['SC-E-14', 'SC-L-03'], description: 'three nested arrays with max_depth 2', options: { max_depth: 2 } });
encodeReject({ id: 'sc-enc-rej-depth-error-cause', make: () => noStack(new Error('m', { cause: {} })), code: 'SC_LIMIT_DEPTH', rules: ['SC-E-14', 'SC-L-03'], description: 'an Error and its cause object with max_depth 1', options: { max_depth: 1 } });
encodeReject({ id: 'sc-enc-rej-depth-map', make: () => [new Map([[1, new Set()]])], code: 'SC_LIMIT_DEPTH', rules: ['SC-E-14', 'SC-L-03'], description: 'array > Map > Set with max_depth 2', options: { max_depth: 2 } });
encodeReject({ id: 'sc-enc-rej-depth-zero', make: () => ({}), code: 'SC_LIMIT_DEPTH', rules: ['SC-E-14', 'SC-L-03'], description: 'max_depth 0 allows no container', options: { max_depth: 0 } });

// =================================================================== write
const problems = getProblems();
if (problems.length) {
  console.error(`${problems.length} case(s) failed their checks:\n${problems.map((p) => ` - ${p}`).join('\n')}`);
  process.exit(1);
}

// Cases that use forms vectors/SCHEMA.md and vectors/schema.json do not have yet (spec/structured-clone.md SC-N-03
// string fields in u16 form; the `node_ipc` option and `node-ipc` dialect of SC-D-27). They are checked like every
// other case but only written with --with-proposed, until the contract is extended.
const PROPOSED = {
  'sc-raw-object-lone-surrogate-key': 'SC-N-03 u16 key', 'sc-raw-regexp-lone-surrogate': 'SC-N-03 u16 source',
  'sc-raw-error-lone-surrogate-message': 'SC-N-03 u16 message/stack', 'sc-enc-object-lone-surrogate-key': 'SC-N-03 u16 key',
  'sc-ipc-view': 'node_ipc option', 'sc-ipc-plain-object': 'node_ipc option', 'sc-rej-ipc-bad-subtag': 'node_ipc option',
  'sc-rej-ipc-not-object': 'node_ipc option', 'sc-rej-ipc-array': 'node_ipc option',
};
for (const id of Object.keys(PROPOSED)) if (!cases.some((c) => c.id === id)) throw new Error(`PROPOSED names unknown case ${id}`);
const withProposed = process.argv.includes('--with-proposed');
const written = cases.filter((c) => withProposed || !PROPOSED[c.id]);

const INLINE_MAX = 512; // larger decode inputs go to a .bin file
function files() {
  const out = new Map();
  for (const c of written) {
    const dir = c.verdict;
    const json = { id: c.id, kind: c.kind, rules: c.rules, description: c.description };
    if (c.source) json.source = c.source;
    if (c.dialect) json.dialect = c.dialect;
    if (c.kind === 'clone-decode') {
      if (c.bytes.length > INLINE_MAX) {
        json.input = { file: `${c.id}.bin` };
        out.set(`${dir}/${c.id}.bin`, Buffer.from(c.bytes));
      } else {
        json.input = { hex: hex(c.bytes) };
      }
    } else {
      json.input = { value: c.value };
    }
    if (c.options) json.options = c.options;
    json.expect = c.expect;
    out.set(`${dir}/${c.id}.json`, Buffer.from(`${JSON.stringify(json, null, 1)}\n`));
  }
  return out;
}

function existing() {
  const out = new Map();
  for (const dir of ['accept', 'reject']) {
    const d = path.join(OUT, dir);
    if (!fs.existsSync(d)) continue;
    for (const f of fs.readdirSync(d)) out.set(`${dir}/${f}`, fs.readFileSync(path.join(d, f)));
  }
  return out;
}

const want = files();
const count = (pred) => written.filter(pred).length;
const held = cases.length - written.length;
const summary = `${written.length} cases${held ? ` (${held} proposed cases held back; --with-proposed writes them)` : ''}: clone-decode ${count((c) => c.kind === 'clone-decode' && c.verdict === 'accept')} accept / ${count((c) => c.kind === 'clone-decode' && c.verdict === 'reject')} reject, clone-encode ${count((c) => c.kind === 'clone-encode' && c.verdict === 'accept')} accept / ${count((c) => c.kind === 'clone-encode' && c.verdict === 'reject')} reject`;
if (process.argv.includes('--check')) {
  const have = existing();
  const diffs = [];
  for (const [k, v] of want) if (!have.has(k)) diffs.push(`missing ${k}`); else if (Buffer.compare(have.get(k), v)) diffs.push(`differs ${k}`);
  for (const k of have.keys()) if (!want.has(k)) diffs.push(`extra ${k}`);
  if (diffs.length) {
    console.error(`vectors/clone is out of date (run node vectors/src/clone/generate.mjs):\n${diffs.slice(0, 40).map((d) => ` - ${d}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`vectors/clone up to date; ${summary}`);
} else {
  for (const dir of ['accept', 'reject']) {
    const d = path.join(OUT, dir);
    fs.rmSync(d, { recursive: true, force: true });
    fs.mkdirSync(d, { recursive: true });
  }
  for (const [k, v] of want) fs.writeFileSync(path.join(OUT, k), v);
  console.log(`wrote vectors/clone: ${summary}`);
}
