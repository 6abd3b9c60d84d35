"""The Python runner of bench/run: one case per process.

`python cases.py JOB.json` loads the input named by the job's workload entry, warms up, times each repetition around
the work only, and prints one JSON line: per-repetition seconds, the result summary bench/run validates, peak RSS
growth (VmHWM), version. Chunks are pre-sliced bytes (peers.md).
"""
from __future__ import annotations

import gc
import io
import json
import os
import re
import sys
import time
import traceback
from importlib import metadata
from pathlib import Path

job = json.loads(Path(sys.argv[1]).read_text())
W = job["work"]
DIR = Path(job["dir"])
RSS = {"base": 0, "reset": False}
SLOW = [False]
CPU: list = []  # process CPU seconds of each timed run (all threads)


def status_kb(key: str) -> int:
    try:
        m = re.search(rf"^{key}:\s+(\d+)", Path("/proc/self/status").read_text(), re.M)
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


def reset_hwm() -> None:
    base = status_kb("VmRSS")
    try:
        Path("/proc/self/clear_refs").write_text("5")
        RSS.update(base=base, reset=True)
    except OSError:
        RSS.update(base=status_kb("VmHWM"), reset=False)


def measure(fn):
    """Warm-up, then at least `reps` timed runs (more while under min_time, up to max_reps)."""
    reset_hwm()
    for _ in range(job["warmup"]):
        t0 = time.perf_counter()
        r = fn()
        t = time.perf_counter() - t0
        if t > job["slow_s"]:  # pathologically slow: its one (cold) run is the sample, flagged
            SLOW[0] = True
            return [t], r
    times, total, last = [], 0.0, None
    while len(times) < job["reps"] or (total < job["min_time"] and len(times) < job["max_reps"]):
        c0 = time.process_time()
        t0 = time.perf_counter()
        last = fn()
        t = time.perf_counter() - t0
        CPU.append(time.process_time() - c0)
        times.append(t)
        total += t
        if t > job["slow_s"]:
            SLOW[0] = len(times) == 1
            break
    return times, last


def measure_per_op(fn):
    k = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        if time.perf_counter() - t0 >= job["batch_time"] or k >= 1 << 22:
            break
        k *= 2

    def batch():
        x = None
        for _ in range(k):
            x = fn()
        return x

    times, last = measure(batch)
    CPU[:] = [c / k for c in CPU]
    return [t / k for t in times], last, k


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def counts() -> dict:
    return dict(parts=0, fields=0, files=0, field_bytes=0, file_bytes=0)


# ---------------------------------------------------------------------------------------------------------------
# Multipart parsing


