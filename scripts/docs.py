#!/usr/bin/env python3
"""Docs that run: every fenced block marked `<lang> run` in the READMEs is a complete program, extracted and run.

    ```ts run        transpiled (TypeScript's transpileModule) and run by node as an ES module; `formwire` resolves
                     to ts/ (its package exports, so the built dist/)
    ```js run        run by node as an ES module, the same way
    ```python run    run by the repo's .venv python
    ```sh run        run by bash -euo pipefail, with the release CLI (rust/target/release) first on PATH
    ```go run        `go run` in a scratch module whose github.com/formwire/formwire/go is replaced by go/

A block asserts its own output (assert / node:assert / test) and fails by exiting non-zero. Rust README examples
are doc tests of their crate (`cargo test --doc`), so they are not run here. Another language is one entry in
RUNNERS; another README is one line in READMES (a missing file is skipped).
Prints `ok FILE:LINE` / `FAIL FILE:LINE` per block, then `N passed, N failed`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READMES = [
    "README.md",
    "ts/README.md",
    "python/README.md",
    "rust/crates/formwire/README.md",
    "rust/crates/formwire-v8/README.md",
    "rust/crates/formwire-cli/README.md",
    "go/README.md",
    "java/README.md",
]
FENCE = re.compile(r"^```(\w+) run\b[^\n]*\n(.*?)^```\s*$", re.S | re.M)


def node_env(work: Path) -> None:
    mods = work / "node_modules"
    mods.mkdir(exist_ok=True)
    link = mods / "formwire"
    if not link.exists():
        link.symlink_to(ROOT / "ts", target_is_directory=True)


def run_js(code: str, work: Path) -> list[str]:
    node_env(work)
    f = work / "block.mjs"
    f.write_text(code)
    return ["node", str(f)]


def run_ts(code: str, work: Path) -> list[str]:
    transpile = (
        "const ts = require(process.argv[1]); let s = ''; process.stdin.on('data', d => s += d).on('end', () =>"
        " process.stdout.write(ts.transpileModule(s, { compilerOptions: { module: ts.ModuleKind.ESNext,"
        " target: ts.ScriptTarget.ES2022 } }).outputText));"
    )
    js = subprocess.run(
        ["node", "-e", transpile, str(ROOT / "ts" / "node_modules" / "typescript")],
        input=code,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return run_js(js, work)


def run_python(code: str, work: Path) -> list[str]:
    f = work / "block.py"
    f.write_text(code)
    return [str(ROOT / ".venv" / "bin" / "python"), str(f)]


def run_sh(code: str, work: Path) -> list[str]:
    f = work / "block.sh"
    f.write_text(code)
    return ["bash", "-euo", "pipefail", str(f)]


def run_go(code: str, work: Path) -> list[str]:
    (work / "go.mod").write_text(
        "module readme\n\ngo 1.23\n\nrequire github.com/formwire/formwire/go v0.0.0\n\n"
        f"replace github.com/formwire/formwire/go => {(ROOT / 'go').as_posix()}\n"
    )
    (work / "main.go").write_text(code)
    return ["go", "run", "."]


RUNNERS = {"ts": run_ts, "js": run_js, "python": run_python, "sh": run_sh, "go": run_go}


def main() -> int:
    passed = failed = 0
    env = dict(os.environ, PATH=f"{ROOT / 'rust' / 'target' / 'release'}{os.pathsep}{os.environ['PATH']}")
    for rel in READMES:
        path = ROOT / rel
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            lang, code = m.group(1), m.group(2)
            where = f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"
            runner = RUNNERS.get(lang)
            if runner is None:
                print(f"FAIL {where}: no runner for '{lang} run' blocks")
                failed += 1
                continue
            with tempfile.TemporaryDirectory(prefix="formwire-docs-") as d:
                try:
                    r = subprocess.run(
                        runner(code, Path(d)), cwd=d, env=env, capture_output=True, text=True, timeout=120
                    )
                    ok, detail = r.returncode == 0, (r.stdout + r.stderr)[-2000:]
                except (subprocess.SubprocessError, OSError) as e:
                    ok, detail = False, str(e)
            if ok:
                print(f"ok {where}")
                passed += 1
            else:
                print(f"FAIL {where}\n{detail}")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
