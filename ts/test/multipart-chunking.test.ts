/**
 * MP-P-08: chunking never changes the result. Random bodies full of near-delimiters are parsed whole and under
 * random chunkings (native and fallback search, strict and every lenient flag); valid bodies must give back the
 * generated parts (the naive reference), mutated bodies must give identical results (parts or error code and offset).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bin, latin1, rng, run, split, indexOfFallback } from './helpers.js';
import type { MultipartOptions } from '../src/index.js';

const PIECES = ['\r', '\n', '\r\n', '-', '--', '\r\n-', '\r\n--', ' ', 'a', 'xyz', '\0', '\xff'];

function randomBody(r: () => number, boundary: string): string {
  const near = [
    `\r\n--${boundary.slice(0, Math.max(0, Math.floor(r() * boundary.length)))}`,
    `\r\n--${boundary}X`,
    `--${boundary}`,
    `\r--${boundary}\r\n`,
    `\r--${boundary}X`,
    `\r\n--${boundary}-x`,
    `\r\n--${boundary}\rx`,
    `\n--${boundary}-`,
  ];
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

interface Gen {
  name: string;
  filename: string | null;
  body: string;
}

/** The line-end reading a body is generated for: allow_lf, allow_cr, allow_near_delimiters. */
interface Reading {
  lf: boolean;
  cr: boolean;
  near: boolean;
}

/**
 * The naive reference of MP-P-04, MP-P-06 and MP-P-03's lookalikes: where the first delimiter at or after `start`
 * in t begins, or -1.
 */
function delimiterAt(t: string, start: number, boundary: string, f: Reading): number {
  const d = '--' + boundary;
  for (let i = start; i < t.length; i++) {
    let len: number;
    if (t.startsWith('\r\n' + d, i)) len = 2;
    else if ((f.lf && t.startsWith('\n' + d, i)) || (f.cr && t.startsWith('\r' + d, i))) len = 1;
    else continue;
    const a = i + len + d.length;
    const c = t[a];
    if (c === undefined || !'- \t\r\n'.includes(c)) continue;
    const c2 = t[a + 1];
    if (f.near && c2 !== undefined && ((c === '-' && c2 !== '-') || (c === '\r' && !f.cr && c2 !== '\n'))) continue;
    return i;
  }
  return -1;
}

function build(r: () => number, boundary: string, f: Reading): { text: string; parts: Gen[] } {
  const parts: Gen[] = [];
  // line ends: CRLF, LF (allow_lf), CR (allow_cr); one per part, so that an empty line is never CR then LF
  const ends = ['\r\n'];
  if (f.lf) ends.push('\n');
  if (f.cr) ends.push('\r');
  const pick = () => ends[Math.floor(r() * ends.length)]!;
  let nl = pick();
  let text = '';
  const count = Math.floor(r() * 5);
  for (let k = 0; k < count; k++) {
    const pad = r() < 0.2 ? ' \t' : '';
    const filename = r() < 0.3 ? `f${k}.bin` : null;
    text += `--${boundary}${pad}${nl}Content-Disposition: form-data; name="n${k}"${filename === null ? '' : `; filename="${filename}"`}${nl}`;
    if (r() < 0.3) text += `Content-Type: application/x-${k}${nl}`;
    text += nl;
    const bodyNl = nl;
    nl = pick();
    // the body must end exactly where the generator's delimiter begins (with what follows it), and after a CR-only
    // empty line it must not begin with LF (that would make the empty line CRLF)
    const next = `${bodyNl}--${boundary}${k + 1 < count ? `${nl}C` : `--${nl}`}`;
    let body = randomBody(r, boundary);
    while (delimiterAt(body + next, 0, boundary, f) !== body.length || (bodyNl === '\r' && body.startsWith('\n'))) body = randomBody(r, boundary);
    parts.push({ name: `n${k}`, filename, body });
    text += `${body}${bodyNl}`;
  }
  text += `--${boundary}--${nl}`;
  if (r() < 0.3) text += 'epilogue' + randomBody(r, boundary);
  return { text, parts };
}

/** All twelve lenient flags (MP-R-02), each on with probability p. */
function randomFlags(r: () => number, p: number): MultipartOptions {
  return {
    allowPreamble: r() < p,
    allowLf: r() < p,
    allowObsFold: r() < p,
    allowQuotedPairs: r() < p,
    allowMissingDisposition: r() < p,
    allowAnyDispositionType: r() < p,
    allowJunkAfterClose: r() < p,
    allowUtf8HeaderNames: r() < p,
    allowCr: r() < p,
    allowNearDelimiters: r() < p,
    allow8bitParameterNames: r() < p,
    allowRfc2231Continuations: r() < p,
  };
}

