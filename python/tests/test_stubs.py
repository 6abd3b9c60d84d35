"""The native module's type stubs match the runtime (mypy.stubtest), and the package type-checks (mypy)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": str(SRC)}
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, env=env, cwd=SRC.parent)


def test_stubtest_native_module() -> None:
    r = run("mypy.stubtest", "formwire._formwire")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_package() -> None:
    r = run("mypy", "--no-incremental", "--python-version", "3.10", "-p", "formwire")
    assert r.returncode == 0, r.stdout + r.stderr


def python39() -> tuple[str, dict[str, str]] | None:
    """A runnable Python 3.9: `python3.9` on PATH, or a 3.9 that pyenv knows (through its shim)."""
    exe = shutil.which("python3.9")
    if exe is None:
        return None
    env = dict(os.environ)
    if subprocess.run([exe, "-c", "pass"], capture_output=True, env=env).returncode != 0 and shutil.which("pyenv"):
        versions = subprocess.run(["pyenv", "versions", "--bare"], capture_output=True, text=True).stdout.split()
        v39 = [v for v in versions if v.startswith("3.9")]
        if v39:
            env["PYENV_VERSION"] = v39[-1]
    if subprocess.run(
        [exe, "-c", "import sys; assert sys.version_info[:2] == (3, 9)"], capture_output=True, env=env
    ).returncode:
        return None
    return exe, env


PY39 = python39()


@pytest.mark.skipif(PY39 is None, reason="no runnable Python 3.9 here to check the oldest supported syntax with")
def test_sources_compile_on_python39() -> None:
    """Python 3.9+ (mypy checks 3.10 at the oldest): every module must at least compile on 3.9."""
    assert PY39 is not None
    exe, env = PY39
    files = [str(p) for p in SRC.rglob("*.py")]
    code = "import sys\nfor f in sys.argv[1:]: compile(open(f, encoding='utf-8').read(), f, 'exec')"
    r = subprocess.run([exe, "-c", code, *files], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
