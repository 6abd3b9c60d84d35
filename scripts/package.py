#!/usr/bin/env python3
"""Build the publishable artifacts and check each one installs and runs in a clean environment.

  scripts/package.py build   npm tarball, `cargo package` of every publishable crate, abi3 wheel + sdist,
                             all into target/package/
  scripts/package.py test    builds them (unless --no-build: then the ones in target/package/), installs each artifact into a fresh
                             temp dir (npm install <tarball>; a new venv + pip install <wheel>; a scratch cargo
                             project using the unpacked .crate files) and runs an example there

Every check prints `ok NAME` or `FAIL NAME`; the closing line is `N passed, N failed`.
"""

from __future__ import annotations

import glob
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
console.log('node ok');
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
    app = tmp / "npm"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "private": true, "type": "module"}\n')
    run(["npm", "install", "--silent", "--no-audit", "--no-fund", str(tarball)], cwd=app)
    (app / "check.mjs").write_text(NODE_CHECK)
    assert run(["node", "check.mjs"], cwd=app).strip() == "node ok"


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
        for name, check in (("npm", check_npm), ("wheel", check_wheel), ("crates", check_crates)):
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
