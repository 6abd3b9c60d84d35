"""formwire: web form bodies and structured clone, WHATWG-exact, over a Rust core.

- :mod:`formwire.multipart`: a streaming ``multipart/form-data`` parser (zero-copy ``memoryview`` events) and encoder
- :mod:`formwire.urlencoded`: ``application/x-www-form-urlencoded`` parse / serialize
- :mod:`formwire.v8`: the V8 ValueSerializer format (``structuredClone``, Node's ``v8.serialize``)
- :func:`parse_form` / :func:`aparse_form`: a whole form, materialized (files spooled to temporary files)
- :mod:`formwire.compat`: drop-in shims for python-multipart, Starlette/FastAPI and Werkzeug/Flask

Errors are :class:`ParseError` (a ``ValueError``) with a stable ``.code`` and a byte ``.offset`` (spec/errors.md).
"""

from __future__ import annotations

from formwire import multipart, urlencoded, v8
from formwire._formwire import __version__
from formwire.errors import MultipartError, ParseError, UrlencodedError, V8Error
from formwire.form import FormData, UploadedFile, aparse_form, parse_form

__all__ = [
    "__version__",
    "ParseError",
    "MultipartError",
    "UrlencodedError",
    "V8Error",
    "parse_form",
    "aparse_form",
    "FormData",
    "UploadedFile",
    "multipart",
    "urlencoded",
    "v8",
]
