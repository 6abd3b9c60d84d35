"""Werkzeug and Flask: parse ``multipart/form-data`` request bodies with formwire, in one line.

.. code-block:: python

    import formwire.compat.werkzeug
    formwire.compat.werkzeug.install()   # Flask apps too: request.form / request.files

``request.form`` and ``request.files`` keep their types (``MultiDict``, ``FileStorage``), the app's stream factory,
and Werkzeug's limits: ``max_form_parts`` (Flask ``MAX_FORM_PARTS``) is formwire's ``max_parts`` and
``max_form_memory_size`` (Flask ``MAX_FORM_MEMORY_SIZE``) its ``max_field_bytes``; exceeding either is a 413 as
before, and so is every other formwire limit (``MP_LIMIT_*``: a boundary over ``max_boundary_bytes``, 10 MiB of text
fields in all, ...), so a limit is never an empty form; the response body names the code (``MP_LIMIT_PARTS at byte
N: ...``). With ``install()`` malformed bodies are a ``ValueError`` (formwire's
``MultipartError``), which Werkzeug's form parser turns into an empty form unless ``silent=False``, as it does with
its own errors. The core's lenient options for what Werkzeug reads are on by default here: ``allow_preamble``
(Werkzeug's own test client sends a CRLF before the first delimiter), ``allow_lf``, ``allow_obs_fold``,
``allow_quoted_pairs`` (MP-H-07: Werkzeug reads ``\\x`` in a quoted parameter as ``x``, so ``filename="a\\\\b"`` is
``a\\b`` here too), ``allow_any_disposition_type`` (``Content-Disposition: form-field``),
``allow_junk_after_close``, ``allow_utf8_header_names``, ``allow_cr`` (bare-CR line ends),
``allow_near_delimiters`` (``--boundary-x`` inside a body is data), ``allow_8bit_parameter_names`` and
``allow_rfc2231_continuations`` (``filename*0*=`` joined). Text fields are UTF-8 with U+FFFD (MP-F-01) whatever
charset a part claims. ``uninstall()`` restores Werkzeug's parser. The ``FormDataParser`` class (wiring without patching) answers
a malformed body with 400 and its code (``MP_TRUNCATED at byte N: ...``) instead of an empty form.
"""

from __future__ import annotations

from typing import IO, Any

from formwire._formwire import PART_END, Part
from formwire.errors import MultipartError
from formwire.multipart import Parser

__all__ = ["install", "uninstall", "installed"]  # and FormDataParser, MultiPartParser (made on first use)

#: Werkzeug's own ``MultiPartParser.parse`` while :func:`install` has replaced it (the patch is process-wide, as
#: Werkzeug's class is); ``None`` when not installed.
_saved: Any = None


def _parse(self: Any, stream: IO[bytes], boundary: bytes, content_length: int | None) -> tuple[Any, Any]:
    return _parse_with(self, stream, boundary, content_length, {})


_parse._formwire = True  # type: ignore[attr-defined]


def _parse_with(
    self: Any, stream: IO[bytes], boundary: bytes, content_length: int | None, options: dict[str, Any]
) -> tuple[Any, Any]:
    from werkzeug.datastructures import FileStorage, Headers
    from werkzeug.exceptions import RequestEntityTooLarge

    # What Werkzeug accepts (spec/multipart.md §8, probed by python/compat/probe.py), through the core's named
    # lenient options: its own test client writes a CRLF before the first delimiter (an RFC 2046 preamble, MP-P-02);
    # it reads bare-LF line ends (MP-P-03, MP-H-02), folded header lines (MP-H-04), quoted-pairs in parameters and any
    # disposition type (MP-H-07: its tests send form-field), UTF-8 header names (MP-H-01: it decodes header lines as
    # UTF-8), and it stops at "--" B "--" whatever follows (MP-P-05). It also ends lines at a bare CR (MP-P-03,
    # MP-H-02), reads "--" B "-" x inside a body as data (MP-P-04), skips a parameter with a UTF-8 name (MP-H-07)
    # and joins RFC 2231 filename continuations (MP-H-09: its tests send filename*0*=). Not
    # allow_missing_disposition: Werkzeug rejects a part without Content-Disposition ("Missing Content-Disposition
    # header"), as the core does.
    opts: dict[str, Any] = {
        "max_parts": self.max_form_parts,
        # Werkzeug bounds parts only (max_form_parts); no separate file/field counts (MP-L-05 off).
        "max_files": None,
        "max_fields": None,
        "max_field_bytes": self.max_form_memory_size,
        "allow_preamble": True,
        "allow_lf": True,
        "allow_obs_fold": True,
        "allow_quoted_pairs": True,
        "allow_any_disposition_type": True,
        "allow_junk_after_close": True,
        "allow_utf8_header_names": True,
        "allow_cr": True,
        "allow_near_delimiters": True,
        "allow_8bit_parameter_names": True,
        "allow_rfc2231_continuations": True,
    }
    opts.update(options)
    try:
        parser = Parser(boundary, **opts)
    except MultipartError as e:
        # MP-B-04: a boundary over max_boundary_bytes is a limit (413), never the empty form of a silent ValueError.
        if e.http_status == 413:
            raise RequestEntityTooLarge(_describe(e)) from e
        raise
    fields: list[tuple[str, str]] = []
    files: list[tuple[str, Any]] = []
    part: Part | None = None
    container: Any = None
    buf: list[Any] = []
    read = stream.read
    size = self.buffer_size

    def take(events: list[Any]) -> None:
        nonlocal part, container, buf
        for ev in events:
            t = type(ev)
            if t is memoryview or t is bytes:
                if container is None:
                    buf.append(ev)
                else:
                    container.write(ev)
            elif t is Part:
                part = ev
                if ev.is_file:
                    container = self.stream_factory(
                        total_content_length=content_length,
                        filename=ev.filename,
                        content_type=ev.content_type,
                        content_length=0,
                    )
                else:
                    container = None
                    buf = []
            elif ev is PART_END:
                assert part is not None
                if part.name is None:
                    # a part without a name (only with allow_missing_disposition passed in, MP-H-06): parsed and
                    # counted, then skipped, as every name->value form layer does (MP-F-05)
                    buf = []
                elif container is None:
                    fields.append((part.name, b"".join(buf).decode("utf-8", "replace")))
                else:
                    container.seek(0)
                    files.append(
                        (part.name, FileStorage(container, part.filename, part.name, headers=Headers(part.headers)))
                    )
                    container = None

    try:
        while True:
            data = read(size)
            if not data:
                break
            take(parser.feed(data))
        take(parser.close())
    except MultipartError as e:
        for _, f in files:
            f.close()
        if container is not None:
            container.close()
        if e.http_status == 413:
            raise RequestEntityTooLarge(_describe(e)) from e
        raise
    return self.cls(fields), self.cls(files)


