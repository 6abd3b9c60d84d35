"""The documented client recipes against a real uvicorn server on 127.0.0.1: requests and httpx (sync and
async) send an encoded form as a known-length body (Content-Length, no Transfer-Encoding), and the server reads
back exactly what was encoded."""

from __future__ import annotations

import asyncio
import hashlib
import io
import threading
from collections.abc import Iterator

import httpx
import pytest

import formwire
from formwire.multipart import AsyncEncoded, File

from _serve import uvicorn_serving

FILE_BYTES = bytes(range(256)) * 1000  # 256000 bytes: several chunks


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def echo(request: Request) -> JSONResponse:
        body = await request.body()
        seen = {k.lower(): v for k, v in request.headers.items()}
        with formwire.parse_form(body, request.headers["content-type"]) as form:
            parts = [
                [k, v] if isinstance(v, str) else [k, v.filename, hashlib.sha256(v.read()).hexdigest()]
                for k, v in form.multi_items()
            ]
        return JSONResponse(
            {
                "content_length": seen.get("content-length"),
                "transfer_encoding": seen.get("transfer-encoding"),
                "received": len(body),
                "parts": parts,
            }
        )

    app = Starlette(routes=[Route("/echo", echo, methods=["POST"])])
    with uvicorn_serving(app) as base:
        yield f"{base}/echo"


def _form() -> formwire.multipart.Encoded:
    # A real file object: its body is read while it is sent, not loaded.
    return formwire.multipart.encode({"a": "one", "f": File(io.BytesIO(FILE_BYTES), "x.bin")})


def _check(r: httpx.Response | object, enc: formwire.multipart.Encoded) -> None:
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    got = r.json()  # type: ignore[attr-defined]
    assert got["transfer_encoding"] is None
    assert got["content_length"] == str(enc.content_length) == str(got["received"])
    assert got["parts"] == [["a", "one"], ["f", "x.bin", hashlib.sha256(FILE_BYTES).hexdigest()]]


def test_len_is_the_content_length_only_when_known() -> None:
    enc = _form()
    assert len(enc) == enc.content_length == len(enc.to_bytes())

    class Pipe(io.RawIOBase):  # a stream whose size cannot be known
        def readable(self) -> bool:
            return True

        def readinto(self, b):  # type: ignore[no-untyped-def]
            return 0

    unknown = formwire.multipart.encode({"f": File(Pipe(), "p")})
    assert unknown.content_length is None
    with pytest.raises(TypeError):
        len(unknown)


def test_requests_sends_a_known_length_body(url: str) -> None:
    requests = pytest.importorskip("requests", reason="requests is in requirements-dev.txt; scripts/setup installs it")
    enc = _form()
    _check(requests.post(url, data=enc, headers=enc.headers, timeout=10), enc)


def test_httpx_sync_sends_a_known_length_body(url: str) -> None:
    enc = _form()
    _check(httpx.post(url, content=enc, headers=enc.headers), enc)


def test_httpx_async_client_sends_the_async_view(url: str) -> None:
    async def main() -> None:
        enc = _form()
        body = enc.aiter()
        assert isinstance(body, AsyncEncoded) and body.headers == enc.headers
        async with httpx.AsyncClient() as client:
            _check(await client.post(url, content=body, headers=enc.headers), enc)

    asyncio.run(main())


def test_async_iteration_reads_files_off_the_event_loop() -> None:
    reader_threads: set[int] = set()

    class Tracking(io.BytesIO):
        def read(self, n: int | None = -1) -> bytes:
            reader_threads.add(threading.get_ident())
            return super().read(n)

    async def main() -> tuple[bytes, set[int]]:
        enc = formwire.multipart.encode({"f": File(Tracking(FILE_BYTES), "x.bin")}, boundary="B")
        streamed = b"".join([c async for c in enc.aiter()])
        return streamed, set(reader_threads)

    streamed, during = asyncio.run(main())
    # The loop runs in this thread; every file read happened in another one.
    assert during and threading.get_ident() not in during
    assert streamed == formwire.multipart.encode({"f": File(io.BytesIO(FILE_BYTES), "x.bin")}, boundary="B").to_bytes()
