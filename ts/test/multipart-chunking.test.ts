/**
 * MP-P-08: chunking never changes the result. Random bodies full of near-delimiters are parsed whole and under
 * random chunkings (native and fallback search, strict and lenient); valid bodies must give back the generated
 * parts (the naive reference), mutated bodies must give identical results (parts or error code and offset).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bin, latin1, rng, run, split, indexOfFallback } from './helpers.js';
import type { MultipartOptions } from '../src/index.js';

const PIECES = ['\r', '\n', '\r\n', '-', '--', '\r\n-', '\r\n--', ' ', 'a', 'xyz', '\0', '\xff'];

function randomBody(r: () => number, boundary: string): string {
  const near = [`\r\n--${boundary.slice(0, Math.max(0, Math.floor(r() * boundary.length)))}`, `\r\n--${boundary}X`, `--${boundary}`, `\r--${boundary}\r\n`];
  let s = '';
  const n = Math.floor(r() * 12);
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.2) s += near[Math.floor(r() * near.length)]!;
    else if (k < 0.8) s += PIECES[Math.floor(r() * PIECES.length)]!;
    else s += String.fromCharCode(Math.floor(r() * 256)).repeat(1 + Math.floor(r() * 40));
  }
  // a body must not end so that "\r\n--B" + after-byte completes a delimiter: the serializer adds CRLF--B next,
  // so a trailing "\r\n--B" prefix is fine; but the body itself must not contain a real delimiter.
  return s;
}

/** Would the parser see a delimiter inside the body (before the one the generator appends)? */
function hasDelimiter(s: string, boundary: string, lf: boolean): boolean {
  const needle = (lf ? '\n--' : '\r\n--') + boundary;
  const full = s + (lf ? '\n' : '\r\n') + '--' + boundary + '-';
  for (let i = full.indexOf(needle); i >= 0 && i < s.length; i = full.indexOf(needle, i + 1)) {
    const after = full[i + needle.length];
    if (after !== undefined && '- \t\r\n'.includes(after)) return true;
  }
  return false;
}

interface Gen {
  name: string;
  filename: string | null;
  body: string;
}

function build(r: () => number, boundary: string, lf: boolean): { text: string; parts: Gen[] } {
  const parts: Gen[] = [];
  const nl = lf ? '\n' : '\r\n';
  let text = '';
  const count = Math.floor(r() * 5);
  for (let k = 0; k < count; k++) {
    let body = randomBody(r, boundary);
    while (hasDelimiter(body, boundary, lf) || (lf && body.endsWith('\r'))) body = randomBody(r, boundary);
    const filename = r() < 0.3 ? `f${k}.bin` : null;
    parts.push({ name: `n${k}`, filename, body });
    text += `--${boundary}${r() < 0.2 ? ' \t' : ''}${nl}Content-Disposition: form-data; name="n${k}"${filename === null ? '' : `; filename="${filename}"`}${nl}`;
    if (r() < 0.3) text += `Content-Type: application/x-${k}${nl}`;
    text += `${nl}${body}${nl}`;
  }
  text += `--${boundary}--${nl}`;
  if (r() < 0.3) text += 'epilogue' + randomBody(r, boundary);
  return { text, parts };
}

function randomCuts(r: () => number, len: number): number[] {
  const set = new Set<number>();
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n && len > 1; i++) set.add(1 + Math.floor(r() * (len - 1)));
  return [...set].sort((a, b) => a - b);
}

const BOUNDARIES = ['b', 'boundary', '----WebKitFormBoundary7MA4YWxkTrZu0gW', '-', 'x'.repeat(70), "a'()+_,-./:=? z"];

