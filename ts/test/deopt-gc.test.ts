/**
 * Issue #20: after warm-up, a major GC must not throw away the parser's optimized code. Runs a child Node with
 * --trace-deopt and a full GC before each parse, and checks that no code of the core is marked for deoptimization
 * after the warm-up (before the fix: every hot function, "reason: weak objects", at every GC).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { nodeV8Only } from './helpers.js';

const index = new URL('../src/index.js', import.meta.url).href;

const child = `
import * as fw from ${JSON.stringify(index)};
const enc = new TextEncoder();
let s = '';
for (let i = 0; i < 300; i++) s += '--XyZ\\r\\nContent-Disposition: form-data; name="field' + i + '"\\r\\n\\r\\nvalue ' + i + '\\r\\n';
s += '--XyZ\\r\\nContent-Disposition: form-data; name="f"; filename="a.txt"\\r\\nContent-Type: text/plain\\r\\n\\r\\n' + 'x'.repeat(5000) + '\\r\\n--XyZ--\\r\\n';
const body = enc.encode(s);
function parse() {
  let n = 0;
  const p = new fw.MultipartParser('XyZ', { onPartStart(i) { n += i.name.length; }, onData(v) { n += v.length; }, onPartEnd() {}, onEnd() {} });
  p.write(body.subarray(0, 7000)); p.write(body.subarray(7000)); p.end();
  return n;
}
// ts/README's way: the handler's methods made once, the parse's state on a handler object made by a literal.
function onPartStart(i) { this.n += i.name.length; this.pieces = []; }
function onData(v) { this.pieces.push(v); }
function onPartEnd() { for (const v of this.pieces) this.n += v.length; }
function onEnd() {}
function parseShared() {
  const h = { n: 0, pieces: [], onPartStart, onData, onPartEnd, onEnd };
  const p = new fw.MultipartParser('XyZ', h);
  p.write(body.subarray(0, 7000)); p.write(body.subarray(7000)); p.end();
  return h.n;
}
const mode = process.argv[process.argv.length - 1];
const run = mode === 'formData' ? () => fw.formData(body, 'multipart/form-data; boundary=XyZ') : mode === 'shared' ? parseShared : parse;
for (let i = 0; i < 300; i++) await run();
gc(); gc();
for (let i = 0; i < 50; i++) await run();
console.log('--- warm');
for (let i = 0; i < 30; i++) { gc(); await run(); }
console.log('--- done');
`;

/**
 * Runs `code` (which prints '--- warm' and '--- done') with --trace-deopt: no deopt may follow the warm-up; with
 * `noRecompile` (and --trace-opt), no function may be optimized again either.
 */
function assertNoDeoptAfterWarmUp(code: string, mode: string, noRecompile = false): void {
  const flags = noRecompile ? ['--trace-opt'] : [];
  const r = spawnSync(process.execPath, ['--expose-gc', '--trace-deopt', ...flags, '--input-type=module', '-e', code, mode], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout;
  const warm = out.indexOf('--- warm');
  assert.ok(warm >= 0 && out.includes('--- done'), 'child ran to the end');
  const after = out
    .slice(warm)
    .split('\n')
    .filter((l) => /marking dependent code|bailout \(kind/.test(l) || (noRecompile && /completed compiling/.test(l)));
  assert.deepEqual(after, [], (noRecompile ? 'deoptimizations or re-optimizations' : 'deoptimizations') + ' after warm-up:\n' + after.join('\n'));
}

for (const mode of ['core', 'formData']) {
  test(`no deoptimization of the multipart ${mode} path across forced major GCs after warm-up (issue #20)`, nodeV8Only, () => {
    assertNoDeoptAfterWarmUp(child, mode);
  });
}

test("ts/README's core handler (methods made once): neither deoptimized nor optimized again across forced major GCs", nodeV8Only, () => {
  assertNoDeoptAfterWarmUp(child, 'shared', true);
});

const cloneIndex = new URL('../src/clone/index.js', import.meta.url).href;

// A nested config (bench W6d's kind of value): objects of different key lists at each level, arrays, a repeated key list.
const cloneChild = `
import * as fc from ${JSON.stringify(cloneIndex)};
const x = {
  service: { name: 'gw', version: '1.4.2', region: 'eu-west-3', replicas: 3 },
  http: { host: '0.0.0.0', port: 8443, tls: { enabled: true, protocols: ['TLSv1.2', 'TLSv1.3'] }, timeouts: { read: 30000, idle: 120000 } },
  features: ['streaming', 'strict', 'limits'],
  log: { level: 'info', sampling: 0.25, redact: ['authorization', 'cookie'] },
  upstreams: [{ name: 'storage', url: 'http://127.0.0.1:9000', weight: 3, healthy: true }, { name: 'index', url: 'http://127.0.0.1:9100', weight: 1, healthy: false }],
  owner: { team: 'platform', oncall: null },
};
const viaClone = process.argv.includes('clone');
const run = viaClone ? () => fc.clone(x) : () => fc.deserialize(fc.serialize(x));
for (let i = 0; i < 20000; i++) run();
gc(); gc();
for (let i = 0; i < 2000; i++) run();
console.log('--- warm');
for (let i = 0; i < 30; i++) { gc(); for (let k = 0; k < 50; k++) run(); }
console.log('--- done');
`;

for (const mode of ['wire', 'clone']) {
  test(`no deoptimization of formwire/clone ${mode === 'wire' ? 'deserialize(serialize())' : 'clone()'} across forced major GCs after warm-up (issue #20)`, nodeV8Only, () => {
    assertNoDeoptAfterWarmUp(cloneChild, mode);
  });
}
