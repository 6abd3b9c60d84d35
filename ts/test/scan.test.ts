/** The core's delimiter scan (core/scan.ts, issue #20): same answers as the plain search, in linear time. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DelimiterScan } from '../src/core/scan.js';
import { indexOfFallback } from '../src/core/multipart.js';
import { nativeIndexOf } from '../src/adapters/node.js';
import { MultipartParser, boundaryFromContentType } from '../src/index.js';
import { bin, rng, run, allChunkings } from './helpers.js';

const enc = new TextEncoder();

function find(needle: Uint8Array, h: Uint8Array, from: number): number {
  return new DelimiterScan(needle).find(h, new DataView(h.buffer, h.byteOffset, h.length), from);
}

/** Every occurrence from every start, scan against the fallback. */
function allEqual(needle: Uint8Array, h: Uint8Array, label: string): void {
  const sc = new DelimiterScan(needle);
  const dv = new DataView(h.buffer, h.byteOffset, h.length);
  for (let from = 0; from <= h.length; from++) {
    const want = indexOfFallback(h, needle, from);
    const got = sc.find(h, dv, from);
    if (got !== want) assert.equal(got, want, `${label}: from ${from}`);
  }
}

test('scan = fallback on small alphabets (dense partial matches), needles of 3 to 80 bytes, every start', () => {
  const r = rng(61);
  for (let iter = 0; iter < 300; iter++) {
    const L = 3 + Math.floor(r() * 78);
    const alpha = [13, 10, 45, 0x61, 0x62][Math.floor(r() * 5)]!;
    const lf = r() < 0.3;
    const needle = new Uint8Array(L);
    needle.set(lf ? [10, 45, 45] : [13, 10, 45, 45].slice(0, Math.min(4, L)));
    for (let k = lf ? 3 : 4; k < L; k++) needle[k] = r() < 0.5 ? 45 : 0x61 + Math.floor(r() * 2);
    const h = new Uint8Array(Math.floor(r() * 400));
    for (let k = 0; k < h.length; k++) {
      const x = r();
      h[k] = x < 0.2 ? 13 : x < 0.4 ? 10 : x < 0.6 ? 45 : x < 0.8 ? 0x61 : x < 0.9 ? 0x62 : alpha;
    }
    // plant some needles and prefixes of it
    for (let k = 0; k < 3 && h.length > L; k++) {
      const at = Math.floor(r() * (h.length - L));
      h.set(r() < 0.5 ? needle : needle.subarray(0, Math.floor(r() * L)), at);
    }
    allEqual(needle, h, `needle ${[...needle].join(',')} in ${h.length} bytes`);
  }
});

test('scan = fallback and = Buffer.indexOf on random bytes with planted needles, in views that do not start at 0', () => {
  const r = rng(62);
  for (const L of [5, 6, 7, 8, 12, 43, 74, 200]) {
    const needle = new Uint8Array(L);
    needle.set([13, 10, 45, 45]);
    for (let k = 4; k < L; k++) needle[k] = 0x30 + Math.floor(r() * 64);
    const buf = new Uint8Array(70000);
    for (let k = 0; k < buf.length; k++) buf[k] = Math.floor(r() * 256);
    for (let k = 0; k < 20; k++) buf.set(needle, Math.floor(r() * (buf.length - L)));
    const h = buf.subarray(3, buf.length - 5);
    for (let from = 0, n = 0; n < 40; n++) {
      const want = indexOfFallback(h, needle, from);
      assert.equal(find(needle, h, from), want, `L ${L} from ${from}`);
      assert.equal(nativeIndexOf!(h, needle, from), want);
      if (want < 0) break;
      from = want + 1 + Math.floor(r() * 3);
    }
  }
});

