/**
 * The string fast path of parseUrlencoded (windows, one-byte and UTF-16 batches, its own percent/UTF-8 decoder)
 * against the byte path (UrlencodedParser over the string's UTF-8 encoding, decodeBytes + TextDecoder), which
 * UE-P-01 says it must equal, on edge cases and on random inputs of many windows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUrlencoded, FormwireError } from '../src/index.js';
import { TextCodec, PORTABLE_TEXT, asciiString } from '../src/core/utf8.js';
import { parseUrlencodedString } from '../src/core/urlencoded.js';
import { runtimeText } from '../src/adapters/node.js';
import { rng } from './helpers.js';

const te = new TextEncoder();

/** The byte path: what the string path must give (UE-P-01). */
const viaBytes = (s: string, o = { maxPairs: null as number | null }) => parseUrlencoded(te.encode(s), o);
const viaString = (s: string, o = { maxPairs: null as number | null }) => parseUrlencoded(s, o);

/** Text decoding without the UTF-16LE TextDecoder (String.fromCharCode over slices instead). */
const NO_UTF16 = new TextCodec({ utf16: false });

const F = '\ufffd';

/** [input, name or value after `k=`, expected decoding] */
const EDGES: Array<[string, string]> = [
  // '%' at the end, '%' with one hex digit, '%' before a non-hex, '%%'
  ['%', '%'],
  ['%4', '%4'],
  ['a%', 'a%'],
  ['%zz%4g%%41', '%zz%4g%A'],
  ['%+41', '% 41'], // UE-P-06 runs first: '+' is never part of an escape
  // '+' and %2B mixed
  ['a+%2B+b%2b+', 'a + b+ '],
  ['+++', '   '],
  ['%2B%2B', '++'],
  // truncated sequences: %C3 alone, at the end, before ASCII, before a literal non-ASCII character
  ['%C3', F],
  ['x%C3', `x${F}`],
  ['%C3x', `${F}x`],
  ['%C3é', `${F}é`],
  ['%E2%82', F],
  ['%E2%82%41', `${F}A`],
  ['%F0%9F%98', F],
  ['%C3+', `${F} `],
  ['%C3%', `${F}%`],
  ['%C3%4', `${F}%4`],
  // lone continuation bytes, invalid lead bytes
  ['%80', F],
  ['%80%80', F + F],
  ['%FE%FF', F + F],
  ['%C0%AF', F + F], // overlong 2-byte
  ['%C1%BF', F + F],
  ['%E0%80%AF', F + F + F], // overlong 3-byte
  ['%E0%9F%BF', F + F + F],
  ['%F0%80%80%AF', F + F + F + F], // overlong 4-byte
  ['%F0%8F%BF%BF', F + F + F + F],
  ['%ED%A0%80', F + F + F], // an encoded high surrogate
  ['%ED%B0%80', F + F + F], // an encoded low surrogate
  ['%ED%A0%BD%ED%B8%80', F.repeat(6)], // CESU-8 pair: still six
  ['%F4%90%80%80', F + F + F + F], // above U+10FFFF
  ['%F5%80%80%80', F + F + F + F],
  ['%F4%8F%BF%BF', '\u{10FFFF}'],
  ['%EF%BF%BF', '\uffff'],
  // valid sequences, percent-encoded, mixed case hex, next to literal characters
  ['%c3%a9%C3%A9', 'éé'],
  ['%F0%9F%98%80', '😀'],
  ['😀%F0%9F%98%80😀', '😀😀😀'],
  ['%E2%82%AC€', '€€'],
  ['%EF%BB%BF', '\ufeff'], // BOM kept (UE-P-08), even first in a batch
  ['\ufeff%EF%BB%BF', '\ufeff\ufeff'],
  ['%00%0D%0A', '\u0000\r\n'],
  ['%26%3D', '&='],
  // a literal non-ASCII character interrupts a sequence of escapes
  ['%E2é%82', `${F}é${F}`],
  ['%F0%9F😀%98%80', `${F}😀${F}${F}`],
  // split and lone surrogates in the input: U+FFFD when the string is UTF-8 encoded (UE-P-01)
  ['\ud83d', F],
  ['\ude00', F],
  ['\ude00\ud83d', F + F],
  ['a\ud83d+%41', `a${F} A`],
  ['\ud83d%F0%9F%98%80\ude00', `${F}😀${F}`],
  ['\ud83d\ude00', '😀'],
];

test('string path edge cases: expected decoding, same as the byte path, as a name and as a value', () => {
  for (const [raw, want] of EDGES) {
    for (const input of [`k=${raw}`, `${raw}=v`, `a=1&k=${raw}&b=${raw}+`, `${raw}`]) {
      assert.deepEqual(viaString(input), viaBytes(input), JSON.stringify(input));
    }
    assert.deepEqual(viaString(`k=${raw}`), [['k', want]], JSON.stringify(raw));
    assert.deepEqual(viaString(`${raw}=v`), [[want, 'v']], JSON.stringify(raw));
  }
});

