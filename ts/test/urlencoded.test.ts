/** urlencoded: WHATWG parse/serialize, agreement with URLSearchParams, streaming splits, limits. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUrlencoded, serializeUrlencoded, urlencodedSearchParams, UrlencodedParser, FormwireError } from '../src/index.js';
import { rng } from './helpers.js';
import { Readable } from 'node:stream';

const te = new TextEncoder();

const CASES: Array<[string, [string, string][]]> = [
  ['', []],
  ['a=b&c=d', [['a', 'b'], ['c', 'd']]],
  ['&&a&=&b=&=c&', [['a', ''], ['', ''], ['b', ''], ['', 'c']]],
  ['a=b=c', [['a', 'b=c']]],
  ['a+b=c+d%2B', [['a b', 'c d+']]],
  ['a;b=c', [['a;b', 'c']]],
  ['%zz=%4&%=%%41', [['%zz', '%4'], ['%', '%A']]],
  ['%C3%A9=%E2%82%AC', [['é', '€']]],
  ['%FF=%C3', [['\ufffd', '\ufffd']]],
  ['%EF%BB%BFx=1', [['\ufeffx', '1']]],
  ['%ED%A0%80=1', [['\ufffd\ufffd\ufffd', '1']]],
  ['é=%F0%9F%98%80', [['é', '😀']]],
  ['%C3é=1', [['\ufffdé', '1']]],
  ['b%41%é%A9%zz\ufeff%2\ufeff', [['bA%é\ufffd%zz\ufeff%2\ufeff', '']]],
  ['%E2%82=%E2%82%41', [['\ufffd', '\ufffdA']]],
];

test('WHATWG parse cases (string, bytes, byte-by-byte stream)', async () => {
  for (const [input, want] of CASES) {
    assert.deepEqual(parseUrlencoded(input), want, input);
    assert.deepEqual(parseUrlencoded(te.encode(input)), want, input);
    const b = te.encode(input);
    assert.deepEqual(await parseUrlencoded((async function* () { for (let i = 0; i < b.length; i++) yield b.subarray(i, i + 1); })()), want, input);
  }
});

/** The WHATWG algorithm transcribed naively (URL §5.1 + percent-decode + UTF-8 decode without BOM). */
function reference(input: string): [string, string][] {
  const bytes = te.encode(input);
  const td = new TextDecoder('utf-8', { ignoreBOM: true });
  const hex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
  const decode = (b: number[]) => {
    const out: number[] = [];
    for (let i = 0; i < b.length; i++) {
      if (b[i] === 37 && i + 2 < b.length && hex(b[i + 1]!) && hex(b[i + 2]!)) {
        out.push(parseInt(String.fromCharCode(b[i + 1]!, b[i + 2]!), 16));
        i += 2;
      } else out.push(b[i]!);
    }
    return td.decode(new Uint8Array(out));
  };
  const pairs: [string, string][] = [];
  let seq: number[] = [];
  const flush = () => {
    if (seq.length === 0) return;
    const eq = seq.indexOf(61);
    const name = (eq < 0 ? seq : seq.slice(0, eq)).map((c) => (c === 43 ? 32 : c));
    const value = (eq < 0 ? [] : seq.slice(eq + 1)).map((c) => (c === 43 ? 32 : c));
    pairs.push([decode(name), decode(value)]);
    seq = [];
  };
  for (const c of bytes) {
    if (c === 38) flush();
    else seq.push(c);
  }
  flush();
  return pairs;
}

test('random inputs agree with a naive WHATWG reference, whole and split anywhere', () => {
  const r = rng(6);
  const alphabet = ['a', '=', '&', '+', '%', '%2', '%41', '%C3', '%A9', '%E2%82', '%AC', 'é', '€', '😀', '\ufeff', ';', '%zz', '%ff', '%ED%A0%80'];
  for (let iter = 0; iter < 3000; iter++) {
    let s = '';
    const n = Math.floor(r() * 16);
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
    const want = reference(s);
    assert.deepEqual(parseUrlencoded(s), want, s);
    const b = te.encode(s);
    const out: [string, string][] = [];
    const p = new UrlencodedParser((k, v) => out.push([k, v]));
    for (let i = 0; i < b.length; i++) p.write(b.subarray(i, i + 1));
    p.end();
    assert.deepEqual(out, want, `${s} byte by byte`);
  }
});

