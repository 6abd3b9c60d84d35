"""The V8 ValueSerializer format (what ``structuredClone``, ``postMessage`` and Node's ``v8.serialize`` write).

>>> from formwire import v8
>>> data = v8.dumps({"name": "Alice", "tags": ["a", "b"], "neg_zero": -0.0, "lone": "\\ud800"})
>>> v8.loads(data) == {"name": "Alice", "tags": ["a", "b"], "neg_zero": -0.0, "lone": "\\ud800"}
True

Node reads the bytes with ``v8.deserialize(buf)`` and writes bytes :func:`loads` reads with ``v8.serialize(value)``.

Value mapping (JS → Python, and back):

=====================  ================================================================================
JS                     Python
=====================  ================================================================================
undefined, null        :data:`undefined`, ``None``
boolean                ``bool``
number                 ``int`` when integral, not -0 and within ±(2**53-1), else ``float`` (-0.0, nan, inf kept)
BigInt                 :class:`JSBigInt` (an ``int``); a Python ``int`` beyond ±(2**53-1) is written as a BigInt
string                 ``str``; lone surrogates are kept as code points U+D800..U+DFFF (``surrogatepass``)
object                 ``dict`` with ``str`` keys
Map                    :class:`JSMap` (a ``dict``); any ``dict`` with a non-``str`` key is written as a Map
array                  ``list`` (dense, no extra properties; a ``tuple`` is written as one), else :class:`JSArray`
Set                    ``set`` (a ``frozenset`` is written as one)
Date                   aware ``datetime`` in UTC (ms precision), :class:`JSDate` for an invalid or far date
RegExp                 :class:`JSRegExp`
Boolean/Number/...     :class:`JSBoxed` (wrapper objects)
ArrayBuffer            ``bytearray``
Uint8Array, Buffer     ``bytes`` (the viewed bytes)
other views            :class:`JSView` (kind name and the viewed bytes)
Error                  :class:`JSError`
=====================  ================================================================================

Shared references and cycles are kept both ways. Errors are :class:`formwire.V8Error` with ``.code``/``.offset``
(``SC_DATA_CLONE`` for a Python value with no JS counterpart).
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any, Optional

from formwire._formwire import V8Decoder as _NativeDecoder
from formwire._formwire import V8Encoder as _NativeEncoder
from formwire._formwire import v8_dumps as _dumps
from formwire._formwire import v8_loads as _loads

__all__ = [
    "dumps",
    "loads",
    "Decoder",
    "Encoder",
    "undefined",
    "Undefined",
    "JSBigInt",
    "JSMap",
    "JSArray",
    "JSDate",
    "JSRegExp",
    "JSBoxed",
    "JSView",
    "JSError",
]


def dumps(value: Any, *, max_depth: int | None = 1000) -> bytes:
    """Serializes ``value`` (version 15, the canonical encoding of spec/structured-clone.md).

    Any nesting is converted without recursion; containers deeper than ``max_depth`` (``None``: no limit) are a
    ``V8Error`` ``SC_LIMIT_DEPTH``."""
    return _dumps(value, max_depth=max_depth)


def loads(
    data: bytes | bytearray | memoryview,
    *,
    max_depth: int | None = 1000,
    max_bytes: int | None = 268435456,
    max_values: int | None = 10000000,
    max_bigint_bytes: int | None = 1048576,
    node_ipc: bool = False,
) -> Any:
    """Deserializes V8 ValueSerializer bytes (versions 13-15, raw or Node ``v8.serialize`` dialect).

    Limits (spec/limits.md; ``None`` means none): ``max_depth`` nesting, ``max_bytes`` input length, ``max_values``
    values read (each becomes a Python object), ``max_bigint_bytes`` digit bytes of one BigInt. Exceeding one is a
    ``V8Error`` with its ``SC_LIMIT_*`` code. ``node_ipc=True`` reads the child_process ``serialization: 'advanced'``
    framing. Input of 256 KiB or more in a read-only buffer (``bytes``) is decoded with the GIL released."""
    return _loads(
        data,
        max_depth=max_depth,
        max_bytes=max_bytes,
        max_values=max_values,
        max_bigint_bytes=max_bigint_bytes,
        node_ipc=node_ipc,
    )


class Decoder(_NativeDecoder):
    """:func:`loads` for a loop: the limits are given once (the same keywords, defaults and ``None``), and the
    decoder's working memory is kept between calls, so decoding many small messages allocates little beyond the
    Python objects made.

    >>> dec = Decoder(max_values=10_000)
    >>> [dec.loads(dumps({"n": i})) for i in range(3)]
    [{'n': 0}, {'n': 1}, {'n': 2}]

    Each call is independent (only memory is reused; what grew past 1 MiB for a large input is freed). One decoder
    may be shared by threads: a call that finds it busy (another thread decoding with the GIL released) decodes
    with memory of its own."""


class Encoder(_NativeEncoder):
    """:func:`dumps` for a loop: ``max_depth`` is given once, and the output buffer is kept between calls (up to
    8 MiB), so each call allocates only the ``bytes`` it returns.

    >>> enc = Encoder()
    >>> loads(enc.dumps([1, "a"]))
    [1, 'a']

    Shareable by threads as :class:`Decoder` is."""


class Undefined:
    """The type of :data:`undefined` (falsy, a singleton)."""

    _instance: Optional[Undefined] = None

    def __new__(cls) -> Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "undefined"

    def __reduce__(self) -> str:
        return "undefined"


#: JavaScript ``undefined``.
undefined = Undefined()


class JSBigInt(int):
    """A JS BigInt (an ``int`` that is always written as a BigInt)."""

    def __repr__(self) -> str:
        return f"JSBigInt({int(self)})"


class JSMap(dict):  # type: ignore[type-arg]
    """A JS Map (insertion-ordered ``dict``; keys must be hashable in Python)."""

    def __repr__(self) -> str:
        return f"JSMap({dict.__repr__(self)})"


class JSArray:
    """A JS array with holes or extra properties: ``length``, ``items`` (index → value), ``props`` (name → value)."""

    __slots__ = ("length", "items", "props")

    def __init__(
        self, length: int, items: Optional[dict[int, Any]] = None, props: Optional[dict[str, Any]] = None
    ) -> None:
        self.length = length
        self.items = {} if items is None else items
        self.props = {} if props is None else props

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSArray) and (self.length, self.items, self.props) == (
            other.length,
            other.items,
            other.props,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"JSArray(length={self.length}, items={self.items!r}, props={self.props!r})"


class JSDate:
    """A JS Date that has no ``datetime`` (an invalid date, NaN, or beyond years 1..9999): its time value in ms."""

    __slots__ = ("ms",)

    def __init__(self, ms: float) -> None:
        self.ms = float(ms)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSDate) and (self.ms == other.ms or (math.isnan(self.ms) and math.isnan(other.ms)))

    def __hash__(self) -> int:
        return hash(("JSDate", self.ms))

    def __repr__(self) -> str:
        return f"JSDate({self.ms!r})"


class JSRegExp:
    """A JS RegExp: ``source`` and ``flags`` (letters ``dgimsuvy``)."""

    __slots__ = ("source", "flags")

    def __init__(self, source: str, flags: str = "") -> None:
        self.source = source
        self.flags = flags

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSRegExp) and (self.source, self.flags) == (other.source, other.flags)

    def __hash__(self) -> int:
        return hash(("JSRegExp", self.source, self.flags))

    def __repr__(self) -> str:
        return f"JSRegExp({self.source!r}, {self.flags!r})"


class JSBoxed:
    """A JS wrapper object (``new Boolean``, ``new Number``, ``new String``, ``Object(1n)``) around ``value``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSBoxed) and type(self.value) is type(other.value) and _same(self.value, other.value)

    def __hash__(self) -> int:
        return hash(("JSBoxed", self.value))

    def __repr__(self) -> str:
        return f"JSBoxed({self.value!r})"


