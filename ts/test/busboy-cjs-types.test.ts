/** `import busboy = require('formwire/busboy')` type-checks under tsc as the callable factory (CommonJS users). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = fileURLToPath(new URL('../../', import.meta.url)); // ts/ (this file runs from ts/dist/test)

test("CommonJS types: import busboy = require('formwire/busboy') is the factory, its types are busboy.X", () => {
  const dir = mkdtempSync(join(tmpdir(), 'formwire-cts-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(pkg, join(dir, 'node_modules', 'formwire'), 'dir');
    writeFileSync(
      join(dir, 'a.cts'),
      [
        "import busboy = require('formwire/busboy');",
        "const bb: busboy.Busboy = busboy({ headers: { 'content-type': 'multipart/form-data; boundary=b' } });",
        "bb.on('file', (_n: string, s: busboy.FileStream, i: busboy.FileInfo) => { void i; s.resume(); });",
        'const e: busboy.FormwireError | null = null; void e;',
        'const c: busboy.BusboyConfig = { headers: {}, limits: { fileSize: 1 } }; void c;',
        'void new busboy.Busboy({ headers: {} }); void busboy.busboy; void busboy.default;',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'], typeRoots: [join(pkg, 'node_modules', '@types')] },
        files: ['a.cts'],
      }),
    );
    let out = '';
    try {
      execFileSync(process.execPath, [join(pkg, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    assert.equal(out, '', 'tsc reports no error');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