for (const lf of [false, true]) {
  test(`random valid bodies equal the generated parts under random chunkings (${lf ? 'allow_lf' : 'strict'})`, () => {
    const r = rng(lf ? 7 : 3);
    let checked = 0;
    for (let iter = 0; iter < 400; iter++) {
      const boundary = BOUNDARIES[iter % BOUNDARIES.length]!;
      const ct = `multipart/form-data; boundary="${boundary}"`;
      const { text, parts } = build(r, boundary, lf);
      const body = bin(text);
      const options: MultipartOptions = { allowLf: lf, maxTotalBytes: null as unknown as number };
      const whole = run(body, ct, options);
      assert.ok('parts' in whole, `iter ${iter}: ${JSON.stringify(whole)} for ${JSON.stringify(text)}`);
      assert.deepEqual(
        whole.parts.map((p) => ({ name: p.name, filename: p.filename, body: p.body })),
        parts,
        `iter ${iter}: ${JSON.stringify(text)}`,
      );
      for (let k = 0; k < 6; k++) {
        const chunks = split(body, randomCuts(r, body.length));
        assert.deepEqual(run(body, ct, options, chunks), whole, `iter ${iter} cuts ${chunks.map((c) => c.length)}`);
        assert.deepEqual(run(body, ct, options, chunks, indexOfFallback), whole);
      }
      assert.deepEqual(run(body, ct, options, Array.from(body, (_, i) => body.subarray(i, i + 1))), whole);
      checked++;
    }
    assert.equal(checked, 400);
  });
}

test('mutated bodies: every chunking gives the same parts or the same error code and offset', () => {
  const r = rng(11);
  const seen = new Set<string>();
  for (let iter = 0; iter < 600; iter++) {
    const boundary = BOUNDARIES[iter % 3]!;
    const ct = `multipart/form-data; boundary="${boundary}"`;
    const { text } = build(r, boundary, false);
    const b = bin(text);
    // mutate: flip, insert or delete a few bytes
    let s = latin1(b);
    const muts = 1 + Math.floor(r() * 3);
    for (let m = 0; m < muts && s.length > 0; m++) {
      const at = Math.floor(r() * s.length);
      const k = r();
      const ch = ['\r', '\n', ' ', '-', ':', '"', ';', '\0', 'x', '\t'][Math.floor(r() * 10)]!;
      if (k < 0.4) s = s.slice(0, at) + ch + s.slice(at + 1);
      else if (k < 0.7) s = s.slice(0, at) + ch + s.slice(at);
      else s = s.slice(0, at) + s.slice(at + 1);
    }
    const body = bin(s);
    const options: MultipartOptions = {
      allowLf: iter % 4 === 1,
      allowPreamble: iter % 4 === 2,
      allowObsFold: iter % 4 === 3,
      maxFieldBytes: iter % 5 === 0 ? 7 : undefined,
      maxHeaderBytes: iter % 7 === 0 ? 40 : undefined,
      maxTotalBytes: iter % 9 === 0 ? Math.floor(body.length / 2) : undefined,
    };
    const whole = run(body, ct, options);
    seen.add('error' in whole ? whole.error.code : 'ok');
    for (let k = 0; k < 5; k++) {
      const chunks = split(body, randomCuts(r, body.length));
      assert.deepEqual(run(body, ct, options, chunks), whole, `iter ${iter} ${JSON.stringify(s)} cuts ${chunks.map((c) => c.length)}`);
    }
    assert.deepEqual(run(body, ct, options, Array.from(body, (_, i) => body.subarray(i, i + 1))), whole, `iter ${iter} bytes`);
  }
  // the mutations reach both outcomes and several error codes
  assert.ok(seen.has('ok') && seen.size >= 5, [...seen].join(','));
});

test('linear time on adversarial inputs (CR-dense, boundary-prefix-dense, 1 MiB each)', () => {
  const boundary = '----WebKitFormBoundary7MA4YWxkTrZu0gW';
  const ct = `multipart/form-data; boundary=${boundary}`;
  for (const fill of ['\r', '\r\n', `\r\n--${boundary.slice(0, 30)}`, `\r\n--${boundary}X`, '-']) {
    const body = bin(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\n${fill.repeat(Math.ceil(1048576 / fill.length))}\r\n--${boundary}--`);
    // CPU time, not wall time: a busy machine stretches the wall clock, while a quadratic scan of 1 MiB would take
    // minutes of CPU whatever the load.
    const t0 = process.cpuUsage();
    const out = run(body, ct, {}, split(body, Array.from({ length: Math.floor(body.length / 4099) }, (_, i) => (i + 1) * 4099)));
    const used = process.cpuUsage(t0);
    const ms = (used.user + used.system) / 1000;
    assert.ok('parts' in out && out.parts.length === 1, fill);
    assert.ok(ms < 2000, `${JSON.stringify(fill)} took ${ms} ms of CPU`);
  }
});
