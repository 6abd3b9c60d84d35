"""``parse_form``: a whole form body, materialized: text fields as ``str``, files spooled to temporary files.

>>> import formwire
>>> body = b'--b\\r\\nContent-Disposition: form-data; name="a"\\r\\n\\r\\n1\\r\\n--b--\\r\\n'
>>> form = formwire.parse_form(body, "multipart/form-data; boundary=b")
>>> form["a"]
'1'

Text fields are collected by the native parser and handed over as ``(name, str)`` pairs (MP-F-01: UTF-8 with
U+FFFD, BOM kept); file parts are written to a :class:`tempfile.SpooledTemporaryFile` that stays in memory up to
``spool_max_size`` bytes. ``max_disk_bytes`` (MP-L-06, default 10 GiB, ``None`` for unlimited) bounds the bytes of
all files that went to disk together (a file that rolls over counts from its first byte): beyond it the parse fails with
``MP_LIMIT_DISK_BYTES`` (HTTP 413). ``application/x-www-form-urlencoded`` bodies are parsed too (fields only).
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterable, Awaitable, Callable, Iterator, Mapping
from typing import IO, Any, Union

from formwire._formwire import PART_END, Part, parse_mime
from formwire._registry import FORM_DEFAULTS
from formwire.errors import MultipartError
from formwire.multipart import Parser, Source, aiter_chunks, boundary_from_content_type, iter_chunks
from formwire.urlencoded import Parser as UrlencodedParser

__all__ = ["parse_form", "aparse_form", "FormData", "UploadedFile"]

SPOOL_MAX_SIZE = 1 << 20
MAX_DISK_BYTES = FORM_DEFAULTS["multipart"]["max_disk_bytes"]


class UploadedFile:
    """A file part: its headers and its bytes in ``file`` (rewound to 0 once the part is complete)."""

    __slots__ = ("name", "filename", "content_type", "type", "headers", "size", "file")

    def __init__(self, part: Part, file: IO[bytes]) -> None:
        #: The form field name (a file part always has one: only a field can lack it, MP-H-06, and
        #: parse_form never sees such a part, which the native parser skips with buffer_fields, MP-F-05).
        self.name: str = part.name or ""
        #: The ``filename`` parameter as sent (never path-stripped: treat it as untrusted).
        self.filename: str = part.filename or ""
        #: The part's Content-Type header as sent, or ``None``.
        self.content_type: str | None = part.content_type
        #: The File type a browser's ``formData()`` would give (MP-F-03): ``text/plain`` without a Content-Type.
        self.type: str = part.type or ""
        #: Every part header, ``(lowercased name, value)``.
        self.headers: list[tuple[str, str]] = part.headers
        #: Bytes received.
        self.size: int = 0
        #: The bytes (a SpooledTemporaryFile).
        self.file: IO[bytes] = file

    def read(self, size: int = -1) -> bytes:
        return self.file.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.file.seek(offset, whence)

    def close(self) -> None:
        self.file.close()

    def _on_disk(self) -> bool:
        # A SpooledTemporaryFile over spool_max_size has rolled over to a real file: its reads touch the disk.
        return bool(getattr(self.file, "_rolled", True))

    async def aread(self, size: int = -1) -> bytes:
        """``read`` for async code: in a worker thread when the bytes are on disk, so the event loop never waits."""
        if self._on_disk():
            import asyncio

            return await asyncio.to_thread(self.file.read, size)
        return self.file.read(size)

    async def aseek(self, offset: int, whence: int = 0) -> int:
        return self.file.seek(offset, whence)

    async def aclose(self) -> None:
        """``close`` for async code: removing a temporary file happens in a worker thread."""
        if self._on_disk():
            import asyncio

            await asyncio.to_thread(self.file.close)
        else:
            self.file.close()

    def __repr__(self) -> str:
        return f"UploadedFile(name={self.name!r}, filename={self.filename!r}, type={self.type!r}, size={self.size})"


Value = Union[str, UploadedFile]


class FormData(Mapping[str, Value]):
    """The entries of a form in body order (duplicates kept, MP-F-04), with dict-style access by name.

    ``form[name]`` and ``form.get(name)`` give the first value of ``name``; ``form.getlist(name)`` all of them.
    ``fields`` and ``files`` split the entries by kind. Close it (or use ``with``) to delete spooled files.
    """

    __slots__ = ("_items", "_index")

    def __init__(self, items: list[tuple[str, Value]] | None = None) -> None:
        self._items: list[tuple[str, Value]] = [] if items is None else items
        self._index: dict[str, list[Value]] | None = None

    def _idx(self) -> dict[str, list[Value]]:
        if self._index is None:
            idx: dict[str, list[Value]] = {}
            for k, v in self._items:
                if k in idx:
                    idx[k].append(v)
                else:
                    idx[k] = [v]
            self._index = idx
        return self._index

    def __getitem__(self, name: str) -> Value:
        return self._idx()[name][0]

    def __iter__(self) -> Iterator[str]:
        return iter(self._idx())

    def __len__(self) -> int:
        return len(self._idx())

    def __contains__(self, name: object) -> bool:
        return name in self._idx()

    def getlist(self, name: str) -> list[Value]:
        return list(self._idx().get(name, ()))

    def multi_items(self) -> list[tuple[str, Value]]:
        """Every entry, in body order."""
        return list(self._items)

    @property
    def fields(self) -> list[tuple[str, str]]:
        return [(k, v) for k, v in self._items if isinstance(v, str)]

    @property
    def files(self) -> list[tuple[str, UploadedFile]]:
        return [(k, v) for k, v in self._items if isinstance(v, UploadedFile)]

    def close(self) -> None:
        for _, v in self._items:
            if isinstance(v, UploadedFile):
                v.close()

    def __enter__(self) -> FormData:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def aclose(self) -> None:
        """Closes every file (temporary files on disk are removed in a worker thread)."""
        for _, v in self._items:
            if isinstance(v, UploadedFile):
                await v.aclose()

    async def __aenter__(self) -> FormData:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"FormData({self._items!r})"


def _kind(content_type: str | bytes) -> str:
    m = parse_mime(content_type)
    if m is None:
        return ""
    return f"{m[0]}/{m[1]}"


class _Collector:
    """Turns parser events into entries (shared by the sync and async paths)."""

    __slots__ = ("items", "cur", "spool_max_size", "tempdir", "max_disk", "disk", "body_offset")

    def __init__(self, spool_max_size: int, tempdir: str | None, max_disk_bytes: int | None = MAX_DISK_BYTES) -> None:
        self.items: list[tuple[str, Value]] = []
        self.cur: UploadedFile | None = None
        self.spool_max_size = spool_max_size
        self.tempdir = tempdir
        if max_disk_bytes is not None and max_disk_bytes < 0:
            raise ValueError("max_disk_bytes must be >= 0 (None is unlimited)")
        self.max_disk = max_disk_bytes
        self.disk = 0  # MP-L-06: bytes of the finished files that went to disk
        self.body_offset = 0  # the current file's first body byte

    def take(self, events: list[Any]) -> None:
        items = self.items
        for ev in events:
            t = type(ev)
            if t is tuple:
                items.append(ev)
            elif t is memoryview or t is bytes:
                cur = self.cur
                assert cur is not None
                size = cur.size + len(ev)
                # MP-L-06: past spool_max_size the file is on disk, from its first byte
                if size > self.spool_max_size and self.max_disk is not None and self.disk + size > self.max_disk:
                    raise MultipartError(
                        "temporary files longer than max_disk_bytes",
                        "MP_LIMIT_DISK_BYTES",
                        self.body_offset + self.max_disk - self.disk,
                    )
                cur.file.write(ev)
                cur.size = size
            elif t is Part:
                f = tempfile.SpooledTemporaryFile(max_size=self.spool_max_size, dir=self.tempdir)
                self.cur = UploadedFile(ev, f)
                self.body_offset = ev.body_offset
                items.append((ev.name, self.cur))
            elif ev is PART_END:
                if self.cur is not None:
                    self.cur.file.seek(0)
                    if self.cur.size > self.spool_max_size:
                        self.disk += self.cur.size
                self.cur = None

    def touches_disk(self, events: list[Any]) -> bool:
        """Whether taking ``events`` writes to a file that is (or rolls over to) a file on disk; computed without
        I/O, so that the async path sends only those batches to a worker thread."""
        cur = self.cur
        size = -1 if cur is None else (self.spool_max_size + 1 if cur._on_disk() else cur.size)
        for ev in events:
            t = type(ev)
            if t is Part:
                size = 0
            elif t is memoryview or t is bytes:
                size += len(ev)
                if size > self.spool_max_size:
                    return True
        return False

    def fail(self) -> None:
        for _, v in self.items:
            if isinstance(v, UploadedFile):
                v.close()


def parse_form(
    body: Source,
    content_type: str | bytes,
    *,
    spool_max_size: int = SPOOL_MAX_SIZE,
    max_disk_bytes: int | None = MAX_DISK_BYTES,
    tempdir: str | None = None,
    chunk_size: int = 1 << 16,
    **options: Any,
) -> FormData:
    """Parses a whole ``multipart/form-data`` or ``application/x-www-form-urlencoded`` body.

    ``body``: bytes, a binary file, or an iterable of chunks. ``options``: the parser's lenient flags and limits
    (multipart: ``max_files``, ``max_fields``, ...) or ``max_pairs``/``max_bytes`` (urlencoded). ``max_disk_bytes``:
    the most bytes all spooled files that rolled over to disk may hold (MP-L-06, ``MP_LIMIT_DISK_BYTES``). Raises :class:`formwire.MultipartError` /
    :class:`formwire.UrlencodedError`; no temporary file outlives an error.
    """
    kind = _kind(content_type)
    if kind == "application/x-www-form-urlencoded":
        up = UrlencodedParser(**options)
        items: list[tuple[str, Value]] = []
        for chunk in iter_chunks(body, chunk_size):
            items.extend(up.feed(chunk))
        items.extend(up.close())
        return FormData(items)
    parser = Parser(boundary_from_content_type(content_type), buffer_fields=True, **options)
    c = _Collector(spool_max_size, tempdir, max_disk_bytes)
    try:
        for chunk in iter_chunks(body, chunk_size):
            c.take(parser.feed(chunk))
        c.take(parser.close())
    except BaseException:
        c.fail()
        raise
    return FormData(c.items)


async def aparse_form(
    body: AsyncIterable[bytes] | Callable[[], Awaitable[Mapping[str, Any]]],
    content_type: str | bytes,
    *,
    spool_max_size: int = SPOOL_MAX_SIZE,
    max_disk_bytes: int | None = MAX_DISK_BYTES,
    tempdir: str | None = None,
    **options: Any,
) -> FormData:
    """As :func:`parse_form`, over an async iterable of chunks (``request.stream()``) or an ASGI ``receive``.

    Writes to spooled files that have rolled over to disk run in a worker thread (``asyncio.to_thread``), so the
    event loop never waits on the disk. Use ``async with await aparse_form(...) as form:`` and
    ``await upload.aread()``."""
    kind = _kind(content_type)
    if kind == "application/x-www-form-urlencoded":
        up = UrlencodedParser(**options)
        items: list[tuple[str, Value]] = []
        async for chunk in aiter_chunks(body):
            items.extend(up.feed(chunk))
        items.extend(up.close())
        return FormData(items)
    parser = Parser(boundary_from_content_type(content_type), buffer_fields=True, **options)
    c = _Collector(spool_max_size, tempdir, max_disk_bytes)
    import asyncio

    async def take(events: list[Any]) -> None:
        # Spooled files past spool_max_size live on disk: those writes go to a worker thread (the events borrow the
        # parser's buffer, which stays valid until the next feed, after this await).
        if c.touches_disk(events):
            await asyncio.to_thread(c.take, events)
        else:
            c.take(events)

    try:
        async for chunk in aiter_chunks(body):
            await take(parser.feed(chunk))
        await take(parser.close())
    except BaseException:
        c.fail()
        raise
    return FormData(c.items)
