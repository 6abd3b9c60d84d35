#!/usr/bin/env python3
"""Each Python incumbent and its formwire adapter on the same bytes: which inputs each accepts, and what it reads.

The cases are the vectors of spec/multipart.md §8, every lenient vector, the rejects that exercise a lenient option,
and the inputs of python/compat/expected-failures.json that no vector has (``EXTRA``). Each case runs through six
pairs (incumbent, adapter): python-multipart's ``FormParser`` and bare ``MultipartParser`` against
``formwire.compat.python_multipart``'s, Werkzeug's ``FormDataParser`` against ``formwire.compat.werkzeug``'s, and
Starlette's ``MultiPartParser`` against ``formwire.compat.starlette.form``. The incumbents are the ones installed in
the environment (python/requirements-dev.txt pins the versions of python/compat/pins.json).

Usage: .venv/bin/python python/compat/probe.py [--all] [ID ...]  (default: only the cases where a pair disagrees on
accepting the input; --all prints every case). ``python/tests/test_compat_leniency.py`` asserts the same pairs.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "vectors" / "multipart"

#: spec/multipart.md §8, the "vector" column, row by row.
SECTION_8 = [
    "cve-2026-53537-filename-star",
    "cve-2026-53537-name-star",
    "cve-2026-53537-filename-star-only",
    "wpt-formdata-parse-percent-name-not-decoded",
    "mp-delim-body-boundary-x-is-data",
    "mp-diff-duplicate-disposition",
    "cve-2026-53537-duplicate-name",
    "mp-cd-go-quoted-pair",
    "cap-mp-go-quote-filename",
    "mp-cd-backslash-literal",
    "cap-mp-go-backslash-filename",
    "mp-cd-trailing-backslash",
    "cve-fastify-busboy-filename-junk-after-quote",
    "wpt-formdata-parse-fail-no-close-delimiter",
    "wpt-formdata-parse-fail-junk-after-close",
    "wpt-formdata-parse-fail-no-content-disposition",
    "mp-lenient-missing-disposition-empty-value",
    "mp-lenient-any-type-form-field",
    "mp-lenient-utf8-header-name",
    "wpt-formdata-parse-epilogue",
    "wpt-formdata-parse-padding-after-delimiter",
    "mp-lenient-lf-only",
    "wpt-formdata-parse-fail-obs-fold",
    "wpt-formdata-parse-fail-preamble",
    "mp-ct-two-boundary-params-first-wins",
    "mp-ct-two-boundary-params-second-ignored",
    "wpt-formdata-parse-value-containing-boundary-text",
    "cve-2022-24434-leading-space",
    "cve-fastify-busboy-bare-lf-in-header",
    "cve-2025-7338-empty-name",
    "mp-diff-body-starts-with-boundary",
    "mp-diff-no-empty-line-before-delimiter",
]

_CD = b'Content-Disposition: form-data; name="a"\r\n\r\n'
#: The inputs of the incumbent tests listed in expected-failures.json, reduced to the construct each one is about
#: (boundary ``boundary``), for the rules that no vector covers.
EXTRA: dict[str, bytes] = {
    # python-multipart almost_match_boundary_without_LF / _without_final_hyphen: a delimiter whose line goes wrong
    "x-almost-boundary-cr": b"--boundary\r\n" + _CD + b"v\r\n--boundary\rQ\r\n--boundary--\r\n",
    "x-almost-boundary-hyphen": b"--boundary\r\n" + _CD + b"v\r\n--boundary-Q\r\n--boundary--\r\n",
    # python-multipart non_ascii_whitespace_before_filename: U+00A0 (as the byte A0) before a parameter
    "x-nbsp-before-parameter": b'--boundary\r\nContent-Disposition: form-data; name="a";\xa0filename="a.txt"\r\n\r\n'
    b"v\r\n--boundary--\r\n",
    # python-multipart single_field_blocks: the input ends with a CR after the close delimiter
    "x-cr-at-end-after-close": b"--boundary\r\n" + _CD + b"v\r\n--boundary--\r",
    # python-multipart test_multipart_parser_data_after_last_boundary (there 50 MB of dashes)
    "x-dashes-after-close": b"--boundary\r\n" + _CD + b"v\r\n--boundary--" + b"-" * 1000 + b"\r\n",
    # python-multipart test_bad_content_disposition: form-data without a name
    "x-form-data-without-name": b"--boundary\r\nContent-Disposition: form-data;\r\nContent-Type: text/plain\r\n\r\n"
    b"v\r\n--boundary--\r\n",
    # python-multipart test_multipart_events_do_not_depend_on_chunk_boundaries: a part with no header at all
    "x-part-without-headers": b"--boundary\r\n" + _CD + b"v\r\n--boundary\r\n\r\nw\r\n--boundary--\r\n",
    # python-multipart test_handles_ie6_bug: a filename with a Windows directory prefix
    "x-ie6-drive-path": b'--boundary\r\nContent-Disposition: form-data; name="f"; filename="C:\\dir\\a.txt"\r\n\r\n'
    b"v\r\n--boundary--\r\n",
    "x-ie6-unc-path": b'--boundary\r\nContent-Disposition: form-data; name="f"; filename="\\\\srv\\s\\a.txt"\r\n\r\n'
    b"v\r\n--boundary--\r\n",
    # werkzeug test_nonstandard_line_endings[\r]: bare CR line ends
    "x-bare-cr-line-ends": b"--boundary\rContent-Disposition: form-data; name=\"a\"\r\rv\r--boundary--\r",
    # werkzeug test_file_rfc2231_filename_continuations
    "x-rfc2231-continuations": b"--boundary\r\nContent-Disposition: form-data; name=\"f\"; "
    b"filename*0*=ascii''a%20b; filename*1*=c.txt\r\n\r\nv\r\n--boundary--\r\n",
}

#: Strict twins have the bytes of their lenient vector: not probed twice.
_LENIENT_PREFIXES = ("mp-lenient-",)


def _vector_path(vid: str) -> Path:
    for verdict in ("accept", "reject", "lenient"):
        p = VECTORS / verdict / f"{vid}.json"
        if p.exists():
            return p
    raise KeyError(vid)


def load_case(vid: str) -> tuple[str, bytes] | None:
    """(content type, body) of a vector or an EXTRA case; None for a generated input (input.generate)."""
    if vid in EXTRA:
        return "multipart/form-data; boundary=boundary", EXTRA[vid]
    p = _vector_path(vid)
    v = json.loads(p.read_text())
    inp = v["input"]
    if "file" not in inp:
        return None
    return v["content_type"], (p.parent / inp["file"]).read_bytes()


def case_ids() -> list[str]:
    ids = list(SECTION_8)
    for p in sorted((VECTORS / "lenient").glob("*.json")) + sorted((VECTORS / "reject").glob("mp-lenient-*.json")):
        vid = p.stem
        if vid.endswith("-strict") or vid in ids:
            continue
        if p.parent.name == "reject" and not vid.startswith(_LENIENT_PREFIXES):
            continue
        ids.append(vid)
    ids += list(EXTRA)
    return [i for i in ids if load_case(i) is not None]


# ---------------------------------------------------------------------------------------------------------------
# runners: each returns ("ok", [(name, filename, body), ...]) or ("error", "Type: message")

Result = tuple[str, Any]


def _run(fn: Callable[[], list[tuple[Any, ...]]]) -> Result:
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 (any failure is the verdict "error")
        return "error", f"{type(e).__name__}: {str(e)[:100]}"


def _text(b: Any) -> Any:
    return b.decode("utf-8", "replace") if isinstance(b, (bytes, bytearray)) else b


def form_parser(mod: Any, ct: str, body: bytes) -> Result:
    """python-multipart's ``FormParser`` (``mod`` is python_multipart or formwire's shim)."""

    def go() -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        ctype, params = mod.parse_options_header(ct)

        def on_field(f: Any) -> None:
            out.append((_text(f.field_name), None, f.value or b""))

        def on_file(f: Any) -> None:
            f.file_object.seek(0)
            out.append((_text(f.field_name), _text(f.file_name), f.file_object.read()))

        p = mod.FormParser(ctype.decode("latin-1"), on_field, on_file, boundary=params.get(b"boundary"))
        p.write(body)
        p.finalize()
        return out

    return _run(go)


def bare_parser(mod: Any, ct: str, body: bytes) -> Result:
    """python-multipart's callback ``MultipartParser``: parts as (Content-Disposition value, None, body)."""

    def go() -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        cur: dict[str, Any] = {}
        field: list[bytes] = []

        def begin() -> None:
            cur.clear()
            cur.update(headers={}, body=b"")

        def hfield(d: bytes, s: int, e: int) -> None:
            field.append(bytes(d[s:e]))
            cur["value"] = b""

        def hvalue(d: bytes, s: int, e: int) -> None:
            cur["value"] = cur.get("value", b"") + bytes(d[s:e])

        def hend() -> None:
            cur["headers"][b"".join(field).lower()] = cur.pop("value", b"").strip(b" \t")
            field.clear()

        def data(d: bytes, s: int, e: int) -> None:
            cur["body"] += bytes(d[s:e])

        def end() -> None:
            out.append((_text(cur["headers"].get(b"content-disposition")), None, cur["body"]))

        _, params = mod.parse_options_header(ct)
        cbs = {
            "on_part_begin": begin,
            "on_header_field": hfield,
            "on_header_value": hvalue,
            "on_header_end": hend,
            "on_part_data": data,
            "on_part_end": end,
        }
        p = mod.MultipartParser(params[b"boundary"], cbs)
        p.write(body)
        p.finalize()
        return out

    return _run(go)


