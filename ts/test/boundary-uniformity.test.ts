// MP-S-04 random boundaries (issue #13): every one of the 62 boundary characters is equally likely. A plain
// `byte % 62` favours the first 8 characters (5/256 against 4/256); the generator rejects bytes >= 248 instead.
// Pearson's chi-squared over all characters of many boundaries, against fixed bounds for 61 degrees of freedom
// (Wilson-Hilferty): 129 is the p = 1e-6 quantile, 153 the p = 1e-9 one. The same count of characters drawn with
// the modulo bias scores about 4,200, so the bounds tell the two apart by a wide margin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateBoundary } from '../src/core/encode.js';
import { encodeFormData } from '../src/index.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX = '----formwire-';
const DRAWS = 20_000; // boundaries, 32 random characters each: 640,000 characters, ~10,300 per character

/** SplitMix64 bytes: a fixed, reproducible source. */
function splitmix(seed: bigint): (b: Uint8Array) => void {
  let s = seed;
  return (b) => {
    for (let i = 0; i < b.length; i += 8) {
      s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
      let z = s;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
      z ^= z >> 31n;
      for (let j = 0; j < 8 && i + j < b.length; j++) b[i + j] = Number((z >> BigInt(8 * j)) & 0xffn);
    }
  };
}

function chiSquared(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const want = total / counts.length;
  return counts.reduce((a, c) => a + (c - want) ** 2 / want, 0);
}

function countChars(boundaries: string[]): number[] {
  const counts = new Array<number>(62).fill(0);
  for (const s of boundaries) {
    assert.equal(s.slice(0, PREFIX.length), PREFIX);
    assert.equal(s.length, PREFIX.length + 32);
    for (let i = PREFIX.length; i < s.length; i++) {
      const k = ALPHABET.indexOf(s[i]!);
      assert.ok(k >= 0, `unexpected character ${JSON.stringify(s[i])}`);
      counts[k]!++;
    }
  }
  return counts;
}

test('MP-S-04: boundary characters are uniform (seeded source, chi-squared < 129)', () => {
  const random = splitmix(0x5eedn);
  const all: string[] = [];
  for (let i = 0; i < DRAWS; i++) all.push(generateBoundary(random));
  const chi = chiSquared(countChars(all));
  assert.ok(chi < 129, `chi-squared ${chi.toFixed(1)} over 62 characters`);

  // the test's power: the same source read with a plain modulo (no rejection) fails the same bound
  const biased = splitmix(0x5eedn);
  const counts = new Array<number>(62).fill(0);
  const r = new Uint8Array(32);
  for (let i = 0; i < DRAWS; i++) {
    biased(r);
    for (const b of r) counts[b % 62]!++;
  }
  const chiBiased = chiSquared(counts);
  assert.ok(chiBiased > 1000, `a modulo bias scores ${chiBiased.toFixed(1)}`);
});

test('MP-S-04: boundaries of encodeFormData (crypto source) are uniform (chi-squared < 153)', () => {
  const all: string[] = [];
  const form = new FormData();
  for (let i = 0; i < DRAWS; i++) all.push(encodeFormData(form).boundary);
  assert.equal(new Set(all).size, DRAWS, 'every boundary differs');
  const chi = chiSquared(countChars(all));
  assert.ok(chi < 153, `chi-squared ${chi.toFixed(1)} over 62 characters`);
});
