"""The server side of run_starlette.py: a tiny Starlette upload app under uvicorn, on 127.0.0.1 only.

    python starlette_app.py --parser stock|formwire|callbacks|floor|floor_batched --port PORT
                            [--stack h11|httptools] [--max-requests N] [--max-seconds S] [--profile FILE]

``--parser formwire`` calls ``formwire.compat.starlette.install()`` before the app is built (the native path:
Starlette's ``MultiPartParser.parse`` over formwire's events); ``callbacks`` calls ``install(native=False)`` (Starlette's
own ``parse`` over formwire's python-multipart callback shim, what ``install()`` did before the native path);
``stock`` leaves Starlette on python-multipart (and checks that formwire is not even imported). ``floor`` parses
nothing: its ``/upload`` only streams the body (a file-sized body into an UploadFile/SpooledTemporaryFile and back,
written chunk by chunk as Starlette writes file parts), to measure what the server costs around any form parser.
``floor_batched`` is the same floor with the native path's writes (``formwire.compat.starlette._FileWriter``: data
past ``spool_max_size`` written 1 MiB of chunks per thread-pool trip). ``FW_FLOOR_NO_SPOOL=1`` in the environment
makes the floors only stream the body (to split their cost).

Endpoints (both read ``await request.form()``, touch every field and read every file fully):

- ``POST /upload``: the timed endpoint; answers counts only (``{"fields":..,"field_chars":..,"files":..,
  "file_bytes":..}``), the same bytes for both parsers, so the load client checks every response.
- ``POST /verify``: the full contents (every field's name and value; every file's name, filename, content type,
  headers, size and SHA-256), compared between the two servers before any timing.

The server stops by itself: after ``--max-requests`` requests (uvicorn's ``limit_max_requests``) or after
``--max-seconds``, whichever comes first. ``--profile`` runs it under cProfile and writes the stats on exit.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import threading


def build_app(floor_only: bool = False, batched: bool = False):  # imported after the parser choice is applied
    spool = os.environ.get("FW_FLOOR_NO_SPOOL") != "1"  # an analysis knob: the floor without the temp-file round trip

    from starlette.applications import Starlette
    from starlette.datastructures import UploadFile
    from starlette.requests import ClientDisconnect
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    async def upload(request):
        fields = field_chars = files = file_bytes = 0
        try:
            form = await request.form()
        except ClientDisconnect:  # the load client stops with requests in flight: nobody to answer
            return Response(status_code=499)
        try:
            for _name, value in form.multi_items():
                if isinstance(value, UploadFile):
                    files += 1
                    file_bytes += len(await value.read())  # the whole file, back from its spooled file
                else:
                    fields += 1
                    field_chars += len(value)
        finally:
            await form.close()
        body = b'{"fields":%d,"field_chars":%d,"files":%d,"file_bytes":%d}' % (fields, field_chars, files, file_bytes)
        return Response(body, media_type="application/json")

    async def verify(request):
        items = []
        async with request.form() as form:
            for name, value in form.multi_items():
                if isinstance(value, UploadFile):
                    data = await value.read()
                    items.append({
                        "name": name,
                        "filename": value.filename,
                        "content_type": value.content_type,
                        "headers": [[k, v] for k, v in value.headers.items()],
                        "size": value.size,
                        "read": len(data),
                        "sha256": hashlib.sha256(data).hexdigest(),
                    })
                else:
                    items.append({"name": name, "value": value})
        return JSONResponse({"items": items})

    async def floor(request):
        # No parsing at all: what the same server and endpoint cost around any form parser. The body is streamed as
        # Starlette's form parsing streams it; a file-sized body goes, chunk by chunk, into an UploadFile over a
        # SpooledTemporaryFile(1 MiB) exactly as Starlette writes file parts, and is read back whole.
        from tempfile import SpooledTemporaryFile

        from starlette.formparsers import MultiPartParser

        n = 0
        try:
            if int(request.headers.get("content-length", "0")) > MultiPartParser.spool_max_size and spool:
                f = UploadFile(SpooledTemporaryFile(max_size=MultiPartParser.spool_max_size), size=0,
                               filename="upload.bin")
                try:
                    if batched:  # the native path's writer (same rollover, later data 1 MiB per trip)
                        from formwire.compat.starlette import _FileWriter
                        from starlette.concurrency import run_in_threadpool

                        w = _FileWriter(f)
                        async for chunk in request.stream():
                            if chunk:
                                await w.write(chunk, run_in_threadpool)
                        await w.finish(run_in_threadpool)
                    else:
                        async for chunk in request.stream():
                            await f.write(chunk)
                        await f.seek(0)
                    n = len(await f.read())
                finally:
                    await f.close()
            else:
                async for chunk in request.stream():
                    n += len(chunk)
        except ClientDisconnect:
            return Response(status_code=499)
        return Response(b'{"floor_bytes":%d}' % n, media_type="application/json")

    async def parser(request):
        import starlette.formparsers as fp

        return JSONResponse({"multipart": getattr(fp.multipart.MultipartParser, "__module__", "?"),
                             "parse": fp.MultiPartParser.parse.__module__, "floor": floor_only})

    return Starlette(routes=[
        Route("/upload", floor if floor_only else upload, methods=["POST"]),
        Route("/verify", verify, methods=["POST"]),
        Route("/parser", parser, methods=["GET"]),
    ])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parser", choices=["stock", "formwire", "callbacks", "floor", "floor_batched"], required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--stack", choices=["h11", "httptools"], default="h11")
    ap.add_argument("--max-requests", type=int, default=100_000)
    ap.add_argument("--max-seconds", type=float, default=600.0)
    ap.add_argument("--profile", default=None)
    args = ap.parse_args()

    if args.parser in ("formwire", "callbacks"):
        import formwire.compat.starlette

        formwire.compat.starlette.install(native=args.parser == "formwire")
        assert formwire.compat.starlette.installed()
        assert formwire.compat.starlette.native() == (args.parser == "formwire")
    floor = args.parser in ("floor", "floor_batched")
    app = build_app(floor_only=floor, batched=args.parser == "floor_batched")
    if args.parser in ("stock", "floor", "floor_batched"):
        import starlette.formparsers as fp

        assert "formwire" not in sys.modules, "stock server imported formwire"
        assert fp.multipart.__name__ == "python_multipart", fp.multipart

    import uvicorn

    config = uvicorn.Config(
        app,
        host="127.0.0.1",  # loopback only
        port=args.port,
        http=args.stack,
        loop="uvloop" if args.stack == "httptools" else "asyncio",
        lifespan="off",
        access_log=False,
        log_level="warning",
        limit_max_requests=args.max_requests,
    )
    server = uvicorn.Server(config)

    def stop() -> None:  # the time cap: ask uvicorn to exit, then make sure
        server.should_exit = True
        threading.Timer(10.0, lambda: os._exit(3)).start()

    timer = threading.Timer(args.max_seconds, stop)
    timer.daemon = True
    timer.start()
    if args.profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
        try:
            server.run()
        except KeyboardInterrupt:  # the runner's SIGINT: uvicorn shut down gracefully, then re-raised it
            pass
        finally:
            prof.disable()
            prof.dump_stats(args.profile)
    else:
        try:
            server.run()
        except KeyboardInterrupt:
            pass
    timer.cancel()


if __name__ == "__main__":
    main()
