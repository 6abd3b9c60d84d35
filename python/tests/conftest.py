from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import formwire
from formwire import multipart

B = "boundary"
CT = f"multipart/form-data; boundary={B}"


def part(
    name: str, body: bytes, filename: str | None = None, content_type: str | None = None, boundary: str = B
) -> bytes:
    cd = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename is not None else "")
    head = f"--{boundary}\r\nContent-Disposition: {cd}\r\n"
    if content_type is not None:
        head += f"Content-Type: {content_type}\r\n"
    return head.encode() + b"\r\n" + body + b"\r\n"


def form(*parts: bytes, boundary: str = B) -> bytes:
    return b"".join(parts) + f"--{boundary}--\r\n".encode()


def collect(events: list[Any]) -> list[dict[str, Any]]:
    """Parts as dicts (headers and the whole body), from a full event list."""
    out: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    for ev in events:
        if isinstance(ev, multipart.Part):
            cur = {
                "name": ev.name,
                "filename": ev.filename,
                "content_type": ev.content_type,
                "type": ev.type,
                "headers": ev.headers,
                "body": bytearray(),
            }
        elif isinstance(ev, (memoryview, bytes)):
            assert cur is not None
            cur["body"] += ev
        elif ev is multipart.PART_END:
            assert cur is not None
            cur["body"] = bytes(cur["body"])
            out.append(cur)
            cur = None
        elif isinstance(ev, tuple):
            out.append({"name": ev[0], "value": ev[1]})
    return out


def parse_chunks(
    chunks: list[bytes], boundary: str | bytes = B, **options: Any
) -> list[dict[str, Any]] | tuple[str, int]:
    """The parts, or (code, offset) of the error."""
    p = multipart.Parser(boundary, **options)
    events: list[Any] = []
    try:
        for c in chunks:
            events += p.feed(c)
        events += p.close()
    except formwire.MultipartError as e:
        return (e.code, e.offset)
    return collect(events)


def splits(data: bytes) -> list[list[bytes]]:
    """Whole, byte by byte, and cut at every single point."""
    out = [[data], [data[i : i + 1] for i in range(len(data))]]
    out += [[data[:i], data[i:]] for i in range(1, len(data))]
    return out


@pytest.fixture
def sample() -> bytes:
    return form(
        part("a", b"hello"),
        part("file", b"\x00\x01\r\n--boundar\r\n\xff", filename="x.bin", content_type="application/x-demo"),
        part("empty", b""),
    )


def many_fields(n: int, size: int, sent: list[int], boundary: str = B) -> Iterator[bytes]:
    """A body of ``n`` text fields of ``size`` bytes each, made as it is read, in 64 KiB chunks; ``sent[0]`` counts
    the field bytes handed out (so a test can tell how much of a 1 GiB body was ever produced)."""
    chunk = b"v" * 65536
    for i in range(n):
        yield f'--{boundary}\r\nContent-Disposition: form-data; name="f{i}"\r\n\r\n'.encode()
        left = size
        while left:
            k = min(left, len(chunk))
            sent[0] += k
            left -= k
            yield chunk[:k]
        yield b"\r\n"
    yield f"--{boundary}--\r\n".encode()


def total_field_offset(n_full: int, size: int, boundary: str = B) -> int:
    """MP-L-04 offset when fields of ``size`` bytes fill max_total_field_bytes exactly after ``n_full`` of them: the
    first body byte of the next field."""
    head = lambda i: len(f'--{boundary}\r\nContent-Disposition: form-data; name="f{i}"\r\n\r\n')  # noqa: E731
    return sum(head(i) + size + 2 for i in range(n_full)) + head(n_full)
