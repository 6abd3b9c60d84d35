"""``application/x-www-form-urlencoded``, exactly as WHATWG URL §5 says (spec/urlencoded.md).

>>> from formwire import urlencoded
>>> urlencoded.parse("a=1&b=%C3%A9+x&&c&=d")
[('a', '1'), ('b', 'é x'), ('c', ''), ('', 'd')]
>>> urlencoded.serialize([("a b", "é&=*")])
'a+b=%C3%A9%26%3D*'

Parsing never fails on content; the only errors are the limits ``max_pairs`` (default 10000) and ``max_bytes``
(default 10 MiB), raised as :class:`formwire.UrlencodedError` with ``.code`` and ``.offset``. ``None`` turns a limit off.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Union

from formwire._formwire import UrlencodedParser as _NativeParser
from formwire._formwire import urlencoded_parse as _parse
from formwire._formwire import urlencoded_parse_dict as _parse_dict
from formwire._formwire import urlencoded_serialize as _serialize

__all__ = ["parse", "parse_dict", "serialize", "Parser"]

BytesLike = Union[bytes, bytearray, memoryview]


def parse(
    data: str | BytesLike, *, max_pairs: int | None = 10000, max_bytes: int | None = 10485760
) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a whole body, in order, duplicates kept (UE-P-01..10).

    A ``str`` is UTF-8 encoded first (UE-P-01). Large read-only inputs are parsed with the GIL released.
    """
    return _parse(data, max_pairs=max_pairs, max_bytes=max_bytes)


def parse_dict(
    data: str | BytesLike, *, max_pairs: int | None = 10000, max_bytes: int | None = 10485760
) -> dict[str, str]:
    """As :func:`parse`, into a dict (the last value of a repeated name wins), built without the pair list."""
    return _parse_dict(data, max_pairs=max_pairs, max_bytes=max_bytes)


def serialize(pairs: Mapping[str, str] | Iterable[tuple[str, str]]) -> str:
    """``name=value`` pairs joined by ``&`` (UE-S-01..06); lone surrogates become U+FFFD."""
    if isinstance(pairs, Mapping):
        pairs = pairs.items()
    return _serialize(pairs)


class Parser(_NativeParser):
    """The streaming parser: ``feed(chunk)`` returns the pairs completed so far, ``close()`` the last one.

    Chunking never changes the result (UE-P-11): ``%``, ``%X`` and UTF-8 sequences may be split anywhere.
    """
