/** The generated registry (src/core/registry.ts) against spec/registry.json, and FormwireError's kind/httpStatus. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FormwireError, MULTIPART_DEFAULTS, URLENCODED_DEFAULTS, boundaryFromContentType, parseUrlencoded } from '../src/index.js';
import { CLONE_DEFAULTS, ERROR_CODES, MULTIPART_FORM_DEFAULTS, OPTION_NAMES } from '../src/core/registry.js';

interface Registry {
  limits: { name: string; format: string; layer?: string; default: number; error: string }[];
  errors: { code: string; kind: string; http_status: number | null }[];
}
// dist/test/registry.test.js -> the repository root is three levels up.
const reg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../spec/registry.json', import.meta.url)), 'utf8')) as Registry;
const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

test('every limit default is the registry value, under its camelCase name', () => {
  const byFormat: Record<string, Readonly<Record<string, number>>> = {
    multipart: MULTIPART_DEFAULTS,
    urlencoded: URLENCODED_DEFAULTS,
    clone: CLONE_DEFAULTS,
  };
  // Limits of the spooling form readers (layer "form") are not parser options: they have their own table.
  const core = reg.limits.filter((l) => (l.layer ?? 'core') === 'core');
  for (const l of core) assert.equal(byFormat[l.format]![camel(l.name)], l.default, `${l.format}.${l.name}`);
  for (const l of core) assert.equal(OPTION_NAMES[l.format as 'multipart']![l.name], camel(l.name), l.name);
  for (const [fmt, d] of Object.entries(byFormat)) {
    assert.equal(Object.keys(d).length, core.filter((l) => l.format === fmt).length, fmt);
  }
  const form = reg.limits.filter((l) => l.layer === 'form');
  assert.deepEqual(form.map((l) => l.name), ['max_disk_bytes']);
  for (const l of form) {
    assert.equal(MULTIPART_FORM_DEFAULTS[camel(l.name) as keyof typeof MULTIPART_FORM_DEFAULTS], l.default, l.name);
    assert.equal(OPTION_NAMES.multipart[l.name], undefined, l.name);
  }
});

test('every registry code has its kind and HTTP status, and nothing else is listed', () => {
  assert.deepEqual(Object.keys(ERROR_CODES), reg.errors.map((e) => e.code));
  for (const e of reg.errors) {
    const got = ERROR_CODES[e.code as keyof typeof ERROR_CODES];
    assert.deepEqual({ ...got }, { kind: e.kind, httpStatus: e.http_status }, e.code);
  }
});

function thrown(f: () => unknown): FormwireError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof FormwireError);
    return e;
  }
  assert.fail('no error thrown');
}

test('FormwireError.kind/httpStatus: a limit is 413, malformed input 400, an encoder error has none', () => {
  const limit = thrown(() => parseUrlencoded('a&b', { maxPairs: 1 }));
  assert.deepEqual([limit.code, limit.kind, limit.httpStatus], ['UE_LIMIT_PAIRS', 'limit', 413]);
  const bad = thrown(() => boundaryFromContentType('text/plain'));
  assert.deepEqual([bad.code, bad.kind, bad.httpStatus], ['MP_CONTENT_TYPE', 'malformed', 400]);
  const enc = new FormwireError('SC_DATA_CLONE', 0);
  assert.deepEqual([enc.kind, enc.httpStatus], ['encode', null]);
});
