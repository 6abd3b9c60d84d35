#!/usr/bin/env python3
"""compat-python: each incumbent's own test suite, from its PyPI sdist at a pinned version, against formwire's adapter.

For each entry of pins.json: ``pip download --no-deps --no-binary <name> <pin>`` into python/compat/.cache (ignored),
unpack, run the listed test files with pytest and a plugin that puts formwire in place (python-multipart: the module
``python_multipart`` is formwire.compat.python_multipart; werkzeug and Starlette: the adapter installed), with a
per-test timeout. Every test must pass except those in expected-failures.json (each with its reason); a listed test
that passes is reported so the list only shrinks (ratchet). Closing line: ``N passed, N failed``.

Usage: python/compat/run.py [--only NAME] [--update]  (--update rewrites the list's entries, keeping reasons)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CACHE = HERE / ".cache"
PY = str(ROOT / ".venv" / "bin" / "python")


def fetch(pin: str) -> Path:
    name, ver = pin.split("==")
    stem = f"{name.replace('-', '_')}-{ver}"
    for cand in (CACHE / stem, CACHE / f"{name}-{ver}", CACHE / f"{name.lower()}-{ver}"):
        if cand.is_dir():
            return cand
    CACHE.mkdir(exist_ok=True)
    subprocess.run(
        [
            PY,
            "-m",
            "pip",
            "download",
            "-q",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-binary",
            name,
            pin,
            "-d",
            str(CACHE),
        ],
        check=True,
    )
    for sdist in CACHE.glob("*.tar.gz"):
        if sdist.name.lower().replace("-", "_").startswith(stem.lower().replace("-", "_")):
            with tarfile.open(sdist) as t:
                t.extractall(CACHE, filter="data")
            return CACHE / sdist.name[: -len(".tar.gz")]
    raise SystemExit(f"compat: no sdist for {pin} in {CACHE}")


def test_id(raw: str) -> str:
    """A test's id without the folder it was unpacked in; a long parametrized id cut to 100 characters and a hash."""
    tid = re.sub(r"^.*?\b(tests[.:])", r"\1", raw)
    return tid if len(tid) <= 120 else tid[:100] + "#" + hashlib.sha1(tid.encode()).hexdigest()[:10]


def run_one(name: str, spec: dict, timeout: int = 170) -> dict[str, str]:
    src = fetch(spec["pin"])
    report = CACHE / f"{name}.xml"
    env = {"PYTHONPATH": str(HERE), "PATH": str(ROOT / ".venv" / "bin") + ":/usr/bin:/bin", "HOME": str(CACHE)}
    cmd = [
        PY,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "plugin_timeout",
        "-p",
        spec["plugin"],
        f"--junitxml={report}",
        "-o",
        "junit_family=xunit1",
        *spec["pytest_args"],
        *spec["tests"],
    ]
    report.unlink(missing_ok=True)
    try:
        subprocess.run(cmd, cwd=src, env=env, timeout=timeout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return {f"{name}: the whole run (over {timeout} s)": "failed"}
    if not report.exists():
        return {f"{name}: pytest wrote no report (collection failed?)": "failed"}
    outcomes: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        tid = test_id(f"{case.get('classname')}::{case.get('name')}")
        if case.find("failure") is not None or case.find("error") is not None:
            outcomes[tid] = "failed"
        elif case.find("skipped") is not None:
            outcomes[tid] = "skipped"
        else:
            outcomes[tid] = "passed"
    return outcomes


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only")
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    pins = json.loads((HERE / "pins.json").read_text())
    xf_path = HERE / "expected-failures.json"
    xf: dict[str, dict[str, str]] = json.loads(xf_path.read_text()) if xf_path.exists() else {}
    passed = failed = 0
    for name, spec in pins.items():
        if args.only and name != args.only:
            continue
        outcomes = run_one(name, spec)
        expected = xf.get(name, {})
        ok = bad = fixed = 0
        for tid, out in sorted(outcomes.items()):
            if out == "skipped":
                continue
            if out == "passed" and tid in expected:
                fixed += 1
                print(f"  {name}: now passes, remove from expected-failures.json: {tid}")
                bad += 1
            elif out == "failed" and tid not in expected:
                print(f"  {name}: FAIL {tid}")
                bad += 1
            else:
                ok += 1
        missing = [t for t in expected if t not in outcomes]
        for t in missing:
            print(f"  {name}: expected failure not run (renamed?): {t}")
            bad += 1
        real = sum(1 for o in outcomes.values() if o == "passed")
        print(
            f"{name} ({spec['pin']}): {real} of {len(outcomes)} incumbent tests pass; "
            f"{len(expected)} expected failures; {ok} as expected, {bad} not"
        )
        if args.update:
            xf[name] = {t: expected.get(t, "TODO reason") for t, o in sorted(outcomes.items()) if o == "failed"}
        passed += ok
        failed += bad
    if args.update:
        xf_path.write_text(json.dumps(xf, indent=2, ensure_ascii=False) + "\n")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
