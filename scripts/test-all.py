#!/usr/bin/env python3
"""Run every test suite of every implementation present, then print one total line.

Each suite runs even when an earlier one failed, so one `make test` shows the whole state.
The closing line is `N passed, N failed` over every language's tests (unit tests and
conformance cases). Exit status is 1 when any suite failed or could not report counts.

Usage: scripts/test-all.py [--only NAME[,NAME...]] [--list]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Suite:
    name: str
    cmd: list[str]
    parser: str  # how to read the counts: cargo | node | unittest | pytest | surefire | gotest | validate | plain
    needs: str  # a path that must exist for the suite to apply


def suites() -> list[Suite]:
    py = str(ROOT / ".venv" / "bin" / "python")
    return [
        Suite(
            "conformance-runner",
            [sys.executable, "-m", "unittest", "discover", "-s", "conformance/tests"],
            "unittest",
            "conformance/tests",
        ),
        Suite("vectors-validate", [sys.executable, "conformance/run", "--validate"], "validate", "conformance/run"),
        Suite("registry", [sys.executable, "scripts/registry/gen.py", "--check"], "plain", "scripts/registry/gen.py"),
        Suite(
            "registry-unit",
            [sys.executable, "-m", "unittest", "discover", "-s", "scripts/registry", "-p", "test_*.py"],
            "unittest",
            "scripts/registry/test_gen.py",
        ),
        # The V8 tag bytes: spec/v8-tags.json against the spec's tables and the Rust and TypeScript constants.
        Suite("v8-tags", [sys.executable, "scripts/check-v8-tags.py"], "plain", "spec/v8-tags.json"),
        # scripts/lint: one check (clippy, rustfmt, tsc, ruff, mypy, go vet, javac -Werror, ...) = one test.
        Suite("lint", ["scripts/lint"], "plain", "scripts/lint"),
        Suite("vectors-fresh", ["scripts/check-vectors-fresh"], "plain", "scripts/check-vectors-fresh"),
        Suite(
            "rust-unit",
            ["cargo", "test", "--manifest-path", "rust/Cargo.toml", "--workspace", "--release"],
            "cargo",
            "rust/Cargo.toml",
        ),
        Suite(
            "rust-axum",
            ["cargo", "test", "--manifest-path", "rust/crates/formwire-axum/Cargo.toml", "--release"],
            "cargo",
            "rust/crates/formwire-axum/Cargo.toml",
        ),
        Suite(
            "rust-conformance",
            [sys.executable, "conformance/run", "--lang", "rust", "-j", "2"],
            "plain",
            "rust/Cargo.toml",
        ),
        # formwire-v8 against Node's V8 and the JS reference codec (conformance/oracles/reference.mjs): random values
        # both ways plus mutated inputs, so the decoder's fast paths are checked by an independent implementation.
        Suite(
            "rust-v8-diff",
            [
                "bash",
                "-c",
                "cargo build -q --release -p formwire-v8 --manifest-path rust/Cargo.toml "
                "--example neutral_cli && "
                "exec node rust/crates/formwire-v8/tools/v8-diff.mjs 1 2000",
            ],
            "plain",
            "rust/Cargo.toml",
        ),
        Suite("ts-unit", ["npm", "--prefix", "ts", "test", "--silent"], "node", "ts/package.json"),
        Suite(
            "ts-conformance", [sys.executable, "conformance/run", "--lang", "ts", "-j", "2"], "plain", "ts/package.json"
        ),
        # The same TS build under the pinned Bun and Deno (ts/runtimes, installed by scripts/setup): the unit tests
        # with each runtime's listed exclusions (ts/runtimes/unit-exclusions.json, reasons there) and the testee over
        # every vector, whole, byte by byte and at every split.
        Suite("ts-bun-unit", ["node", "ts/runtimes/run-unit.mjs", "bun"], "plain", "ts/runtimes/package.json"),
        Suite(
            "ts-bun-conformance",
            [sys.executable, "conformance/run", "--lang", "ts-bun", "-j", "2"],
            "plain",
            "ts/runtimes/package.json",
        ),
        Suite("ts-deno-unit", ["node", "ts/runtimes/run-unit.mjs", "deno"], "plain", "ts/runtimes/package.json"),
        Suite(
            "ts-deno-conformance",
            [sys.executable, "conformance/run", "--lang", "ts-deno", "-j", "2"],
            "plain",
            "ts/runtimes/package.json",
        ),
        # The static import check of the runtime-neutral entry points (ts/browser/neutral-imports.mjs), each of them
        # loaded in a page without an import map, the page tests (ts/browser/page-tests.js: formData, encodeFormData +
        # fetch streamed to a loopback HTTP/2 echo, clone against the browser's natives) and the testee in headless
        # Chromium (ts/browser/testee.py: the ESM build in a page, over DevTools).
        # The first run installs Debian's chromium through interop/setup (about 2.5 minutes here). --quick (whole,
        # byte by byte, 8 random splits): with one DevTools round trip per request, every split point takes over 15
        # minutes here; the full run by hand: python3 conformance/run --lang ts-browser -j 2
        Suite(
            "ts-browser",
            [
                "bash",
                "-c",
                "{ command -v chromium >/dev/null || interop/setup >&2; } && "
                "exec python3 ts/browser/run.py -j 2 --quick",
            ],
            "plain",
            "ts/browser/testee.py",
        ),
        # short mode (3 s per target, fixed seed); long runs by hand: node ts/fuzz/fuzz.mjs --seconds 600
        Suite("ts-fuzz", ["node", "ts/fuzz/fuzz.mjs", "--seconds", "3", "--seed", "1"], "plain", "ts/fuzz/fuzz.mjs"),
        # incumbents' own suites (npm tarballs at pinned versions) against the drop-in adapters; compat/README.md
        Suite("compat-node", ["node", "compat/run.mjs"], "plain", "compat/run.mjs"),
        Suite(
            "v8-oracle-conformance",
            [sys.executable, "conformance/run", "--lang", "v8"],
            "plain",
            "conformance/oracles/v8-testee.mjs",
        ),
        Suite("python-unit", [py, "-m", "pytest", "-q", "python/tests"], "pytest", "python/pyproject.toml"),
        # python-multipart's, werkzeug's and Starlette's own suites (PyPI sdists at pinned versions) against the
        # Python adapters, with a ratcheting expected-failures list; python/compat/run.py
        Suite("compat-python", [py, "python/compat/run.py"], "plain", "python/compat/run.py"),
        Suite(
            "python-conformance",
            [sys.executable, "conformance/run", "--lang", "python", "-j", "2"],
            "plain",
            "python/pyproject.toml",
        ),
        # The short mode of the V8 fuzzer (python/fuzz/fuzz_v8.py; seeded, so a finding replays).
        Suite(
            "python-fuzz",
            [py, "python/fuzz/fuzz_v8.py", "--iterations", "3000", "--seed", "1"],
            "plain",
            "python/fuzz/fuzz_v8.py",
        ),
        # Java: one Maven run builds every module and runs JUnit (Surefire); the conformance run uses its classes.
        Suite(
            "java-unit",
            ["mvn", "-B", "-ntp", "-Dstyle.color=never", "-f", "java/pom.xml", "test"],
            "surefire",
            "java/pom.xml",
        ),
        Suite(
            "java-conformance",
            [sys.executable, "conformance/run", "--lang", "java", "-j", "2"],
            "plain",
            "java/pom.xml",
        ),
        # dev.formwire.v8 (through the testee's clone ops) against Node's V8 and the JS reference codec.
        Suite("java-v8-diff", ["bash", "-c", "exec node go/v8/tools/v8-diff.mjs java 1 500"], "plain", "java/pom.xml"),
        # Go: vet, then -race on every package (go/v8's deep-nesting tests at 100,000 levels under -race, where a
        # million take minutes), then those tests again without -race at a million levels.
        Suite(
            "go-unit",
            [
                "bash",
                "-c",
                "cd go && go vet ./... && go test -race -count=1 -v ./... "
                "&& go test -count=1 -v -run '^TestDeep' ./v8/",
            ],
            "gotest",
            "go/go.mod",
        ),
        Suite(
            "go-conformance",
            [sys.executable, "conformance/run", "--lang", "go", "-j", "2", "--build"],
            "plain",
            "go/go.mod",
        ),
        # go/v8 (through the testee's clone ops) against Node's V8 and the JS reference codec.
        Suite(
            "go-v8-diff",
            [
                "bash",
                "-c",
                "go build -C go -trimpath -o bin/formwire-testee ./cmd/formwire-testee && "
                "exec node go/v8/tools/v8-diff.mjs go 1 500",
            ],
            "plain",
            "go/go.mod",
        ),
        Suite(
            "interop-unit",
            [sys.executable, "-m", "unittest", "discover", "-s", "interop/tests"],
            "unittest",
            "interop/tests",
        ),
        Suite(
            "interop-smoke",
            ["bash", "-c", "interop/setup --smoke && exec python3 interop/run --smoke"],
            "plain",
            "interop/run",
        ),
        # Every ```<lang> run block of the READMEs, run as a complete program (Rust READMEs: doc tests in rust-unit).
        Suite("docs", [sys.executable, "scripts/docs.py"], "plain", "scripts/docs.py"),
        # Installs the npm tarball, the abi3 wheel and the packaged crates into clean temp environments.
        Suite("package", [sys.executable, "scripts/package.py", "test"], "plain", "scripts/package.py"),
        Suite("bench-quick", ["make", "--no-print-directory", "bench-quick"], "plain", "bench/run"),
    ]


def counts(parser: str, out: str) -> tuple[int, int] | None:
    """Read (passed, failed) from a runner's own closing lines; None when absent."""
    if parser == "cargo":
        got = re.findall(r"test result: \w+\. (\d+) passed; (\d+) failed", out)
        if not got:
            return None
        return sum(int(p) for p, _ in got), sum(int(f) for _, f in got)
    if parser == "node":
        p = re.findall(r"^# pass (\d+)", out, re.M)
        f = re.findall(r"^# fail (\d+)", out, re.M)
        if not p:
            p = re.findall(r"^ℹ pass (\d+)", out, re.M)
            f = re.findall(r"^ℹ fail (\d+)", out, re.M)
        if not p:
            return None
        return sum(map(int, p)), sum(map(int, f))
    if parser == "unittest":
        m = re.search(r"^Ran (\d+) tests?", out, re.M)
        if not m:
            return None
        ran = int(m.group(1))
        bad = sum(int(x) for x in re.findall(r"(?:failures|errors)=(\d+)", out.split("Ran ")[-1]))
        return ran - bad, bad
    if parser == "pytest":
        m = re.findall(r"(\d+) (passed|failed|error|errors)", out.splitlines()[-1] if out.strip() else "")
        if not m:
            return None
        d = {k: int(v) for v, k in m}
        return d.get("passed", 0), d.get("failed", 0) + d.get("error", 0) + d.get("errors", 0)
    if parser == "surefire":  # Maven Surefire: one "Tests run: N, Failures: F, Errors: E, Skipped: S" total per module
        got = re.findall(r"^\[\w+\] Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)$", out, re.M)
        if not got:
            return None
        run, fail, err, skip = (sum(int(g[i]) for g in got) for i in range(4))
        return run - fail - err - skip, fail + err
    if parser == "gotest":  # `go test -v`: one line per test, subtest and example
        p = len(re.findall(r"^\s*--- PASS: ", out, re.M))
        f = len(re.findall(r"^\s*--- FAIL: ", out, re.M))
        f += len(re.findall(r"^FAIL\s+\S+\s+\[(?:build|setup) failed\]", out, re.M))
        return (p, f) if p or f else None
    if parser == "validate":  # every vector case is one test: valid or not
        m = re.search(r"^(\d+) cases valid, (\d+) invalid", out, re.M)
        return (int(m.group(1)), int(m.group(2))) if m else None
    m = re.findall(r"^(?:\w+: )?(\d+) passed, (\d+) failed", out, re.M)
    if not m:
        return None
    p, f = m[-1]
    return int(p), int(f)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated suite names")
    ap.add_argument("--list", action="store_true", help="list suites and exit")
    args = ap.parse_args()
    chosen = suites()
    if args.only:
        want = set(args.only.split(","))
        chosen = [s for s in chosen if s.name in want]
    if args.list:
        for s in chosen:
            print(f"{s.name:24} {' '.join(s.cmd)}")
        return 0

    total_p = total_f = 0
    rows = []
    broken = False
    for s in chosen:
        if not (ROOT / s.needs).exists():
            rows.append((s.name, "not present", ""))
            continue
        print(f"\n=== {s.name}: {' '.join(s.cmd)}", flush=True)
        t0 = time.monotonic()
        proc = subprocess.Popen(
            s.cmd,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            env={**os.environ, "FORCE_COLOR": "0", "NO_COLOR": "1"},
        )
        lines = []
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stdout.write(line)
            lines.append(line)
        rc = proc.wait()
        dt = time.monotonic() - t0
        c = counts(s.parser, "".join(lines))
        if c is None:
            broken = True
            rows.append((s.name, f"exit {rc}, no counts", f"{dt:.0f}s"))
            total_f += 1  # a suite that reports nothing counts as one failure
            continue
        p, f = c
        if rc != 0 and f == 0:
            f = 1  # exited non-zero without a failing count: still a failure
        total_p += p
        total_f += f
        broken |= f > 0
        rows.append((s.name, f"{p} passed, {f} failed", f"{dt:.0f}s"))

    print("\n=== summary")
    for name, what, dt in rows:
        print(f"  {name:24} {what:28} {dt}")
    print(f"{total_p} passed, {total_f} failed")
    return 1 if broken or total_f else 0


if __name__ == "__main__":
    sys.exit(main())
