"""``multipart/form-data``: a streaming push parser and a WHATWG-exact encoder (spec/multipart.md).

The parser is sans-IO: :meth:`Parser.feed` takes a chunk (any bytes-like object) and returns its events, in order:

- a :class:`Part` when a part's header block is complete (``name``, ``filename``, ``content_type``, ``headers``, ...);
- a ``memoryview`` of body bytes: a slice of the very object you fed (``ev.obj is chunk``), never a copy;
- ``bytes`` for body bytes that were held back at the end of the previous chunk because they might have begun a
  delimiter (never longer than the delimiter ``CRLF--boundary``);
- :data:`PART_END` when the part's body is complete, :data:`END` after the close delimiter;
- with ``buffer_fields=True``, a ``(name, value)`` tuple for each whole text field (a part without ``filename``),
  its value UTF-8 decoded (MP-F-01), in place of that field's Part/data/PART_END events (``in_field`` is true while
  such a field's body is being read). A field whose name or value is not valid UTF-8 gets U+FFFD for the invalid
  sequences, or with ``field_errors="bytes"`` comes as ``(name, value)`` of raw ``bytes``, for a caller with its own
  fallback decoding (a framework's charset rules). A part without a name (``allow_missing_disposition``, MP-H-06)
  gives no event at all then (MP-F-05: it is skipped, after it was counted against every limit); without
  ``buffer_fields`` it is a :class:`Part` whose ``name`` and ``name_bytes`` are ``None``.

:meth:`Parser.close` ends the input (``MP_TRUNCATED`` unless the form was complete). Errors are
:class:`formwire.MultipartError` with ``.code`` and ``.offset``; after one, the parser keeps raising it (the events of
the failing chunk are not returned: the result of a failing parse is the error; they are on the error as
``.events``, for callers whose own checks come first in stream order).

A ``memoryview`` event keeps its chunk alive and exported: copy it (``bytes(ev)``) or drop it before resizing a
``bytearray`` you reuse for reading. Chunks of ``GIL_RELEASE_BYTES`` (256 KiB) or more are scanned with the GIL
released when they are read-only (``bytes``), so other threads run meanwhile.

Options are the spec's names: the lenient flags ``allow_preamble``, ``allow_lf``, ``allow_obs_fold``,
``allow_quoted_pairs``, ``allow_missing_disposition``, ``allow_any_disposition_type``, ``allow_junk_after_close``,
``allow_utf8_header_names``, ``allow_cr``, ``allow_near_delimiters``, ``allow_8bit_parameter_names``,
``allow_rfc2231_continuations`` (all off: the strict WPT profile) and the limits ``max_boundary_bytes``, ``max_parts``,
``max_files``, ``max_fields``, ``max_headers``, ``max_header_bytes``, ``max_field_bytes``, ``max_total_field_bytes``,
``max_file_bytes``, ``max_total_bytes`` (defaults of spec/limits.md; ``None`` = unlimited).
"""

from __future__ import annotations

import io
import mimetypes
import os
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from typing import Any, BinaryIO, Union

from formwire._formwire import END, GIL_RELEASE_BYTES, PART_END, Marker, Part
from formwire._formwire import MultipartParser as _NativeParser
from formwire._formwire import boundary_from_content_type
from formwire._formwire import encode_frames as _encode_frames

__all__ = [
    "Parser",
    "Part",
    "Marker",
    "PART_END",
    "END",
    "GIL_RELEASE_BYTES",
    "Event",
    "boundary_from_content_type",
    "iter_chunks",
    "aiter_chunks",
    "asgi_chunks",
    "encode",
    "AsyncEncoded",
    "Encoded",
    "File",
    "Blob",
]

BytesLike = Union[bytes, bytearray, memoryview]
#: One parser event (see the module docstring).
Event = Union[Part, memoryview, bytes, Marker, "tuple[str, str]", "tuple[bytes, bytes]"]
#: What the iterating helpers read from: bytes, a binary file, or an iterable of chunks.
Source = Union[BytesLike, BinaryIO, Iterable[BytesLike]]

CHUNK_SIZE = 1 << 16


