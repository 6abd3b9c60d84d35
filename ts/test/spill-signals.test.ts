/** formData()'s spill files are removed on SIGTERM/SIGINT (the signal then still ends the process) and on demand. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { formData, removeSpilledFiles } from '../src/index.js';

const INDEX = new URL('../src/index.js', import.meta.url).href;

/** A child that spills one file part of a body that never ends, says so, then waits (for the signal). */
function child(dir: string, ownListener: boolean): string {
  return `
import { formData } from ${JSON.stringify(INDEX)};
import { readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
${ownListener ? "process.on('SIGTERM', () => { console.log('own listener'); setTimeout(() => process.exit(7), 50); });" : ''}
const head = new TextEncoder().encode('--b\\r\\nContent-Disposition: form-data; name="f"; filename="big.bin"\\r\\n\\r\\n');
const src = new Readable({ read() {} });
src.push(head);
src.push(new Uint8Array(64 * 1024));
formData(src, 'multipart/form-data; boundary=b', { spill: { threshold: 1000, dir: ${JSON.stringify(dir)} } }).catch(() => {});
const t = setInterval(() => {
  if (readdirSync(${JSON.stringify(dir)}).length > 0) { clearInterval(t); console.log('spilled'); }
}, 10);
setInterval(() => {}, 1000);
`;
}

function runUntilSignal(dir: string, sig: NodeJS.Signals, ownListener = false) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; filesWhileRunning: number }>((resolve, reject) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', child(dir, ownListener)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let filesWhileRunning = -1;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (filesWhileRunning < 0 && out.includes('spilled')) {
        filesWhileRunning = readdirSync(dir).length;
        p.kill(sig);
      }
    });
    const timer = setTimeout(() => { p.kill('SIGKILL'); reject(new Error('child did not spill in time')); }, 20000);
    p.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code, signal, out, filesWhileRunning }); });
  });
}

for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  test(`spill files are removed on ${sig}, and ${sig} still ends the process`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fw-sig-'));
    try {
      const r = await runUntilSignal(dir, sig);
      assert.equal(r.filesWhileRunning, 1);
      assert.equal(r.signal, sig, `exit ${r.code} ${r.signal}`);
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("with the application's own SIGTERM listener: files removed, its listener decides (no re-raise)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-sig-'));
  try {
    const r = await runUntilSignal(dir, 'SIGTERM', true);
    assert.equal(r.filesWhileRunning, 1);
    assert.equal(r.code, 7);
    assert.match(r.out, /own listener/);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('removeSpilledFiles() removes the spill files still on disk and says how many', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-sig-'));
  try {
    const body = new TextEncoder().encode(
      '--b\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n' + 'x'.repeat(5000) + '\r\n--b--\r\n',
    );
    const fd = await formData(Readable.from([body]), 'multipart/form-data; boundary=b', { spill: { threshold: 1000, dir } });
    assert.equal(readdirSync(dir).length, 1);
    assert.equal(fd.getAll('f').length, 1);
    assert.equal(removeSpilledFiles(), 1);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(removeSpilledFiles(), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an abandoned spilling parse leaves no FileHandle to the garbage collector (Bun throws on that, Node warns)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-gc-'));
  try {
    // The parse's body never ends and nothing refers to it or its builder once started: both are garbage, and the
    // open temp file must not be closed by the collector.
    const code = `
import { formData, removeSpilledFiles } from ${JSON.stringify(INDEX)};
import { readdirSync } from 'node:fs';
import { Readable } from 'node:stream';
function start() {
  const head = new TextEncoder().encode('--b\\r\\nContent-Disposition: form-data; name="f"; filename="big.bin"\\r\\n\\r\\n');
  const src = new Readable({ read() {} });
  src.push(head);
  src.push(new Uint8Array(64 * 1024));
  formData(src, 'multipart/form-data; boundary=b', { spill: { threshold: 1000, dir: ${JSON.stringify(dir)} } }).catch(() => {});
}
start();
while (readdirSync(${JSON.stringify(dir)}).length === 0) await new Promise((r) => setTimeout(r, 10));
for (let i = 0; i < 5; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 20)); }
console.log('removed', removeSpilledFiles());
`;
    const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const p = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      p.on('exit', (c) => resolve({ code: c, out, err }));
    });
    assert.doesNotMatch(r.err, /garbage collection/i);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /removed 1/);
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