def _describe(e: MultipartError) -> str:
    """The error's code and offset for the response body (the code is the stable part, spec/errors.md)."""
    return f"{e.code} at byte {e.offset}: {e}"


def install(**options: Any) -> None:
    """Makes ``werkzeug.formparser.MultiPartParser`` (and so Flask's ``request.form``/``request.files``) use
    formwire. ``options``: formwire multipart options for every request (e.g. ``allow_preamble=True``)."""
    global _saved
    from werkzeug import formparser

    Parser(b"x", **options)  # unknown or invalid options fail here, not at the first request
    if _saved is None:
        _saved = formparser.MultiPartParser.parse
    if options:
        opts = dict(options)

        def parse(self: Any, stream: IO[bytes], boundary: bytes, content_length: int | None) -> tuple[Any, Any]:
            return _parse_with(self, stream, boundary, content_length, opts)

        parse._formwire = True  # type: ignore[attr-defined]
    else:
        parse = _parse
    formparser.MultiPartParser.parse = parse  # type: ignore[method-assign,assignment]


def uninstall() -> None:
    """Restores Werkzeug's own multipart parser."""
    global _saved
    if _saved is None:
        return
    from werkzeug import formparser

    formparser.MultiPartParser.parse = _saved  # type: ignore[method-assign]
    _saved = None


def installed() -> bool:
    from werkzeug import formparser

    return getattr(formparser.MultiPartParser.parse, "_formwire", False) is True


# Wiring without patching Werkzeug: a FormDataParser whose multipart parser is formwire's, for a Request subclass.


def _classes() -> tuple[Any, Any]:
    from werkzeug import formparser

    class MultiPartParser(formparser.MultiPartParser):
        """Werkzeug's ``MultiPartParser`` with formwire's ``parse`` (formwire's options for Werkzeug, see ``_parse``)."""

        parse = _parse

    class FormDataParser(formparser.FormDataParser):
        """Werkzeug's ``FormDataParser`` whose multipart bodies are parsed by formwire; set it as a request's
        ``form_data_parser_class`` (see :class:`FormDataParser` at module level)."""

        def _parse_multipart(
            self, stream: IO[bytes], mimetype: str, content_length: int | None, options: dict[str, str]
        ) -> Any:
            parser = MultiPartParser(
                stream_factory=self.stream_factory,
                max_form_memory_size=self.max_form_memory_size,
                max_form_parts=self.max_form_parts,
                cls=self.cls,
            )
            boundary = options.get("boundary", "").encode("ascii")
            if not boundary:
                raise ValueError("Missing boundary")
            try:
                form, files = parser.parse(stream, boundary, content_length)
            except MultipartError as e:
                # Explicit wiring answers a malformed body with 400 and its code, not Werkzeug's silent empty
                # form (install() keeps that, for code written against it). Limits are 413 above.
                from werkzeug.exceptions import BadRequest

                raise BadRequest(_describe(e)) from e
            return stream, form, files

    return MultiPartParser, FormDataParser


def __getattr__(name: str) -> Any:
    """``FormDataParser`` and ``MultiPartParser`` are made on first use, so importing this module does not import
    Werkzeug. Use without patching anything:

    .. code-block:: python

        import flask
        from formwire.compat.werkzeug import FormDataParser

        class Request(flask.Request):
            form_data_parser_class = FormDataParser

        app = flask.Flask(__name__)
        app.request_class = Request
    """
    if name in ("MultiPartParser", "FormDataParser"):
        mp, fdp = _classes()
        globals().update(MultiPartParser=mp, FormDataParser=fdp)
        return globals()[name]
    raise AttributeError(name)
