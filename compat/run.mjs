#!/usr/bin/env node
// Runs incumbents' own test suites, taken from their npm registry tarballs at pinned versions, against formwire's
// drop-in adapters (ts/dist, built by `make ts-build`). Cases listed in compat/expected-failures.json must fail (with
// the reason written there); a listed case that passes fails the run, so the list only shrinks.
//
// busboy offers no injection point (its tests `require('..')`), so the harness substitutes the module: each test file
// runs in a child process whose `require('..')` returns formwire/busboy. Nothing in user-facing code does this.
//
// Usage: node compat/run.mjs [--only busboy,multer,@fastify/multipart] [--timeout SECONDS]
// Closing line: `N passed, N failed`.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const cache = join(here, '.cache');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
// per test file; @fastify/multipart's files end their own tests after tap's 30 s, so a file needs a bit more
const timeout = Number(args.includes('--timeout') ? args[args.indexOf('--timeout') + 1] : 120) * 1000;

/** Pinned incumbents (name@version as published on npm). */
const PINS = JSON.parse(readFileSync(join(here, 'pins.json'), 'utf8'));
const expected = JSON.parse(readFileSync(join(here, 'expected-failures.json'), 'utf8'));

/** `npm pack` the pinned tarball into compat/.cache and unpack it; returns the package directory. */
function obtain(spec) {
  const dir = join(cache, spec.replace(/[@/]/g, '_'));
  const done = join(dir, '.unpacked');
  if (existsSync(done)) return join(dir, readFileSync(done, 'utf8'));
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const file = JSON.parse(out)[0].filename.replace(/^@/, '').replace(/\//, '-');
  execFileSync('tar', ['xzf', join(dir, file), '-C', dir]);
  // GitHub-sourced tarballs (busboy) unpack into owner-repo-sha/, registry-built ones into package/
  const top = readdirSync(dir).find((n) => n !== file && !n.startsWith('.') && !n.endsWith('.tgz'));
  writeFileSync(done, top);
  return join(dir, top);
}

function runChild(script, argv, cwd = undefined) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const t = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('close', (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal, out, err });
    });
  });
}

const results = []; // { suite, name, ok, detail }

async function busboySuite(spec) {
  const pkg = obtain(spec);
  const tests = join(pkg, 'test');
  const adapter = join(root, 'ts', 'dist', 'cjs', 'busboy.cjs');
  for (const file of readdirSync(tests).filter((f) => f.startsWith('test-')).sort()) {
    const r = await runChild(join(here, 'busboy-case-runner.cjs'), [join(tests, file), adapter]);
    const lines = r.out.split('\n').filter((l) => l.startsWith('{'));
    const seen = lines.map((l) => JSON.parse(l));
    if (r.signal) seen.push({ name: null, ok: false, detail: `killed after ${timeout / 1000} s (hang)` });
    const names = seen.find((s) => s.names)?.names;
    if (names) {
      // case-by-case file: every case must report; a case that never reports did not finish (hang)
      const got = new Map(seen.filter((s) => s.name).map((s) => [s.name, s]));
      for (const n of names) {
        const s = got.get(n) ?? { ok: false, detail: `did not finish${r.signal ? ' (killed: hang)' : ''}` };
        results.push({ suite: spec, name: `${file}: ${n}`, ok: s.ok, detail: s.detail });
      }
      const stray = seen.find((s) => s.stray);
      if (stray) results.push({ suite: spec, name: `${file}: (uncaught)`, ok: false, detail: stray.detail });
    } else {
      // one-case file: passes when it exits 0
      const ok = r.code === 0 && !r.signal;
      results.push({ suite: spec, name: file, ok, detail: ok ? '' : (r.err || r.out).slice(0, 2000) });
    }
  }
}

/** A suite whose tests are not in its registry tarball: report it as not obtainable, with the check that shows it. */
function absentSuite(spec) {
  const pkg = obtain(spec);
  const files = [];
  const walk = (d, rel) => {
    for (const n of readdirSync(d, { withFileTypes: true })) {
      if (n.isDirectory()) walk(join(d, n.name), `${rel}${n.name}/`);
      else files.push(`${rel}${n.name}`);
    }
  };
  walk(pkg, '');
  const tests = files.filter((f) => /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[cm]?js$/.test(f));
  // the check: no test file in the published tarball (a tarball that has tests needs a runner here instead)
  const ok = tests.length === 0;
  console.log(`${spec}: ${ok ? 'test suite not obtainable from the registry' : 'has tests but no runner'}: the tarball has ${files.length} files, ${tests.length} test files (${files.join(', ')})`);
  results.push({ suite: spec, name: 'own test suite absent from the registry tarball', ok, detail: tests.join(', ') });
}

/**
 * @fastify/multipart's own tests, from its registry tarball as npm installs it, with fastify, tap and the other test
 * dependencies pinned by compat/fastify-multipart/package-lock.json. formwire goes in the way ts/README.md tells users:
 * the application's package.json overrides the `@fastify/busboy` dependency with a folder whose index.js exports
 * formwire/busboy's `Busboy` (compat/fastify-multipart/fastify-busboy). The install is cached in compat/.cache.
 */