def multipart_case(imp: str):
    body = (DIR / W["file"]).read_bytes()
    n = W["chunk"]
    chunks = [body[i:i + n] for i in range(0, len(body), n)]
    boundary = W["boundary"].encode()
    ct = W["content_type"]

    if imp == "python-multipart":
        from python_multipart.multipart import MultipartParser

        def run():
            c = counts()
            st = {"file": False, "hdr": b"", "buf": []}

            def on_part_begin():
                c["parts"] += 1
                st["hdr"] = b""
                st["buf"] = []

            def on_header_value(data, start, end):
                st["hdr"] += data[start:end]

            def on_headers_finished():
                st["file"] = b"filename=" in st["hdr"]

            def on_part_data(data, start, end):
                if st["file"]:
                    c["file_bytes"] += end - start
                else:
                    st["buf"].append(data[start:end])

            def on_part_end():
                if st["file"]:
                    c["files"] += 1
                else:
                    v = b"".join(st["buf"]).decode()
                    c["fields"] += 1
                    c["field_bytes"] += len(v)

            p = MultipartParser(boundary, callbacks=dict(
                on_part_begin=on_part_begin, on_header_value=on_header_value,
                on_headers_finished=on_headers_finished, on_part_data=on_part_data, on_part_end=on_part_end))
            for ch in chunks:
                p.write(ch)
            p.finalize()
            return c

        return version("python-multipart"), measure(run)

    if imp == "python-multipart-form":
        from python_multipart.multipart import FormParser

        def run():
            c = counts()
            stored = []

            def on_field(f):
                c["parts"] += 1
                c["fields"] += 1
                c["field_bytes"] += len((f.value or b"").decode())

            def on_file(f):
                c["parts"] += 1
                c["files"] += 1
                c["file_bytes"] += f.size
                stored.append(f)

            p = FormParser("multipart/form-data", on_field, on_file, boundary=boundary,
                           config={"MAX_BODY_SIZE": float("inf")})
            for ch in chunks:
                p.write(ch)
            p.finalize()
            for f in stored:
                f.close()  # deletes the temp file (UPLOAD_DELETE_TMP): part of the work
            return c

        return version("python-multipart"), measure(run)

    if imp == "defnull":
        sys.path.insert(0, job["defnull"])  # its own --target folder: python-multipart's `multipart` shim shadows it
        import multipart as defnull

        assert hasattr(defnull, "PushMultipartParser"), defnull.__file__

        def run():
            c = counts()
            file = False
            buf = []
            with defnull.PushMultipartParser(boundary, max_segment_count=float("inf")) as p:
                for ch in chunks + [b""]:
                    for ev in p.parse(ch):
                        if isinstance(ev, defnull.MultipartSegment):
                            c["parts"] += 1
                            file = ev.filename is not None
                            buf = []
                        elif ev:
                            if file:
                                c["file_bytes"] += len(ev)
                            else:
                                buf.append(ev)
                        else:  # None: end of segment
                            if file:
                                c["files"] += 1
                            else:
                                v = b"".join(buf).decode()
                                c["fields"] += 1
                                c["field_bytes"] += len(v)
            return c

        return version_defnull(), measure(run)

    if imp == "werkzeug-decoder":
        from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData

        def run():
            c = counts()
            d = MultipartDecoder(boundary, max_form_memory_size=None, max_parts=None)
            file = False
            buf = []

            def drain():
                nonlocal file, buf
                while True:
                    ev = d.next_event()
                    if isinstance(ev, (NeedData, Epilogue)):
                        return
                    if isinstance(ev, File):
                        c["parts"] += 1
                        file = True
                    elif isinstance(ev, Field):
                        c["parts"] += 1
                        file = False
                        buf = []
                    elif isinstance(ev, Data):
                        if file:
                            c["file_bytes"] += len(ev.data)
                            if not ev.more_data:
                                c["files"] += 1
                        else:
                            buf.append(ev.data)
                            if not ev.more_data:
                                v = b"".join(buf).decode()
                                c["fields"] += 1
                                c["field_bytes"] += len(v)

            for ch in chunks:
                d.receive_data(ch)
                drain()
            d.receive_data(None)
            drain()
            return c

        return version("werkzeug"), measure(run)

    if imp == "werkzeug-form":
        from werkzeug.formparser import parse_form_data

        class ChunkReader(io.RawIOBase):
            """The body as a socket-like reader: each read returns at most one chunk (64 KiB; 1 byte for X5)."""

            def __init__(self):
                self.i = 0

            def readable(self):
                return True

            def read(self, size=-1):
                end = len(body) if size is None or size < 0 else self.i + min(size, n)
                end = min(end, self.i + n, len(body))
                piece = body[self.i:end]
                self.i = end
                return piece

            def readinto(self, b):
                piece = self.read(len(b))
                b[:len(piece)] = piece
                return len(piece)

        def run():
            env = {"wsgi.input": ChunkReader(), "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": ct,
                   "REQUEST_METHOD": "POST"}
            _, form, files = parse_form_data(env, max_form_parts=10 ** 9, max_form_memory_size=None, silent=False)
            c = counts()
            for _, v in form.items(multi=True):
                c["parts"] += 1
                c["fields"] += 1
                c["field_bytes"] += len(v)
            for _, f in files.items(multi=True):
                c["parts"] += 1
                c["files"] += 1
                f.stream.seek(0, os.SEEK_END)
                c["file_bytes"] += f.stream.tell()
                f.close()
            return c

        return version("werkzeug"), measure(run)

    if imp in ("sfd-catchall", "sfd-per-name"):
        from streaming_form_data import StreamingFormDataParser
        from streaming_form_data.targets import BaseTarget

        class Counter(BaseTarget):
            def __init__(self, c):
                super().__init__()
                self.c = c
                self.buf = []

            def on_start(self):
                self.c["parts"] += 1
                self.buf = []

            def on_data_received(self, chunk):
                if self.multipart_filename is not None:
                    self.c["file_bytes"] += len(chunk)
                else:
                    self.buf.append(chunk)

            def on_finish(self):
                if self.multipart_filename is not None:
                    self.c["files"] += 1
                else:
                    v = b"".join(self.buf).decode()
                    self.c["fields"] += 1
                    self.c["field_bytes"] += len(v)

        # the expected names, for the per-name row (registered inside the timer: that is how the API is used)
        names = [] if imp == "sfd-catchall" else sorted(
            {m.decode() for h in _headers_only(body, boundary) for m in re.findall(rb'; name="([^"]*)"', h)})

        def run():
            c = counts()
            p = StreamingFormDataParser(headers={"Content-Type": ct})
            if imp == "sfd-catchall":
                p.register("", Counter(c), matches=lambda *_: True)
            else:
                for nm in names:
                    p.register(nm, Counter(c))
            for ch in chunks:
                p.data_received(ch)
            return c

        return version("streaming-form-data"), measure(run)

    if imp in ("formwire", "formwire-buffered"):
        return formwire_python_multipart(imp, chunks, W)
    if imp == "floor-read":
        # Floor: every cache line of the body read once, from Python, the chunks as the parsers are fed: each chunk
        # copied into one 64 KiB buffer (memcpy; the buffer stays in cache, so the reads are the cost). A delimiter
        # may start at any byte and is shorter than a line plus 6 bytes, so no parser can skip a line.
        buf = memoryview(bytearray(max((len(ch) for ch in chunks), default=0)))

        def floor():
            lines = 0
            for ch in chunks:
                buf[:len(ch)] = ch
                lines += -(-len(ch) // 64)
            return dict(floor=True, lines=lines)

        return "python %d.%d.%d" % sys.version_info[:3], measure(floor)
    raise ValueError(f"unknown multipart impl {imp}")


def _headers_only(body: bytes, boundary: bytes):
    """The header blocks of a body (to learn the part names for streaming-form-data's per-name targets)."""
    delim = b"--" + boundary + b"\r\n"
    i = body.find(delim)
    while i >= 0:
        j = body.find(b"\r\n\r\n", i)
        yield body[i:j]
        i = body.find(b"\r\n" + delim, j)
        if i >= 0:
            i += 2


def version_defnull() -> str:
    p = Path(job["defnull"])
    for d in p.glob("multipart-*.dist-info"):
        return d.name[len("multipart-"):-len(".dist-info")]
    return "?"


def formwire_import():
    """formwire's Python package from the checkout (python/src, with the extension `make build` puts there)."""
    sys.path.insert(0, job["formwire_py"])
    import formwire

    return formwire


def formwire_version() -> str:
    try:
        import tomllib

        return tomllib.loads((Path(job["formwire_py"]).parent / "pyproject.toml").read_text())["project"]["version"]
    except Exception:  # noqa: BLE001 - the version is informative only
        return "?"


def formwire_python_multipart(imp, chunks, w):
    formwire_import()
    from formwire.multipart import END, PART_END, Parser

    opts = dict(max_parts=None, max_fields=None, max_files=None, allow_preamble=bool(w.get("allow_preamble")))
    buffered = imp == "formwire-buffered"
    if buffered:
        opts["buffer_fields"] = True

    def run():
        c = counts()
        file = False
        buf = []
        p = Parser.from_content_type(w["content_type"], **opts)

        def handle(evs):
            nonlocal file, buf
            for ev in evs:
                if isinstance(ev, (memoryview, bytes)):
                    if file:
                        c["file_bytes"] += len(ev)
                    else:
                        buf.append(ev)
                elif ev is PART_END:
                    if file:
                        c["files"] += 1
                    else:
                        v = b"".join(buf).decode()
                        c["fields"] += 1
                        c["field_bytes"] += len(v)
                elif ev is END:
                    pass
                elif isinstance(ev, tuple):  # buffer_fields: (name, value) of a whole text field
                    c["parts"] += 1
                    c["fields"] += 1
                    c["field_bytes"] += len(ev[1])
                else:  # a Part
                    c["parts"] += 1
                    file = ev.filename is not None
                    buf = []

        for ch in chunks:
            handle(p.feed(ch))
        handle(p.close())
        return c

    return formwire_version(), measure(run)


# ---------------------------------------------------------------------------------------------------------------
# urlencoded (the body as a str, decoded outside the timer, for parse_qsl; bytes for python-multipart)


def urlencoded_case(imp: str):
    raw = (DIR / W["file"]).read_bytes()
    s = raw.decode("ascii")

    def summary(pairs):
        n = b = 0
        for k, v in pairs:
            n += 1
            b += len(k.encode()) + len(v.encode())
        return dict(pairs=n, decoded_bytes=b)

    if imp == "formwire":
        formwire_import()
        from formwire import urlencoded

        times, last = measure(lambda: urlencoded.parse_dict(s, max_pairs=None))
        return formwire_version(), (times, summary(last.items()))
    if imp == "parse_qsl":
        from urllib.parse import parse_qsl

        times, last = measure(lambda: dict(parse_qsl(s, keep_blank_values=True)))
        return "python %d.%d.%d" % sys.version_info[:3], (times, summary(last.items()))
    if imp == "python-multipart-qs":
        from urllib.parse import unquote_plus

        from python_multipart.multipart import QuerystringParser

        def run():
            out = {}
            st = {"name": [], "data": []}

            def on_field_start():
                st["name"] = []
                st["data"] = []

            def on_field_name(data, start, end):
                st["name"].append(data[start:end])

            def on_field_data(data, start, end):
                st["data"].append(data[start:end])

            def on_field_end():
                # as Starlette does: latin-1 then unquote_plus (UTF-8)
                out[unquote_plus(b"".join(st["name"]).decode("latin-1"))] = unquote_plus(
                    b"".join(st["data"]).decode("latin-1"))

            p = QuerystringParser(callbacks=dict(on_field_start=on_field_start, on_field_name=on_field_name,
                                                 on_field_data=on_field_data, on_field_end=on_field_end))
            p.write(raw)
            p.finalize()
            return out

        times, last = measure(run)
        return version("python-multipart"), (times, summary(last.items()))
    raise ValueError(f"unknown urlencoded impl {imp}")


# ---------------------------------------------------------------------------------------------------------------
# Serialize


def body_summary(body: bytes, boundary: str) -> dict:
    open_ = b"--" + boundary.encode() + b"\r\n"
    close = b"--" + boundary.encode() + b"--\r\n"
    at = body.rfind(close)
    return dict(bytes=len(body), delims=body.count(open_), closed=at >= 0 and at + len(close) >= len(body) - 2,
                boundary=boundary, sha256=None)


def serialize_case(imp: str):
    fields = json.loads((DIR / W["fields"]).read_text())
    blob = (DIR / W["blob"]).read_bytes()
    b = W["boundary"]
    if imp == "formwire":
        formwire_import()
        import hashlib

        from formwire.multipart import encode

        def run():
            return encode([(k, v) for k, v in fields], [("file", (W["blob_name"], blob, W["blob_type"]))],
                          boundary=b).to_bytes()

        times, last = measure(run)
        r = body_summary(last, b)
        r["sha256"] = hashlib.sha256(last).hexdigest()
        return formwire_version(), (times, r)
    if imp == "urllib3":
        from urllib3 import encode_multipart_formdata

        def run():
            form = [(k, v) for k, v in fields]
            form.append(("file", (W["blob_name"], blob, W["blob_type"])))
            return encode_multipart_formdata(form, boundary=b)[0]

        times, last = measure(run)
        return version("urllib3"), (times, body_summary(last, b))
    raise ValueError(f"unknown serialize impl {imp}")


# ---------------------------------------------------------------------------------------------------------------
# Clone: V8 wire bytes (Node's v8.serialize of the W6 values) decoded and encoded again


def clone_case(imp: str):
    data = (DIR / W["v8"]).read_bytes()
    if imp == "formwire":
        formwire_import()
        from formwire import v8

        # A Decoder and an Encoder for the run, as a service handling message after message keeps them: their
        # working memory and output buffer are reused between calls (v8.loads/v8.dumps allocate them per call).
        dec, enc = v8.Decoder(), v8.Encoder()
        times, last, k = measure_per_op(lambda: enc.dumps(dec.loads(data)))
        return formwire_version(), (times, dict(bytes=len(last), same_bytes=last == data,
                                                equal=v8.loads(last) == v8.loads(data), ops_per_sample=k))
    if imp == "v8serialize":
        import v8serialize

        times, last, k = measure_per_op(lambda: v8serialize.dumps(v8serialize.loads(data)))
        same = last == data
        ok = v8serialize.loads(last) == v8serialize.loads(data)
        return version("v8serialize"), (times, dict(bytes=len(last), same_bytes=same, equal=ok, ops_per_sample=k))
    raise ValueError(f"unknown clone impl {imp}")


# ---------------------------------------------------------------------------------------------------------------
# Physical references over W1's random payload


def ref_case(imp: str):
    body = (DIR / W["file"]).read_bytes()
    off, n = W["offset"], W["bytes"]
    v = "python %d.%d.%d" % sys.version_info[:3]
    if imp == "memoryview-copy":
        src = memoryview(body)[off:off + n]
        dst = bytearray(b"\x01") * n  # pre-faulted
        mv = memoryview(dst)

        def run():
            mv[:] = src
            return dict(bytes=len(dst), found=-1)

        r = measure(run)
        if dst != src:
            raise AssertionError("copy differs")
        return v, r
    if imp == "bytes-find":
        needle = W["needle"].encode("latin-1")
        return v, measure(lambda: dict(bytes=n, found=body.find(needle, off, off + n)))
    raise ValueError(f"unknown ref impl {imp}")


def main() -> None:
    kinds = dict(multipart=multipart_case, urlencoded=urlencoded_case, serialize=serialize_case, clone=clone_case,
                 ref=ref_case)
    try:
        gc.collect()
        ver, (times, last) = kinds[W["kind"]](job["impl"])
        out = dict(ok=True, times=times, cpu=CPU if len(CPU) == len(times) else None, result=last, version=ver, rss_base_kb=RSS["base"],
                   rss_peak_kb=status_kb("VmHWM"), hwm_reset=RSS["reset"], slow=SLOW[0])
    except BaseException as e:  # noqa: BLE001 - reported (a PyO3 panic is a BaseException); bench/run fails it
        tb = traceback.format_exception(e)
        out = dict(ok=False, error=(repr(e) + " | " + "".join(tb[-2:]).strip().replace("\n", " | "))[:600])
    print(json.dumps(out))


main()
