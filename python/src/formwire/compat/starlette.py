"""Starlette and FastAPI: parse request forms with formwire, in one line.

.. code-block:: python

    import formwire.compat.starlette
    formwire.compat.starlette.install()   # before the first request; FastAPI apps too

``await request.form()`` keeps its API, its limits (``max_files``, ``max_fields``, ``max_part_size``) and its
``UploadFile`` objects; the bytes are parsed by formwire's Rust core through :mod:`formwire.compat.python_multipart`
(file data reaches the spooled files as views of the received chunks, without an intermediate copy). Malformed or
truncated bodies become a 400 response as before ("Invalid multipart data."); formwire's header limits
(``max_headers`` 8, ``max_header_bytes`` 8192 per part) apply on top of Starlette's.

``uninstall()`` restores the previous parser. Neither needs python-multipart to be installed; FastAPI's own
start-up check for python-multipart still does (it only imports it).
"""
from __future__ import annotations

import types
from typing import Any

from formwire.compat import python_multipart as _shim

__all__ = ["install", "uninstall", "installed"]

_saved: dict[str, Any] | None = None


class _ZeroCopyMultipartParser(_shim.MultipartParser):
    def __init__(self, boundary: bytes | str, callbacks: Any = None, max_size: float = float("inf"), **options: Any) -> None:
        super().__init__(boundary, callbacks, max_size, zero_copy=True, **options)


#: What ``starlette.formparsers`` sees as its ``multipart`` module once installed.
module = types.SimpleNamespace(
    MultipartParser=_ZeroCopyMultipartParser,
    QuerystringParser=_shim.QuerystringParser,
    parse_options_header=_shim.parse_options_header,
    FormParserError=_shim.FormParserError,
)


def install(**options: Any) -> None:
    """Makes Starlette's form parsing (and so FastAPI's ``Form``/``File``/``UploadFile``) use formwire.

    ``options``: formwire multipart options applied to every request (e.g. ``max_header_bytes=4096`` or
    ``allow_preamble=True``). Idempotent."""
    global _saved
    import starlette.formparsers as fp
    import starlette.requests as rq

    if options:
        class Configured(_ZeroCopyMultipartParser):
            def __init__(self, boundary: bytes | str, callbacks: Any = None, max_size: float = float("inf")) -> None:
                super().__init__(boundary, callbacks, max_size, **options)

        mod: Any = types.SimpleNamespace(**{**vars(module), "MultipartParser": Configured})
    else:
        mod = module
    if _saved is None:
        _saved = {
            "fp.multipart": getattr(fp, "multipart", None),
            "fp.parse_options_header": getattr(fp, "parse_options_header", None),
            "fp.FormParserError": getattr(fp, "FormParserError", None),
            "rq.parse_options_header": getattr(rq, "parse_options_header", None),
        }
    fp.multipart = mod
    fp.parse_options_header = _shim.parse_options_header
    fp.FormParserError = _shim.FormParserError  # type: ignore[misc]
    rq.parse_options_header = _shim.parse_options_header


def uninstall() -> None:
    """Restores the parser Starlette had before :func:`install`."""
    global _saved
    if _saved is None:
        return
    import starlette.formparsers as fp
    import starlette.requests as rq

    fp.multipart = _saved["fp.multipart"]
    fp.parse_options_header = _saved["fp.parse_options_header"]
    if _saved["fp.FormParserError"] is not None:
        fp.FormParserError = _saved["fp.FormParserError"]  # type: ignore[misc]
    rq.parse_options_header = _saved["rq.parse_options_header"]
    _saved = None


def installed() -> bool:
    """``True`` while formwire is Starlette's form parser."""
    import starlette.formparsers as fp

    return _saved is not None and getattr(fp.multipart, "MultipartParser", None) is not None and issubclass(
        fp.multipart.MultipartParser, _shim.MultipartParser
    )