function randomCuts(r: () => number, len: number): number[] {
  const set = new Set<number>();
  const n = Math.floor(r() * 8);
  for (let i = 0; i < n && len > 1; i++) set.add(1 + Math.floor(r() * (len - 1)));
  return [...set].sort((a, b) => a - b);
}

const BOUNDARIES = ['b', 'boundary', '----WebKitFormBoundary7MA4YWxkTrZu0gW', '-', 'x'.repeat(70), "a'()+_,-./:=? z"];

for (const mode of ['strict', 'allow_lf', 'allow_cr', 'every flag'] as const) {
  test(`random valid bodies equal the generated parts under random chunkings (${mode})`, () => {
    const r = rng({ strict: 3, allow_lf: 7, allow_cr: 5, 'every flag': 13 }[mode]);
    let checked = 0;
    for (let iter = 0; iter < 400; iter++) {
      const boundary = BOUNDARIES[iter % BOUNDARIES.length]!;
      const ct = `multipart/form-data; boundary="${boundary}"`;
      // 'every flag': the twelve drawn at random (none of the others changes how these bodies read)
      const flags: MultipartOptions = mode === 'every flag' ? randomFlags(r, 0.5) : { allowLf: mode === 'allow_lf', allowCr: mode === 'allow_cr' };
      const { text, parts } = build(r, boundary, { lf: flags.allowLf === true, cr: flags.allowCr === true, near: flags.allowNearDelimiters === true });
      const body = bin(text);
      const options: MultipartOptions = { ...flags, maxTotalBytes: null as unknown as number };
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
    const { text } = build(r, boundary, { lf: false, cr: iter % 3 === 1, near: iter % 3 === 2 });
    const b = bin(text);
    // mutate: flip, insert or delete a few bytes; sometimes give a filename as RFC 2231 continuations or an 8-bit
    // parameter name first
    let s = latin1(b);
    if (r() < 0.3) s = s.replace('; filename=', ['; filename*0=', "; filename*0*=''%41; filename*1=", '; \xa0filename=', '; filename*0=a; FILENAME*0*='][Math.floor(r() * 4)]!);
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
      ...randomFlags(r, 0.3),
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
  const strict = ['\r', '\r\n', `\r\n--${boundary.slice(0, 30)}`, `\r\n--${boundary}X`, '-'];
  // allow_cr's second needle and allow_near_delimiters' lookalikes (each one body data)
  const cr = ['\r\r\n', `\r--${boundary.slice(0, 30)}`, `\r--${boundary}X`, `\n--${boundary}X`];
  const near = [`\r\n--${boundary}-x`, `\r\n--${boundary}\rx`];
  const runs: Array<[string, MultipartOptions]> = [
    ...strict.map((f): [string, MultipartOptions] => [f, {}]),
    ...[...strict, ...cr].map((f): [string, MultipartOptions] => [f, { allowCr: true }]),
    ...[...strict, ...near].map((f): [string, MultipartOptions] => [f, { allowNearDelimiters: true }]),
    // with allow_cr, `--B` CR x is a delimiter line ended by its CR
    ...[...cr, near[0]!].map((f): [string, MultipartOptions] => [f, { allowCr: true, allowLf: true, allowNearDelimiters: true }]),
  ];
  for (const [fill, options] of runs) {
    const body = bin(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\n${fill.repeat(Math.ceil(1048576 / fill.length))}\r\n--${boundary}--`);
    // CPU time, not wall time: a busy machine stretches the wall clock, while a quadratic scan of 1 MiB would take
    // minutes of CPU whatever the load.
    const t0 = process.cpuUsage();
    const out = run(body, ct, { ...options, maxFileBytes: null as unknown as number }, split(body, Array.from({ length: Math.floor(body.length / 4099) }, (_, i) => (i + 1) * 4099)));
    const used = process.cpuUsage(t0);
    const ms = (used.user + used.system) / 1000;
    assert.ok('parts' in out && out.parts.length === 1, `${JSON.stringify(fill)} ${JSON.stringify(options)}`);
    assert.ok(ms < 2000, `${JSON.stringify(fill)} ${JSON.stringify(options)} took ${ms} ms of CPU`);
  }
});
