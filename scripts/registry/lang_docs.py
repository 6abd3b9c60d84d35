"""The tables of spec/limits.md and spec/errors.md, between marker comments; the prose around them stays hand-written.

Markers: `<!-- registry:limits FORMAT -->` (limits the parsers take), `<!-- registry:form-limits FORMAT -->` (limits
of the spooling form readers only, registry layer `form`), `<!-- registry:errors FORMAT -->` (decode errors: code,
meaning, offset), `<!-- registry:encode-errors FORMAT -->` (encoder errors), each closed by `<!-- /registry -->`.
"""

from __future__ import annotations

import re
from pathlib import Path

from gen import ROOT, errors, limits

END = "<!-- /registry -->"
GENERATED = "<!-- generated from spec/registry.json by scripts/registry/gen.py, do not edit the table -->\n"


def human(n: int) -> str:
    """1048576 -> '1048576 (1 MiB)'; values under 1 MiB or not a whole number of MiB/GiB stay plain."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= size and n % size == 0:
            return f"{n} ({n // size} {unit})"
    return str(n)


def cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def offset_cell(s: str) -> str:
    """A bare number or a one-word offset is shown as is; registry offsets are already markdown."""
    return cell(s)


def limits_table(reg: dict, fmt: str, layer: str = "core") -> str:
    rows = ["| limit | default | error | why this default |", "|---|---|---|---|"]
    for x in limits(reg, fmt, layer):
        rows.append(f"| `{x['name']}` | {human(x['default'])} | `{x['error']}` | {cell(x['why'])} |")
    return GENERATED + "\n".join(rows) + "\n"


def errors_table(reg: dict, fmt: str) -> str:
    rows = ["| code | meaning | offset points at |", "|---|---|---|"]
    for e in errors(reg, fmt):
        if e["kind"] != "encode":
            rows.append(f"| `{e['code']}` | {cell(e['meaning'])} | {offset_cell(e['offset'])} |")
    return GENERATED + "\n".join(rows) + "\n"


def encode_table(reg: dict, fmt: str) -> str:
    enc = [e for e in errors(reg, fmt) if e["kind"] == "encode"]
    with_offset = any("offset" in e for e in enc)
    if with_offset:
        rows = ["| code | meaning | offset |", "|---|---|---|"]
        rows += [f"| `{e['code']}` | {cell(e['meaning'])} | {offset_cell(e.get('offset', ''))} |" for e in enc]
    else:
        rows = ["| code | meaning |", "|---|---|"]
        rows += [f"| `{e['code']}` | {cell(e['meaning'])} |" for e in enc]
    return GENERATED + "\n".join(rows) + "\n"


MARK = re.compile(r"^<!-- registry:(limits|form-limits|errors|encode-errors) (\w+) -->$", re.M)
TABLES = {
    "limits": limits_table,
    "form-limits": lambda reg, fmt: limits_table(reg, fmt, "form"),
    "errors": errors_table,
    "encode-errors": encode_table,
}


def fill(text: str, reg: dict, path: str) -> str:
    out, pos = [], 0
    for m in MARK.finditer(text):
        if m.start() < pos:
            continue
        end = text.find(END, m.end())
        if end < 0:
            raise ValueError(f"{path}: {m.group(0)} has no {END}")
        out.append(text[pos : m.end()] + "\n" + TABLES[m.group(1)](reg, m.group(2)))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def outputs(reg: dict) -> dict[str, str]:
    res = {}
    for rel in ("spec/limits.md", "spec/errors.md"):
        p = Path(ROOT) / rel
        if p.exists():
            res[rel] = fill(p.read_text(encoding="utf-8"), reg, rel)
    return res