test('random inputs agree with URLSearchParams, whole and split anywhere', () => {
  const r = rng(5);
  // Valid UTF-8 only: Node 20's URLSearchParams (ada) replaces a whole run of non-ASCII bytes holding an invalid
  // sequence with one U+FFFD (WHATWG: one per maximal subpart), so invalid sequences are checked in CASES instead.
  // Node 20's URLSearchParams (ada) differs from WHATWG when a non-ASCII byte follows an invalid or lone '%' or an
  // invalid UTF-8 sequence; those inputs are covered by the naive reference above.
  const alphabet = ['a', 'b', '=', '&', '+', '%41', '%C3%A9', '%E2%82%AC', 'é', '€', '😀', '\ufeff', ';', ' ', '%2B', '%25'];
  for (let iter = 0; iter < 2000; iter++) {
    let s = '';
    const n = Math.floor(r() * 16);
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(r() * alphabet.length)];
    const want = [...new URLSearchParams(s)];
    assert.deepEqual(parseUrlencoded(s), want, s);
    const b = te.encode(s);
    const cut = Math.floor(r() * (b.length + 1));
    const cut2 = Math.floor(r() * (b.length + 1));
    const out: [string, string][] = [];
    const p = new UrlencodedParser((k, v) => out.push([k, v]));
    const [c1, c2] = cut < cut2 ? [cut, cut2] : [cut2, cut];
    p.write(b.subarray(0, c1));
    p.write(b.subarray(c1, c2));
    p.write(b.subarray(c2));
    p.end();
    assert.deepEqual(out, want, `${s} @${c1},${c2}`);
  }
});

test('serializer agrees with URLSearchParams.toString()', () => {
  const r = rng(9);
  for (let iter = 0; iter < 1000; iter++) {
    const pairs: [string, string][] = [];
    for (let k = 0; k < 3; k++) {
      let s = '';
      for (let i = 0; i < 6; i++) s += String.fromCodePoint(r() < 0.7 ? 32 + Math.floor(r() * 95) : Math.floor(r() * 0x2ffff) % 0xd800);
      pairs.push([s, s.split('').reverse().join('')]);
    }
    assert.equal(serializeUrlencoded(pairs), new URLSearchParams(pairs).toString());
  }
  assert.equal(serializeUrlencoded([['a b', "*-._!~'()"], ['\ud800', '']]), "a+b=*-._%21%7E%27%28%29&%EF%BF%BD=");
});

test('UE_LIMIT_PAIRS: offset of the first byte of pair max_pairs+1', () => {
  for (const input of ['a=1&&b=2&c=3', te.encode('a=1&&b=2&c=3')]) {
    assert.throws(() => parseUrlencoded(input as string, { maxPairs: 2 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_PAIRS' && e.offset === 9);
  }
  assert.throws(() => parseUrlencoded('é=1&ü=2', { maxPairs: 1 }), (e: unknown) => e instanceof FormwireError && e.offset === 5);
  assert.equal(parseUrlencoded('a&b', { maxPairs: 2 }).length, 2);
});

test('UE_LIMIT_BYTES: offset max_bytes; an earlier pair error wins', () => {
  assert.throws(() => parseUrlencoded('abcdef', { maxBytes: 5 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_BYTES' && e.offset === 5);
  assert.throws(() => parseUrlencoded(te.encode('abcdef'), { maxBytes: 5 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_BYTES' && e.offset === 5);
  assert.equal(parseUrlencoded('abcde', { maxBytes: 5 }).length, 1);
  assert.throws(() => parseUrlencoded('a&b&cdef', { maxBytes: 5, maxPairs: 2 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_PAIRS' && e.offset === 4);
  assert.throws(() => parseUrlencoded('a&bcdefg', { maxBytes: 5, maxPairs: 2 }), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_BYTES');
});

test('streams: Node Readable, web ReadableStream, Request; URLSearchParams helper', async () => {
  const s = 'a=%C3';
  const chunks = [te.encode('a=%'), te.encode('C'), te.encode('3%A'), te.encode('9&b')];
  assert.deepEqual(await parseUrlencoded(Readable.from(chunks)), [['a', 'é'], ['b', '']]);
  assert.deepEqual(await parseUrlencoded(new Request('http://x/', { method: 'POST', body: 'x=1+2' })), [['x', '1 2']]);
  assert.deepEqual(await parseUrlencoded(new Blob([s]).stream()), [['a', '\ufffd']]);
  const usp = urlencodedSearchParams('q=1&q=2');
  assert.deepEqual(usp.getAll('q'), ['1', '2']);
});

test('UE-L-01: the default max_bytes applies (10485761 bytes fed whole fail at 10485760)', () => {
  const big = new Uint8Array(10485761).fill(0x61);
  assert.throws(() => parseUrlencoded(big), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_BYTES' && e.offset === 10485760);
  assert.equal(parseUrlencoded(big.subarray(1))[0]![0].length, 10485760);
});

test('UE-L-02: the pair error is reported as soon as its first byte is fed; UE-L-05: later calls repeat it', () => {
  const out: string[] = [];
  const p = new UrlencodedParser((k) => out.push(k), { maxPairs: 1 });
  p.write(te.encode('a=1&'));
  assert.throws(() => p.write(te.encode('b')), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_PAIRS' && e.offset === 4);
  assert.throws(() => p.end(), (e: unknown) => e instanceof FormwireError && e.code === 'UE_LIMIT_PAIRS' && e.offset === 4);
  assert.deepEqual(out, ['a']);
});

test('UE-S-01: lone surrogates serialize as U+FFFD', () => {
  assert.equal(serializeUrlencoded([['k', 'a\uD800b']]), 'k=a%EF%BF%BDb');
  assert.equal(serializeUrlencoded([['\uDC00\uD83D\uDE00', '']]), '%EF%BF%BD%F0%9F%98%80=');
});
