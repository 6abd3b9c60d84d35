// The static half of issue #18's "no Node-only import reachable from the runtime-neutral entry points" (the browser
// half: ts/browser/testee.py loads each entry point in a page without an import map, ts/browser/neutral.html).
//
// The runtime-neutral entry points are the package.json "exports" subpaths that have a "browser" condition. Each is
// resolved as the exports map resolves it for a browser bundler (conditions browser, import, default), for one that
// sets no "browser" (import, default) and for "default" alone; every file so named must be in the ESM build
// (dist/src). From each, the static imports (`import ... from`, `import '...'`, `export ... from`) are walked through
// the built files, parsed with TypeScript's parser (the package's dev dependency), so comments and strings are not
// taken for imports. A test fails when a module in a static graph imports anything but a relative path that exists:
// `node:*`, a bare Node built-in or any other bare specifier (the package has no dependencies, and a browser without
// a bundler resolves none of them).
//
// The other places those graphs name a module or a `node:` string (dynamic `import()`, `require()`, a string such as
// `process.getBuiltinModule('node:util')`, and what a file reached only through a relative import() imports
// statically) are listed in ts/browser/node-refs.json, each with why a browser does not load it; one that is not
// listed, or a listed one that is gone, fails the last test.
//
// Usage: node ts/browser/neutral-imports.mjs [--ts DIR] [--json | --graph-out FILE]
//   --ts DIR          the TS package folder holding package.json and dist/ (default: this repository's ts/), e.g. a
//                     copy of a build
//   --json            print the entry points and their static module sets (for testee.py) instead of the test lines
//   --graph-out FILE  print the test lines and write that JSON to FILE (ts/browser/run.py: one parse for both)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ts = createRequire(path.join(HERE, '..', 'package.json'))('typescript');

const args = process.argv.slice(2);
const tsDir = path.resolve(args.includes('--ts') ? args[args.indexOf('--ts') + 1] : path.join(HERE, '..'));
const DIST = path.join(tsDir, 'dist', 'src');
const CONDITION_SETS = { browser: ['browser', 'import', 'default'], import: ['import', 'default'], default: ['default'] };

/** The exports-map target for `conditions` (Node's algorithm: the first key, in object order, that matches). */
function resolveTarget(target, conditions) {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const r = resolveTarget(t, conditions);
      if (r !== null) return r;
    }
    return null;
  }
  if (target && typeof target === 'object') {
    for (const [k, v] of Object.entries(target)) {
      if (k !== 'default' && !conditions.includes(k)) continue;
      const r = resolveTarget(v, conditions);
      if (r !== null) return r;
    }
  }
  return null;
}

