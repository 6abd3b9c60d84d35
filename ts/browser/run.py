#!/usr/bin/env python3
"""The ts-browser suite: the page tests (ts/browser/page-tests.js), then the shared vectors through the testee in
Chromium (conformance/run --lang ts-browser, extra arguments passed on); one closing `N passed, N failed` over both."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(cmd: list[str]) -> tuple[int, int, int]:
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    sys.stdout.write(p.stdout)
    m = re.findall(r"^(?:[\w/. ]+: )?(\d+) passed, (\d+) failed", p.stdout, re.M)
    if not m:
        return 0, 1, p.returncode or 1
    return int(m[-1][0]), int(m[-1][1]), p.returncode


def main() -> int:
    a = run([sys.executable, "ts/browser/testee.py", "--page-tests"])
    b = run([sys.executable, "conformance/run", "--lang", "ts-browser", *sys.argv[1:]])
    passed, failed = a[0] + b[0], a[1] + b[1]
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or a[2] or b[2] else 0


if __name__ == "__main__":
    sys.exit(main())
