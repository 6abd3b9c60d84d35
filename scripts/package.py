#!/usr/bin/env python3
"""Build the publishable artifacts and check each one installs and runs in a clean environment.

  scripts/package.py build   npm tarball, `cargo package` of every publishable crate, abi3 wheel + sdist,
                             all into target/package/
  scripts/package.py test    builds them (unless --no-build: then the ones in target/package/), installs each artifact into a fresh
                             temp dir (npm install <tarball>; a new venv + pip install <wheel>; a scratch cargo
                             project using the unpacked .crate files) and runs an example there; checks ts/jsr.json
                             against package.json, simulates its JSR publish (`deno publish --dry-run`: type check,
                             slow types, file list) and type-checks and runs an example under Deno through its exports;
                             runs the installed npm tarball under Bun and under Deno (`npm:` specifiers), and bundles
                             its runtime-neutral entry points for browsers with esbuild and Bun's bundler

Every check prints `ok NAME` or `FAIL NAME`; the closing line is `N passed, N failed`.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "package"
# Publishable crates in dependency order (a crate is packaged after the ones it depends on).
CRATES = ["formwire-v8", "formwire"]
VERSION = "0.1.0"


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return r.stdout


def build() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*"):
        if old.is_file():
            old.unlink()
    # npm: prepack runs the build, so a clean clone packs the compiled files.
    run(["npm", "pack", "--silent", "--pack-destination", str(OUT)], cwd=ROOT / "ts")
    # crates: cargo verifies each (builds it from the packaged sources alone).
    args = ["cargo", "package", "--manifest-path", "rust/Cargo.toml", "--allow-dirty"]
    for c in CRATES:
        args += ["-p", c]
    run(args, cwd=ROOT)
    for c in CRATES:
        shutil.copy(ROOT / "rust" / "target" / "package" / f"{c}-{VERSION}.crate", OUT)
    # Python: one abi3 wheel (CPython 3.11+) and the sdist.
    maturin = str(ROOT / ".venv" / "bin" / "maturin")
    run([maturin, "build", "--release", "--features", "abi3", "--out", str(OUT)], cwd=ROOT / "python")
    run([maturin, "sdist", "--out", str(OUT)], cwd=ROOT / "python")
    for f in sorted(OUT.iterdir()):
        print(f"built {f.name} ({f.stat().st_size} bytes)")


NODE_CHECK = r"""
import { parseMultipart } from 'formwire';
import { serialize, deserialize } from 'formwire/clone/node';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
const require = createRequire(import.meta.url);
assert.equal(typeof parseMultipart, 'function');
const cjs = require('formwire');
const busboy = require('formwire/busboy');
assert.equal(typeof busboy, 'function');
assert.equal(typeof cjs.parseMultipart, 'function');
const v = deserialize(serialize({ a: [1, 2n, 'x'] }));
assert.deepEqual(v, { a: [1, 2n, 'x'] });
console.log('npm ok');
"""

PY_CHECK = r"""
import formwire, formwire.v8, formwire.urlencoded
assert formwire.v8.loads(formwire.v8.dumps({"a": [1, "x"]})) == {"a": [1, "x"]}
import importlib.util
assert importlib.util.find_spec("formwire._testee") is None, "the testee must not ship"
print("python ok")
"""

RUST_MAIN = r"""
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pairs = formwire::urlencoded::parse_owned(b"a=1&b=%C3%A9+x")?;
    assert_eq!(pairs[1], ("b".to_owned(), "\u{e9} x".to_owned()));
    let mut heap = formwire::v8::Heap::new();
    let root = heap.object([("k", formwire::v8::Value::Number(1.0))]);
    let bytes = formwire::v8::encode(&formwire::v8::Graph::new(heap, root))?;
    formwire::v8::decode(&bytes)?;
    println!("rust ok");
    Ok(())
}
"""


DENO_CHECK = r"""
import { encodeFormData, formData, parseUrlencoded } from '@formwire/formwire';
import { clone, deserialize, serialize } from '@formwire/formwire/clone';

