#!/usr/bin/env python3
"""Docs that run: every fenced block marked `<lang> run` in the READMEs is a complete program, extracted and run.

    ```ts run        transpiled (TypeScript's transpileModule) and run by node as an ES module; `formwire` resolves
                     to ts/ (its package exports, so the built dist/)
    ```js run        run by node as an ES module, the same way
    ```python run    run by the repo's .venv python
    ```sh run        run by bash -euo pipefail, with the release CLI (rust/target/release) first on PATH
    ```go run        `go run` in a scratch module whose github.com/formwire/formwire/go is replaced by go/
    ```java run      compiled by javac (-Werror) against formwire-core (java/formwire-core/target: the classes the
                     java suites build, else the jar) and run by java; the block's first top-level class has `main`

A block asserts its own output (assert / node:assert / test) and fails by exiting non-zero. Rust README examples
are doc tests of their crate (`cargo test --doc`, the README included by the crate's lib.rs), and the ```python
blocks of python/README.md run in python-unit (python/tests/test_readme.py), so neither is run here. Another
language is one entry in RUNNERS.

Every other fenced block of every README.md of the repository (node_modules, .deps, target and dot folders left
out) is either run or says why not in its info string: ```<lang> norun <reason>, e.g. "```sh norun: the
repository's own commands". An unmarked block is a failure (one test: "every README block is run or marked").
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


def java_classpath() -> str:
    """formwire-core's classes as the java suites leave them (`mvn test` compiles them; a jar in target/ may be older
    than them), else its packaged jar, else it is built alone first."""
    target = ROOT / "java" / "formwire-core" / "target"
    if (target / "classes" / "dev").is_dir():
        return str(target / "classes")
    jars = [
        j for j in sorted(target.glob("formwire-core-*.jar")) if not j.name.endswith(("-sources.jar", "-javadoc.jar"))
    ]
    if jars:
        return str(jars[-1])
    subprocess.run(
        ["mvn", "-B", "-q", "-f", str(ROOT / "java" / "pom.xml"), "-pl", "formwire-core", "-DskipTests", "package"],
        check=True,
        capture_output=True,
    )
    return str(target / "classes")


def run_java(code: str, work: Path) -> list[str]:
    m = re.search(r"^(?:public\s+)?(?:final\s+)?class\s+(\w+)", code, re.M)
    if m is None:
        raise OSError("a java run block must declare a class with main")
    cp = java_classpath()
    src = work / f"{m.group(1)}.java"
    src.write_text(code)
    subprocess.run(
        ["javac", "-Xlint:all", "-Werror", "-cp", cp, "-d", str(work / "classes"), str(src)],
        check=True,
        capture_output=True,
        text=True,
    )
    return ["java", "-cp", f"{cp}{os.pathsep}{work / 'classes'}", m.group(1)]


RUNNERS = {"ts": run_ts, "js": run_js, "python": run_python, "sh": run_sh, "go": run_go, "java": run_java}

# Blocks run by another suite: README -> the info-string languages it runs (see the module doc).
RUN_ELSEWHERE = {
    "python/README.md": {"python"},
    "rust/crates/formwire/README.md": {"rust"},
    "rust/crates/formwire-v8/README.md": {"rust"},
}
SKIP_DIRS = {"node_modules", ".deps", "target", ".venv", ".work"}
OPEN_FENCE = re.compile(r"^(```+|~~~+)(.*)$")


def all_readmes() -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        if "README.md" in filenames:
            found.append((Path(dirpath) / "README.md").relative_to(ROOT).as_posix())
    return sorted(found)


def unmarked_blocks(rel: str, text: str) -> list[str]:
    """The fenced blocks of a README that are neither run nor marked `norun <reason>`, as FILE:LINE info."""
    bad = []
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = OPEN_FENCE.match(line)
        if fence is not None:
            if m and m.group(1).startswith(fence) and not m.group(2).strip():
                fence = None
            continue
        if m is None:
            continue
        fence = m.group(1)
        info = m.group(2).split()
        lang = info[0] if info else ""
        if len(info) > 1 and info[1] == "run" or lang in RUN_ELSEWHERE.get(rel, ()):
            continue
        if len(info) > 2 and info[1].rstrip(":") == "norun":
            continue
        bad.append(f"{rel}:{n} ```{' '.join(info)}")
    return bad


def main() -> int:
    passed = failed = 0
    env = dict(os.environ, PATH=f"{ROOT / 'rust' / 'target' / 'release'}{os.pathsep}{os.environ['PATH']}")
    unmarked = [b for rel in all_readmes() for b in unmarked_blocks(rel, (ROOT / rel).read_text(encoding="utf-8"))]
    if unmarked:
        print("FAIL every README block is run or marked: add `run`, or `norun <reason>` after the language:")
        for b in unmarked:
            print(f"  {b}")
        failed += 1
    else:
        print("ok every README block is run or marked")
        passed += 1
    for rel in all_readmes():
        path = ROOT / rel
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
                except subprocess.CalledProcessError as e:
                    ok, detail = False, f"{e}\n{e.stdout or ''}{e.stderr or ''}"[-2000:]
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
