#!/usr/bin/env python3
"""Generate every language's limits/error-code constants and the spec tables from spec/registry.json.

    scripts/registry/gen.py           write every generated file (`make registry`)
    scripts/registry/gen.py --check   list the files that differ from what would be generated; exit 1 if any

Emitters are the modules `scripts/registry/lang_*.py`. Each exposes

    outputs(reg: dict) -> dict[str, str]

mapping a repo-relative path to the file's full content. A generated file's first line is a comment saying it is
generated from spec/registry.json by scripts/registry/gen.py and must not be edited. An emitter may also fill part
of a hand-written file (the spec tables between marker comments): it then returns the whole file with that part
replaced (see `splice`). Python stdlib only.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
REGISTRY = ROOT / "spec" / "registry.json"
HERE = Path(__file__).resolve().parent

FORMATS = {"multipart": "MP_", "urlencoded": "UE_", "clone": "SC_"}
KIND_STATUS = {"malformed": 400, "unsupported": 400, "limit": 413, "encode": None}
# Where a limit is enforced: "core" (the default when a limit has no `layer`): every parser of its format, in its
# options struct; "form": only the whole-form readers that spool files to disk (Go ReadForm, Java FormData, the TS
# spill adapter, Python parse_form...), so the generators give it a constant and a code but keep it out of the core
# parsers' option structs and limit lists.
LAYERS = ("core", "form")
SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
CODE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$")

# The one line every generated file starts with, after the language's comment marker.
NOTICE = "generated from spec/registry.json by scripts/registry/gen.py, do not edit"


def header(comment: str) -> str:
    """The generated-file notice as a first line, e.g. header("//") -> "// generated from ...\\n"."""
    return f"{comment} {NOTICE}\n"


class RegistryError(Exception):
    pass


def validate(reg: dict) -> list[str]:
    """Every problem found in the registry (empty when it is consistent)."""
    bad: list[str] = []
    if not isinstance(reg.get("limits"), list) or not isinstance(reg.get("errors"), list):
        return ["registry needs `limits` and `errors` arrays"]
    codes: dict[str, dict] = {}
    for e in reg["errors"]:
        c = e.get("code", "")
        if not CODE.match(c):
            bad.append(f"error code {c!r} is not UPPER_SNAKE_CASE")
        if c in codes:
            bad.append(f"error code {c} listed twice")
        codes[c] = e
        fmt = e.get("format")
        if fmt not in FORMATS:
            bad.append(f"{c}: unknown format {fmt!r}")
        elif not c.startswith(FORMATS[fmt]):
            bad.append(f"{c}: a {fmt} code must start with {FORMATS[fmt]}")
        kind = e.get("kind")
        if kind not in KIND_STATUS:
            bad.append(f"{c}: unknown kind {kind!r} (one of {', '.join(KIND_STATUS)})")
        elif e.get("http_status", "missing") != KIND_STATUS[kind]:
            bad.append(f"{c}: kind {kind} means http_status {KIND_STATUS[kind]}, not {e.get('http_status', 'missing')}")
        if kind == "limit" and "_LIMIT_" not in c:
            bad.append(f"{c}: a limit error's code contains _LIMIT_")
        if not e.get("meaning"):
            bad.append(f"{c}: no meaning")
        if kind != "encode" and "offset" not in e:
            bad.append(f"{c}: a decode error says what its offset points at")
    seen: set[tuple[str, str]] = set()
    used: set[str] = set()
    for lim in reg["limits"]:
        n, fmt = lim.get("name", ""), lim.get("format")
        if not SNAKE.match(n):
            bad.append(f"limit {n!r} is not snake_case")
        if not n.startswith("max_"):
            bad.append(f"limit {n}: limit names start with max_")
        if fmt not in FORMATS:
            bad.append(f"limit {n}: unknown format {fmt!r}")
        if (fmt, n) in seen:
            bad.append(f"limit {fmt}.{n} listed twice")
        seen.add((fmt, n))
        if lim.get("layer", "core") not in LAYERS:
            bad.append(f"limit {n}: unknown layer {lim.get('layer')!r} (one of {', '.join(LAYERS)})")
        d = lim.get("default")
        if not isinstance(d, int) or isinstance(d, bool) or d < 0 or d > 2**53 - 1:
            bad.append(f"limit {n}: default must be an integer in 0..2^53-1 (JS-safe), got {d!r}")
        err = lim.get("error")
        if err not in codes:
            bad.append(f"limit {n}: error {err!r} is not in `errors`")
        else:
            if codes[err].get("kind") != "limit":
                bad.append(f"limit {n}: error {err} is not of kind limit")
            if codes[err].get("format") != fmt:
                bad.append(f"limit {n}: error {err} belongs to format {codes[err].get('format')}")
        used.add(err)
        if not lim.get("why"):
            bad.append(f"limit {n}: no `why`")
    for c, e in codes.items():
        if e.get("kind") == "limit" and c not in used:
            bad.append(f"{c}: a limit error that no limit names")
    names: set[tuple[str, str]] = set()
    for o in reg.get("options", []):
        n, fmt = o.get("name", ""), o.get("format")
        if not SNAKE.match(n):
            bad.append(f"option {n!r} is not snake_case")
        if fmt not in FORMATS:
            bad.append(f"option {n}: unknown format {fmt!r}")
        if (fmt, n) in names or (fmt, n) in seen:
            bad.append(f"option {fmt}.{n} listed twice (or shares a limit's name)")
        names.add((fmt, n))
        if o.get("default") is not False:
            bad.append(f"option {n}: lenient options are off by default (strict by default)")
        if not o.get("meaning"):
            bad.append(f"option {n}: no meaning")
    return bad


def load(path: Path = REGISTRY) -> dict:
    reg = json.loads(path.read_text(encoding="utf-8"))
    bad = validate(reg)
    if bad:
        raise RegistryError("spec/registry.json:\n  " + "\n  ".join(bad))
    return reg


# ---- helpers the emitters share ---------------------------------------------------------------------------------


def layer(lim: dict) -> str:
    return lim.get("layer", "core")


def limits(reg: dict, fmt: str | None = None, layer_: str | None = "core") -> list[dict]:
    """The limits of a format (all formats when None) enforced at one layer ("core" by default; None: every layer)."""
    return [x for x in reg["limits"] if (fmt is None or x["format"] == fmt) and (layer_ is None or layer(x) == layer_)]


def errors(reg: dict, fmt: str | None = None) -> list[dict]:
    return [x for x in reg["errors"] if fmt is None or x["format"] == fmt]


def options(reg: dict, fmt: str | None = None) -> list[dict]:
    return [x for x in reg.get("options", []) if fmt is None or x["format"] == fmt]


def camel(snake: str) -> str:
    """max_field_bytes -> maxFieldBytes"""
    a, *rest = snake.split("_")
    return a + "".join(w[:1].upper() + w[1:] for w in rest)


def pascal(snake: str) -> str:
    """max_field_bytes / MP_LIMIT_PARTS -> MaxFieldBytes / MpLimitParts"""
    return "".join(w[:1].upper() + w[1:].lower() for w in snake.split("_"))


def splice(text: str, begin: str, end: str, body: str, path: str = "") -> str:
    """Replace what lies between the marker lines `begin` and `end` (kept) with `body`."""
    i = text.find(begin)
    j = text.find(end, i + len(begin)) if i >= 0 else -1
    if i < 0 or j < 0:
        raise RegistryError(f"{path}: markers {begin!r} ... {end!r} not found")
    i = text.index("\n", i) + 1
    return text[:i] + body + text[j:]


# ---- driver -----------------------------------------------------------------------------------------------------


def emitters() -> list[tuple[str, object]]:
    mods = []
    for p in sorted(HERE.glob("lang_*.py")):
        spec = importlib.util.spec_from_file_location(f"registry_{p.stem}", p)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        if not callable(getattr(mod, "outputs", None)):
            raise RegistryError(f"{p.name}: no outputs(reg) function")
        mods.append((p.stem, mod))
    return mods


def generate(reg: dict) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, mod in emitters():
        for path, content in mod.outputs(reg).items():  # type: ignore[attr-defined]
            if Path(path).is_absolute() or ".." in Path(path).parts:
                raise RegistryError(f"{name}: {path} is not a repo-relative path")
            if path in out:
                raise RegistryError(f"{name}: {path} is also generated by another emitter")
            if not content.endswith("\n"):
                content += "\n"
            out[path] = content
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="list drifted files and exit 1 if any")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(HERE))
    try:
        reg = load()
        out = generate(reg)
    except (RegistryError, json.JSONDecodeError) as e:
        print(f"registry: {e}", file=sys.stderr)
        if args.check:
            print("0 passed, 1 failed")
        return 1
    drifted = []
    for path, content in sorted(out.items()):
        f = ROOT / path
        old = f.read_text(encoding="utf-8") if f.exists() else None
        if old == content:
            continue
        drifted.append(path)
        if not args.check:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(content, encoding="utf-8")
            print(f"registry: wrote {path}")
    if args.check:
        for path in drifted:
            print(f"registry: {path} differs from spec/registry.json (run `make registry`)")
        # One check per generated file, plus the registry's own validation.
        print(f"{len(out) - len(drifted) + 1} passed, {len(drifted)} failed")
        return 1 if drifted else 0
    print(f"registry: {len(out)} files, {len(drifted)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
