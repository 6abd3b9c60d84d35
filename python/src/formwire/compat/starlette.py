"""Starlette and FastAPI: parse request forms with formwire, without patching either.

.. code-block:: python

    import formwire.compat.starlette

    app.router.route_class = formwire.compat.starlette.APIRoute   # FastAPI: Form/File/UploadFile read by formwire
    form = await formwire.compat.starlette.form(request)           # Starlette: in place of await request.form()
    req = formwire.compat.starlette.Request(request.scope, request.receive)   # a Request whose form() is formwire's

Each keeps ``request.form()``'s API, its limits (``max_files``, ``max_fields``, ``max_part_size``) with their
messages, and its ``UploadFile`` objects, and answers a malformed body with 400 and a limit with 413, formwire's code
in the detail. All three run the native path below, on Starlette's ``MultiPartParser`` subclassed, not patched.

``install()`` is the explicit, process-wide opt-in for code that calls ``request.form()`` on Starlette's own
``Request`` (code you do not control, Starlette's own tests): it patches Starlette's parser. What it changes:

- **The native path** (the default): ``starlette.formparsers.MultiPartParser.parse`` becomes a loop over formwire's own
  events. Text fields come whole from the Rust core (one ``(name, value)`` per field, no per-part callbacks, no
  bytearray); file parts become the same ``UploadFile(SpooledTemporaryFile(spool_max_size))`` objects Starlette makes,
  filled as Starlette fills them: in memory up to ``spool_max_size``, the write that crosses it through the thread
  pool (the file rolls over to disk there), and later data through the thread pool too, but in batches of about
  1 MiB of received chunks per trip instead of one trip per chunk (views of the received chunks: no copy).
- **The callback path**: ``starlette.formparsers`` sees :mod:`formwire.compat.python_multipart` as its ``multipart``
  module, so Starlette's own ``MultiPartParser`` callbacks (and its ``FormParser`` for urlencoded bodies) run over
  formwire. This stays installed under the native path (for urlencoded forms, and for subclasses of
  ``MultiPartParser`` that override a callback); ``install(native=False)`` uses only it.

Both read the bytes with formwire's rules: strict framing (a truncated body or junk after the close delimiter is a
400 "Invalid multipart data." instead of a partial form), the MP-H rules for Content-Disposition (backslash
escapes only where the literal reading fails, a second ``name`` is an error; ``name*``/``filename*`` ignored and a
Windows directory prefix stripped from a filename (``C:\\dir\\a.txt`` is ``a.txt``) as by python-multipart),
header values trimmed of whitespace (MP-H-11), and formwire's header limits (``max_headers`` 8, ``max_header_bytes``
8192 per part) on top of Starlette's. Everything else the native path does as Starlette's own ``parse`` does (checked
against starlette 1.10, and tested against it): names and filenames decoded with the form's charset and Starlette's
Latin-1 fallback, header names lowercased, each limit's message raised at the same point of the stream, Starlette's
message for a part without a name, files closed on any error, ``ClientDisconnect`` passed through. (The callback path
reads names as UTF-8 with U+FFFD and answers a nameless part with "Invalid multipart data.".)

The native path replaces a method of a Starlette class, so it relies on Starlette internals: ``install()`` checks
them (the instance attributes ``parse`` uses and the texts of Starlette's messages) and falls back to the callback
path when they do not match; :func:`native` says which path is in force. ``uninstall()`` restores what Starlette had.
Neither needs python-multipart to be installed; FastAPI's own start-up check for python-multipart still does (it
only imports it).
"""

from __future__ import annotations

import codecs
import types
from typing import Any, Callable

from formwire._formwire import PART_END, Part
from formwire.compat import python_multipart as _shim
from formwire.errors import MultipartError, ParseError
from formwire.multipart import Parser

__all__ = ["install", "uninstall", "installed", "native", "form"]  # and Request, APIRoute (made on first use)

_saved: dict[str, Any] | None = None

#: After a file has rolled over to disk, its data is written once this many bytes of received chunks are pending
#: (and at the end of the part): one thread-pool trip per batch, not per chunk.
WRITE_BATCH_BYTES = 1 << 20

#: Options the native path sets itself (``max_part_size`` is Starlette's ``max_field_bytes``).
_NATIVE_OWNED = frozenset({"buffer_fields", "field_errors", "max_field_bytes"})

