'use strict';
// Child process of compat/run.mjs: runs one of busboy's own test files with `require('..')` answering formwire/busboy.
// busboy's table-driven files (`const tests = [...]`, each case checked by `assert.deepStrictEqual(..., '[what] ...')`)
// are reported case by case: the case list is printed first, then one JSON line per case that finished. A failed
// assertion is recorded for its case instead of ending the file, so one failure does not hide the cases after it.
const assert = require('node:assert');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const [file, adapter] = process.argv.slice(2);
const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n');

let names = [];
const caseOf = (msg) => {
  const m = typeof msg === 'string' ? msg : msg instanceof Error ? msg.message : '';
  let best = null;
  for (const n of names) if (m.startsWith(`[${n}]`) && (best === null || n.length > best.length)) best = n;
  return best;
};
const done = new Set();
const record = (name, ok, detail) => {
  if (done.has(name)) return;
  done.add(name);
  emit({ name, ok, detail });
};

const wrapped = Object.assign(function ok(...a) {
  return assert(...a);
}, assert);
wrapped.deepStrictEqual = (actual, expected, msg) => {
  const name = caseOf(msg);
  if (name === null) return assert.deepStrictEqual(actual, expected, msg);
  try {
    assert.deepStrictEqual(actual, expected, msg);
    record(name, true, '');
  } catch (e) {
    record(name, false, e.message);
  }
};

// The test files rethrow uncaught exceptions; record them (on their case when the message names one) and go on.
const once = process.once.bind(process);
process.once = (ev, fn) => (ev === 'uncaughtException' ? process : once(ev, fn));
process.on('uncaughtException', (e) => {
  const name = caseOf(e);
  if (name !== null) record(name, false, e.stack);
  else emit({ stray: true, detail: e.stack });
});

const src = fs.readFileSync(file, 'utf8');
const table = /^const tests = \[/m.test(src);
const m = new Module(file, module);
m.filename = file;
m.paths = Module._nodeModulePaths(path.dirname(file));
const realRequire = m.require.bind(m);
m.require = (id) => {
  if (id === '..') return require(adapter);
  if (id === 'assert') return wrapped;
  return realRequire(id);
};
// `tests` is a top-level const of the file: read its case names before the cases run (they start synchronously).
const body = table ? src.replace(/^const tests = \[/m, 'const tests = globalThis.__compatTests = [') : src;
if (table) {
  const get = Object.getOwnPropertyDescriptor(globalThis, '__compatTests');
  void get;
  let value;
  Object.defineProperty(globalThis, '__compatTests', {
    configurable: true,
    get: () => value,
    set: (v) => {
      value = v;
      names = v.map((t) => t.what).flatMap((w) => [w, `${w} (byte-by-byte)`]);
      emit({ names });
    },
  });
}
m._compile(body, file);