/** Every module specifier and `node:` string of one built file: [{kind, specifier, line}]. */
function references(file) {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const out = [];
  const line = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const claimed = new Set();
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) {
        out.push({ kind: 'static', specifier: node.moduleSpecifier.text, line: line(node) });
        claimed.add(node.moduleSpecifier);
      }
    } else if (ts.isCallExpression(node)) {
      const arg = node.arguments[0];
      const literal = arg && ts.isStringLiteralLike(arg) ? arg.text : null;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        out.push({ kind: 'import()', specifier: literal ?? `<${arg ? arg.getText(sf) : ''}>`, line: line(node) });
        if (arg) claimed.add(arg);
      } else if (ts.isIdentifier(node.expression) && node.expression.text === 'require' && literal !== null) {
        out.push({ kind: 'require()', specifier: literal, line: line(node) });
        claimed.add(arg);
      }
    } else if (ts.isStringLiteralLike(node) && !claimed.has(node) && /^node:/.test(node.text)) {
      out.push({ kind: 'string', specifier: node.text, line: line(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const rel = (f) => path.relative(DIST, f).split(path.sep).join('/');

/**
 * The static import graph from `entry`: its files (what a browser fetches to load the entry), the bad static
 * imports, and the other references met. Files reached through a relative import() are walked too (lazy): what
 * they import statically, node: or not, is listed like the import() that reaches them.
 */
function walk(entry) {
  const files = new Set([entry]);
  const lazyFiles = new Set();
  const queue = [[entry, false]];
  const bad = [];
  const other = [];
  while (queue.length) {
    const [file, lazy] = queue.shift();
    for (const r of references(file)) {
      const where = `${rel(file)}:${r.line}`;
      const relative = r.specifier.startsWith('./') || r.specifier.startsWith('../');
      const target = relative ? path.resolve(path.dirname(file), r.specifier) : null;
      const ref = { file: rel(file), kind: lazy && r.kind === 'static' ? 'static (lazy)' : r.kind, specifier: r.specifier, where };
      if (relative && !existsSync(target)) {
        bad.push(`${where} imports '${r.specifier}', which is not in the build`);
      } else if (r.kind === 'static' && relative) {
        if (!lazy && !files.has(target)) {
          files.add(target);
          queue.push([target, false]);
        } else if (lazy && !files.has(target) && !lazyFiles.has(target)) {
          lazyFiles.add(target);
          queue.push([target, true]);
        }
      } else if (r.kind === 'static' && !lazy) {
        bad.push(`${where} imports '${r.specifier}' statically`);
      } else {
        other.push(ref);
        if (relative && r.kind === 'import()' && !files.has(target) && !lazyFiles.has(target)) {
          lazyFiles.add(target);
          queue.push([target, true]);
        }
      }
    }
  }
  return { files, bad, other };
}

const results = [];
const check = (name, fn) => {
  try {
    const note = fn();
    results.push({ name, ok: true, note });
  } catch (e) {
    results.push({ name, ok: false, note: e.message });
  }
};

const pkg = JSON.parse(readFileSync(path.join(tsDir, 'package.json'), 'utf8'));
const neutral = Object.entries(pkg.exports).filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v) && 'browser' in v);
const entries = [];
const seen = new Map(); // file -> walk
for (const [sub, target] of neutral) {
  const spec = sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`;
  const files = {};
  check(`exports '${spec}' resolves into the ESM build for the browser, import and default conditions`, () => {
    for (const [set, conds] of Object.entries(CONDITION_SETS)) {
      const t = resolveTarget(target, conds);
      if (t === null) throw new Error(`no target for ${set}`);
      const f = path.resolve(tsDir, t);
      if (!f.startsWith(DIST + path.sep) || !f.endsWith('.js')) throw new Error(`${set}: ${t} is not an ESM file of dist/src`);
      if (!existsSync(f)) throw new Error(`${set}: ${t} does not exist (build first)`);
      files[set] = f;
    }
    return Object.entries(files).map(([set, f]) => `${set}: ${rel(f)}`).join(', ');
  });
  for (const f of new Set(Object.values(files))) {
    if (!seen.has(f)) seen.set(f, walk(f));
    const w = seen.get(f);
    entries.push({ spec, file: path.relative(tsDir, f).split(path.sep).join('/'), modules: [...w.files].map(rel).sort() });
    check(`'${spec}' (${rel(f)}): no module of its static graph (${w.files.size} files) imports node:*, a bare or a missing specifier`, () => {
      if (w.bad.length) throw new Error(w.bad.join('; '));
      return null;
    });
  }
}

check('every other node: reference and dynamic import() in those graphs is listed in node-refs.json with its reason', () => {
  const listed = JSON.parse(readFileSync(path.join(HERE, 'node-refs.json'), 'utf8'));
  const key = (r) => `${r.file} ${r.kind} ${r.specifier}`;
  const found = new Map();
  for (const w of seen.values()) for (const r of w.other) found.set(key(r), r);
  const want = new Set(listed.map(key));
  const problems = [];
  for (const [k, r] of found) if (!want.has(k)) problems.push(`not listed: ${r.kind} '${r.specifier}' at ${r.where}`);
  for (const r of listed) {
    if (!r.reason) problems.push(`no reason: ${key(r)}`);
    if (!found.has(key(r))) problems.push(`listed but no longer in the graphs (remove it): ${key(r)}`);
  }
  if (problems.length) throw new Error(problems.join('; '));
  return [...found.values()].map((r) => `${r.kind} ${r.specifier} (${r.where})`).join(', ');
});

const graph = JSON.stringify({ entries, ok: results.every((r) => r.ok) }) + '\n';
if (args.includes('--graph-out')) writeFileSync(args[args.indexOf('--graph-out') + 1], graph);
if (args.includes('--json')) {
  process.stdout.write(graph);
} else {
  for (const r of results) console.log(`${r.ok ? 'ok' : 'FAIL'} ${r.name}${r.note ? ` (${r.note})` : ''}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`neutral imports: ${results.length - failed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}