# The callbacks Starlette's own ``parse`` drives: a subclass that overrides one of them keeps Starlette's ``parse``.
_CALLBACKS = (
    "on_part_begin",
    "on_part_data",
    "on_part_end",
    "on_header_field",
    "on_header_value",
    "on_header_end",
    "on_headers_finished",
    "on_end",
)


class _ZeroCopyMultipartParser(_shim.MultipartParser):
    _WRITTEN_NAMES = False  # Starlette lowercases the header names itself

    def __init__(
        self, boundary: bytes | str, callbacks: Any = None, max_size: float = float("inf"), **options: Any
    ) -> None:
        super().__init__(boundary, callbacks, max_size, zero_copy=True, **options)


#: What ``starlette.formparsers`` sees as its ``multipart`` module once installed.
module = types.SimpleNamespace(
    MultipartParser=_ZeroCopyMultipartParser,
    QuerystringParser=_shim.QuerystringParser,
    parse_options_header=_shim.parse_options_header,
    FormParserError=_shim.FormParserError,
)


def install(*, native: bool = True, **options: Any) -> None:
    """Makes Starlette's form parsing (and so FastAPI's ``Form``/``File``/``UploadFile``) use formwire.

    ``native``: replace ``MultiPartParser.parse`` by formwire's event loop (the fast path) when this Starlette's
    internals are the ones it was written against; ``False`` keeps Starlette's ``parse`` over formwire's callback
    shim. ``options``: formwire multipart options applied to every request (e.g. ``max_header_bytes=4096``,
    ``allow_preamble=True``, ``max_total_bytes=50 << 20``); ``max_field_bytes`` is Starlette's ``max_part_size``.
    Calling it again replaces the previous configuration."""
    global _saved
    import starlette.formparsers as fp
    import starlette.requests as rq

    owned = _NATIVE_OWNED.intersection(options)
    if owned:
        raise ValueError(
            f"install(): {', '.join(sorted(owned))} cannot be set (Starlette's max_part_size is "
            "request.form(max_part_size=...))"
        )
    Parser(b"x", **options)  # unknown or invalid options fail here, not at the first request
    if native:
        _native_options(options)  # and an extension module out of step with this file, before anything changes
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
            "MultiPartParser.parse": fp.MultiPartParser.__dict__["parse"],
        }
    fp.multipart = mod
    fp.parse_options_header = _shim.parse_options_header
    fp.FormParserError = _shim.FormParserError  # type: ignore[misc]
    rq.parse_options_header = _shim.parse_options_header
    if native and _native_supported(fp):
        fp.MultiPartParser.parse = _native_parse(fp, _saved["MultiPartParser.parse"], options)  # type: ignore[method-assign]
    else:
        fp.MultiPartParser.parse = _saved["MultiPartParser.parse"]  # type: ignore[method-assign]


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
    fp.MultiPartParser.parse = _saved["MultiPartParser.parse"]  # type: ignore[method-assign]
    _saved = None


def installed() -> bool:
    """``True`` while formwire is Starlette's form parser (either path)."""
    import starlette.formparsers as fp

    return (
        _saved is not None
        and getattr(fp.multipart, "MultipartParser", None) is not None
        and issubclass(fp.multipart.MultipartParser, _shim.MultipartParser)
    )


def native() -> bool:
    """``True`` while ``MultiPartParser.parse`` is formwire's native loop."""
    import starlette.formparsers as fp

    return getattr(fp.MultiPartParser.__dict__.get("parse"), "_formwire_native", False) is True


# ---------------------------------------------------------------------------------------------------------------
# the native path


def _consts(fn: Any) -> set[Any]:
    """The constants of a function's code, nested code objects (f-string pieces) included."""
    out: set[Any] = set()
    code = getattr(fn, "__code__", None)
    todo = [code] if code is not None else []
    while todo:
        c = todo.pop()
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                todo.append(k)
            else:
                out.add(k)
    return out


