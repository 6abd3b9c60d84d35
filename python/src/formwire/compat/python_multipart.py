"""A drop-in for python-multipart's callback parsers, backed by formwire.

``MultipartParser`` and ``QuerystringParser`` take the same ``callbacks`` dict as ``python_multipart``'s (the
interface Starlette's form parsing uses) and call them in the same order:

- multipart: ``on_part_begin``, then for each header ``on_header_field(data, start, end)``,
  ``on_header_value(data, start, end)``, ``on_header_end``; ``on_headers_finished``; ``on_part_data(data, start, end)``
  (``data`` is the chunk you wrote: nothing is copied); ``on_part_end``; finally ``on_end``.
- urlencoded: ``on_field_start``, ``on_field_name``, ``on_field_data``, ``on_field_end``, ``on_end``.

Also python-multipart's public API: ``FormParser``, ``create_form_parser``, ``parse_form``, ``Field``, ``File``,
``OctetStreamParser``, ``Base64Decoder``/``QuotedPrintableDecoder``, ``DecodeError``/``FileError``, ``BaseParser``'s
``callback``/``set_callback``. Multipart bodies are parsed by formwire's core; the rest is API.

What changes is what the bytes mean: formwire's rules (spec/multipart.md, spec/urlencoded.md). The multipart
framing is formwire's, strict (MP-P-02: no preamble), except python-multipart's start, done here: a body that begins
with CR or LF is skipped up to its first ``-``; and what python-multipart also accepts, through the core's named
options: a part without (or with an empty) Content-Disposition (``allow_missing_disposition``), any disposition type
(``allow_any_disposition_type``), any bytes after ``--boundary--`` (``allow_junk_after_close``), a delimiter
lookalike such as ``--boundary-x`` inside a body read as data (``allow_near_delimiters``), a disposition parameter
whose name holds a byte 80-FF skipped (``allow_8bit_parameter_names``). Otherwise CRLF only,
no obs-fold, ASCII header names (pass any option to change it); header names arrive as written, and an unfinished
body is an error at ``finalize()`` (python-multipart ignores it) unless ``max_size`` cut it. The urlencoded parser
streams each name and value in pieces as they arrive, with bytes 0x80-0xFF percent-encoded, so the usual
``unquote_plus(data.decode("latin-1"))`` of the consumer yields exactly the WHATWG strings.
``parse_options_header`` reads parameters as python-multipart does, except a ``form-data`` Content-Disposition's
``name``/``filename`` that formwire's grammar accepts (MP-H-07: literally, with quoted-pairs only where that fails)
and a Content-Type's boundary (MP-B-02, WHATWG MIME); like python-multipart's, it strips a Windows directory prefix
(``C:\\dir\\`` or ``\\\\server\\share\\``) from a ``filename``, so ``FormParser``'s ``File.file_name`` is the base name.

Limits: formwire's header limits and ``max_total_field_bytes`` (10 MiB of text fields in all, which no caller
bounds) stay on; the part count, field size and body size limits are off by default here, because the callers of
this interface (Starlette) enforce their own ``max_fields``, ``max_files`` and ``max_part_size`` with their own
messages. Pass any formwire option as a keyword to set it.

Errors subclass both formwire's coded errors and python-multipart's ``FormParserError`` when python-multipart is
installed, so existing ``except`` clauses keep working.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import re
import shutil
import sys
import tempfile
from enum import IntEnum
from io import BytesIO
from numbers import Number
from collections.abc import Callable, Mapping
from typing import Any, Union

from formwire._formwire import END as _END
from formwire._formwire import PART_END, Part, parse_disposition, parse_mime
from formwire.errors import MultipartError, UrlencodedError
from formwire.multipart import Parser

__all__ = [
    "BaseParser",
    "MultipartParser",
    "QuerystringParser",
    "OctetStreamParser",
    "FormParser",
    "create_form_parser",
    "parse_form",
    "Field",
    "File",
    "Base64Decoder",
    "QuotedPrintableDecoder",
    "parse_options_header",
    "MultipartState",
    "QuerystringState",
    "FormParserError",
    "ParseError",
    "MultipartParseError",
    "QuerystringParseError",
    "DecodeError",
    "FileError",
]

_log = logging.getLogger(__name__)

try:  # pragma: no cover - depends on what is installed
    from python_multipart.exceptions import DecodeError as _PMDecodeError
    from python_multipart.exceptions import FileError as _PMFileError
    from python_multipart.exceptions import FormParserError as _PMFormParserError
    from python_multipart.exceptions import MultipartParseError as _PMMultipartParseError
    from python_multipart.exceptions import ParseError as _PMParseError
    from python_multipart.exceptions import QuerystringParseError as _PMQuerystringParseError
except ImportError:  # pragma: no cover

    class _PMFormParserError(ValueError):  # type: ignore[no-redef]
        pass

    class _PMParseError(_PMFormParserError):  # type: ignore[no-redef]
        offset = -1

    class _PMMultipartParseError(_PMParseError):  # type: ignore[no-redef]
        pass

    class _PMQuerystringParseError(_PMParseError):  # type: ignore[no-redef]
        pass

    class _PMDecodeError(_PMParseError):  # type: ignore[no-redef]
        pass

    class _PMFileError(_PMFormParserError, OSError):  # type: ignore[no-redef]
        pass


class FormParserError(_PMFormParserError):  # type: ignore[misc,valid-type]
    """Base of the shim's errors (python-multipart's ``FormParserError`` when it is installed)."""


class ParseError(FormParserError):
    """An error in the input, with ``offset`` (python-multipart's ``ParseError``)."""

    def __init__(self, message: str = "", *, offset: int = -1) -> None:
        super().__init__(message)
        self.offset = offset


class MultipartParseError(MultipartError, _PMMultipartParseError, ParseError):  # type: ignore[misc,valid-type]
    """A multipart error: formwire's ``.code`` and ``.offset``, catchable as python-multipart's."""

    def __init__(self, message: str = "", code: str = "", offset: int = -1) -> None:
        MultipartError.__init__(self, message, code, offset)


class QuerystringParseError(UrlencodedError, _PMQuerystringParseError, ParseError):  # type: ignore[misc,valid-type]
    """An urlencoded error (a limit, or ``strict_parsing``): ``.code`` and ``.offset``, catchable as python-multipart's."""

    def __init__(self, message: str = "", code: str = "", offset: int = -1) -> None:
        UrlencodedError.__init__(self, message, code, offset)


class DecodeError(_PMDecodeError, ParseError):  # type: ignore[misc,valid-type]
    """A Content-Transfer-Encoding that does not decode (base64 or quoted-printable)."""


class FileError(_PMFileError, FormParserError):  # type: ignore[misc,valid-type]
    """A file that could not be opened or created."""


class MultipartState(IntEnum):
    """python-multipart's state names; the shim reports only ``START`` and ``END`` (formwire's core holds the rest)."""

    START = 0
    START_BOUNDARY = 1
    HEADER_FIELD_START = 2
    HEADER_FIELD = 3
    HEADER_VALUE_START = 4
    HEADER_VALUE = 5
    HEADER_VALUE_ALMOST_DONE = 6
    HEADERS_ALMOST_DONE = 7
    PART_DATA_START = 8
    PART_DATA = 9
    PART_DATA_END = 10
    END_BOUNDARY = 11
    END = 12
    BOUNDARY_PADDING = 13


class QuerystringState(IntEnum):
    BEFORE_FIELD = 0
    FIELD_NAME = 1
    FIELD_DATA = 2


START = MultipartState.START
END = MultipartState.END
BEFORE_FIELD = QuerystringState.BEFORE_FIELD
FIELD_NAME = QuerystringState.FIELD_NAME
FIELD_DATA = QuerystringState.FIELD_DATA

#: name -> callable or None (a None callback is not called).
Callbacks = Mapping[str, Any]
BytesLike = Union[bytes, bytearray, memoryview]

_SHIM_DEFAULTS: dict[str, Any] = {
    "max_parts": None,
    # python-multipart has no file/field counts (MP-L-05 off, as max_parts).
    "max_files": None,
    "max_fields": None,
    "max_field_bytes": None,
    "max_total_bytes": None,
    # python-multipart skips no preamble, only a body that starts with CR or LF up to its first "-" (the shim does
    # that itself, in MultipartParser.write); anything else before the first delimiter is an error at write().
    "allow_preamble": False,
    # What python-multipart accepts (spec/multipart.md §8, probed by python/compat/probe.py): its MultipartParser
    # never reads Content-Disposition, so a part without one is a part (MP-H-06; FormParser then raises "Field name
    # not found", as python-multipart's does) and any disposition type is read (MP-H-07); it stops at "--" B "--"
    # and ignores every byte after it (MP-P-05, MP-P-07); inside a body it reads "--" B "-" x and "--" B CR x as
    # data (MP-P-03, MP-P-04); its parameter split skips a parameter whose name holds a byte such as A0 (MP-H-07).
    "allow_missing_disposition": True,
    "allow_any_disposition_type": True,
    "allow_junk_after_close": True,
    "allow_near_delimiters": True,
    "allow_8bit_parameter_names": True,
}
#: python-multipart's defaults for ``max_header_count`` and ``max_header_size`` (per header line).
DEFAULT_MAX_HEADER_COUNT = 8
DEFAULT_MAX_HEADER_SIZE = 4096 + 128

_missing = object()


def _noop(*_: Any) -> None:
    return None


def _check_max_size(max_size: Any) -> None:
    if not isinstance(max_size, Number) or max_size < 1:  # type: ignore[operator]
        raise ValueError("max_size must be a positive number, not %r" % max_size)


#: python-multipart's wording for the errors both raise, put before formwire's message (``except`` clauses and logs
#: that match the text keep working; ``.code`` is the contract).
_PM_WORDING = {
    "MP_LIMIT_HEADERS": "Maximum header count exceeded",
    "MP_LIMIT_HEADER_BYTES": "Maximum header size exceeded",
}


def _mp_error(e: MultipartError) -> MultipartParseError:
    prefix = _PM_WORDING.get(e.code)
    return MultipartParseError(f"{prefix}: {e}" if prefix else str(e), e.code, e.offset)


class BaseParser:
    """python-multipart's ``BaseParser``: a ``callbacks`` dict, ``callback(name, data, start, end)`` and
    ``set_callback(name, func)`` (``None`` removes it). A callback whose value is ``None`` is not called."""

    def __init__(self) -> None:
        self.logger = _log
        self.callbacks: dict[str, Any] = {}

    def callback(self, name: str, data: Any = None, start: int | None = None, end: int | None = None) -> None:
        func = self.callbacks.get("on_" + name)
        if func is None:
            return
        if data is not None:
            if start is not None and start == end:
                return
            func(data, start, end)
        else:
            func()

    def set_callback(self, name: str, new_func: Callable[..., Any] | None) -> None:
        if new_func is None:
            self.callbacks.pop("on_" + name, None)
        else:
            self.callbacks["on_" + name] = new_func

    def close(self) -> None:
        pass

    def finalize(self) -> None:
        pass

    def __repr__(self) -> str:
        return "%s()" % type(self).__name__

    def _cb(self, name: str) -> Callable[..., Any]:
        return self.callbacks.get(name) or _noop


class OctetStreamParser(BaseParser):
    """python-multipart's ``OctetStreamParser``: ``on_start``, ``on_data``, ``on_end`` over the raw body.
    ``max_size`` truncates (as python-multipart does: ``write`` returns how much it took)."""

    def __init__(self, callbacks: Callbacks | None = None, max_size: float = float("inf")) -> None:
        super().__init__()
        self.callbacks = {} if callbacks is None else callbacks  # type: ignore[assignment]
        self._started = False
        _check_max_size(max_size)
        self.max_size = max_size
        self._current_size = 0

    def write(self, data: BytesLike) -> int:
        if not self._started:
            self.callback("start")
            self._started = True
        n = len(data)
        if self._current_size + n > self.max_size:
            n = int(self.max_size - self._current_size)
            self.logger.warning("max_size %r reached: taking %d of %d bytes", self.max_size, n, len(data))
        self._current_size += n
        self.callback("data", data, 0, n)
        return n

    def finalize(self) -> None:
        self.callback("end")


class MultipartParser(BaseParser):
    """python-multipart's ``MultipartParser(boundary, callbacks={}, max_size=inf, *, max_header_count=8,
    max_header_size=4224)`` over formwire's parser.

    Callbacks: ``on_part_begin``, per header ``on_header_begin``, ``on_header_field``, ``on_header_value``,
    ``on_header_end``; ``on_headers_finished``; ``on_part_data(data, start, end)`` (``data`` is the chunk written:
    nothing is copied); ``on_part_end``; ``on_end``. ``max_size`` truncates what ``write`` takes (python-multipart's
    semantics: ``write`` returns the count taken). ``max_header_count`` is formwire's ``max_headers``;
    ``max_header_size`` bounds each header line (name, colon, value), raised at the write where a line goes over it,
    as python-multipart does. Both (and ``max_size``) may be set after
    construction, until the first ``write``. Any formwire option can be passed as a keyword.

    ``zero_copy=True`` passes ``memoryview(data)`` as the ``data`` argument of ``on_part_data`` so that the
    consumer's ``data[start:end]`` is a view too (Starlette accepts it); the default passes ``data`` as written.
    """

    #: Header names reach ``on_header_field`` as written (python-multipart's behaviour; the core's
    #: ``headers_as_written``); a subclass whose consumer lowercases them anyway sets it False (``raw_headers``).
    _WRITTEN_NAMES = True

    def __init__(
        self,
        boundary: bytes | str,
        callbacks: Callbacks | None = None,
        max_size: float = float("inf"),
        *,
        max_header_count: int = DEFAULT_MAX_HEADER_COUNT,
        max_header_size: int = DEFAULT_MAX_HEADER_SIZE,
        zero_copy: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if isinstance(boundary, str):
            boundary = boundary.encode("latin-1")
        self.callbacks = {} if callbacks is None else callbacks  # type: ignore[assignment]
        _check_max_size(max_size)
        self.max_size = max_size
        self._current_size = 0
        self.max_header_count = max_header_count
        self.max_header_size = max_header_size
        self.zero_copy = zero_copy
        self.state = MultipartState.START
        self._options = options
        self._boundary = boundary
        # The boundary is checked now (MP-B-04: MP_LIMIT_BOUNDARY), as python-multipart checks its length here.
        self._parser: Parser | None = self._make()
        self._written = False
        self._cut = False  # max_size cut the input short
        # python-multipart's start: a body that begins with CR or LF is skipped up to its first "-" (unless the
        # caller chose the core's allow_preamble): None = not decided yet, True = skipping, False = done.
        self._skipping: bool | None = None if "allow_preamble" not in options else False
        self._skipped = 0
        self._head = b""  # the first bytes given to the core, to say where a wrong first delimiter goes wrong
        self._fed = 0  # bytes given to the core before the current chunk
        self._tail = b""  # the last two bytes given to the core before the current chunk
        # max_header_size as python-multipart applies it, before a header block is complete (see _check_header_lines):
        # where the unfinished block's scan goes on (core offset; None when the core is not in a block or the
        # caller chose allow_preamble), the start of its current header line (None while in the delimiter line),
        # and the core offset of the next body byte of the current part.
        self._hd: int | None = None if options.get("allow_preamble") else 0
        self._hd_line: int | None = None
        self._body_pos = 0

    def _make(self) -> Parser:
        opts = dict(_SHIM_DEFAULTS)
        if self.max_size != float("inf"):
            # python-multipart truncates at max_size; the core then sees a body that ends early.
            opts["max_total_bytes"] = None
        count, size = self.max_header_count, self.max_header_size
        opts["max_headers"] = None if count is None or count == float("inf") else int(count)
        if size is not None and size != float("inf"):
            # formwire's max_header_bytes bounds a whole header block; the per-line bound is checked per header.
            per_block = int(size) * (opts["max_headers"] or 1) + 4 * (opts["max_headers"] or 1)
            opts["max_header_bytes"] = max(8192, per_block)
        opts.update(self._options)
        try:
            return Parser(self._boundary, **opts)
        except MultipartError as e:
            if e.code == "MP_LIMIT_BOUNDARY":
                limit = opts.get("max_boundary_bytes", 256)
                msg = f"Boundary length {len(self._boundary)} exceeds maximum of {limit}: {e}"
                raise MultipartParseError(msg, e.code, e.offset) from None
            raise _mp_error(e) from None

    @property
    def boundary(self) -> bytes:
        return b"\r\n--" + self._boundary

    def write(self, data: BytesLike) -> int:
        """Parses a chunk, calling the callbacks; returns the number of bytes taken (all, unless ``max_size``)."""
        if not self._written:
            self._written = True
            self._parser = self._make()  # limits set after construction apply
        n = len(data)
        if self._current_size + n > self.max_size:
            n = int(self.max_size - self._current_size)
            self.logger.warning("max_size %r reached: taking %d of %d bytes", self.max_size, n, len(data))
            self._cut = True
            chunk: Any = memoryview(data)[:n]
        else:
            chunk = data
        self._current_size += n
        parser = self._parser
        assert parser is not None
        if self._skipping is not False and n:
            view = memoryview(chunk)
            if self._skipping is None:
                self._skipping = view[0] in (13, 10)  # CR, LF
            if self._skipping:
                at = bytes(view).find(b"-")
                if at < 0:
                    self._skipped += n
                    return n
                self._skipping = False
                self._skipped += at
                chunk = data = view[at:] if self.zero_copy else bytes(view[at:])
        if len(self._head) < len(self._boundary) + 2:
            self._head += bytes(memoryview(chunk)[: len(self._boundary) + 2 - len(self._head)])
        start = self._fed
        prev = self._tail
        try:
            events = parser.feed_spans(chunk)
        except MultipartError as e:
            # python-multipart calls back for everything before the error: a consumer's own check (Starlette's
            # max_fields) that comes first in the stream raises first.
            if e.events:
                self._dispatch(list(e.events), memoryview(data) if self.zero_copy else data)
            raise self._error(e, chunk, start) from None
        if len(chunk):
            self._fed = start + len(chunk)
            self._tail = (self._tail + bytes(memoryview(chunk)[-2:]))[-2:]
        if events:
            self._dispatch(events, memoryview(data) if self.zero_copy else data)
        if self._hd is not None and len(chunk):
            self._check_header_lines(chunk, start, prev)
        return n

    def _check_header_lines(self, chunk: Any, base: int, prev: bytes) -> None:
        """``max_header_size`` as python-multipart applies it: a header line (name, colon, value, without its CRLF)
        longer than the limit is an error as soon as it is, not once its part's header block is complete (the core
        holds an unfinished block whole, up to ``max_header_bytes``). Looks at the unfinished block at the end of the
        input so far, from ``self._hd`` on (``base`` is the core offset of ``chunk``, ``prev`` the bytes before it);
        a complete block is checked at its ``Part`` event, in ``_dispatch``."""
        limit = self.max_header_size
        hd = self._hd
        assert hd is not None
        if limit is None or limit == float("inf"):
            return
        at = max(0, hd - base)
        if type(chunk) is bytes:
            data = chunk
        else:
            data, base, at = bytes(memoryview(chunk)[at:]), base + at, 0
        end = len(data)
        if self._hd_line is None:
            # the delimiter line (MP-P-03) ends at its LF; the header lines follow
            lf = data.find(b"\n", at)
            if lf < 0:
                self._hd = base + end
                return
            self._hd_line = base + lf + 1
            at = lf + 1
        line = self._hd_line - base
        while True:
            lf = data.find(b"\n", at)
            last = lf < 0
            if last:
                lf = end
            before = data[lf - 1] if lf > 0 else (prev[-1] if prev else -1)
            size = lf - line - (before == 13 and lf > line)
            if size > limit:
                raise MultipartParseError(
                    f"Maximum header size exceeded: a header line is longer than max_header_size ({limit})",
                    "MP_LIMIT_HEADER_BYTES",
                    base + line + int(limit) + self._skipped,
                )
            if last:
                break
            line = at = lf + 1
        self._hd_line = base + line
        self._hd = base + end

    def finalize(self) -> None:
        """Ends the input: ``MultipartParseError`` (``MP_TRUNCATED``) unless the form was complete, or unless
        ``max_size`` cut it short: python-multipart's truncation, where the caller asked for the first ``max_size``
        bytes (``write`` said how many it took) and ``finalize`` ends quietly, without ``on_end``."""
        parser = self._parser
        assert parser is not None
        try:
            events = parser.close()
        except MultipartError as e:
            if e.events:
                self._dispatch(list(e.events), b"")
            if self._cut and e.code == "MP_TRUNCATED":
                return
            raise self._error(e) from None
        self._dispatch(events, b"")

    def _error(self, e: MultipartError, chunk: Any = b"", start: int = 0) -> MultipartParseError:
        """The core's error, with offsets in the caller's stream (skipped leading bytes counted) and, for a first
        delimiter that is not ``--boundary`` (MP-P-02), python-multipart's words and the index where it differs;
        for a CR without its LF in a part's header lines (MP-H rules), python-multipart's offset: the byte where
        the LF should have been, not the CR. python-multipart's words for two more errors both raise: a delimiter
        line whose padding is not followed by CRLF (MP-P-03), and a Content-Disposition without a name (MP-H-07;
        python-multipart's FormParser says so, its bare parser reads no header)."""
        rel = e.offset - start

        def byte(i: int) -> int:
            if i < 0:
                return self._tail[i] if -len(self._tail) <= i else -1
            return chunk[i] if i < len(chunk) else -1

        if e.code == "MP_DELIMITER":
            before = byte(rel - 1)
            if before == 13:
                before = byte(rel - 2)
            if before in (32, 9):  # SP, HT: transport padding, then neither CRLF nor more padding
                msg = f"Did not find CRLF after boundary padding at {e.offset + self._skipped}: {e}"
                return MultipartParseError(msg, e.code, e.offset + self._skipped)
        if e.code == "MP_DISPOSITION" and 0 <= rel < len(chunk):
            line = bytes(memoryview(chunk)[rel:]).split(b"\r\n", 1)[0]
            name, _, value = line.partition(b":")
            if name.strip(b" \t").lower() == b"content-disposition" and b"name" not in parse_options_header(value)[1]:
                msg = f'Field name not found in Content-Disposition: "{value.strip(b" ")!r}": {e}'
                return MultipartParseError(msg, e.code, e.offset + self._skipped)
        if e.code in ("MP_HEADER_VALUE", "MP_HEADER_NAME"):
            # a CR that ends a value or starts a line (where the blank line goes), then not LF; a CR inside a
            # header name is python-multipart's invalid character, at the CR
            line_end = e.code == "MP_HEADER_VALUE" or byte(rel - 1) == 10
            if byte(rel) == 13 and line_end and byte(rel + 1) not in (10, -1):
                msg = f"Did not find LF character after CR in the header lines: {e}"
                return MultipartParseError(msg, e.code, e.offset + 1 + self._skipped)
        if e.code == "MP_PREAMBLE":
            want = b"--" + self._boundary
            at = next((i for i, (a, b) in enumerate(zip(self._head, want)) if a != b), 0)
            if at < len(self._head):
                msg = f"Expected boundary character {want[at]!r}, got {self._head[at]!r} at index {at}: {e}"
                return MultipartParseError(msg, e.code, self._skipped + at)
        err = _mp_error(e)
        return MultipartParseError(str(err), e.code, e.offset + self._skipped) if self._skipped else err

    def _dispatch(self, events: list[Any], data: Any) -> None:
        g = self.callbacks.get
        on_part_data = g("on_part_data") or _noop
        body = self._body_pos  # the core offset of the current part's next body byte
        for ev in events:
            t = type(ev)
            if t is tuple:
                if ev[0] != ev[1]:
                    body += ev[1] - ev[0]
                    on_part_data(data, ev[0], ev[1])
            elif t is bytes:
                if ev:
                    body += len(ev)
                    on_part_data(ev, 0, len(ev))
            elif t is Part:
                body = ev.body_offset
                self._hd = None
                (g("on_part_begin") or _noop)()
                on_header_begin = g("on_header_begin") or _noop
                on_header_field = g("on_header_field") or _noop
                on_header_value = g("on_header_value") or _noop
                on_header_end = g("on_header_end") or _noop
                limit = self.max_header_size
                raw = ev.headers_as_written if self._WRITTEN_NAMES else ev.raw_headers
                for name, value in raw:
                    if limit is not None and len(name) + 1 + len(value) > limit:
                        raise MultipartParseError(
                            f"Maximum header size exceeded: a header line is longer than max_header_size ({limit})",
                            "MP_LIMIT_HEADER_BYTES",
                            ev.body_offset,
                        )
                    on_header_begin()
                    on_header_field(name, 0, len(name))
                    if value:
                        on_header_value(value, 0, len(value))
                    on_header_end()
                (g("on_headers_finished") or _noop)()
            elif ev is PART_END:
                # the delimiter CRLF "--" B (MP-P-01) was just read: the next header block starts after its line
                self._hd, self._hd_line = body + len(self._boundary) + 3, None
                (g("on_part_end") or _noop)()
            elif ev is _END:
                self._hd = None
                self.state = MultipartState.END
                (g("on_end") or _noop)()
        self._body_pos = body

    def __repr__(self) -> str:
        return f"{type(self).__name__}(boundary={self._boundary!r})"


class _LowercaseNamesMultipartParser(MultipartParser):
    """FormParser's: it lowercases the header names itself, so they need not be recovered as written."""

    _WRITTEN_NAMES = False


_HIGH = re.compile(rb"[\x80-\xff]")


def _canonical(raw: bytes) -> bytes:
    """A name or value piece as the consumer's ``unquote_plus(data.decode("latin-1"))`` reads it WHATWG-exactly
    (UE-P): ASCII bytes are already read the same way (``+``, ``%XX``, a ``%`` without two hex digits kept), so
    only bytes 0x80-0xFF are percent-encoded (the Latin-1 decoding would otherwise make them characters)."""
    if raw.isascii():
        return raw
    return _HIGH.sub(lambda m: b"%%%02X" % m.group()[0], raw)


#: python-multipart's ``strict_parsing`` is not a formwire rule (UE-P reads every input), so its errors have no code.
_NO_CODE = ""


class QuerystringParser(BaseParser):
    """python-multipart's ``QuerystringParser(callbacks={}, strict_parsing=False, max_size=inf)``.

    Fields stream: ``on_field_start``, then ``on_field_name`` and ``on_field_data`` for each piece of the name and
    value as chunks arrive (a per-field limit of the consumer fires before a field is held whole), ``on_field_end``;
    ``on_end`` at ``finalize``. Pieces are handed over as they are, except that bytes 0x80-0xFF are
    percent-encoded, so ``unquote_plus`` of the joined pieces is the WHATWG reading (UE-P). ``strict_parsing`` rejects a field without ``=`` and an empty field (``&&``). ``max_size`` truncates
    (python-multipart's semantics); ``max_pairs``/``max_bytes`` are formwire's coded limits (off here).
    """

    def __init__(
        self,
        callbacks: Callbacks | None = None,
        strict_parsing: bool = False,
        max_size: float = float("inf"),
        *,
        max_pairs: int | None = None,
        max_bytes: int | None = None,
    ) -> None:
        super().__init__()
        self.callbacks = {} if callbacks is None else callbacks  # type: ignore[assignment]
        self.strict_parsing = strict_parsing
        _check_max_size(max_size)
        self.max_size = max_size
        self.max_pairs = max_pairs
        self.max_bytes = max_bytes
        self._current_size = 0
        self._pairs = 0
        self.state = QuerystringState.BEFORE_FIELD
        self._found_sep = False

    def write(self, data: BytesLike) -> int:
        n = len(data)
        if self._current_size + n > self.max_size:
            n = int(self.max_size - self._current_size)
            self.logger.warning("max_size %r reached: taking %d of %d bytes", self.max_size, n, len(data))
        if self.max_bytes is not None and self._current_size + n > self.max_bytes:
            raise QuerystringParseError(
                f"body longer than max_bytes ({self.max_bytes})", "UE_LIMIT_BYTES", self.max_bytes
            )
        buf = bytes(data[:n]) if n != len(data) or type(data) is not bytes else data
        base = self._current_size
        self._current_size += n
        self._parse(buf, base)
        return n

    def _piece(self, kind: str, raw: bytes, final: bool) -> None:
        if raw:
            out = _canonical(raw)
            (self.callbacks.get(kind) or _noop)(out, 0, len(out))

    def _start_field(self, offset: int) -> None:
        self._pairs += 1
        if self.max_pairs is not None and self._pairs > self.max_pairs:
            raise QuerystringParseError(f"more than max_pairs ({self.max_pairs}) fields", "UE_LIMIT_PAIRS", offset)
        (self.callbacks.get("on_field_start") or _noop)()

    def _end_field(self) -> None:
        (self.callbacks.get("on_field_end") or _noop)()

    def _parse(self, data: bytes, base: int) -> None:
        # UE-P framing: '&' ends a field, the first '=' ends its name.
        i, n = 0, len(data)
        state = self.state
        while i < n:
            if state == BEFORE_FIELD:
                if data[i] == 0x26:  # '&'
                    if self._found_sep and self.strict_parsing:
                        # python-multipart's own rule, with its offset: the index in this write's chunk
                        raise QuerystringParseError("Skipping duplicate ampersand at %d" % i, _NO_CODE, i)
                    self._found_sep = True
                    i += 1
                    continue
                self._found_sep = False
                self._start_field(base + i)
                state = FIELD_NAME
            amp = data.find(b"&", i)
            stop = n if amp == -1 else amp
            if state == FIELD_NAME:
                eq = data.find(b"=", i, stop)
                if eq != -1:
                    self._piece("on_field_name", data[i:eq], True)
                    state = FIELD_DATA
                    self.state = state
                    i = eq + 1
                    continue
                if amp != -1 and self.strict_parsing:
                    raise QuerystringParseError(
                        "When strict_parsing is True, we require an equals sign in all field chunks. Did not find "
                        "one in the chunk that starts at %d" % i,
                        _NO_CODE,
                        i,
                    )
                self._piece("on_field_name", data[i:stop], amp != -1)
            else:
                self._piece("on_field_data", data[i:stop], amp != -1)
            if amp == -1:
                break
            self.state = state
            self._end_field()
            state = BEFORE_FIELD
            self._found_sep = True
            i = amp + 1
        self.state = state

    def finalize(self) -> None:
        if self.state in (FIELD_DATA, FIELD_NAME):
            self._end_field()
        (self.callbacks.get("on_end") or _noop)()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(strict_parsing={self.strict_parsing!r}, max_size={self.max_size!r})"


class Base64Decoder:
    """Decodes a ``Content-Transfer-Encoding: base64`` body into ``underlying`` as it streams (whole 4-character
    groups at a time); ``DecodeError`` for bad input or a partial group at ``finalize``."""

    def __init__(self, underlying: Any) -> None:
        self.cache = bytearray()
        self.underlying = underlying

    def write(self, data: bytes) -> int:
        if self.cache:
            data = bytes(self.cache) + bytes(data)
        n = len(data) - len(data) % 4
        self.cache = bytearray(data[n:])
        if n:
            try:
                decoded = base64.b64decode(data[:n])
            except binascii.Error:
                raise DecodeError("There was an error raised while decoding base64-encoded data.") from None
            self.underlying.write(decoded)
        return len(data)

    def close(self) -> None:
        if hasattr(self.underlying, "close"):
            self.underlying.close()

    def finalize(self) -> None:
        if self.cache:
            raise DecodeError(
                "There are %d bytes remaining in the Base64Decoder cache when finalize() is called" % len(self.cache)
            )
        if hasattr(self.underlying, "finalize"):
            self.underlying.finalize()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(underlying={self.underlying!r})"


class QuotedPrintableDecoder:
    """Decodes a ``Content-Transfer-Encoding: quoted-printable`` body into ``underlying`` as it streams (an ``=``
    escape split over two writes is held back)."""

    def __init__(self, underlying: Any) -> None:
        self.cache = b""
        self.underlying = underlying

    def write(self, data: bytes) -> int:
        if self.cache:
            data = self.cache + bytes(data)
            self.cache = b""
        else:
            data = bytes(data)
        k = data.rfind(b"=", max(0, len(data) - 2))
        if k != -1:
            data, self.cache = data[:k], data[k:]
        if data:
            self.underlying.write(binascii.a2b_qp(data))
        return len(data)

    def close(self) -> None:
        if hasattr(self.underlying, "close"):
            self.underlying.close()

    def finalize(self) -> None:
        if self.cache:
            # An '=' escape cut off by the end of the body is data, as python-multipart keeps it.
            self.underlying.write(self.cache)
            self.cache = b""
        if hasattr(self.underlying, "finalize"):
            self.underlying.finalize()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(underlying={self.underlying!r})"


class Field:
    """A parsed form field (python-multipart's ``Field``): ``field_name``, ``value`` (bytes, or None for a
    urlencoded name without ``=``), ``content_type``."""

    def __init__(self, name: bytes | None, *, content_type: str | None = None) -> None:
        self._name = name
        self._value: list[bytes] = []
        self._content_type = content_type
        self._cache: Any = _missing

    @classmethod
    def from_value(cls, name: bytes, value: bytes | None) -> Field:
        f = cls(name)
        if value is None:
            f.set_none()
        else:
            f.write(value)
        f.finalize()
        return f

    def write(self, data: bytes) -> int:
        return self.on_data(data)

    def on_data(self, data: bytes) -> int:
        self._value.append(bytes(data))
        self._cache = _missing
        return len(data)

    def on_end(self) -> None:
        if self._cache is _missing:
            self._cache = b"".join(self._value)

    def finalize(self) -> None:
        self.on_end()

    def close(self) -> None:
        if self._cache is _missing:
            self._cache = b"".join(self._value)
        del self._value

    def set_none(self) -> None:
        self._cache = None

    @property
    def field_name(self) -> bytes | None:
        return self._name

    @property
    def value(self) -> bytes | None:
        if self._cache is _missing:
            self._cache = b"".join(self._value)
        return self._cache  # type: ignore[no-any-return]

    @property
    def content_type(self) -> str | None:
        return self._content_type

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Field):
            return self.field_name == other.field_name and self.value == other.value
        return NotImplemented

    def __repr__(self) -> str:
        v = self.value
        r = repr(v[:97])[:-1] + "...'" if v is not None and len(v) > 97 else repr(v)
        return f"{type(self).__name__}(field_name={self.field_name!r}, value={r})"


class File:
    """An uploaded file (python-multipart's ``File``): in memory up to ``MAX_MEMORY_FILE_SIZE`` (config), then in a
    file on disk (``UPLOAD_DIR``, ``UPLOAD_KEEP_FILENAME``, ``UPLOAD_KEEP_EXTENSIONS``, ``UPLOAD_DELETE_TMP``). A
    kept file name is reduced to its base name (no directory parts)."""

    def __init__(
        self,
        file_name: bytes | None,
        field_name: bytes | None = None,
        config: Mapping[str, Any] = {},  # noqa: B006 - read only
        *,
        content_type: str | None = None,
    ) -> None:
        self.logger = _log
        self._config = config
        self._in_memory = True
        self._bytes_written = 0
        self._fileobj: Any = BytesIO()
        self._field_name = field_name
        self._file_name = file_name
        self._content_type = content_type
        self._actual_file_name: bytes | None = None
        self._file_base: bytes | None = None
        self._ext = b""
        if file_name is not None:
            base, ext = os.path.splitext(os.path.basename(file_name))
            self._file_base, self._ext = base, ext

    field_name = property(lambda self: self._field_name)
    file_name = property(lambda self: self._file_name)
    actual_file_name = property(lambda self: self._actual_file_name)
    file_object = property(lambda self: self._fileobj)
    size = property(lambda self: self._bytes_written)
    in_memory = property(lambda self: self._in_memory)
    content_type = property(lambda self: self._content_type)

    def flush_to_disk(self) -> None:
        if not self._in_memory:
            self.logger.warning("Trying to flush to disk when we're not in memory")
            return
        self._fileobj.seek(0)
        new_file = self._get_disk_file()
        shutil.copyfileobj(self._fileobj, new_file)
        new_file.seek(self._bytes_written)
        old, self._fileobj = self._fileobj, new_file
        self._in_memory = False
        old.close()

    def _get_disk_file(self) -> Any:
        file_dir = self._config.get("UPLOAD_DIR")
        keep_filename = self._config.get("UPLOAD_KEEP_FILENAME", False)
        keep_extensions = self._config.get("UPLOAD_KEEP_EXTENSIONS", False)
        delete_tmp = self._config.get("UPLOAD_DELETE_TMP", True)
        tmp: Any
        if file_dir is not None and keep_filename and self._file_base is not None:
            fname = self._file_base + self._ext if keep_extensions else self._file_base
            path = os.path.join(os.fsencode(file_dir), fname)
            try:
                tmp = open(path, "w+b")  # noqa: SIM115 - handed to the caller
            except OSError:
                raise FileError("Error opening temporary file: %r" % path) from None
        else:
            enc = sys.getfilesystemencoding()
            suffix = self._ext.decode(enc) if keep_extensions else None
            d = file_dir.decode(enc) if isinstance(file_dir, bytes) else file_dir
            try:
                tmp = tempfile.NamedTemporaryFile(suffix=suffix, delete=delete_tmp, dir=d)  # noqa: SIM115
            except OSError:
                raise FileError("Error creating named temporary file") from None
            fname = tmp.name.encode(enc) if isinstance(tmp.name, str) else tmp.name
        self._actual_file_name = fname
        return tmp

    def write(self, data: bytes) -> int:
        return self.on_data(data)

    def on_data(self, data: bytes) -> int:
        written = self._fileobj.write(data)
        if written != len(data):
            self.logger.warning("bwritten != len(data) (%d != %d)", written, len(data))
            return written  # type: ignore[no-any-return]
        self._bytes_written += written
        limit = self._config.get("MAX_MEMORY_FILE_SIZE")
        if self._in_memory and limit is not None and self._bytes_written > limit:
            self.flush_to_disk()
        return written  # type: ignore[no-any-return]

    def on_end(self) -> None:
        self._fileobj.flush()

    def finalize(self) -> None:
        self.on_end()

    def close(self) -> None:
        self._fileobj.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(file_name={self.file_name!r}, field_name={self.field_name!r})"


class FormParser:
    """python-multipart's all-in-one ``FormParser(content_type, on_field, on_file, on_end=None, boundary=None,
    file_name=None, config={})``: :class:`Field` and :class:`File` objects for ``multipart/form-data``,
    ``application/x-www-form-urlencoded`` and ``application/octet-stream`` bodies, with python-multipart's config
    keys (``MAX_BODY_SIZE``, ``MAX_FIELDS`` and ``MAX_FIELD_SIZE`` for urlencoded bodies, ``MAX_HEADER_COUNT``,
    ``MAX_HEADER_SIZE``, ``MAX_MEMORY_FILE_SIZE``, ``UPLOAD_*``, ``UPLOAD_ERROR_ON_BAD_CTE``). Multipart bodies are
    read by formwire's parser (strict, see the module docstring); a part's Content-Transfer-Encoding
    (``base64``, ``quoted-printable``) is decoded as it streams."""

    DEFAULT_CONFIG: dict[str, Any] = {
        "MAX_BODY_SIZE": float("inf"),
        "MAX_FIELDS": float("inf"),
        "MAX_FIELD_SIZE": float("inf"),
        "MAX_HEADER_COUNT": DEFAULT_MAX_HEADER_COUNT,
        "MAX_HEADER_SIZE": DEFAULT_MAX_HEADER_SIZE,
        "MAX_MEMORY_FILE_SIZE": 1 << 20,
        "UPLOAD_DIR": None,
        "UPLOAD_DELETE_TMP": True,
        "UPLOAD_KEEP_FILENAME": False,
        "UPLOAD_KEEP_EXTENSIONS": False,
        "UPLOAD_ERROR_ON_BAD_CTE": False,
    }

    def __init__(
        self,
        content_type: str,
        on_field: Callable[[Field], None] | None,
        on_file: Callable[[File], None] | None,
        on_end: Callable[[], None] | None = None,
        boundary: bytes | str | None = None,
        file_name: bytes | None = None,
        config: Mapping[str, Any] = {},  # noqa: B006 - read only
    ) -> None:
        self.logger = _log
        self.content_type = content_type
        self.boundary = boundary
        self.bytes_received = 0
        self.on_field = on_field
        self.on_file = on_file
        self.on_end = on_end
        self.config = dict(self.DEFAULT_CONFIG)
        self.config.update(config)
        self.parser: Any = None
        if content_type == "application/octet-stream":
            self.parser = self._octet_stream(file_name)
        elif content_type in ("application/x-www-form-urlencoded", "application/x-url-encoded"):
            self.parser = self._urlencoded()
        elif content_type == "multipart/form-data":
            if boundary is None:
                raise FormParserError("No boundary given")
            self.parser = self._multipart(boundary)
        else:
            raise FormParserError(f"Unknown Content-Type: {content_type}")

    def _ended(self) -> None:
        if self.on_end is not None:
            self.on_end()

    def _octet_stream(self, file_name: bytes | None) -> OctetStreamParser:
        file: File | None = None

        def on_start() -> None:
            nonlocal file
            file = File(file_name, None, config=self.config)

        def on_data(data: bytes, start: int, end: int) -> None:
            assert file is not None
            file.write(data[start:end])

        def on_end() -> None:
            assert file is not None
            file.finalize()
            if self.on_file:
                self.on_file(file)
            self._ended()

        cbs = {"on_start": on_start, "on_data": on_data, "on_end": on_end}
        return OctetStreamParser(callbacks=cbs, max_size=self.config["MAX_BODY_SIZE"])

    def _urlencoded(self) -> QuerystringParser:
        max_fields, max_field_size = self.config["MAX_FIELDS"], self.config["MAX_FIELD_SIZE"]
        for key, limit in (("MAX_FIELDS", max_fields), ("MAX_FIELD_SIZE", max_field_size)):
            if not isinstance(limit, (int, float)) or not limit >= 0:
                raise ValueError(f"{key} must be a non-negative number, not {limit!r}")
        name: list[bytes] = []
        count = size = 0
        field: Field | None = None

        # The limits count the bytes as they stream, so an oversized field fails before it is held whole.
        def on_field_start() -> None:
            nonlocal count, size
            count += 1
            if count > max_fields:
                raise FormParserError(f"Too many fields. Maximum number of fields is {max_fields}.")
            size = 0

        def grow(n: int) -> None:
            nonlocal size
            size += n
            if size > max_field_size:
                raise FormParserError(f"Field exceeded maximum size of {max_field_size} bytes.")

        def on_field_name(data: bytes, start: int, end: int) -> None:
            grow(end - start)
            name.append(data[start:end])

        def on_field_data(data: bytes, start: int, end: int) -> None:
            nonlocal field
            grow(end - start)
            if field is None:
                field = Field(b"".join(name))
                name.clear()
            field.write(data[start:end])

        def on_field_end() -> None:
            nonlocal field
            if field is None:
                field = Field(b"".join(name))
                name.clear()
                field.set_none()
            field.finalize()
            if self.on_field:
                self.on_field(field)
            field = None

        cbs = {
            "on_field_start": on_field_start,
            "on_field_name": on_field_name,
            "on_field_data": on_field_data,
            "on_field_end": on_field_end,
            "on_end": self._ended,
        }
        return _RawQuerystringParser(callbacks=cbs, max_size=self.config["MAX_BODY_SIZE"])

    def _multipart(self, boundary: bytes | str) -> MultipartParser:
        header_name: list[bytes] = []
        header_value: list[bytes] = []
        headers: dict[bytes, bytes] = {}
        target: File | Field | None = None
        writer: Any = None
        is_file = False

        def on_part_begin() -> None:
            nonlocal headers
            headers = {}

        def on_part_data(data: bytes, start: int, end: int) -> None:
            writer.write(data[start:end])

        def on_part_end() -> None:
            writer.finalize()
            if is_file:
                if self.on_file:
                    self.on_file(target)  # type: ignore[arg-type]
            elif self.on_field:
                self.on_field(target)  # type: ignore[arg-type]

        def on_header_field(data: bytes, start: int, end: int) -> None:
            header_name.append(data[start:end])

        def on_header_value(data: bytes, start: int, end: int) -> None:
            header_value.append(data[start:end])

        def on_header_end() -> None:
            headers[b"".join(header_name).lower()] = b"".join(header_value).strip(b" \t")
            header_name.clear()
            header_value.clear()

        def on_headers_finished() -> None:
            nonlocal is_file, target, writer
            disposition = headers.get(b"content-disposition")
            _, options = parse_options_header(disposition)
            field_name, file_name = options.get(b"name"), options.get(b"filename")
            if field_name is None:
                raise FormParserError(f'Field name not found in Content-Disposition: "{disposition!r}"')
            ct = headers.get(b"content-type")
            content_type = ct.decode("latin-1") if ct is not None else None
            if file_name is None:
                target, is_file = Field(field_name, content_type=content_type), False
            else:
                target = File(file_name, field_name, config=self.config, content_type=content_type)
                is_file = True
            cte = headers.get(b"content-transfer-encoding", b"7bit").lower()
            if cte in (b"binary", b"8bit", b"7bit"):
                writer = target
            elif cte == b"base64":
                writer = Base64Decoder(target)
            elif cte == b"quoted-printable":
                writer = QuotedPrintableDecoder(target)
            elif self.config["UPLOAD_ERROR_ON_BAD_CTE"]:
                raise FormParserError(f'Unknown Content-Transfer-Encoding "{cte!r}"')
            else:
                self.logger.warning("Unknown Content-Transfer-Encoding: %r", cte)
                writer = target

        cbs = {
            "on_part_begin": on_part_begin,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
            "on_headers_finished": on_headers_finished,
            "on_end": self._ended,
        }
        return _LowercaseNamesMultipartParser(
            boundary,
            callbacks=cbs,
            max_size=self.config["MAX_BODY_SIZE"],
            max_header_count=self.config["MAX_HEADER_COUNT"],
            max_header_size=self.config["MAX_HEADER_SIZE"],
        )

    def write(self, data: bytes) -> int:
        self.bytes_received += len(data)
        return self.parser.write(data)  # type: ignore[no-any-return]

    def finalize(self) -> None:
        if self.parser is not None and hasattr(self.parser, "finalize"):
            self.parser.finalize()

    def close(self) -> None:
        if self.parser is not None and hasattr(self.parser, "close"):
            self.parser.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(content_type={self.content_type!r}, parser={self.parser!r})"


class _RawQuerystringParser(QuerystringParser):
    """The querystring parser ``FormParser`` uses: pieces handed over as they are in the body (python-multipart's
    ``Field.value`` is the undecoded bytes)."""

    def _piece(self, kind: str, raw: bytes, final: bool) -> None:
        if raw:
            (self.callbacks.get(kind) or _noop)(raw, 0, len(raw))


def create_form_parser(
    headers: Mapping[str, Any],
    on_field: Callable[[Field], None] | None,
    on_file: Callable[[File], None] | None,
    config: Mapping[str, Any] = {},  # noqa: B006 - read only
) -> FormParser:
    """A :class:`FormParser` for a request's headers (``Content-Type`` required; its boundary parameter read with
    :func:`parse_options_header`)."""
    content_type = headers.get("Content-Type")
    if content_type is None:
        raise ValueError("No Content-Type header given!")
    ct, params = parse_options_header(content_type)
    return FormParser(ct.decode("latin-1"), on_field, on_file, boundary=params.get(b"boundary"), config=config)


def parse_form(
    headers: Mapping[str, Any],
    input_stream: Any,
    on_field: Callable[[Field], None] | None,
    on_file: Callable[[File], None] | None,
    chunk_size: int = 1048576,
) -> None:
    """Reads ``input_stream`` (up to ``Content-Length``, if given) in ``chunk_size`` chunks through a
    :func:`create_form_parser` parser."""
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive number, not {chunk_size!r}")
    parser = create_form_parser(headers, on_field, on_file)
    length: Any = headers.get("Content-Length")
    if length is not None:
        length = int(length)
        if length < 0:
            raise ValueError("Content-Length must be non-negative")
    else:
        length = float("inf")
    read = 0
    while True:
        want = int(min(length - read, chunk_size))
        buf = input_stream.read(want)
        parser.write(buf)
        read += len(buf)
        if len(buf) != want or read == length:
            break
    parser.finalize()


_FORM_DATA_PREFIX = "multipart/form-data; boundary="
#: A boundary parameter value that the MIME type parser would take as it is: printable ASCII without SP, '"', ';'.
_PLAIN_VALUE = re.compile(r"[!#-:<-~]+\Z")


def _params(text: str) -> tuple[str, list[tuple[str, str]]]:
    """python-multipart's reading of a header with parameters: ``;`` separates them except inside a quoted string
    (a ``"`` not after a backslash opens or closes one), SP and HT around a parameter and its ``=`` are trimmed, names
    are lowercased, a value quoted at both ends is unquoted (``\\\\`` and ``\\"`` only, anything else kept as
    sent, an unterminated quote included), names with ``*`` (RFC 2231) are left out, and a later parameter replaces an
    earlier one. Linear in the header's length (no backtracking: each stretch between two ``;`` is counted once)."""
    if ";" not in text:
        return text.lower().strip(" \t"), []
    segments: list[str] = []
    start, n = 0, len(text)
    while True:
        end = text.find(";", start)
        at, quotes = start, 0
        while end != -1:
            quotes += text.count('"', at, end) - text.count('\\"', at, end)
            if quotes % 2 == 0:
                break
            at, end = end, text.find(";", end + 1)
        seg = text[start : n if end == -1 else end]
        eq = seg.find("=")
        if eq != -1:
            seg = seg[:eq].rstrip(" \t").lower() + "=" + seg[eq + 1 :].lstrip(" \t")
        segments.append(seg.strip(" \t"))
        if end == -1:
            break
        start = end + 1
    params: list[tuple[str, str]] = []
    for seg in segments[1:]:
        key, _, val = seg.partition("=")
        if "*" in key:
            continue
        if len(val) >= 2 and val[0] == '"' and val[-1] == '"':
            val = val[1:-1].replace("\\\\", "\\").replace('\\"', '"')
        params.append((key, val))
    return segments[0].lower(), params


def _strip_ie_path(filename: bytes) -> bytes:
    """python-multipart's IE6 workaround: a ``filename`` that starts like a Windows path (``C:\\...`` or
    ``\\\\server\\...``) is cut to what follows its last backslash. Only here and in the adapters built on
    python-multipart's reading (Starlette): the core reports a filename as sent (MP-H-10)."""
    if filename[1:3] == b":\\" or filename[:2] == b"\\\\":
        return filename[filename.rfind(b"\\") + 1 :]
    return filename


def parse_options_header(value: str | bytes | None) -> tuple[bytes, dict[bytes, bytes]]:
    """python-multipart's ``parse_options_header``: its reading of the parameters (see ``_params``; values are the
    header's bytes), with formwire's readings where formwire has a rule.

    - A ``form-data`` Content-Disposition that MP-H-07 accepts gives ``name``/``filename`` exactly as formwire's
      parser reads them (MP-H-07..10: names UTF-8 with U+FFFD, re-encoded as UTF-8); one that MP-H-07 rejects
      (formwire's parser would reject the part) is read as python-multipart reads it.
    - A ``filename`` in any header loses a Windows directory prefix, as python-multipart's does (``_strip_ie_path``).
    - Any other value: the ``boundary`` is MP-B-02's, from the WHATWG MIME type parser (MIME Sniffing §4.4, over the
      isomorphic decoding of the header; the first one, UTF-8 encoded, and none where that parser drops it, MP-B-01),
      and so is the type when that parser accepts the value; the other parameters are python-multipart's."""
    if not value:
        return b"", {}
    if type(value) is str and value.startswith(_FORM_DATA_PREFIX) and _PLAIN_VALUE.match(value, 30):
        # The request Content-Type as browsers and HTTP clients send it: what the parse gives, without the parse.
        return b"multipart/form-data", {b"boundary": value[30:].encode("ascii")}
    raw = value.encode("latin-1") if isinstance(value, str) else bytes(value)
    ctype, params = _params(raw.decode("latin-1"))
    out = {k.encode("latin-1"): v.encode("latin-1") for k, v in params}
    d = parse_disposition(raw) if ctype == "form-data" else None
    if d is not None:
        out[b"name"] = d[0].decode("utf-8", "replace").encode("utf-8")
        if d[1] is None:
            out.pop(b"filename", None)
        else:
            # the prefix test on the bytes as sent, as python-multipart makes it on their Latin-1 reading
            out[b"filename"] = _strip_ie_path(d[1]).decode("utf-8", "replace").encode("utf-8")
        return b"form-data", out
    if b"filename" in out:
        out[b"filename"] = _strip_ie_path(out[b"filename"])
    if ctype == "form-data":
        return b"form-data", out
    out.pop(b"boundary", None)
    m = parse_mime(raw)
    if m is None:
        return ctype.encode("latin-1"), out
    # MP-B-02: the first boundary parameter the MIME parser keeps, as UTF-8 (header byte E9 is é, C3 A9).
    boundary = next((v for k, v in m[2] if k == "boundary"), None)
    if boundary is not None:
        out[b"boundary"] = boundary.encode("utf-8")
    return f"{m[0]}/{m[1]}".encode("latin-1"), out
