"""The error classes: a stable ``code`` from spec/errors.md and a byte ``offset``.

Every error formwire reports about its input is a :class:`ParseError` (a :class:`ValueError`), with one subclass per
format. ``code`` is the contract (``"MP_TRUNCATED"``, ``"UE_LIMIT_PAIRS"``, ``"SC_TAG"``, ...); ``offset`` is the byte
offset the code's definition points at (for the multipart encoder: the index of the offending entry; for the V8
encoder: the output length when the error happened). The message is for humans and may change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._registry import ERRORS

__all__ = ["ParseError", "MultipartError", "UrlencodedError", "V8Error"]


class ParseError(ValueError):
    """A coded formwire error: ``.code`` (stable string) and ``.offset`` (byte offset)."""

    code: str
    offset: int

    def __init__(self, message: str = "", code: str = "", offset: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.offset = offset

    def __reduce__(self) -> tuple[type[ParseError], tuple[str, str, int]]:
        return (type(self), (str(self), self.code, self.offset))

    @property
    def kind(self) -> str | None:
        """``"malformed"``, ``"unsupported"``, ``"limit"`` or ``"encode"`` (spec/registry.json); None for an unknown code."""
        got = ERRORS.get(self.code)
        return got[0] if got else None

    @property
    def http_status(self) -> int | None:
        """The HTTP status a server answers with: 400 for malformed input, 413 for a limit; None for encoder errors."""
        got = ERRORS.get(self.code)
        return got[1] if got else None


class MultipartError(ParseError):
    """``multipart/form-data``: ``MP_*`` codes (parser and encoder).

    Raised by ``Parser.feed``/``close``, ``events`` holds the events the failing chunk produced before the error
    (empty when there were none): for a caller whose own checks must come first in stream order (a part count it
    enforces itself, say). The parse's result is still the error."""

    events: Sequence[Any] = ()


class UrlencodedError(ParseError):
    """``application/x-www-form-urlencoded``: ``UE_*`` codes (limits only: content never fails)."""


class V8Error(ParseError):
    """V8 ValueSerializer (structured clone): ``SC_*`` codes (decoder and encoder)."""