def _native_supported(fp: Any) -> bool:
    """Whether this Starlette's ``MultiPartParser`` is the one the native path reproduces: the attributes it reads and
    the messages it raises (compared with the constants of Starlette's own code)."""
    cls = getattr(fp, "MultiPartParser", None)
    if cls is None or not all(
        hasattr(fp, n)
        for n in (
            "MultiPartException",
            "_user_safe_decode",
            "FormData",
            "Headers",
            "UploadFile",
            "SpooledTemporaryFile",
        )
    ):
        return False
    if not isinstance(getattr(cls, "spool_max_size", None), int) or not isinstance(
        getattr(cls, "max_part_size", None), int
    ):
        return False
    init = _consts(cls.__init__) | set(getattr(getattr(cls.__init__, "__code__", None), "co_names", ()))
    if (
        not {"items", "_files_to_close_on_error", "max_files", "max_fields", "max_part_size", "headers", "stream"}
        <= init
    ):
        return False
    want = {
        "on_part_data": {"Part exceeded maximum size of ", "KB."},
        "on_headers_finished": {
            "Too many files. Maximum number of files is ",
            "Too many fields. Maximum number of fields is ",
            'The Content-Disposition header field "name" must be provided.',
        },
        "parse": {"Missing boundary in multipart.", "Invalid multipart data.", "Content-Type", "utf-8", "latin-1"},
    }
    for name, texts in want.items():
        fn = cls.__dict__.get(name)
        if name == "parse" and _saved is not None:
            fn = _saved["MultiPartParser.parse"]
        if fn is None or not texts <= _consts(fn):
            return False
    return True


class _FileWriter:
    """Fills one ``UploadFile`` as ``UploadFile.write`` would (same sizes, same in-memory/disk decisions, the
    rolling write through the thread pool), except that data for a file already on disk is queued and written
    ``WRITE_BATCH_BYTES`` at a time: one thread-pool trip per batch. The queued items are views of received chunks
    (immutable ``bytes``), so queueing copies nothing."""

    __slots__ = ("upload", "file", "max_mem", "pending", "pending_bytes")

    def __init__(self, upload: Any) -> None:
        self.upload = upload
        self.file = upload.file
        self.max_mem = getattr(self.file, "_max_size", 0)
        self.pending: list[Any] = []
        self.pending_bytes = 0

    def rolled(self) -> bool:
        return bool(getattr(self.file, "_rolled", True))  # Starlette's UploadFile._in_memory, negated

    async def write(self, data: Any, run: Callable[..., Any]) -> None:
        n = len(data)
        self.upload.size += n
        if self.pending:
            self.pending.append(data)
            self.pending_bytes += n
            if self.pending_bytes >= WRITE_BATCH_BYTES:
                await self.flush(run)
        elif self.rolled():
            self.pending.append(data)
            self.pending_bytes = n
            if n >= WRITE_BATCH_BYTES:
                await self.flush(run)
        elif self.max_mem and self.file.tell() + n > self.max_mem:
            await run(self.file.write, data)  # this write rolls the file over to disk (UploadFile._will_roll)
        else:
            self.file.write(data)

    async def flush(self, run: Callable[..., Any]) -> None:
        pending, self.pending, self.pending_bytes = self.pending, [], 0
        await run(self.file.writelines, pending)

    async def finish(self, run: Callable[..., Any]) -> None:
        """The part is complete: the queued data, then ``seek(0)`` (one thread-pool trip on disk, none in memory)."""
        if self.pending:
            pending, self.pending, self.pending_bytes = self.pending, [], 0
            await run(_write_all_and_rewind, self.file, pending)
        elif self.rolled():
            await run(self.file.seek, 0)
        else:
            self.file.seek(0)


def _write_all_and_rewind(f: Any, pending: list[Any]) -> None:
    f.writelines(pending)
    f.seek(0)


def _disposition_lacks_name(recent: list[tuple[int, Any]], offset: int) -> bool:
    """Whether the ``Content-Disposition`` header line at input ``offset`` (in the ``recent`` chunks, ``(start
    offset, chunk)``) has no ``name`` parameter as Starlette reads it (python-multipart's ``parse_options_header``:
    ``;``-separated outside quotes, keys as written, ``*`` keys ignored)."""
    if not recent or offset < recent[0][0]:
        return False
    data = b"".join(bytes(c) for _, c in recent)
    at = offset - recent[0][0]
    end = data.find(b"\r\n", at)
    if end < 0:
        return False
    _, _, value = data[at:end].partition(b":")
    segments, quoted, start = [], False, 0
    for i, c in enumerate(value):
        if c == 0x22:  # '"'
            quoted = not quoted
        elif c == 0x3B and not quoted:  # ';'
            segments.append(value[start:i])
            start = i + 1
    segments.append(value[start:])
    return not any(s.partition(b"=")[0].strip() == b"name" for s in segments[1:])


