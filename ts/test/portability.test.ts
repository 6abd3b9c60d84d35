/** The core is runtime-free, and the non-Node fallbacks (search, UTF-8 decoding) give the same results. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { PORTABLE_TEXT, TextCodec, decodeUtf8 } from '../src/core/utf8.js';
import { nativeLatin1Decode, nativeUtf8Decode, runtimeText } from '../src/adapters/node.js';
import { parseUrlencodedBytes } from '../src/core/urlencoded.js';
import { bin, run, indexOfFallback, rng } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));

test('src/core uses no Node APIs (only Uint8Array, TextEncoder/TextDecoder)', () => {
  const dir = join(here, '..', '..', 'src', 'core');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 6);
  for (const f of files) {
    const src = readFileSync(join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const bad of [/from ['"]node:/, /require\(/, /\bBuffer\b/, /\bprocess\b/, /from ['"]\.\.\//]) {
      assert.doesNotMatch(src, bad, `${f} uses ${bad}`);
    }
  }
});

test('src/core has no module-level mutable variable (issue #14: state belongs to a parser or a call)', () => {
  const dir = join(here, '..', '..', 'src', 'core');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const src = readFileSync(join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    // a declaration at column 0 is at module level (the sources are formatted; nested code is indented)
    const bad = src.split('\n').filter((l) => /^(export\s+)?(let|var)\s/.test(l));
    assert.deepEqual(bad, [], `${f} declares module-level mutable state`);
  }
});

test('importing the Node entry points does not change how the core decodes (issue #14)', () => {
  // A child process counts calls of Buffer's native slices (what the entry points pass to their parsers), parses
  // with the core parser before and after importing src/multipart.js and src/urlencoded.js, and prints both counts.
  const core = new URL('../src/core/multipart.js', import.meta.url).href;
  const coreUe = new URL('../src/core/urlencoded.js', import.meta.url).href;
  const entry = new URL('../src/multipart.js', import.meta.url).href;
  const entryUe = new URL('../src/urlencoded.js', import.meta.url).href;
  const child = `
    let calls = 0;
    for (const k of ['utf8Slice', 'latin1Slice']) {
      const f = Buffer.prototype[k];
      Buffer.prototype[k] = function (...a) { calls++; return f.apply(this, a); };
    }
    const { MultipartParser } = await import(${JSON.stringify(core)});
    const { parseUrlencodedString } = await import(${JSON.stringify(coreUe)});
    const name = 'n\\u00e9'.repeat(20);
    const body = new TextEncoder().encode('--b\\r\\nContent-Disposition: form-data; name="' + name + '"\\r\\n\\r\\nv\\r\\n--b\\r\\nContent-Disposition: form-data; name="' + 'x'.repeat(40) + '"; filename="' + 'f'.repeat(40) + '"\\r\\n\\r\\nv\\r\\n--b--');
    const parse = () => {
      const names = [];
      const p = new MultipartParser('b', { onPartStart(i) { names.push(i.name, i.filename, i.headers.length); }, onData() {}, onPartEnd() {}, onEnd() {} });
      p.write(body);
      p.end();
      return JSON.stringify([names, parseUrlencodedString('a+b='.repeat(3000) + 'c%41&' + 'x+y&'.repeat(5000)).length]);
    };
    const before = parse();
    const c0 = calls;
    const fw = await import(${JSON.stringify(entry)});
    const fwUe = await import(${JSON.stringify(entryUe)});
    // calls made while the entry points load are their own parsers' (warm-up parses), not the core's
    const loaded = calls;
    const after = parse();
    const c1 = calls;
    // control: the entry points' own parsers do use the native slices (so the spy sees them)
    new fw.MultipartParser('b', { onPartStart() {}, onData() {}, onPartEnd() {}, onEnd() {} }).write(body);
    fwUe.parseUrlencoded('a+b='.repeat(3000));
    console.log(JSON.stringify({ same: before === after, before: c0, after: c1 - loaded, entry: calls > c1 }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { same: true, before: 0, after: 0, entry: true });
});

test('fallback UTF-8 decoder (TextDecoder) equals the native one on random bytes', () => {
  assert.ok(nativeUtf8Decode !== null);
  const r = rng(21);
  for (let i = 0; i < 20000; i++) {
    const n = Math.floor(r() * 12);
    const b = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const x = r();
      b[k] = x < 0.3 ? 0x80 + Math.floor(r() * 64) : x < 0.45 ? 0xc0 + Math.floor(r() * 64) : x < 0.7 ? Math.floor(r() * 128) : Math.floor(r() * 256);
    }
    const native = runtimeText.decode(b, 0, n);
    assert.equal(PORTABLE_TEXT.decode(b, 0, n), native, [...b].join(','));
    assert.equal(decodeUtf8(b, 0, n), native, [...b].join(','));
  }
});

test('every short-run threshold (shortMax) gives the strings of TextDecoder, on both sides of it', () => {
  const codecs = [0, 1, 2, 3, 16, 31, 32, 99].map((m) => new TextCodec({ utf8: nativeUtf8Decode, latin1: nativeLatin1Decode, shortMax: m }));
  const r = rng(22);
  for (let i = 0; i < 6000; i++) {
    const n = Math.floor(r() * 41);
    const ascii = r() < 0.5;
    const b = new Uint8Array(n + 2);
    for (let k = 0; k < b.length; k++) b[k] = ascii ? Math.floor(r() * 128) : r() < 0.8 ? Math.floor(r() * 128) : 0x80 + Math.floor(r() * 128);
    const want = PORTABLE_TEXT.decode(b, 1, n + 1);
    for (const c of codecs) {
      assert.equal(c.decode(b, 1, n + 1), want, [...b].join(','));
      if (ascii) assert.equal(c.ascii(b, 1, n + 1), want, [...b].join(','));
    }
  }
});

test('parsing with both fallbacks (no Buffer) gives the same parts', () => {
  const body = bin(
    '--b\r\nContent-Disposition: form-data; name="n\xc3\xa9\xff"; filename="f\xe2\x82"\r\nContent-Type: text/plain\r\n\r\n\r\n--b!\xff\r\n--b--',
  );
  const ct = 'multipart/form-data; boundary=b';
  const native = run(body, ct);
  assert.deepEqual(run(body, ct, {}, [body], indexOfFallback, PORTABLE_TEXT), native);
  assert.deepEqual(parseUrlencodedBytes(bin('a=%C3%A9\xff&b')), [['a', 'é\ufffd'], ['b', '']]);
  assert.ok('parts' in native && native.parts[0]!.name === 'né\ufffd' && native.parts[0]!.filename === 'f\ufffd');
});