def werkzeug_parser(cls: Any, ct: str, body: bytes) -> Result:
    """Werkzeug's ``FormDataParser(silent=False)`` (``cls`` is Werkzeug's or formwire's)."""
    from werkzeug.http import parse_options_header

    def go() -> list[tuple[Any, ...]]:
        mimetype, options = parse_options_header(ct)
        _, form, files = cls(silent=False).parse(io.BytesIO(body), mimetype, len(body), options)
        out: list[tuple[Any, ...]] = [(k, None, v.encode()) for k, v in form.items(multi=True)]
        out += [(k, f.filename, f.read()) for k, f in files.items(multi=True)]
        return out

    return _run(go)


def starlette_parser(formwire: bool, ct: str, body: bytes) -> Result:
    """Starlette's ``MultiPartParser.parse`` (stock), or ``formwire.compat.starlette.form(request)``."""
    from starlette.datastructures import Headers
    from starlette.formparsers import MultiPartParser
    from starlette.requests import Request

    import formwire.compat.starlette as fw_starlette

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def stream() -> Any:
        yield body

    async def parse() -> list[tuple[Any, ...]]:
        if formwire:
            scope = {"type": "http", "method": "POST", "headers": [(b"content-type", ct.encode("latin-1"))]}
            form = await fw_starlette.form(Request(scope, receive))
        else:
            form = await MultiPartParser(Headers({"content-type": ct}), stream()).parse()
        out: list[tuple[Any, ...]] = []
        for k, v in form.multi_items():
            out.append((k, None, v.encode()) if isinstance(v, str) else (k, v.filename, await v.read()))
        await form.close()
        return out

    return _run(lambda: asyncio.run(parse()))