def _too_many(exc: Callable[[str], Exception], what: str, limit: object) -> Exception:
    return exc(f"Too many {what}. Maximum number of {what} is {limit}.")


def _native_options(options: dict[str, Any]) -> dict[str, Any]:
    """The core parser options of the native path, tried once: an extension module that does not take them (built
    from older sources than this file) fails here, loudly, instead of at each request, where FastAPI would turn the
    ``TypeError`` into its generic 400 "There was an error parsing the body" for every form."""
    # Starlette counts files and fields itself (max_files/max_fields, its own messages): the core's counts are off.
    opts = {
        "max_parts": None,
        "max_files": None,
        "max_fields": None,
        "max_file_bytes": None,
        "max_total_bytes": None,
        # What Starlette accepts (its parse over python-multipart's MultipartParser; spec/multipart.md §8, probed by
        # python/compat/probe.py): any disposition type, as it reads only the parameters (MP-H-07), any byte
        # after "--" B "--" (MP-P-05), "--" B "-" x and "--" B CR x inside a body as data (MP-P-03, MP-P-04), and
        # a parameter whose name holds a byte such as A0 skipped (MP-H-07). A part without Content-Disposition
        # stays an error (Starlette's own message, below), and the leading CR/LF python-multipart skips is skipped
        # in parse.
        "allow_any_disposition_type": True,
        "allow_junk_after_close": True,
        "allow_near_delimiters": True,
        "allow_8bit_parameter_names": True,
        **options,
    }
    try:
        Parser(b"x", **opts, buffer_fields=True, field_errors="bytes", max_field_bytes=1 << 20)
    except TypeError as exc:
        raise RuntimeError(
            f"formwire.compat.starlette: the formwire extension module does not take the native path's options "
            f"({exc}); it is older than formwire's Python sources: rebuild or reinstall formwire"
        ) from exc
    return opts