function nodeEnv(spec) {
  const src = join(here, 'fastify-multipart');
  const env = join(cache, 'fastify-multipart-env'); // two levels under compat/: its `file:../../../ts` is ts/
  const stamp = join(env, '.installed');
  const want = readFileSync(join(src, 'package-lock.json'), 'utf8') + readFileSync(join(src, 'fastify-busboy', 'index.js'), 'utf8');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== want) {
    rmSync(env, { recursive: true, force: true });
    mkdirSync(env, { recursive: true });
    for (const f of ['package.json', 'package-lock.json', 'fastify-busboy']) cpSync(join(src, f), join(env, f), { recursive: true });
    const t0 = Date.now();
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: env, stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`${spec}: npm ci of the test environment took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    writeFileSync(stamp, want);
  }
  return env;
}

async function fastifyMultipartSuite(spec) {
  const env = nodeEnv(spec);
  const pkg = join(env, 'node_modules', '@fastify', 'multipart');
  const version = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;
  const shim = createRequire(join(pkg, 'index.js')).resolve('@fastify/busboy');
  // the check that the switch is in place: @fastify/multipart's require('@fastify/busboy') is the override
  const wired = `${spec.split('@').slice(0, -1).join('@')}@${version}` === spec && shim === join(env, 'fastify-busboy', 'index.js');
  results.push({ suite: spec, name: "require('@fastify/busboy') from the plugin is formwire's (npm overrides)", ok: wired, detail: `version ${version}, resolved ${shim}` });
  const flaky = expected.flaky?.[spec] ?? {};
  for (const file of readdirSync(join(pkg, 'test')).filter((f) => f.endsWith('.test.js')).sort()) {
    // each file is a tap test run standalone by node (TAP on stdout); its top-level tests are the cases
    let got = tapCases(spec, file, await runChild(join(pkg, 'test', file), [], pkg));
    if (flaky[file] !== undefined && got.some((c) => !c.ok)) {
      // listed as flaky (with its reason): run once more; a second failure is reported, not counted
      console.log(`flaky ${spec} ${file}: failed once (${got.filter((c) => !c.ok).length} cases), running it again: ${flaky[file]}`);
      const again = tapCases(spec, file, await runChild(join(pkg, 'test', file), [], pkg));
      if (again.some((c) => !c.ok)) {
        for (const c of again.filter((x) => !x.ok)) console.log(`flaky (not counted) ${spec} ${c.name}`);
        got = again.filter((c) => c.ok);
      } else got = again;
    }
    results.push(...got);
  }
}

/** The top-level tests of one TAP run as cases, plus a failing `(whole file)` case for a hang or a bad exit. */
function tapCases(spec, file, r) {
  const out = [];
  const top = r.out.split('\n').filter((l) => /^(not )?ok \d+ - /.test(l));
  for (const l of top) {
    const ok = l.startsWith('ok');
    const name = l.replace(/^(not )?ok \d+ - /, '').replace(/ # time=[\d.]+m?s$/, '');
    out.push({ suite: spec, name: `${file}: ${name}`, ok, detail: ok ? '' : tapFailure(r.out, name) });
  }
  const planned = /^1\.\.\d+$/m.test(r.out);
  if (r.signal || !planned || (r.code !== 0 && top.every((l) => l.startsWith('ok')))) {
    out.push({ suite: spec, name: `${file}: (whole file)`, ok: false, detail: r.signal ? `killed after ${timeout / 1000} s (hang)` : `exit code ${r.code}\n${r.err.slice(-1500)}` });
  }
  return out;
}

/** formwire/multer under a real Express app on 127.0.0.1 (compat/express-e2e.cjs), packages from the same lock. */
async function expressSuite(spec) {
  const env = nodeEnv(spec);
  const version = JSON.parse(readFileSync(join(env, 'node_modules', 'express', 'package.json'), 'utf8')).version;
  const r = await runChild(join(here, 'express-e2e.cjs'), [env]);
  const seen = r.out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  for (const c of seen) results.push({ suite: spec, name: `express ${version}: ${c.name}`, ok: c.ok, detail: c.detail ?? '' });
  if (seen.length !== 2 || r.code !== 0) results.push({ suite: spec, name: 'express-e2e.cjs (whole file)', ok: false, detail: `${seen.length} checks, exit ${r.code} ${r.signal ?? ''}\n${r.err.slice(-1500)}` });
}

/** The TAP diagnostics under a failed test (for the log). */
function tapFailure(out, name) {
  const i = out.indexOf(name);
  return i < 0 ? '' : out.slice(Math.max(0, i - 1500), i + 200);
}

const runners = { busboy: busboySuite, '@fastify/multipart': fastifyMultipartSuite, express: expressSuite };

for (const [key, spec] of Object.entries(PINS)) {
  if (only && !only.includes(key)) continue;
  if (runners[key]) await runners[key](spec);
  else absentSuite(spec);
}

let passed = 0;
let failed = 0;
for (const r of results) {
  const reason = expected[r.suite]?.[r.name];
  if (reason !== undefined) {
    if (r.ok) {
      failed++;
      console.log(`FAIL (listed as expected failure, but passes: remove it from compat/expected-failures.json) ${r.suite} ${r.name}`);
    } else {
      passed++;
      if (process.env.COMPAT_VERBOSE) console.log(`xfail ${r.suite} ${r.name}: ${reason}`);
    }
  } else if (r.ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${r.suite} ${r.name}\n  ${String(r.detail).split('\n').slice(0, Number(process.env.COMPAT_LINES ?? 12)).join('\n  ')}`);
  }
}
for (const [suite, cases] of Object.entries(expected)) {
  if (suite === 'flaky') continue;
  for (const name of Object.keys(cases)) {
    if (!results.some((r) => r.suite === suite && r.name === name) && (!only || only.some((k) => PINS[k] === suite))) {
      failed++;
      console.log(`FAIL ${suite} ${name}: listed in compat/expected-failures.json but no such case ran`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
