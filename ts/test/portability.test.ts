/** The core is runtime-free, and the non-Node fallbacks (search, UTF-8 decoding) give the same results. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { setUtf8Decoder, decodeUtf8 } from '../src/core/utf8.js';
import { nativeUtf8Decode } from '../src/adapters/node.js';
import { parseUrlencoded } from '../src/index.js';
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
    const native = decodeUtf8(b, 0, n);
    setUtf8Decoder(null);
    try {
      assert.equal(decodeUtf8(b, 0, n), native, [...b].join(','));
    } finally {
      setUtf8Decoder(nativeUtf8Decode);
    }
  }
});

test('parsing with both fallbacks (no Buffer) gives the same parts', () => {
  const body = bin(
    '--b\r\nContent-Disposition: form-data; name="n\xc3\xa9\xff"; filename="f\xe2\x82"\r\nContent-Type: text/plain\r\n\r\n\r\n--b!\xff\r\n--b--',
  );
  const ct = 'multipart/form-data; boundary=b';
  const native = run(body, ct);
  setUtf8Decoder(null);
  try {
    assert.deepEqual(run(body, ct, {}, [body], indexOfFallback), native);
    assert.deepEqual(parseUrlencoded(bin('a=%C3%A9\xff&b')), [['a', 'é\ufffd'], ['b', '']]);
  } finally {
    setUtf8Decoder(nativeUtf8Decode);
  }
  assert.ok('parts' in native && native.parts[0]!.name === 'né\ufffd' && native.parts[0]!.filename === 'f\ufffd');
});
