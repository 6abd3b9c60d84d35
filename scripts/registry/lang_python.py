"""Python emitter: the limit and flag defaults of the Python API, where they are written as literals.

Python's signatures must spell their defaults out (the PyO3 `signature` and `text_signature`, the `.pyi` stub that
mypy.stubtest checks against them, the pure-Python wrappers), so this emitter rewrites the default of every parameter
named like a registry limit or lenient option in those files, and fails (drift) when a parser entry point lacks one of
its format's limits or flags: adding a limit to the registry then points at every signature to extend.
"""

from __future__ import annotations

import re
from pathlib import Path

import gen  # type: ignore[import-not-found]

# file -> the format of its parameters; `None`: decided per top-level def/class by its name (the stub).
FILES = {
    "rust/crates/formwire-py/src/multipart.rs": "multipart",
    "rust/crates/formwire-py/src/urlencoded.rs": "urlencoded",
    "rust/crates/formwire-py/src/v8.rs": "clone",
    "rust/crates/formwire-py/src/testee.rs": "clone",
    "python/src/formwire/_formwire.pyi": None,
    "python/src/formwire/urlencoded.py": "urlencoded",
    "python/src/formwire/v8.py": "clone",
}
# Entry points that take every limit (and lenient flag) of their format: (file, marker text, format).
COMPLETE = [
    ("rust/crates/formwire-py/src/multipart.rs", "text_signature = \"(boundary,", "multipart"),
    ("rust/crates/formwire-py/src/urlencoded.rs", "text_signature = \"(*,", "urlencoded"),
    ("rust/crates/formwire-py/src/v8.rs", "text_signature = \"(data, *, max_depth", "clone"),
    ("python/src/formwire/_formwire.pyi", "class MultipartParser", "multipart"),
    ("python/src/formwire/_formwire.pyi", "class UrlencodedParser", "urlencoded"),
    ("python/src/formwire/_formwire.pyi", "def v8_loads", "clone"),
]


def stub_format(chunk: str) -> str | None:
    head = chunk.split("(", 1)[0]
    if "Multipart" in head:
        return "multipart"
    if "rlencoded" in head:
        return "urlencoded"
    if "v8_" in head:
        return "clone"
    return None


# Prose that may spell a parameter with another value (a docstring's example, a Rust doc comment): never rewritten.
_PROSE = re.compile(r'"""(?:.|\n)*?"""|^[ \t]*//[/!].*$', re.M)


def rewrite(text: str, fmt: str | None, reg: dict) -> str:
    if fmt is None:
        return text
    out, at = [], 0
    for m in _PROSE.finditer(text):
        out += [rewrite_code(text[at : m.start()], fmt, reg), m.group(0)]
        at = m.end()
    return "".join(out) + rewrite_code(text[at:], fmt, reg)


def rewrite_code(text: str, fmt: str, reg: dict) -> str:
    for lim in gen.limits(reg, fmt):
        n, d = lim["name"], lim["default"]
        text = re.sub(rf"\b{n}=Some\(\d+\)", f"{n}=Some({d})", text)  # PyO3 signature
        text = re.sub(rf"\b{n}=\d+(?=[,)])", f"{n}={d}", text)  # text_signature
        text = re.sub(rf"\b{n}: (Optional\[int\]|int \| None|int) = \d+", rf"{n}: \1 = {d}", text)  # .pyi / .py
    for o in gen.options(reg, fmt):
        n = o["name"]
        text = re.sub(rf"\b{n}=(true|false)\b", f"{n}=false", text)
        text = re.sub(rf"\b{n}=(True|False)\b", f"{n}=False", text)
        text = re.sub(rf"\b{n}: bool = (True|False)", f"{n}: bool = False", text)
    return text


def rewrite_stub(text: str, reg: dict) -> str:
    # Top-level chunks: each starts at a line beginning with `def`, `class` or a decorator.
    parts = re.split(r"(?m)^(?=(?:@\w+\n)*(?:def|class) )", text)
    return "".join(rewrite(p, stub_format(p), reg) for p in parts)


def check_complete(path: str, text: str, marker: str, fmt: str, reg: dict) -> None:
    i = text.find(marker)
    if i < 0:
        raise gen.RegistryError(f"{path}: `{marker}` not found (lang_python.COMPLETE)")
    j = text.find("\n\n", i)
    block = text[i : j if j > 0 else len(text)]
    if marker.startswith("text_signature"):
        block = block.split("\n", 1)[0]
    names = [x["name"] for x in gen.limits(reg, fmt)] + [o["name"] for o in gen.options(reg, fmt)]
    missing = [n for n in names if not re.search(rf"\b{n}\b", block)]
    if missing:
        raise gen.RegistryError(f"{path}: `{marker}...` lacks {', '.join(missing)} (add the parameter)")


def registry_module(reg: dict) -> str:
    """python/src/formwire/_registry.py: defaults by format and each code's kind and HTTP status."""
    out = [
        gen.header("#"),
        '"""The limits and error codes of spec/registry.json (edit that file, then `make registry`)."""\n\n',
        "from __future__ import annotations\n\n",
        "# Default of every named limit (spec/limits.md), by format.\n",
        "DEFAULTS: dict[str, dict[str, int]] = {\n",
    ]
    for fmt in gen.FORMATS:
        out.append(f'    "{fmt}": {{\n')
        for lim in gen.limits(reg, fmt):
            out.append(f'        "{lim["name"]}": {lim["default"]},\n')
        out.append("    },\n")
    out.append("}\n\n# Limits of the whole-form readers that spool files (registry layer `form`), by format.\n")
    out.append("FORM_DEFAULTS: dict[str, dict[str, int]] = {\n")
    for fmt in gen.FORMATS:
        form = gen.limits(reg, fmt, "form")
        if form:
            out.append(f'    "{fmt}": {{\n')
            out.extend(f'        "{lim["name"]}": {lim["default"]},\n' for lim in form)
            out.append("    },\n")
    out.append("}\n\n# The lenient options (all off by default), by format.\n")
    out.append("FLAGS: dict[str, tuple[str, ...]] = {\n")
    for fmt in gen.FORMATS:
        names = "".join(f'        "{o["name"]}",\n' for o in gen.options(reg, fmt))
        out.append(f'    "{fmt}": (\n{names}    ),\n' if names else f'    "{fmt}": (),\n')
    out.append("}\n\n# Each code's kind and the HTTP status a server answers with (None: an encoder error).\n")
    out.append("ERRORS: dict[str, tuple[str, int | None]] = {\n")
    for e in reg["errors"]:
        out.append(f'    "{e["code"]}": ("{e["kind"]}", {e["http_status"]}),\n')
    out.append("}\n")
    return "".join(out)


def outputs(reg: dict) -> dict[str, str]:
    out = {"python/src/formwire/_registry.py": registry_module(reg)}
    for path, fmt in FILES.items():
        p = Path(gen.ROOT) / path
        if not p.exists():
            continue
        text = p.read_text(encoding="utf-8")
        out[path] = rewrite_stub(text, reg) if fmt is None else rewrite(text, fmt, reg)
    for path, marker, fmt in COMPLETE:
        if path in out:
            check_complete(path, out[path], marker, fmt, reg)
    return out