def pairs() -> dict[str, tuple[Callable[[str, bytes], Result], Callable[[str, bytes], Result]]]:
    """name -> (incumbent, adapter)."""
    import python_multipart.multipart as python_multipart
    import werkzeug.formparser

    import formwire.compat.python_multipart as shim
    import formwire.compat.werkzeug as fw_werkzeug

    return {
        "python-multipart FormParser": (
            lambda ct, b: form_parser(python_multipart, ct, b),
            lambda ct, b: form_parser(shim, ct, b),
        ),
        "python-multipart MultipartParser": (
            lambda ct, b: bare_parser(python_multipart, ct, b),
            lambda ct, b: bare_parser(shim, ct, b),
        ),
        "werkzeug": (
            lambda ct, b: werkzeug_parser(werkzeug.formparser.FormDataParser, ct, b),
            lambda ct, b: werkzeug_parser(fw_werkzeug.FormDataParser, ct, b),
        ),
        "starlette": (
            lambda ct, b: starlette_parser(False, ct, b),
            lambda ct, b: starlette_parser(True, ct, b),
        ),
    }


def main(argv: list[str]) -> int:
    import logging

    logging.disable(logging.CRITICAL)  # python-multipart logs each error it raises
    show_all = "--all" in argv
    ids = [a for a in argv if not a.startswith("--")] or case_ids()
    runs = pairs()
    differ = 0
    for vid in ids:
        case = load_case(vid)
        if case is None:
            continue
        ct, body = case
        lines = []
        for name, (inc, ada) in runs.items():
            a, b = inc(ct, body), ada(ct, body)
            mark = "  " if a[0] == b[0] else "!!"
            if a[0] != b[0]:
                differ += 1
            if show_all or a[0] != b[0]:
                lines.append(f"  {mark} {name:34} incumbent {a[0]:5} {str(a[1])[:70]}")
                lines.append(f"     {'':34} formwire  {b[0]:5} {str(b[1])[:70]}")
        if lines:
            print(vid)
            print("\n".join(lines))
    print(f"{differ} (case, pair) verdicts differ")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