def _native_parse(fp: Any, original: Any, options: dict[str, Any]) -> Any:
    from starlette import concurrency

    MultiPartException = fp.MultiPartException
    user_safe_decode = fp._user_safe_decode
    parse_options_header = _shim.parse_options_header

    base_cls = fp.MultiPartParser
    own = {name: base_cls.__dict__.get(name) for name in _CALLBACKS}
    opts = _native_options(options)

    async def parse(self: Any) -> Any:
        cls = type(self)
        if cls is not base_cls and any(getattr(cls, n, None) is not f for n, f in own.items()):
            return await original(self)  # a subclass with its own callbacks: Starlette's parse runs them
        # The boundary and charset, as Starlette's parse reads them.
        _, params = parse_options_header(self.headers["Content-Type"])
        charset = params.get(b"charset", "utf-8")
        if isinstance(charset, bytes):
            charset = charset.decode("latin-1")
        try:
            charset = codecs.lookup(charset).name
        except LookupError:
            charset = "latin-1"
        try:
            boundary = params[b"boundary"]
        except KeyError:
            raise MultiPartException("Missing boundary in multipart.") from None
        utf8 = charset == "utf-8"

        items = self.items
        to_close = self._files_to_close_on_error
        max_fields, max_files, max_part_size = self.max_fields, self.max_files, self.max_part_size
        spool = self.spool_max_size
        UploadFile, Headers, SpooledTemporaryFile = fp.UploadFile, fp.Headers, fp.SpooledTemporaryFile
        run_in_threadpool = concurrency.run_in_threadpool
        fields = files = 0
        writer: _FileWriter | None = None  # the file part being read
        name: str | None = ""  # the text field being read (non-UTF-8 charsets only; None: a nameless part)
        value = bytearray()
        parser: Any = None
        # The chunks that may still hold the current part's header lines (an MP_DISPOSITION error points at one):
        # the last `keep` bytes before the chunk being parsed, and that chunk. References, not copies.
        recent: list[tuple[int, Any]] = []
        limit = opts.get("max_header_bytes", 8192)
        keep = 65536 if limit is None else limit + 2
        pos = 0
        # python-multipart's start (Starlette's parser): a body that begins with CR or LF is skipped up to its first
        # "-" (None: not decided yet); with allow_preamble the core skips any preamble itself.
        skipping: bool | None = False if opts.get("allow_preamble") else None
        try:
            try:
                # Whole UTF-8 text fields come as one (str, str) each; one that is not valid UTF-8 comes raw
                # (field_errors="bytes") and gets Starlette's decoding below (_user_safe_decode: Latin-1).
                parser = Parser(
                    boundary, **opts, buffer_fields=utf8, field_errors="bytes", max_field_bytes=max_part_size
                )
                chunks = self.stream.__aiter__()
                more = True
                while more:
                    try:
                        chunk = await chunks.__anext__()
                    except StopAsyncIteration:
                        more = False
                        events = parser.close()
                    else:
                        if not chunk:
                            continue
                        if skipping is not False:
                            if skipping is None:
                                skipping = chunk[0] in (13, 10)
                            if skipping:
                                at = chunk.find(b"-")
                                if at < 0:
                                    continue
                                skipping = False
                                chunk = chunk[at:]
                        while recent and recent[0][0] + len(recent[0][1]) < pos - keep:
                            del recent[0]
                        recent.append((pos, chunk))
                        pos += len(chunk)
                        events = parser.feed(chunk)
                    for ev in events:
                        t = type(ev)
                        if t is tuple:  # a whole text field
                            fields += 1
                            if fields > max_fields:
                                raise _too_many(MultiPartException, "fields", max_fields)
                            if type(ev[0]) is bytes:  # not valid UTF-8: Starlette's fallback per string
                                ev = (user_safe_decode(ev[0], charset), user_safe_decode(ev[1], charset))
                            items.append(ev)
                        elif t is memoryview or t is bytes:
                            if writer is not None:
                                await writer.write(ev, run_in_threadpool)
                            else:
                                value += ev
                        elif t is Part:
                            if ev.is_file:
                                files += 1
                                if files > max_files:
                                    raise _too_many(MultiPartException, "files", max_files)
                                tf = SpooledTemporaryFile(max_size=spool)
                                to_close.append(tf)
                                upload = UploadFile(
                                    file=tf,
                                    size=0,
                                    headers=Headers(raw=ev.raw_headers),
                                    # Starlette reads filenames through python-multipart's
                                    # parse_options_header, which strips a Windows directory prefix
                                    filename=user_safe_decode(_shim._strip_ie_path(ev.filename_bytes), charset),
                                )
                                writer = _FileWriter(upload)
                                items.append((user_safe_decode(ev.name_bytes, charset), upload))
                            else:
                                fields += 1
                                if fields > max_fields:
                                    raise _too_many(MultiPartException, "fields", max_fields)
                                # a part without a name (only with allow_missing_disposition passed in,
                                # MP-H-06) is counted, read and skipped (MP-F-05), as buffer_fields does
                                name = None if ev.name_bytes is None else user_safe_decode(ev.name_bytes, charset)
                                value = bytearray()
                        elif ev is PART_END:
                            if writer is not None:
                                await writer.finish(run_in_threadpool)
                                writer = None
                            elif name is not None:
                                items.append((name, user_safe_decode(value, charset)))
            except MultipartError as exc:
                # Starlette raises its own limits as it meets them in the stream: one that comes before the error
                # (in the failing chunk's events, or the text field the error is in) is the answer.
                events = [ev for ev in exc.events if type(ev) is tuple or type(ev) is Part]
                for ev in events:
                    if type(ev) is Part and ev.is_file:
                        files += 1
                        if files > max_files:
                            raise _too_many(MultiPartException, "files", max_files) from exc
                    else:
                        fields += 1
                        if fields > max_fields:
                            raise _too_many(MultiPartException, "fields", max_fields) from exc
                if parser is not None and parser.in_field and fields + 1 > max_fields:
                    raise _too_many(MultiPartException, "fields", max_fields) from exc
                if exc.code == "MP_LIMIT_FIELD_BYTES":
                    raise MultiPartException(f"Part exceeded maximum size of {int(max_part_size / 1024)}KB.") from exc
                if exc.code == "MP_LIMIT_TOTAL_FIELD_BYTES":
                    # MP-L-04: the text fields Starlette holds in memory, all together (formwire's own limit)
                    total = opts.get("max_total_field_bytes", 10 << 20)
                    raise MultiPartException(f"Fields exceeded maximum total size of {int(total / 1024)}KB.") from exc
                if exc.code == "MP_NO_DISPOSITION" or (
                    exc.code == "MP_DISPOSITION" and _disposition_lacks_name(recent, exc.offset)
                ):
                    # Starlette's answer to a part without a name (formwire's MP-H-08 rejects it too)
                    raise MultiPartException('The Content-Disposition header field "name" must be provided.') from exc
                raise MultiPartException("Invalid multipart data.") from exc
        except BaseException:
            # Close all the files if parsing or reading the request stream fails (as Starlette does).
            for f in to_close:
                f.close()
            raise
        return fp.FormData(items)

    parse._formwire_native = True  # type: ignore[attr-defined]
    parse.__qualname__ = "MultiPartParser.parse"
    parse.__doc__ = "Starlette's MultiPartParser.parse over formwire's events (formwire.compat.starlette)."
    return parse