def iter_chunks(source: Source, chunk_size: int = CHUNK_SIZE) -> Iterator[BytesLike]:
    """The chunks of ``source``: a bytes-like object (one chunk), a binary file (``read(chunk_size)`` until EOF),
    or an iterable of bytes-like chunks (as they come)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield source
        return
    read = getattr(source, "read", None)
    if read is not None:
        while True:
            chunk = read(chunk_size)
            if not chunk:
                return
            yield chunk
        return
    for chunk in source:  # type: ignore[union-attr]
        yield chunk


async def asgi_chunks(receive: Callable[[], Awaitable[Mapping[str, Any]]]) -> AsyncIterator[bytes]:
    """The request body of an ASGI app, from its ``receive`` callable (``http.request`` messages)."""
    while True:
        message = await receive()
        kind = message.get("type")
        if kind == "http.request":
            body = message.get("body", b"")
            if body:
                yield body
            if not message.get("more_body", False):
                return
        elif kind == "http.disconnect":
            raise ConnectionError("client disconnected before the body was complete")


async def aiter_chunks(
    source: AsyncIterable[BytesLike] | Callable[[], Awaitable[Mapping[str, Any]]],
) -> AsyncIterator[BytesLike]:
    """The chunks of an async iterable (``request.stream()``) or of an ASGI ``receive`` callable."""
    if callable(source) and not hasattr(source, "__aiter__"):
        async for body in asgi_chunks(source):
            yield body
        return
    async for chunk in source:  # type: ignore[union-attr]
        yield chunk


class Parser(_NativeParser):
    """The streaming ``multipart/form-data`` parser (see the module docstring for events and options)."""

    @classmethod
    def from_content_type(cls, content_type: str | bytes, **options: Any) -> Parser:
        """A parser for the boundary of a request Content-Type (MP-B-01..04). ``bytes`` are isomorphic-decoded."""
        return cls(boundary_from_content_type(content_type), **options)

    def events(self, source: Source, chunk_size: int = CHUNK_SIZE) -> Iterator[Event]:
        """Feeds all of ``source`` (see :func:`iter_chunks`), then closes; yields every event.

        A ``memoryview`` event stays valid as long as you keep it (it holds its chunk), but when ``source`` is a file
        read into fresh ``bytes`` each time, that chunk is not shared with anything else."""
        for chunk in iter_chunks(source, chunk_size):
            yield from self.feed(chunk)
        yield from self.close()

    async def aevents(
        self, source: AsyncIterable[BytesLike] | Callable[[], Awaitable[Mapping[str, Any]]]
    ) -> AsyncIterator[Event]:
        """As :meth:`events` over an async iterable of chunks or an ASGI ``receive`` callable."""
        async for chunk in aiter_chunks(source):
            for ev in self.feed(chunk):
                yield ev
        for ev in self.close():
            yield ev


# ---------------------------------------------------------------------------------------------------------------
# Encoder

FieldValue = Union[str, int, float, bool, bytes, "File", "list[Any]"]
FileContent = Union[str, BytesLike, BinaryIO]
FileSpec = Union[
    FileContent,
    "tuple[str | None, FileContent]",
    "tuple[str | None, FileContent, str | None]",
    "tuple[str | None, FileContent, str | None, Mapping[str, str] | None]",
]


def _field_str(v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).decode("utf-8", "replace")
    raise TypeError(f"a form field value must be str, int, float, bool or bytes, not {type(v).__name__}")


def _items(x: Any) -> Iterable[tuple[Any, Any]]:
    if x is None:
        return ()
    if isinstance(x, Mapping):
        return x.items()
    return x


def _size(body: Any) -> int | None:
    """The bytes left in ``body``, when knowable without reading it."""
    if isinstance(body, (bytes, bytearray)):
        return len(body)
    if isinstance(body, memoryview):
        return body.nbytes
    try:
        fd = body.fileno()
        st = os.fstat(fd)
        if st.st_mode & 0o170000 == 0o100000:  # a regular file
            return max(st.st_size - body.tell(), 0)
    except (AttributeError, OSError, io.UnsupportedOperation, ValueError):
        pass
    try:
        if body.seekable():
            pos = body.tell()
            end = body.seek(0, os.SEEK_END)
            body.seek(pos)
            return max(end - pos, 0)
    except (AttributeError, OSError, io.UnsupportedOperation, ValueError):
        pass
    return None


class Encoded:
    """An encoded ``multipart/form-data`` body: send ``headers`` (or ``content_type`` and ``content_length``) and
    iterate for the bytes (frames, then each file body as it is: ``bytes`` bodies are yielded without a copy, files
    are read in ``chunk_size`` pieces). ``to_bytes()`` builds one contiguous body.

    ``len(enc)`` is ``content_length`` when it is known (otherwise the object has no length), so clients send it
    as a known-length body, not chunked. requests: ``requests.post(url, data=enc, headers=enc.headers)``
    (``data=iter(enc)`` hides the length: requests then adds ``Transfer-Encoding: chunked`` beside the
    ``Content-Length`` of ``headers``, which servers such as uvicorn refuse with 400). httpx:
    ``httpx.post(url, content=enc, headers=enc.headers)``; ``httpx.AsyncClient``:
    ``await client.post(url, content=enc.aiter(), headers=enc.headers)`` (httpx takes any iterable as a sync
    body, so an async client needs the async-only view; file bodies are read in a worker thread).
    """

    __slots__ = ("boundary", "content_type", "content_length", "_pieces", "_starts", "chunk_size")

    def __init__(self, boundary: str, content_type: str, pieces: list[Any], chunk_size: int = CHUNK_SIZE) -> None:
        self.boundary = boundary
        self.content_type = content_type
        self._pieces = pieces
        self.chunk_size = chunk_size
        total: int | None = 0
        starts: list[int | None] = []
        for i, p in enumerate(pieces):
            if i % 2 == 0:
                n: int | None = len(p)
                starts.append(None)
            else:
                n = _size(p)
                starts.append(_tell(p))
            total = None if total is None or n is None else total + n
        self._starts = starts
        #: The exact body length when every body's size is known (MP-S-08), else ``None``.
        self.content_length = total
        if total is not None and type(self) is Encoded:
            # Only a known length is a length: `len()` of an unknown-length body raises, and clients then stream
            # it chunked. The subclass adds `__len__` (same slots, so the switch is layout-compatible).
            self.__class__ = _SizedEncoded

    @property
    def headers(self) -> dict[str, str]:
        """``Content-Type`` and, when known, ``Content-Length``."""
        h = {"Content-Type": self.content_type}
        if self.content_length is not None:
            h["Content-Length"] = str(self.content_length)
        return h

    def __iter__(self) -> Iterator[bytes]:
        for i, p in enumerate(self._pieces):
            if i % 2 == 0 or isinstance(p, bytes):
                if p:
                    yield p
            elif isinstance(p, (bytearray, memoryview)):
                if len(p):
                    yield bytes(p)
            else:
                yield from self._read(i, p)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        # File bodies are read in a worker thread so that a disk read never blocks the event loop.
        import asyncio

        it = iter(self)
        done = object()
        while True:
            chunk = await asyncio.to_thread(next, it, done)
            if chunk is done:
                return
            yield chunk  # type: ignore[misc]

    def aiter(self) -> AsyncEncoded:
        """An async-only view of this body (``content=`` of ``httpx.AsyncClient``, aiohttp's ``data=``)."""
        return AsyncEncoded(self)

    def _read(self, i: int, f: Any) -> Iterator[bytes]:
        start = self._starts[i]
        if start is not None:
            f.seek(start)
        want = _size(f) if start is not None else None
        got = 0
        while True:
            chunk = f.read(self.chunk_size)
            if not chunk:
                break
            if isinstance(chunk, str):
                raise TypeError("file bodies must be opened in binary mode")
            got += len(chunk)
            yield chunk
        if want is not None and got != want:
            raise OSError(f"a file body changed size while it was sent ({got} bytes, {want} announced)")

    def to_bytes(self) -> bytes:
        """The whole body as one ``bytes`` (one allocation when every body is in memory)."""
        if all(i % 2 == 0 or isinstance(p, (bytes, bytearray, memoryview)) for i, p in enumerate(self._pieces)):
            return b"".join(self._pieces)
        return b"".join(self)

    def __bytes__(self) -> bytes:
        return self.to_bytes()

    def __repr__(self) -> str:
        return f"Encoded(content_type={self.content_type!r}, content_length={self.content_length!r})"


class _SizedEncoded(Encoded):
    """An :class:`Encoded` whose length is known: ``len()`` is ``content_length``."""

    __slots__ = ()

    def __len__(self) -> int:
        return self.content_length  # type: ignore[return-value]


class AsyncEncoded:
    """The async-only view of an :class:`Encoded` body (``Encoded.aiter()``): ``async for`` gives its bytes, with
    file bodies read in a worker thread; ``headers``, ``content_type`` and ``content_length`` are the body's."""

    __slots__ = ("encoded",)

    def __init__(self, encoded: Encoded) -> None:
        self.encoded = encoded

    @property
    def headers(self) -> dict[str, str]:
        return self.encoded.headers

    @property
    def content_type(self) -> str:
        return self.encoded.content_type

    @property
    def content_length(self) -> int | None:
        return self.encoded.content_length

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.encoded.__aiter__()

    def __repr__(self) -> str:
        return f"AsyncEncoded({self.encoded!r})"


def _tell(f: Any) -> int | None:
    if isinstance(f, (bytes, bytearray, memoryview)):
        return None
    try:
        if f.seekable():
            return int(f.tell())
    except (AttributeError, OSError, io.UnsupportedOperation, ValueError):
        pass
    return None


class File:
    """A File entry for :func:`encode`: ``content`` (bytes-like, ``str`` as UTF-8, or a binary file), the
    ``filename`` sent as is (escaped per MP-S-03), and its ``type`` (``""`` sends ``application/octet-stream``,
    MP-S-06). Passing one as a field value keeps the entry's place among the fields."""

    __slots__ = ("content", "filename", "type")

    def __init__(self, content: FileContent, filename: str, type: str = "") -> None:
        self.content = content.encode("utf-8") if isinstance(content, str) else content
        self.filename = filename
        self.type = type

    def __repr__(self) -> str:
        return f"File(filename={self.filename!r}, type={self.type!r})"


def Blob(content: FileContent, type: str = "") -> File:
    """A Blob entry (not a File): sent with ``filename="blob"`` (MP-S-05)."""
    return File(content, "blob", type)


def _file_entry(name: str, spec: Any) -> tuple[str, Any]:
    """The ``(name, File | str)`` entry of one httpx/requests-style file spec."""
    filename: str | None
    content_type: str | None = None
    if isinstance(spec, File):
        return name, spec
    if isinstance(spec, tuple):
        if not 2 <= len(spec) <= 4:
            raise TypeError("a file tuple is (filename, content[, content_type[, headers]])")
        filename, content = spec[0], spec[1]
        if len(spec) >= 3:
            content_type = spec[2]
        if len(spec) == 4 and spec[3]:
            raise ValueError(
                "custom part headers are not supported (WHATWG parts carry only Content-Disposition and Content-Type)"
            )
    else:
        content = spec
        fn = getattr(spec, "name", None)
        filename = os.path.basename(fn) if isinstance(fn, str) and fn else "upload"
    if filename is None:
        # httpx and requests: a file tuple without a filename is a plain field.
        if hasattr(content, "read"):
            content = content.read()
        return name, _field_str(content)
    if content_type is None:
        content_type = mimetypes.guess_type(filename)[0] or ""
    return name, File(content, filename, content_type)


def encode(
    fields: Mapping[str, FieldValue] | Iterable[tuple[str, FieldValue]] | None = None,
    files: Mapping[str, FileSpec] | Iterable[tuple[str, FileSpec]] | None = None,
    *,
    boundary: str | None = None,
    chunk_size: int = CHUNK_SIZE,
) -> Encoded:
    """Encodes a form as browsers do (WHATWG HTML multipart/form-data encoding, UTF-8; MP-S-01..10).

    ``fields``: entries in order: text values (``str``; ints, floats and bools as httpx writes them, a list for a
    repeated name) or :class:`File` / :func:`Blob` values. ``files`` (httpx/requests style, after the fields): per
    name, a bytes-like object, a binary file, or ``(filename, content[, content_type])``; ``content_type`` defaults to
    a guess from the filename, else ``application/octet-stream``. The boundary is generated from the OS CSPRNG unless
    given (1-70 ``bchars``, else ``MP_ENCODE_BOUNDARY``). Lone surrogates become U+FFFD (MP-S-07).
    """
    if type(fields) is list and files is None:
        # Fast path: (name, str | File) pairs go to the native encoder as they are.
        try:
            b, ct, frames, bodies = _encode_frames(fields, boundary)
        except TypeError:
            pass
        else:
            return Encoded(b, ct, _interleave(frames, bodies), chunk_size)
    entries: list[Any] = []
    for name, value in _items(fields):
        values = value if isinstance(value, list) else (value,)
        for v in values:
            entries.append((name, v if isinstance(v, File) else _field_str(v)))
    for name, spec in _items(files):
        entries.append(_file_entry(name, spec))
    b, ct, frames, bodies = _encode_frames(entries, boundary)
    return Encoded(b, ct, _interleave(frames, bodies), chunk_size)


def _interleave(frames: list[bytes], bodies: list[Any]) -> list[Any]:
    pieces: list[Any] = [frames[0]]
    for body, frame in zip(bodies, frames[1:]):
        pieces.append(body.encode("utf-8") if isinstance(body, str) else body)
        pieces.append(frame)
    return pieces
