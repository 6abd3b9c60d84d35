"""aparse_form in async code: spooled-file writes that reach the disk run off the event loop, ``async with`` closes
the files, and uploads have ``aread()``."""

from __future__ import annotations

import asyncio
import tempfile
import threading
from collections.abc import AsyncIterator

import pytest

import formwire

BIG = bytes(range(256)) * 4096  # 1 MiB
BODY = (
    b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\none\r\n'
    b'--B\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n' + BIG + b"\r\n"
    b'--B\r\nContent-Disposition: form-data; name="s"; filename="small.txt"\r\n\r\nhi\r\n--B--\r\n'
)
CT = "multipart/form-data; boundary=B"


async def chunks(body: bytes, n: int = 8192) -> AsyncIterator[bytes]:
    for i in range(0, len(body), n):
        yield body[i : i + n]


def test_disk_writes_run_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    writers: list[tuple[int, bool]] = []  # (thread, rolled to disk already)

    class Tracking(tempfile.SpooledTemporaryFile):  # type: ignore[type-arg]
        def write(self, b):  # type: ignore[no-untyped-def]
            writers.append((threading.get_ident(), self._rolled))
            return super().write(b)

    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", Tracking)

    async def main() -> tuple[int, bytes, bytes, bool, bool]:
        loop_thread = threading.get_ident()
        async with await formwire.aparse_form(chunks(BODY), CT, spool_max_size=64 * 1024) as form:
            f, s = form["f"], form["s"]
            assert not isinstance(f, str) and not isinstance(s, str)
            got = await f.aread()
            small = await s.aread()
            on_disk, in_memory = f._on_disk(), not s._on_disk()
        assert f.file.closed and s.file.closed
        return loop_thread, got, small, on_disk, in_memory

    loop_thread, got, small, on_disk, in_memory = asyncio.run(main())
    assert got == BIG and small == b"hi" and on_disk and in_memory
    # Every write to a file that was already on disk happened in a worker thread, never in the loop's thread.
    disk_writes = [t for t, rolled in writers if rolled]
    assert disk_writes and loop_thread not in disk_writes
    # In-memory spools (the small file, the start of the big one) are written in place.
    assert any(t == loop_thread for t, rolled in writers if not rolled)


def test_a_truncated_body_raises_its_code_and_leaves_no_file() -> None:
    async def main() -> None:
        with pytest.raises(formwire.MultipartError) as e:
            await formwire.aparse_form(chunks(BODY[:-9]), CT, spool_max_size=1024)
        assert e.value.code == "MP_TRUNCATED"

    asyncio.run(main())
