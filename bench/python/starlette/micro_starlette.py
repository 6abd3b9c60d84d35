#!/usr/bin/env python3
"""Starlette's form parsing without a server: ``MultiPartParser(...).parse()`` over a body already split into the
chunks a server would deliver, plus what the endpoint does with the form (read every file back, close it). The CPU
time per form, stock vs formwire's two paths vs no parser, with none of uvicorn's receive path around it.

    bench/python/starlette/.venv/bin/python bench/python/starlette/micro_starlette.py [--loop asyncio|uvloop] [--runs 7]

(run_starlette.py makes bench/python/starlette/.venv and the bodies in bench/python/starlette/.work). Prints a table of medians.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"


def bodies() -> dict[str, tuple[bytes, str]]:
    out = {}
    for wl in ("fields10", "file10m"):
        path = WORK / f"{wl}.body"
        if not path.exists():
            sys.exit(f"{path} is missing: run python3 bench/python/starlette/run_starlette.py --quick once")
        body = path.read_bytes()
        boundary = body[2:body.index(b"\r\n")].decode()
        out[wl] = (body, f"multipart/form-data; boundary={boundary}")
    return out


async def one(mode: str, body: bytes, ct: str, chunk: int) -> int:
    from starlette.datastructures import Headers, UploadFile
    from starlette.formparsers import MultiPartParser

    pieces = [body[i:i + chunk] for i in range(0, len(body), chunk)]

    async def stream():  # type: ignore[no-untyped-def]
        for p in pieces:
            yield p
        yield b""  # Request.stream() ends with an empty chunk

    if mode.startswith("floor"):
        from tempfile import SpooledTemporaryFile

        n = 0
        if len(body) > MultiPartParser.spool_max_size:
            f = UploadFile(SpooledTemporaryFile(max_size=MultiPartParser.spool_max_size), size=0)
            if mode == "floor_batched":
                from starlette.concurrency import run_in_threadpool

                from formwire.compat.starlette import _FileWriter

                w = _FileWriter(f)
                async for c in stream():
                    if c:
                        await w.write(c, run_in_threadpool)
                await w.finish(run_in_threadpool)
            else:
                async for c in stream():
                    await f.write(c)
                await f.seek(0)
            n = len(await f.read())
            await f.close()
        else:
            async for c in stream():
                n += len(c)
        return n
    form = await MultiPartParser(Headers({"content-type": ct}), stream()).parse()
    n = 0
    for _, v in form.multi_items():
        if isinstance(v, str):
            n += len(v)
        else:
            n += len(await v.read())
    await form.close()
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loop", choices=["asyncio", "uvloop"], default="uvloop")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--modes", default="stock,formwire,callbacks,floor,floor_batched")
    args = ap.parse_args()
    if args.loop == "uvloop":
        import uvloop

        uvloop.install()
    import formwire.compat.starlette as fw

    plan = {"fields10": (3000, 1 << 16), "file10m": (30, 256 << 10)}  # forms per run, chunk size
    modes = args.modes.split(",")
    res: dict[tuple[str, str], list[float]] = {}
    for wl, (body, ct) in bodies().items():
        n, chunk = plan[wl]
        for _ in range(args.runs):
            for mode in modes:
                fw.uninstall()
                if mode in ("formwire", "callbacks"):
                    fw.install(native=mode == "formwire")

                async def run(mode: str = mode, n: int = n, body: bytes = body, ct: str = ct, chunk: int = chunk) -> float:
                    for _ in range(max(n // 10, 2)):  # warm
                        await one(mode, body, ct, chunk)
                    c0 = time.process_time()
                    for _ in range(n):
                        await one(mode, body, ct, chunk)
                    return (time.process_time() - c0) / n * 1000

                res.setdefault((wl, mode), []).append(asyncio.run(run()))
        fw.uninstall()
    print(f"| workload | {' | '.join(modes)} | " + " | ".join(f"stock / {m}" for m in modes[1:]) + " |")
    print("|---|" + "---:|" * (2 * len(modes) - 1))
    for wl in plan:
        med = {m: statistics.median(res[(wl, m)]) for m in modes}
        print(f"| {wl} | " + " | ".join(f"{med[m]:.4f} ms" for m in modes) + " | "
              + " | ".join(f"{med['stock'] / med[m]:.2f}x" for m in modes[1:]) + " |")
    print(f"(CPU time per form, process-wide incl. thread-pool threads; medians of {args.runs} runs; {args.loop})")


if __name__ == "__main__":
    main()