# Wiring without patching Starlette: ``await form(request)`` in place of ``await request.form()``.

_form_parsers: dict[tuple[Any, ...], Any] = {}


def _multipart_parser_class(options: dict[str, Any]) -> Any:
    import starlette.formparsers as fp

    key = tuple(sorted(options.items()))
    cls = _form_parsers.get(key)
    if cls is None:
        base = fp.MultiPartParser
        # Starlette's own parse, also while install() has put the native path in its place.
        original = base.__dict__["parse"] if _saved is None else _saved["MultiPartParser.parse"]
        parse = _native_parse(fp, original, options) if _native_supported(fp) else None
        if parse is None:
            raise RuntimeError("formwire.compat.starlette.form(): this Starlette's MultiPartParser is not supported")
        cls = type("FormwireMultiPartParser", (base,), {"parse": parse})
        _form_parsers[key] = cls
    return cls


async def form(
    request: Any,
    *,
    max_files: int | float = 1000,
    max_fields: int | float = 1000,
    max_part_size: int = 1024 * 1024,
    **options: Any,
) -> Any:
    """``await form(request)``: the request's form as Starlette's ``FormData``, parsed by formwire, without patching
    Starlette (``install()`` not needed). Limits and messages as ``request.form()``; ``options`` are formwire
    multipart options. Errors in the body are an ``HTTPException(400)`` inside an app, as with ``request.form()``.
    The caller closes the form (``await f.close()``), as Starlette's ``request.form()`` context does. A FastAPI dependency: ``async def dep(request: Request): return await form(request)``."""
    from starlette.datastructures import FormData
    from starlette.exceptions import HTTPException
    from starlette.formparsers import MultiPartException

    from formwire._formwire import urlencoded_parse

    owned = _NATIVE_OWNED.intersection(options)
    if owned:
        raise ValueError(f"form(): {', '.join(sorted(owned))} cannot be set (use max_part_size)")
    content_type, _ = _shim.parse_options_header(request.headers.get("Content-Type"))
    try:
        if content_type == b"multipart/form-data":
            parser = _multipart_parser_class(options)(
                request.headers,
                request.stream(),
                max_files=max_files,
                max_fields=max_fields,
                max_part_size=max_part_size,
            )
            return await parser.parse()
        if content_type == b"application/x-www-form-urlencoded":
            # UE-P: the WHATWG urlencoded parser of formwire's core; Starlette's field count limit and message.
            pairs = urlencoded_parse(await request.body(), max_pairs=None)
            if len(pairs) > max_fields:
                raise MultiPartException(f"Too many fields. Maximum number of fields is {max_fields}.")
            return FormData(pairs)  # type: ignore[arg-type]
        return FormData()
    except MultiPartException as exc:
        if "app" in request.scope:
            # Limits are 413 and malformed bodies 400 (spec/registry.json http_status), with formwire's code in
            # the detail; Starlette's own counts (max_files, max_fields, max_part_size) are limits too.
            limit = exc.message.startswith(("Too many", "Part exceeded", "Fields exceeded"))
            cause = exc.__cause__ if isinstance(exc.__cause__, ParseError) else None
            if cause is not None and not limit and cause.http_status == 413:
                limit = True
            status = 413 if limit else 400
            detail = exc.message
            if cause is not None and (cause.http_status == 413) == limit:
                detail += f" ({cause.code} at byte {cause.offset})"
            elif cause is None and exc.message.startswith(("Too many files", "Too many fields")):
                # Starlette's counts are the registry's max_files / max_fields (MP-L-05): their code, too.
                detail += " (MP_LIMIT_FILES)" if exc.message.startswith("Too many files") else " (MP_LIMIT_FIELDS)"
            raise HTTPException(status_code=status, detail=detail) from None
        raise


