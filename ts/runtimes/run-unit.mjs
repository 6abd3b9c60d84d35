#!/usr/bin/env node
// Runs the TypeScript unit tests (ts/dist/test, built by `npm run build`) under Bun or Deno, with the pinned binaries
// of ts/runtimes/node_modules, and prints one closing `N passed, N failed` line for scripts/test-all.py.
//
// The tests are written against node:test / node:assert, which both runtimes provide. Tests that cannot pass on a
// runtime for a reason outside formwire (a Node-only oracle such as node:v8, a native whose output differs from
// Node's) are listed with that reason in unit-exclusions.json; they still run, are reported as excluded, and an
// excluded test that passes counts as a failure so the list cannot go stale (except one marked 'flaky:', which fails
// on some runs only and is reported either way).
//
// Usage: node ts/runtimes/run-unit.mjs bun|deno
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ts = join(here, '..');
const runtime = process.argv[2];
const bin = join(here, 'node_modules', '.bin', runtime ?? '');
const commands = {
  // bun's default per-test timeout (5 s) is below what the chunking sweeps need on a loaded 2-core machine.
  bun: [bin, ['test', '--timeout', '120000', './dist/test/']],
  deno: [bin, ['test', '--allow-all', '--no-check', 'dist/test/']],
};
if (!commands[runtime]) {
  console.error('usage: run-unit.mjs bun|deno');
  process.exit(2);
}
const excluded = JSON.parse(readFileSync(join(here, 'unit-exclusions.json'), 'utf8'))[runtime] ?? {};

const [cmd, args] = commands[runtime];
const res = spawnSync(cmd, args, {
  cwd: ts,
  encoding: 'utf8',
  maxBuffer: 1 << 28,
  env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
});
if (res.error) {
  console.error(`${runtime}: ${res.error.message} (run scripts/setup)`);
  process.exit(2);
}
const out = (res.stdout + res.stderr).replace(/\x1b\[[0-9;]*m/g, '');

// One result per top-level test: bun prints `(pass) NAME [ms]` and repeats the failures after `N tests failed:`;
// deno prints `NAME ... ok (ms)` / `NAME ... FAILED (ms)` (subtests indented).
const results = [];
if (runtime === 'bun') {
  for (const line of out.split('\n')) {
    if (/^\d+ tests? failed:$/.test(line.trim())) break;
    const m = /^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$/.exec(line);
    if (m) results.push([m[2], m[1] === 'pass' ? 'pass' : m[1] === 'fail' ? 'fail' : 'skip']);
  }
} else {
  for (const line of out.split('\n')) {
    if (/^ ERRORS|^ FAILURES/.test(line)) break;
    const m = /^(\S.*?) \.\.\. (ok|FAILED|ignored)(?: \(.*\))?$/.exec(line);
    if (m) results.push([m[1], m[2] === 'ok' ? 'pass' : m[2] === 'FAILED' ? 'fail' : 'skip']);
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const seen = new Set();
for (const [name, status] of results) {
  seen.add(name);
  const why = excluded[name];
  if (status === 'skip') skipped++;
  else if (why !== undefined) {
    if (status === 'pass' && why.startsWith('flaky:')) console.log(`excluded ${runtime} ${name} (passed this time): ${why}`);
    else if (status === 'pass') {
      failed++;
      console.log(`FAIL ${runtime} ${name}: listed in unit-exclusions.json but passes; remove it`);
    } else console.log(`excluded ${runtime} ${name}: ${why}`);
  } else if (status === 'pass') passed++;
  else {
    failed++;
    console.log(`FAIL ${runtime} ${name}`);
  }
}
for (const name of Object.keys(excluded)) {
  if (!seen.has(name)) console.log(`note: excluded test not found in this run: ${name}`);
}
if (failed > 0 || results.length === 0) console.log(out.slice(-20000));
if (results.length === 0) {
  console.log(`${runtime}: no test results read (exit ${res.status})`);
  process.exit(1);
}
const nExcluded = results.filter(([n, s]) => excluded[n] !== undefined && s === 'fail').length;
const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].trim();
console.log(`${runtime} ${version}: ${nExcluded} excluded, ${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
