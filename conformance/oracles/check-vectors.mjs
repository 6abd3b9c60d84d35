#!/usr/bin/env node
// Runs every vectors/clone case through a clone testee over the conformance protocol (PROTOCOL.md) and
// compares results the way the runner does (decode: neutral value or code+offset; encode: exact hex or code).
// A stop-gap until conformance/run covers clone, and the way to list the cases V8 itself does not pass.
//
//   node conformance/oracles/check-vectors.mjs                      # the V8 oracle
//   node conformance/oracles/check-vectors.mjs -- <testee command>  # any testee
//   ... --list-failures                                             # print failing ids only (expected-failures format)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { neutralEqual } from './neutral.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const listOnly = argv.includes('--list-failures');
const dd = argv.indexOf('--');
const cmd = dd >= 0 ? argv.slice(dd + 1) : ['node', 'conformance/oracles/v8-testee.mjs'];

function loadCases() {
  const out = [];
  for (const verdict of ['accept', 'reject']) {
    const dir = path.join(ROOT, 'vectors/clone', verdict);
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
      const c = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      if (c.kind === 'clone-decode') {
        c.bytes = c.input.file ? fs.readFileSync(path.join(dir, c.input.file)) : Buffer.from(c.input.hex, 'hex');
      }
      out.push(c);
    }
  }
  return out;
}

const child = spawn(cmd[0], cmd.slice(1), { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
const rl = readline.createInterface({ input: child.stdout });
const waiting = new Map();
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  const w = waiting.get(msg.id);
  waiting.delete(msg.id);
  if (w) w(msg);
});
let nextId = 0;
const ask = (req) => new Promise((resolve) => { const id = nextId++; waiting.set(id, resolve); child.stdin.write(`${JSON.stringify({ id, ...req })}\n`); });

const hello = await ask({ op: 'hello' });
const ops = new Set((hello.ok && hello.ok.ops) || []);
let pass = 0;
let skipped = 0;
const failures = [];
for (const c of loadCases()) {
  let why = null;
  if (c.kind === 'clone-decode') {
    if (!ops.has('clone.decode')) { skipped++; continue; }
    const res = await ask({ op: 'clone.decode', input_b64: c.bytes.toString('base64'), options: c.options || {}, chunkings: [[]] });
    const r = res.results ? res.results[0] : res;
    if (c.expect.error) {
      if (!r.error || r.error.code !== c.expect.error.code || r.error.offset !== c.expect.error.offset) {
        why = `expected ${c.expect.error.code}@${c.expect.error.offset}, got ${JSON.stringify(r.error || r.ok)}`;
      }
    } else if (!r.ok || !neutralEqual(r.ok.value, c.expect.value)) {
      why = `expected value, got ${JSON.stringify(r.error || r.ok).slice(0, 300)}`;
    }
  } else {
    if (!ops.has('clone.encode')) { skipped++; continue; }
    const r = await ask({ op: 'clone.encode', value: c.input.value, options: c.options || {} });
    if (c.expect.error) {
      if (!r.error || r.error.code !== c.expect.error.code) why = `expected ${c.expect.error.code}, got ${JSON.stringify(r.ok || r.error)}`;
    } else if (!r.ok || r.ok.hex !== c.expect.hex) {
      why = `expected ${c.expect.hex}, got ${r.ok ? r.ok.hex : JSON.stringify(r.error)}`;
    }
  }
  if (why) failures.push([c.id, why]); else pass++;
}
child.stdin.end();
if (listOnly) {
  for (const [id, why] of failures) console.log(`${id}  # ${why.replace(/\s+/g, ' ').slice(0, 160)}`);
} else {
  for (const [id, why] of failures) console.log(`FAIL ${id}: ${why}`);
  console.log(`${pass} passed, ${failures.length} failed${skipped ? `, ${skipped} skipped` : ''} (${hello.ok ? hello.ok.lang : '?'})`);
}
process.exitCode = failures.length ? 1 : 0;
