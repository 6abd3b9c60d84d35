"""A PROPOSAL, prototyped for measurement only (not formwire's API): Starlette's multipart parsing done natively.

``formwire.compat.starlette.install()`` swaps the module Starlette calls (python-multipart's callback parser), so
Starlette's ``MultiPartParser`` still runs about seven Python callbacks per part (``on_part_begin``,
``on_header_field/value/end`` per header, ``on_headers_finished`` with a ``parse_options_header`` call, ``on_part_data``,
``on_part_end``) and copies every field into a bytearray. This module instead replaces
``starlette.formparsers.MultiPartParser.parse`` with a loop over formwire's own events:

- text fields come whole from the Rust core (``Parser(buffer_fields=True)``: one ``(name, value)`` tuple each, no
  callback, no bytearray) when the form's charset is UTF-8 (Starlette's default);
- file parts become the same ``UploadFile(SpooledTemporaryFile(spool_max_size))`` objects Starlette makes, written
  with the same ``await file.write(...)`` (a view of the received chunk, no copy);
- Starlette's limits and messages are kept: ``max_files``, ``max_fields`` ("Too many ..."), ``max_part_size``
  (formwire's ``max_field_bytes``, reported as "Part exceeded maximum size of ...KB."), and any framing error is
  "Invalid multipart data." (a 400).

Differences from Starlette's own reading are formwire's (strict framing, MP-H rules for Content-Disposition); a text
field that is not valid UTF-8 under a UTF-8 charset is decoded with U+FFFD (MP-F-01) where Starlette falls back to
Latin-1 for the whole value. A non-UTF-8 ``charset`` takes the slower per-part path with Starlette's decoding.

``run_starlette.py --servers ...,proposal`` times it; ``/verify`` checks it reads the same forms as stock Starlette.
"""
from __future__ import annotations

import codecs
from tempfile import SpooledTemporaryFile
from typing import Any

from formwire import MultipartError
from formwire._formwire import END, PART_END, Part
from formwire.compat.python_multipart import parse_options_header
from formwire.multipart import Parser

__all__ = ["install"]


def install() -> None:
    import starlette.formparsers as fp
    from starlette.datastructures import FormData, Headers, UploadFile

    MultiPartException = fp.MultiPartException
    user_safe_decode = fp._user_safe_decode

    async def parse(self: Any) -> FormData:
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
            raise MultiPartException("Missing boundary in multipart.")
        utf8 = charset == "utf-8"
        try:
            parser = Parser(boundary, buffer_fields=utf8, max_parts=None, max_field_bytes=self.max_part_size,
                            max_file_bytes=None, max_total_bytes=None)
        except MultipartError as exc:
            raise MultiPartException("Invalid multipart data.") from exc

        items = self.items
        to_close = self._files_to_close_on_error
        max_fields, max_files = self.max_fields, self.max_files
        spool = self.spool_max_size
        fields = files = 0
        file: Any = None  # the UploadFile being written
        name = ""
        value = bytearray()  # a text field of a non-UTF-8 form

        async def take(events: list) -> None:
            nonlocal fields, files, file, name, value
            for ev in events:
                t = type(ev)
                if t is tuple:  # a whole UTF-8 text field
                    fields += 1
                    if fields > max_fields:
                        raise MultiPartException(f"Too many fields. Maximum number of fields is {max_fields}.")
                    items.append(ev)
                elif t is memoryview or t is bytes:
                    if file is not None:
                        await file.write(ev)
                    else:
                        value += ev
                elif t is Part:
                    if ev.filename is not None:
                        files += 1
                        if files > max_files:
                            raise MultiPartException(f"Too many files. Maximum number of files is {max_files}.")
                        tf = SpooledTemporaryFile(max_size=spool)
                        to_close.append(tf)
                        file = UploadFile(file=tf, size=0, filename=ev.filename,  # type: ignore[arg-type]
                                          headers=Headers(raw=list(ev.raw_headers)))
                        items.append((ev.name, file))
                    else:
                        fields += 1
                        if fields > max_fields:
                            raise MultiPartException(f"Too many fields. Maximum number of fields is {max_fields}.")
                        name = user_safe_decode(ev.name_bytes, charset)
                        value = bytearray()
                elif ev is PART_END:
                    if file is not None:
                        await file.seek(0)
                        file = None
                    else:
                        items.append((name, user_safe_decode(value, charset)))
                elif ev is END:
                    pass

        try:
            async for chunk in self.stream:
                if chunk:
                    await take(parser.feed(chunk))
            await take(parser.close())
        except BaseException as exc:
            for f in to_close:
                f.close()
            if isinstance(exc, MultipartError):
                if exc.code == "MP_LIMIT_FIELD_BYTES":
                    raise MultiPartException(
                        f"Part exceeded maximum size of {int(self.max_part_size / 1024)}KB.") from exc
                raise MultiPartException("Invalid multipart data.") from exc
            raise
        return FormData(items)

    fp.MultiPartParser.parse = parse  # type: ignore[method-assign]