const fd = new FormData();
fd.append('name', 'Ada');
fd.append('file', new File(['hello'], 'a.txt', { type: 'text/plain' }));
const body = encodeFormData(fd);
const parsed = await formData(new Response(await body.bytes()).body!, body.contentType);
if (parsed.get('name') !== 'Ada') throw new Error('formData field');
const file = parsed.get('file') as File;
if (file.name !== 'a.txt' || (await file.text()) !== 'hello') throw new Error('formData file');
if (parseUrlencoded('a=1&b=%C3%A9+x')[1]![1] !== '\u00e9 x') throw new Error('urlencoded');
const v = { a: [1, 2n, 'x'], m: new Map([[1, { d: new Date(0) }]]) };
const back = deserialize(serialize(v)) as typeof v;
if (back.a[1] !== 2n || back.m.get(1)!.d.getTime() !== 0) throw new Error('serialize round trip');
if (clone(v).m.get(1)!.d === v.m.get(1)!.d) throw new Error('clone shares a Date');
console.log('deno ok');
"""


BUNDLE_ENTRY = r"""
import { encodeFormData, parseMultipart, parseUrlencoded } from 'formwire';
import { clone, deserialize, serialize } from 'formwire/clone';
const enc = encodeFormData([['a', 'x'], ['b', 'y']], { boundary: 'B' });
const body = await enc.bytes();
const names = [];
for await (const p of parseMultipart(new Blob([body]).stream(), enc.contentType)) names.push(p.name + '=' + (await p.text()));
const v = deserialize(serialize({ m: new Map([[1, 2n]]) }));
if (names.join('&') !== 'a=x&b=y' || parseUrlencoded('c=%7E')[0][1] !== '~' || v.m.get(1) !== 2n || clone([1])[0] !== 1) {
  throw new Error('bundle: wrong results');
}
console.log('bundle ok');
"""


def check_jsr(tmp: Path) -> None:
    ts = ROOT / "ts"
    jsr = json.loads((ts / "jsr.json").read_text())
    pkg = json.loads((ts / "package.json").read_text())
    assert jsr["version"] == pkg["version"] == VERSION, "jsr.json, package.json and VERSION differ"
    assert jsr["license"] == pkg["license"], "jsr.json and package.json name different licenses"
    # every JSR entry point is an npm one, and serves the source of the file npm's ESM build has for it
    for key, src in jsr["exports"].items():
        assert key in pkg["exports"], f"jsr.json exports {key}, package.json does not"
        esm = json.dumps(pkg["exports"][key])
        want = src.replace("./src/", "./dist/src/").removesuffix(".ts") + ".js"
        assert want in esm, f"jsr.json {key} -> {src}, but package.json's ESM build has no {want}"
    deno = str(ts / "runtimes" / "node_modules" / ".bin" / "deno")
    # deno prints the simulated file list on stderr
    r = subprocess.run(
        [deno, "publish", "--dry-run", "--allow-dirty"],
        cwd=ts,
        capture_output=True,
        text=True,
        env=dict(os.environ, NO_COLOR="1"),
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0 and "Dry run complete" in out, f"deno publish --dry-run failed:\n{out[-3000:]}"
    files = [ln.split("file://", 1)[1].split(" ")[0] for ln in out.splitlines() if "file://" in ln]
    rel = sorted({str(Path(f).relative_to(ts)) for f in files})
    assert "src/index.ts" in rel and "LICENSE-APACHE" in rel and "README.md" in rel, f"JSR files: {rel}"
    top = ("README.md", "LICENSE-MIT", "LICENSE-APACHE", "jsr.json")
    stray = [f for f in rel if not (f.startswith("src/") or f in top) or f in ("src/busboy.ts", "src/multer.ts")]
    assert not stray, f"JSR would publish {stray}"
    app = tmp / "deno"
    app.mkdir()
    imports = {f"{jsr['name']}{key[1:]}": (ts / src).as_uri() for key, src in jsr["exports"].items()}
    (app / "deno.json").write_text(json.dumps({"imports": imports, "unstable": ["sloppy-imports"]}) + "\n")
    (app / "check.ts").write_text(DENO_CHECK)
    assert run([deno, "run", "--check", "--no-lock", "check.ts"], cwd=app).strip() == "deno ok"


def check_npm(tmp: Path) -> None:
    (tarball,) = OUT.glob("formwire-*.tgz")
    names = [m.name for m in tarfile.open(tarball).getmembers()]
    for want in (
        "package/LICENSE-MIT",
        "package/LICENSE-APACHE",
        "package/dist/src/index.js",
        "package/dist/cjs/index.cjs",
    ):
        assert want in names, f"{want} missing from {tarball.name}"
    app = npm_app(tmp)
    (app / "check.mjs").write_text(NODE_CHECK)
    assert run(["node", "check.mjs"], cwd=app).strip() == "npm ok"


def npm_app(tmp: Path) -> Path:
    """An app with the npm tarball installed (made once per run, shared by the checks that import it)."""
    app = tmp / "npm"
    if not (app / "node_modules" / "formwire" / "package.json").exists():
        (tarball,) = OUT.glob("formwire-*.tgz")
        app.mkdir(exist_ok=True)
        (app / "package.json").write_text('{"name": "app", "private": true, "type": "module"}\n')
        run(["npm", "install", "--silent", "--no-audit", "--no-fund", str(tarball)], cwd=app)
    return app


def check_npm_bun(tmp: Path) -> None:
    """The installed tarball under Bun: the Node check (ESM import and require()) run by Bun."""
    app = npm_app(tmp)
    (app / "check.mjs").write_text(NODE_CHECK)
    bun = str(ROOT / "ts" / "runtimes" / "node_modules" / ".bin" / "bun")
    assert run([bun, "check.mjs"], cwd=app).strip() == "npm ok"


def check_npm_deno(tmp: Path) -> None:
    """The installed tarball under Deno through `npm:` specifiers (resolved from the app's node_modules), type-checked."""
    app = npm_app(tmp)
    (app / "deno.json").write_text('{"nodeModulesDir": "manual"}\n')
    # the JSR check's program through npm: specifiers, and where they resolved
    check = DENO_CHECK.replace("'@formwire/formwire", "'npm:formwire").replace(
        "console.log('deno ok');",
        "if (!import.meta.resolve('npm:formwire').includes('/node_modules/formwire/')) throw new Error('resolved');\n"
        "console.log('deno ok');",
    )
    assert "'npm:formwire/clone'" in check and "import.meta.resolve" in check
    (app / "deno-check.ts").write_text(check)
    deno = str(ROOT / "ts" / "runtimes" / "node_modules" / ".bin" / "deno")
    assert run([deno, "run", "--check", "--no-lock", "-A", "deno-check.ts"], cwd=app).strip() == "deno ok"


def check_bundlers(tmp: Path) -> None:
    """The runtime-neutral entry points bundled for browsers from the installed tarball: by esbuild, which refuses any
    `node:` import it can follow (and must print no warning), and by Bun's bundler, which would polyfill such modules
    instead (so its bundle must stay small). Each bundle then runs in Node: it holds no `node:` import, though Node's
    globals such as Buffer are still picked up at run time (the browser paths themselves are ts-browser's)."""
    app = npm_app(tmp)
    (app / "entry.mjs").write_text(BUNDLE_ENTRY)
    esbuild = str(ROOT / "ts" / "node_modules" / ".bin" / "esbuild")
    bun = str(ROOT / "ts" / "runtimes" / "node_modules" / ".bin" / "bun")
    args = [
        "entry.mjs",
        "--bundle",
        "--platform=browser",
        "--format=esm",
        "--log-level=warning",
        "--outfile=esbuild.mjs",
    ]
    r = subprocess.run([esbuild, *args], cwd=app, capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr.strip() == "", f"esbuild: exit {r.returncode}\n{r.stderr[-3000:]}"
    run([bun, "build", "--target=browser", "--outfile=bun.mjs", "entry.mjs"], cwd=app)
    size = (app / "bun.mjs").stat().st_size
    assert size < 400_000, f"Bun's browser bundle is {size} bytes: a node: module was polyfilled into it"
    for out in ("esbuild.mjs", "bun.mjs"):
        assert run(["node", out], cwd=app).strip() == "bundle ok", out


def check_wheel(tmp: Path) -> None:
    (wheel,) = OUT.glob("formwire-*-abi3-*.whl")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=True)
    py = str(env_dir / "bin" / "python")
    run([py, "-m", "pip", "install", "-q", "--no-index", str(wheel)])
    assert run([py, "-c", PY_CHECK], cwd=tmp).strip() == "python ok"
    names = subprocess.run(["unzip", "-l", str(wheel)], capture_output=True, text=True).stdout
    assert "LICENSE-MIT" in names and "LICENSE-APACHE" in names and "_testee" not in names


def check_crates(tmp: Path) -> None:
    src = tmp / "crates"
    src.mkdir()
    for c in CRATES:
        with tarfile.open(OUT / f"{c}-{VERSION}.crate") as t:
            t.extractall(src, filter="data")
        for lic in ("LICENSE-MIT", "LICENSE-APACHE", "README.md"):
            assert (src / f"{c}-{VERSION}" / lic).exists(), f"{lic} missing from {c}.crate"
    app = tmp / "app"
    (app / "src").mkdir(parents=True)
    (app / "Cargo.toml").write_text(
        '[package]\nname = "app"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n[workspace]\n\n'
        f'[dependencies]\nformwire = {{ version = "{VERSION}", features = ["v8"] }}\n\n'
        "[patch.crates-io]\n" + "".join(f'{c} = {{ path = "{(src / f"{c}-{VERSION}").as_posix()}" }}\n' for c in CRATES)
    )
    (app / "src" / "main.rs").write_text(RUST_MAIN)
    env = dict(os.environ, CARGO_TARGET_DIR=str(ROOT / "target" / "package-check"))
    assert run(["cargo", "run", "-q", "--offline"], cwd=app, env=env).strip() == "rust ok"


def test(rebuild: bool) -> int:
    have = glob.glob(str(OUT / "*.tgz")) and glob.glob(str(OUT / "*.whl")) and glob.glob(str(OUT / "*.crate"))
    if rebuild or not have:
        build()
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="formwire-package-") as d:
        checks = (
            ("npm", check_npm),
            ("npm-bun", check_npm_bun),
            ("npm-deno", check_npm_deno),
            ("bundlers", check_bundlers),
            ("jsr", check_jsr),
            ("wheel", check_wheel),
            ("crates", check_crates),
        )
        for name, check in checks:
            try:
                check(Path(d))
                print(f"ok {name}")
                passed += 1
            except Exception as e:  # noqa: BLE001 - every failure is reported and counted
                print(f"FAIL {name}: {e}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "test"
    if what == "build":
        build()
        sys.exit(0)
    sys.exit(test(rebuild="--no-build" not in sys.argv))