/** Random input from pieces chosen to hit every branch of the decoder and both kinds of window. */
function randomInput(r: () => number, n: number, nonAscii: boolean): string {
  const ascii = ['a', 'bc', 'xyz0123456789', '=', '&', '&', '+', '%', '%2', '%2B', '%41', '%25', '%zz', '%C3', '%A9',
    '%E2%82', '%AC', '%F0%9F%98%80', '%ED%A0%80', '%F4%90%80%80', '%C0%AF', '%ff', '%EF%BB%BF', ';', ' '];
  const other = ['é', '€', '😀', '\ufeff', '\ud83d', '\ude00', 'Ω'];
  let s = '';
  for (let i = 0; i < n; i++) {
    if (nonAscii && r() < 0.05) s += other[Math.floor(r() * other.length)];
    else s += ascii[Math.floor(r() * ascii.length)];
  }
  return s;
}

test('random short inputs: string path = byte path (with and without the UTF-16LE decoder)', () => {
  const r = rng(41);
  for (let iter = 0; iter < 4000; iter++) {
    const s = randomInput(r, Math.floor(r() * 24), r() < 0.5);
    const want = viaBytes(s);
    assert.deepEqual(viaString(s), want, JSON.stringify(s));
    if (iter % 4 === 0) {
      assert.deepEqual(parseUrlencodedString(s, { maxPairs: null }, NO_UTF16), want, `${JSON.stringify(s)} (fromCharCode)`);
    }
  }
});

test('random inputs of many windows (ASCII windows, non-ASCII windows, long sequences): string path = byte path', () => {
  const r = rng(42);
  for (let iter = 0; iter < 12; iter++) {
    // 8k..200k pieces: several 16 Ki-character windows, some with a non-ASCII character
    const s = randomInput(r, 8000 + Math.floor(r() * 60000), iter % 3 !== 0);
    const want = viaBytes(s);
    assert.ok(want.length > 100);
    assert.deepEqual(viaString(s), want, `iteration ${iter}`);
  }
  // sequences longer than a window and longer than the longest window copied to bytes (65536)
  const long = (k: number, piece: string) => piece.repeat(Math.ceil(k / piece.length));
  for (const body of [
    `a=${long(70000, 'x+%41%C3%A9')}&b=1`,
    `${long(70000, 'y+')}=${long(20000, 'é+%E2%82%AC')}&c`,
    `q=${long(100000, 'plain')}&r=${long(30000, '%F0%9F%98%80')}`,
    `${long(20000, 'k=v+w&')}${long(66000, 'z')}&${long(20000, '%41=%42&')}`,
  ]) {
    assert.deepEqual(viaString(body), viaBytes(body), body.slice(0, 40));
  }
});

test('string path at window edges: every pair intact, pairs limit offsets as the byte path', () => {
  // pairs straddling 16384 characters from every offset
  for (let pad = 0; pad < 40; pad++) {
    const s = `${'p'.repeat(16370 + pad)}=1&a+b=%C3%A9&c=${'q'.repeat(pad)}+&d`;
    assert.deepEqual(viaString(s), viaBytes(s), `pad ${pad}`);
  }
  const many = Array.from({ length: 5000 }, (_, i) => `k${i}=v+${i}%21`).join('&');
  const e1 = (() => { try { parseUrlencoded(many, { maxPairs: 4321 }); } catch (e) { return e; } })();
  const e2 = (() => { try { parseUrlencoded(te.encode(many), { maxPairs: 4321 }); } catch (e) { return e; } })();
  assert.ok(e1 instanceof FormwireError && e2 instanceof FormwireError);
  assert.equal(e1.code, 'UE_LIMIT_PAIRS');
  assert.equal(e1.offset, e2.offset);
  assert.equal(viaString(many).length, 5000);
  assert.deepEqual(viaString(many)[4999], ['k4999', 'v 4999!']);
});

test('windows of very different densities: every pair, no holes, maxPairs exact', () => {
  const dense = Array.from({ length: 9000 }, (_, i) => `a${i % 10}=${i % 7}`).join('&');
  const sparse = Array.from({ length: 300 }, (_, i) => `long${i}=${'v+'.repeat(60)}%41`).join('&');
  for (const s of [`${dense}&${sparse}`, `${sparse}&${dense}`, `${dense}&&&${'x'.repeat(100000)}`, `${sparse}&${sparse}&&`]) {
    const got = viaString(s);
    assert.deepEqual(got, viaBytes(s));
    assert.equal(Object.keys(got).length, got.length, 'no holes');
    assert.ok(got.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string'));
  }
  // exactly maxPairs pairs pass, one more fails
  const s = `${dense}&${dense}`;
  assert.equal(parseUrlencoded(s, { maxPairs: 18000 }).length, 18000);
  assert.throws(() => parseUrlencoded(s, { maxPairs: 17999 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_PAIRS');
});

test('without the native Latin-1 slice (runtimes without Buffer) windows decode to the same strings', () => {
  const r = rng(43);
  const s = randomInput(r, 30000, false);
  const want = viaString(s);
  const bytes = te.encode('x+y%41&'.repeat(20));
  const withNative = runtimeText.ascii(bytes, 0, bytes.length);
  assert.equal(PORTABLE_TEXT.ascii(bytes, 0, bytes.length), withNative);
  assert.equal(asciiString(bytes, 0, bytes.length), withNative);
  assert.deepEqual(parseUrlencodedString(s, { maxPairs: null }, PORTABLE_TEXT), want);
  assert.deepEqual(want, viaBytes(s));
});
