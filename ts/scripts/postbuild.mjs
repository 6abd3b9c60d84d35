// Post-build step (no dependencies): turn the CommonJS build in dist/cjs into .cjs/.d.cts files with rewritten
// relative specifiers.
import { readdirSync, readFileSync, writeFileSync, statSync, unlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../dist/', import.meta.url).pathname;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const rel = /((?:require\(|from |import\()\s*["'])(\.{1,2}\/[^"']*?)\.js(["'])/g;
for (const file of walk(join(root, 'cjs'))) {
  let target;
  if (file.endsWith('.d.ts')) target = file.slice(0, -5) + '.d.cts';
  else if (file.endsWith('.js')) target = file.slice(0, -3) + '.cjs';
  else continue;
  const text = readFileSync(file, 'utf8').replace(rel, '$1$2.cjs$3');
  writeFileSync(target, text);
  unlinkSync(file);
}

// `require('formwire/busboy')` returns the factory itself, like `require('busboy')`.
const bb = join(root, 'cjs', 'busboy.cjs');
if (existsSync(bb)) {
  writeFileSync(bb, readFileSync(bb, 'utf8') + '\nmodule.exports = Object.assign(exports.default, exports);\n');
}