class JSView:
    """A typed array or DataView other than ``Uint8Array``: ``kind`` (constructor name) and the viewed ``data``."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: bytes) -> None:
        self.kind = kind
        self.data = bytes(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JSView) and (self.kind, self.data) == (other.kind, other.data)

    def __hash__(self) -> int:
        return hash(("JSView", self.kind, self.data))

    def __repr__(self) -> str:
        return f"JSView({self.kind!r}, {self.data!r})"


class JSError(Exception):
    """A JS Error: ``name`` (``Error``, ``TypeError``, ...), ``message``, ``stack``, and ``cause`` when it has one."""

    def __init__(
        self, name: str = "Error", message: Optional[str] = None, stack: Optional[str] = None, *args: Any
    ) -> None:
        super().__init__(message if message is not None else name)
        self.name = name
        self.message = message
        self.stack = stack
        self.has_cause = False
        self.cause: Any = None
        if args:
            self._set_cause(args[0])

    def _set_cause(self, cause: Any) -> None:
        self.has_cause = True
        self.cause = cause

    @classmethod
    def with_cause(cls, name: str, message: Optional[str], stack: Optional[str], cause: Any) -> JSError:
        e = cls(name, message, stack)
        e._set_cause(cause)
        return e

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, JSError)
            and (self.name, self.message, self.stack, self.has_cause)
            == (other.name, other.message, other.stack, other.has_cause)
            and (not self.has_cause or self.cause == other.cause)
        )

    __hash__ = Exception.__hash__

    def __repr__(self) -> str:
        return f"JSError({self.name!r}, {self.message!r})"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return bool(a == b)


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def _date_from_ms(ms: float) -> Any:
    if math.isnan(ms) or math.isinf(ms):
        return JSDate(ms)
    try:
        return _EPOCH + _dt.timedelta(milliseconds=ms)
    except OverflowError:
        return JSDate(ms)


def _date_to_ms(d: Any) -> float:
    if isinstance(d, JSDate):
        return d.ms
    if d.tzinfo is None:
        d = d.replace(tzinfo=_dt.timezone.utc)
    delta = d - _EPOCH
    return float((delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000)
