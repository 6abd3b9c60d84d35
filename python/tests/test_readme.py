"""Every ```python block of python/README.md runs as is (```python fastapi blocks need FastAPI: run when present)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python( [a-z]+)?\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs(index: int) -> None:
    extra, code = BLOCKS[index]
    needs = extra.strip()
    if needs and importlib.util.find_spec(needs) is None:
        pytest.skip(f"this README block needs {needs}, which the dev requirements do not install")
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"README block {index}", "exec"), {"__name__": f"readme_{index}"})
    finally:
        import formwire.compat.starlette
        import formwire.compat.werkzeug

        formwire.compat.starlette.uninstall()
        formwire.compat.werkzeug.uninstall()
    assert out.getvalue() or needs, "every runnable README block prints something"


def test_readme_outputs_match_its_comments() -> None:
    """Where a README line says `print(...)  # value`, the block's output shows that value."""
    checked = 0
    for extra, code in BLOCKS:
        wants = [
            m.group(1).split("  (")[0].strip() for m in re.finditer(r"^[ \t]*print\(.*\)[ \t]+#[ \t]+(.*)$", code, re.M)
        ]
        if extra.strip() or not wants:
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README", "exec"), {"__name__": "readme"})
        for want in wants:
            assert want.strip("'") in out.getvalue(), (want, out.getvalue())
            checked += 1
    assert checked >= 5