# Wiring without patching, for code that calls ``request.form()`` itself (FastAPI's Form/File/UploadFile do): a
# Request class whose form() is formwire's, and a FastAPI route class that hands it to the endpoint.


class _FormCall:
    """What ``Request.form()`` returns, as Starlette's does: awaitable, or an async context manager that closes the
    form's files on exit."""

    __slots__ = ("_coro", "_form")

    def __init__(self, coro: Any) -> None:
        self._coro = coro
        self._form: Any = None

    def __await__(self) -> Any:
        return self._coro.__await__()

    async def __aenter__(self) -> Any:
        self._form = await self._coro
        return self._form

    async def __aexit__(self, *exc: object) -> None:
        await self._form.close()


def _request_class() -> Any:
    import starlette.requests

    class Request(starlette.requests.Request):
        """Starlette's ``Request`` whose ``form()`` is :func:`form` (formwire's parse, Starlette's ``FormData``,
        limits and messages; formwire's limits answer 413 with their code). Nothing is patched: only requests made
        with this class (``Request(request.scope, request.receive)``, or FastAPI's :class:`APIRoute`) use it.
        ``formwire_options``: formwire multipart options for every request of a subclass."""

        formwire_options: dict[str, Any] = {}

        def form(  # type: ignore[override]
            self,
            *,
            max_files: int | float = 1000,
            max_fields: int | float = 1000,
            max_part_size: int = 1024 * 1024,
        ) -> Any:
            return _FormCall(self._formwire_form(max_files, max_fields, max_part_size))

        async def _formwire_form(self, max_files: int | float, max_fields: int | float, max_part_size: int) -> Any:
            if self._form is None:  # one parse per request, as Starlette's request.form() (close() closes it)
                self._form = await form(
                    self,
                    max_files=max_files,
                    max_fields=max_fields,
                    max_part_size=max_part_size,
                    **self.formwire_options,
                )
            return self._form

    Request.__qualname__ = Request.__name__
    return Request


def _api_route_class(request_cls: Any) -> Any:
    from fastapi.routing import APIRoute as FastAPIRoute

    class APIRoute(FastAPIRoute):
        """FastAPI's ``APIRoute`` whose endpoints get a :class:`Request` (FastAPI's documented custom route class):
        ``Form()``, ``File()`` and ``UploadFile`` parameters are read by formwire, nothing is patched.
        ``app.router.route_class = APIRoute`` before adding routes, or ``APIRouter(route_class=APIRoute)``."""

        request_class = request_cls

        def get_route_handler(self) -> Callable[..., Any]:
            handler = super().get_route_handler()
            cls = self.request_class

            async def route_handler(request: Any) -> Any:
                if not isinstance(request, cls):
                    request = cls(request.scope, request.receive)
                return await handler(request)

            return route_handler

    APIRoute.__qualname__ = APIRoute.__name__
    return APIRoute


def __getattr__(name: str) -> Any:
    """``Request`` and ``APIRoute`` are made on first use, so importing this module imports neither Starlette nor
    FastAPI:

    .. code-block:: python

        from fastapi import FastAPI
        import formwire.compat.starlette

        app = FastAPI()
        app.router.route_class = formwire.compat.starlette.APIRoute  # before the routes
    """
    if name == "Request":
        globals()["Request"] = _request_class()
        return globals()["Request"]
    if name == "APIRoute":
        globals()["APIRoute"] = _api_route_class(globals().get("Request") or __getattr__("Request"))
        return globals()["APIRoute"]
    raise AttributeError(name)
