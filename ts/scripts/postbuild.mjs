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

// ...and its types say so: `import busboy = require('formwire/busboy')` must type-check as the callable factory, so
// busboy.d.cts is rewritten as `export = busboy` with every named export in a merged namespace of the same name.
const bbTypes = join(root, 'cjs', 'busboy.d.cts');
if (existsSync(bbTypes)) {
  const lines = readFileSync(bbTypes, 'utf8').split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines
    .filter((l) => !l.startsWith('import ') && l !== 'export { FormwireError };' && l !== 'export default busboy;')
    .map((l) => l.replace(/^export declare /, 'export '));
  writeFileSync(
    bbTypes,
    [
      ...imports,
      "import * as errors from './core/errors.cjs';",
      'declare function busboy(config: busboy.BusboyConfig): busboy.Busboy;',
      'declare namespace busboy {',
      ...body,
      'export import FormwireError = errors.FormwireError;',
      'export { busboy as default };',
      '}',
      'export = busboy;',
      '',
    ].join('\n'),
  );
}
