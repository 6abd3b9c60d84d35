// The shared clone vectors (vectors/clone/<verdict>/<id>.json), read from disk: clone-decode cases are decoded and
// compared in the neutral form (or by error code and offset); clone-encode cases are built from their neutral value,
// encoded and compared byte for byte, then decoded back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from '../../src/clone/serialize.js';
import { deserialize, type DeserializeOptions } from '../../src/clone/deserialize.js';
import { describe as neutral, build, neutralEqual, type Neutral } from '../../testee/neutral.js';

function repoRoot(): string | null {
  for (let d = dirname(fileURLToPath(import.meta.url)); ; d = dirname(d)) {
    if (existsSync(join(d, 'vectors', 'SCHEMA.md'))) return d;
    if (dirname(d) === d) break;
  }
  const env = process.env.FORMWIRE_ROOT;
  return env && existsSync(join(env, 'vectors', 'SCHEMA.md')) ? resolve(env) : null;
}

interface Case {
  id: string;
  kind: string;
  input: { file?: string; hex?: string; value?: Neutral; generate?: unknown };
  options?: Record<string, number | boolean | null>;
  expect: { value?: Neutral; hex?: string; error?: { code: string; offset?: number } };
}

const root = repoRoot();
const dir = root ? join(root, 'vectors', 'clone') : null;
const files: Array<[string, string]> = [];
if (dir && existsSync(dir)) {
  for (const verdict of readdirSync(dir)) {
    const vd = join(dir, verdict);
    for (const f of readdirSync(vd)) if (f.endsWith('.json')) files.push([vd, f]);
  }
}

function decodeOptions(o: Case['options']): DeserializeOptions {
  const out: DeserializeOptions = {};
  if (!o) return out;
  if ('max_depth' in o) out.maxDepth = o.max_depth === null ? Infinity : (o.max_depth as number);
  if ('max_bytes' in o) out.maxBytes = o.max_bytes === null ? Infinity : (o.max_bytes as number);
  if ('max_values' in o) out.maxValues = o.max_values as number | null;
  if ('max_bigint_bytes' in o) out.maxBigintBytes = o.max_bigint_bytes as number | null;
  if ('node_ipc' in o) out.nodeIpc = o.node_ipc === true;
  return out;
}
const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s/g, ''), 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

test('clone vectors are present', { skip: files.length === 0 ? `no vectors/clone yet (looked in ${dir ?? 'no repository root found'})` : false }, () => {
  assert.ok(files.length > 0);
});

for (const [vd, f] of files) {
  const c = JSON.parse(readFileSync(join(vd, f), 'utf8')) as Case;
  const needsF16 = JSON.stringify(c).includes('Float16Array') && typeof (globalThis as { Float16Array?: unknown }).Float16Array !== 'function';
  if (c.kind === 'clone-decode') {
    test(`vector ${c.id}`, { skip: needsF16 ? 'needs Float16Array, which this runtime lacks (Node < 24)' : false }, () => {
      let bytes: Uint8Array;
      if (c.input.file) bytes = new Uint8Array(readFileSync(join(vd, c.input.file)));
      else if (c.input.hex !== undefined) bytes = fromHex(c.input.hex);
      else throw new Error(`${c.id}: input recipe not supported by this test`);
      let got: { value: Neutral } | { error: { code: string; offset: number } };
      try {
        got = { value: neutral(deserialize(bytes, decodeOptions(c.options))) };
      } catch (e) {
        const err = e as { code?: string; offset?: number };
        if (typeof err.code !== 'string') throw e;
        got = { error: { code: err.code, offset: err.offset! } };
      }
      if (c.expect.error) {
        assert.deepEqual(got, { error: { code: c.expect.error.code, offset: c.expect.error.offset } });
      } else {
        assert.ok('value' in got, `expected a value, got ${JSON.stringify(got)}`);
        assert.ok(neutralEqual(got.value, c.expect.value), `got ${JSON.stringify(got.value)}\nwant ${JSON.stringify(c.expect.value)}`);
      }
    });
  } else if (c.kind === 'clone-encode') {
    test(`vector ${c.id}`, { skip: needsF16 ? 'needs Float16Array, which this runtime lacks (Node < 24)' : false }, () => {
      const v = build(c.input.value!);
      const opts = c.options && 'max_depth' in c.options ? { maxDepth: c.options.max_depth === null ? Infinity : (c.options.max_depth as number) } : undefined;
      if (c.expect.error) {
        assert.throws(() => serialize(v, opts), (e: unknown) => (e as { code?: string }).code === c.expect.error!.code);
        return;
      }
      const bytes = serialize(v, opts);
      assert.equal(toHex(bytes), c.expect.hex!.replace(/\s/g, ''));
      assert.ok(neutralEqual(neutral(deserialize(bytes)), c.input.value));
    });
  }
}
