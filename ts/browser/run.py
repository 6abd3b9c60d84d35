#!/usr/bin/env python3
"""The ts-browser suite, one closing `N passed, N failed` over its three parts:
- the static import check of the runtime-neutral entry points (ts/browser/neutral-imports.mjs, Node, no browser);
- in Chromium (ts/browser/testee.py --page-tests): each of those entry points loaded in a page without an import map,
  then the page tests (ts/browser/page-tests.js, with an HTTP/2 echo endpoint for the streamed fetch);
- the shared vectors through the testee in Chromium (conformance/run --lang ts-browser, extra arguments passed on).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
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
    with tempfile.TemporaryDirectory(prefix="formwire-ts-browser-") as tmp:
        graph = str(Path(tmp) / "graph.json")
        parts = [run(["node", "ts/browser/neutral-imports.mjs", "--graph-out", graph])]
        parts.append(run([sys.executable, "ts/browser/testee.py", "--page-tests", "--graph", graph]))
    parts.append(run([sys.executable, "conformance/run", "--lang", "ts-browser", *sys.argv[1:]]))
    passed, failed = sum(p[0] for p in parts), sum(p[1] for p in parts)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or any(p[2] for p in parts) else 0


if __name__ == "__main__":
    sys.exit(main())
