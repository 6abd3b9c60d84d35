"""A drop-in for python-multipart's callback parsers, backed by formwire.

``MultipartParser`` and ``QuerystringParser`` take the same ``callbacks`` dict as ``python_multipart``'s (the
interface Starlette's form parsing uses) and call them in the same order:

- multipart: ``on_part_begin``, then for each header ``on_header_field(data, start, end)``,
  ``on_header_value(data, start, end)``, ``on_header_end``; ``on_headers_finished``; ``on_part_data(data, start, end)``
  (``data`` is the chunk you wrote: nothing is copied); ``on_part_end``; finally ``on_end``.
- urlencoded: ``on_field_start``, ``on_field_name``, ``on_field_data``, ``on_field_end``, ``on_end``.

What changes is what the bytes mean: formwire's rules (spec/multipart.md, spec/urlencoded.md). The multipart
framing is the strict WPT profile (no preamble, CRLF only, no obs-fold; pass ``allow_preamble=True`` and so on to
relax), header names arrive lowercased, and an unfinished body is an error at ``finalize()`` (python-multipart
ignores it). The urlencoded parser percent-decodes each name and value WHATWG-exactly and hands them over
re-encoded canonically, so the usual ``unquote_plus(data.decode("latin-1"))`` of the consumer yields exactly the
WHATWG strings. ``parse_options_header`` reads a Content-Disposition with formwire's grammar (MP-H-07: literally,
with quoted-pairs only where that fails; no path stripping) and a Content-Type with the WHATWG MIME type parser.

Limits: formwire's header limits and ``max_total_field_bytes`` (10 MiB of text fields in all, which no caller
bounds) stay on; the part count, field size and body size limits are off by default here, because the callers of
this interface (Starlette) enforce their own ``max_fields``, ``max_files`` and ``max_part_size`` with their own
messages. Pass any formwire option as a keyword to set it.

Errors subclass both formwire's coded errors and python-multipart's ``FormParserError`` when python-multipart is
installed, so existing ``except`` clauses keep working.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Union

from formwire._formwire import END, PART_END, Part, parse_disposition, parse_mime, urlencoded_serialize
from formwire.errors import MultipartError, UrlencodedError
from formwire.multipart import Parser
from formwire.urlencoded import Parser as _UrlencodedParser

__all__ = [
    "MultipartParser",
    "QuerystringParser",
    "parse_options_header",
    "FormParserError",
    "MultipartParseError",
    "QuerystringParseError",
]

try:  # pragma: no cover - depends on what is installed
    from python_multipart.exceptions import FormParserError as _PMFormParserError
    from python_multipart.exceptions import MultipartParseError as _PMMultipartParseError
    from python_multipart.exceptions import QuerystringParseError as _PMQuerystringParseError
except ImportError:  # pragma: no cover

    class _PMFormParserError(ValueError):  # type: ignore[no-redef]
        pass

    class _PMMultipartParseError(_PMFormParserError):  # type: ignore[no-redef]
        pass

    class _PMQuerystringParseError(_PMFormParserError):  # type: ignore[no-redef]
        pass


class FormParserError(_PMFormParserError):  # type: ignore[misc,valid-type]
    """Base of the shim's errors (python-multipart's ``FormParserError`` when it is installed)."""


class MultipartParseError(MultipartError, _PMMultipartParseError, FormParserError):  # type: ignore[misc,valid-type]
    """A multipart error: formwire's ``.code`` and ``.offset``, catchable as python-multipart's."""


class QuerystringParseError(UrlencodedError, _PMQuerystringParseError, FormParserError):  # type: ignore[misc,valid-type]
    """An urlencoded limit error: formwire's ``.code`` and ``.offset``, catchable as python-multipart's."""


Callbacks = Mapping[str, Callable[..., Any]]
BytesLike = Union[bytes, bytearray, memoryview]

_SHIM_DEFAULTS: dict[str, Any] = {"max_parts": None, "max_field_bytes": None, "max_total_bytes": None}


def _noop(*_: Any) -> None:
    return None


class MultipartParser:
    """python-multipart's ``MultipartParser(boundary, callbacks={}, max_size=inf)`` over formwire's parser.

    ``zero_copy=True`` passes ``memoryview(data)`` as the ``data`` argument of ``on_part_data`` so that the
    consumer's ``data[start:end]`` is a view too (Starlette accepts it); the default passes ``data`` as written.
    """

    def __init__(
        self,
        boundary: bytes | str,
        callbacks: Callbacks | None = None,
        max_size: float = float("inf"),
        *,
        zero_copy: bool = False,
        **options: Any,
    ) -> None:
        if isinstance(boundary, str):
            boundary = boundary.encode("latin-1")
        cb = dict(callbacks or {})
        self.callbacks = cb
        self.max_size = max_size
        self.zero_copy = zero_copy
        opts = dict(_SHIM_DEFAULTS)
        if max_size != float("inf"):
            opts["max_total_bytes"] = int(max_size)
        opts.update(options)
        try:
            self._parser = Parser(boundary, **opts)
        except MultipartError as e:
            raise MultipartParseError(str(e), e.code, e.offset) from None
        g = cb.get
        self._on_part_begin = g("on_part_begin", _noop)
        self._on_part_data = g("on_part_data", _noop)
        self._on_part_end = g("on_part_end", _noop)
        self._on_header_field = g("on_header_field", _noop)
        self._on_header_value = g("on_header_value", _noop)
        self._on_header_end = g("on_header_end", _noop)
        self._on_headers_finished = g("on_headers_finished", _noop)
        self._on_end = g("on_end", _noop)

    def write(self, data: BytesLike) -> int:
        """Parses a chunk, calling the callbacks; returns the number of bytes consumed (all of them)."""
        try:
            events = self._parser.feed_spans(data)
        except MultipartError as e:
            # python-multipart calls back for everything before the error: a consumer's own check (Starlette's
            # max_fields) that comes first in the stream raises first.
            if e.events:
                self._dispatch(list(e.events), memoryview(data) if self.zero_copy else data)
            raise MultipartParseError(str(e), e.code, e.offset) from None
        self._dispatch(events, memoryview(data) if self.zero_copy and events else data)
        return len(data)

    def finalize(self) -> None:
        """Ends the input: ``MultipartParseError`` (``MP_TRUNCATED``) unless the form was complete."""
        try:
            events = self._parser.close()
        except MultipartError as e:
            if e.events:
                self._dispatch(list(e.events), b"")
            raise MultipartParseError(str(e), e.code, e.offset) from None
        self._dispatch(events, b"")

    def _dispatch(self, events: list[Any], data: Any) -> None:
        on_part_data = self._on_part_data
        for ev in events:
            t = type(ev)
            if t is tuple:
                on_part_data(data, ev[0], ev[1])
            elif t is bytes:
                on_part_data(ev, 0, len(ev))
            elif t is Part:
                self._on_part_begin()
                for name, value in ev.raw_headers:
                    self._on_header_field(name, 0, len(name))
                    self._on_header_value(value, 0, len(value))
                    self._on_header_end()
                self._on_headers_finished()
            elif ev is PART_END:
                self._on_part_end()
            elif ev is END:
                self._on_end()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(boundary={self._parser.boundary!r})"


class QuerystringParser:
    """python-multipart's ``QuerystringParser(callbacks={}, strict_parsing=False, max_size=inf)`` over formwire's
    WHATWG urlencoded parser (names and values handed over canonically re-encoded; see the module docstring)."""

    def __init__(
        self,
        callbacks: Callbacks | None = None,
        strict_parsing: bool = False,
        max_size: float = float("inf"),
        **options: Any,
    ) -> None:
        cb = dict(callbacks or {})
        self.callbacks = cb
        self.strict_parsing = strict_parsing
        self.max_size = max_size
        opts: dict[str, Any] = {"max_pairs": None, "max_bytes": None if max_size == float("inf") else int(max_size)}
        opts.update(options)
        self._parser = _UrlencodedParser(**opts)
        g = cb.get
        self._on_field_start = g("on_field_start", _noop)
        self._on_field_name = g("on_field_name", _noop)
        self._on_field_data = g("on_field_data", _noop)
        self._on_field_end = g("on_field_end", _noop)
        self._on_end = g("on_end", _noop)

    def write(self, data: BytesLike) -> int:
        try:
            pairs = self._parser.feed(data)
        except UrlencodedError as e:
            raise QuerystringParseError(str(e), e.code, e.offset) from None
        self._dispatch(pairs)
        return len(data)

    def finalize(self) -> None:
        try:
            pairs = self._parser.close()
        except UrlencodedError as e:
            raise QuerystringParseError(str(e), e.code, e.offset) from None
        self._dispatch(pairs)
        self._on_end()

    def _dispatch(self, pairs: list[tuple[str, str]]) -> None:
        for name, value in pairs:
            text = urlencoded_serialize(((name, value),))
            i = text.index("=")
            n = text[:i].encode("ascii")
            v = text[i + 1 :].encode("ascii")
            self._on_field_start()
            self._on_field_name(n, 0, len(n))
            self._on_field_data(v, 0, len(v))
            self._on_field_end()


_FORM_DATA_PREFIX = "multipart/form-data; boundary="
#: A boundary parameter value that the MIME type parser would take as it is: printable ASCII without SP, '"', ';'.
_PLAIN_VALUE = re.compile(r"[!#-:<-~]+\Z")


def parse_options_header(value: str | bytes | None) -> tuple[bytes, dict[bytes, bytes]]:
    """python-multipart's ``parse_options_header``, with formwire's readings.

    A ``form-data`` Content-Disposition gives ``name``/``filename`` (and ``name*``/``filename*`` raw) exactly as
    formwire's parser reads them (MP-H-07..10: names UTF-8 with U+FFFD, re-encoded as UTF-8); anything else is read
    as a MIME type (WHATWG MIME Sniffing §4.4, over the isomorphic decoding of the header; parameter values come
    back UTF-8 encoded, so a boundary is what MP-B-02 says it is)."""
    if not value:
        return b"", {}
    if type(value) is str and value.startswith(_FORM_DATA_PREFIX) and _PLAIN_VALUE.match(value, 30):
        # The request Content-Type as browsers and HTTP clients send it: what parse_mime gives, without the parse.
        return b"multipart/form-data", {b"boundary": value[30:].encode("ascii")}
    raw = value.encode("latin-1") if isinstance(value, str) else bytes(value)
    head = raw.split(b";", 1)[0].strip().lower()
    if head == b"form-data":
        d = parse_disposition(raw)
        if d is None:
            return head, {}
        out: dict[bytes, bytes] = {b"name": d[0].decode("utf-8", "replace").encode("utf-8")}
        if d[1] is not None:
            out[b"filename"] = d[1].decode("utf-8", "replace").encode("utf-8")
        if d[2] is not None:
            out[b"name*"] = d[2]
        if d[3] is not None:
            out[b"filename*"] = d[3]
        return head, out
    m = parse_mime(raw)
    if m is None:
        return head, {}
    # Values as UTF-8: a boundary is the UTF-8 encoding of the parameter (MP-B-02: header byte E9 is é, C3 A9).
    params = {k.encode("latin-1"): v.encode("utf-8") for k, v in m[2]}
    return f"{m[0]}/{m[1]}".encode("latin-1"), params