test('scan: stretches dense in near-misses go to the dense search, with the same answers', () => {
  const B = '----PeerBenchFormBoundary7MA4YWxkTrZu0g';
  const needle = enc.encode('\r\n--' + B);
  const unit = enc.encode('\r\n--' + B.slice(0, -1) + '!');
  const h = new Uint8Array(200000);
  for (let i = 0; i + unit.length <= h.length; i += unit.length) h.set(unit, i);
  h.set(needle, 150001);
  let calls = 0;
  const dense = (a: Uint8Array, n: Uint8Array, f: number): number => {
    calls++;
    return indexOfFallback(a, n, f);
  };
  const sc = new DelimiterScan(needle, dense);
  const dv = new DataView(h.buffer);
  for (const from of [0, 1, 5000, 150001, 150002]) {
    assert.equal(sc.find(h, dv, from), indexOfFallback(h, needle, from), `from ${from}`);
  }
  assert.ok(calls >= 3, `dense search called ${calls} times`);
  // random bytes: the scan never hands over
  const r = rng(64);
  const rnd = new Uint8Array(200000).map(() => Math.floor(r() * 256));
  calls = 0;
  assert.equal(sc.find(rnd, new DataView(rnd.buffer), 0), indexOfFallback(rnd, needle, 0));
  assert.equal(calls, 0);
});

test('scan: a needle at the very start, the very end, and a haystack shorter than the needle', () => {
  const needle = enc.encode('\r\n--boundary');
  const h = enc.encode('\r\n--boundaryxxxx\r\n--boundary');
  assert.equal(find(needle, h, 0), 0);
  assert.equal(find(needle, h, 1), h.length - needle.length);
  assert.equal(find(needle, h, h.length - needle.length + 1), -1);
  assert.equal(find(needle, enc.encode('\r\n--bound'), 0), -1);
  assert.equal(find(needle, new Uint8Array(0), 0), -1);
});

test('scan: linear on adversarial bodies (pairs of the needle everywhere, near-misses, repeated bytes)', () => {
  // Each body is 4 MiB; a quadratic search would take minutes. Checked against the fallback's answer.
  const B = '-'.repeat(30) + 'a'.repeat(40);
  const needle = enc.encode('\r\n--' + B);
  const size = 4 << 20;
  const fill = (unit: string): Uint8Array => {
    const u = enc.encode(unit);
    const h = new Uint8Array(size);
    for (let i = 0; i < size; i += u.length) h.set(u.subarray(0, Math.min(u.length, size - i)), i);
    return h;
  };
  const bodies = [fill('-'), fill('a'), fill('\r\n'), fill('\r\n--' + B.slice(0, -1) + 'b'), fill('\r\n--' + '-'.repeat(29)), fill('-a')];
  for (const h of bodies) {
    const t = performance.now();
    const got = find(needle, h, 0);
    const ms = performance.now() - t;
    assert.equal(got, indexOfFallback(h, needle, 0));
    assert.ok(ms < 2000, `${ms.toFixed(0)} ms for 4 MiB`);
  }
});

test('parsing with the scan equals parsing with the native search, every chunking, strict and allow_lf', () => {
  const r = rng(63);
  for (let iter = 0; iter < 40; iter++) {
    const B = 'x'.repeat(1 + Math.floor(r() * 6)) + '-' + Math.floor(r() * 1000);
    const body = (lf: boolean) => {
      const nl = lf ? '\n' : '\r\n';
      let s = '';
      for (let k = 0; k < 3; k++) {
        let v = '';
        for (let q = 0; q < Math.floor(r() * 40); q++) v += ['\r', '\n', '-', 'x', '\r\n--', `\r\n--${B.slice(0, -1)}`, 'y'][Math.floor(r() * 7)];
        s += `--${B}${nl}Content-Disposition: form-data; name="f${k}"${nl}${nl}${v}${nl}`;
      }
      return bin(s + `--${B}--`);
    };
    for (const lf of [false, true]) {
      const b = body(lf);
      const ct = `multipart/form-data; boundary=${B}`;
      const opts = { allowLf: lf };
      const want = run(b, ct, opts, [b], nativeIndexOf!);
      for (const chunks of allChunkings(b).slice(0, 60)) assert.deepEqual(run(b, ct, opts, chunks, 'scan'), want);
    }
  }
});

test('a boundary longer than 128 bytes (maxBoundaryBytes raised) is scanned like any other', () => {
  const B = 'q'.repeat(300);
  const ct = `multipart/form-data; boundary=${B}`;
  const body = bin(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\n${'z'.repeat(5000)}\r\n--${B}--`);
  const p = boundaryFromContentType(ct, 400);
  let n = 0;
  const parser = new MultipartParser(p, { onPartStart() {}, onData(v) { n += v.length; }, onPartEnd() {}, onEnd() {} }, { maxBoundaryBytes: 400 }, 'scan');
  parser.write(body);
  parser.end();
  assert.equal(n, 5000);
});
