"""Quick local speed check of the Python package against the incumbents (not the project's benchmark: bench/ is).

    .venv/bin/python python/tools/quick_bench.py [W1 W2 W4 W5] [--small]

Inputs: bench/run's own (bench/.work/full) when it has generated them, else synthetic ones of shared/peers.md's shapes (W1: 2 fields + a 200 MiB random file fed in 64 KiB chunks; W2: 10,000 small
fields; W4: ~1 MiB urlencoded, ~20k pairs; W5: 1,000 fields + a 10 MiB blob serialized to one body). Incumbents are
used when importable: python-multipart (the dev venv), defnull's ``multipart`` (``bench/.deps/defnull`` if bench/run
installed it, or $DEFNULL_PATH), urllib3 (``bench/.deps/venv`` or $URLLIB3_PATH). Prints the median of N runs, ms.
"""
from __future__ import annotations

import gc
import os
import random
import statistics
import string
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl, quote_plus

import formwire
from formwire import multipart, urlencoded

ROOT = Path(__file__).resolve().parents[2]
SMALL = "--small" in sys.argv
# The benchmark harness's own inputs, when bench/run has generated them (same bytes as the project's numbers).
WORK = ROOT / "bench/.work/full"
USE_WORK = (WORK / "manifest.json").exists() and "--synthetic" not in sys.argv and not SMALL


def work_file(name: str) -> Path | None:
    p = WORK / name
    return p if USE_WORK and p.exists() else None
BOUNDARY = b"----PeerBenchFormBoundary7MA4YWxkTrZu0g"
CT = "multipart/form-data; boundary=" + BOUNDARY.decode()
CHUNK = 1 << 16


CLOCK = time.perf_counter if "--wall" in sys.argv else time.process_time


def timeit(fn, reps: int = 7) -> float:
    """Median CPU time of the process (the machine is shared; --wall for wall-clock time), ms."""
    fn()
    ts = []
    for _ in range(reps):
        gc.collect()
        t0 = CLOCK()
        fn()
        ts.append(CLOCK() - t0)
    return statistics.median(ts) * 1000


def load_defnull():
    for p in (os.environ.get("DEFNULL_PATH"), str(ROOT / "bench/.deps/defnull")):
        if p and Path(p, "multipart.py").exists():
            import importlib.util

            spec = importlib.util.spec_from_file_location("defnull_multipart", Path(p, "multipart.py"))
            mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(mod)  # type: ignore[union-attr]
            return mod
    return None


def load_urllib3():
    try:
        import urllib3  # noqa: F401
    except ImportError:
        for p in (os.environ.get("URLLIB3_PATH"), *map(str, (ROOT / "bench/.deps/venv/lib").glob("python*/site-packages"))):
            if p and Path(p, "urllib3").exists():
                sys.path.append(p)
                break
    try:
        from urllib3 import encode_multipart_formdata

        return encode_multipart_formdata
    except ImportError:
        return None


def part(name: str, value: bytes, filename: str | None = None) -> bytes:
    cd = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    head = f"--{BOUNDARY.decode()}\r\nContent-Disposition: {cd}\r\n"
    if filename:
        head += "Content-Type: application/octet-stream\r\n"
    return head.encode() + b"\r\n" + value + b"\r\n"


def w1_body() -> bytes:
    if (f := work_file("w1.body")) is not None:
        return f.read_bytes()
    n = (1 << 20 if SMALL else 200 << 20)
    payload = random.Random(1).randbytes(n)
    return part("a", b"hello") + part("b", b"world") + part("file", payload, "big.bin") + b"--" + BOUNDARY + b"--\r\n"


def w2_body() -> bytes:
    if (f := work_file("w2.body")) is not None:
        return f.read_bytes()
    rnd = random.Random(2)
    alnum = string.ascii_letters + string.digits
    out = [part(f"field{i:05d}", "".join(rnd.choices(alnum, k=rnd.randint(16, 24))).encode()) for i in range(10000)]
    return b"".join(out) + b"--" + BOUNDARY + b"--\r\n"


def counts():
    return dict(parts=0, fields=0, files=0, field_bytes=0, file_bytes=0)


def run_python_multipart(chunks):
    from python_multipart.multipart import MultipartParser

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

    p = MultipartParser(BOUNDARY, callbacks=dict(on_part_begin=on_part_begin, on_header_value=on_header_value,
                                                  on_headers_finished=on_headers_finished, on_part_data=on_part_data,
                                                  on_part_end=on_part_end))
    for ch in chunks:
        p.write(ch)
    p.finalize()
    return c


def run_defnull(defnull, chunks):
    c = counts()
    file = False
    buf: list = []
    with defnull.PushMultipartParser(BOUNDARY, max_segment_count=float("inf")) as p:
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
                else:
                    if file:
                        c["files"] += 1
                    else:
                        v = b"".join(buf).decode()
                        c["fields"] += 1
                        c["field_bytes"] += len(v)
    return c


def run_formwire(chunks):
    """The streaming API with the same per-event work as the incumbents' rows."""
    c = counts()
    file = False
    buf: list = []
    Part, PART_END = multipart.Part, multipart.PART_END
    p = multipart.Parser(BOUNDARY, max_parts=None)
    for ch in chunks:
        for ev in p.feed(ch):
            if type(ev) is memoryview or type(ev) is bytes:
                if file:
                    c["file_bytes"] += len(ev)
                else:
                    buf.append(ev)
            elif type(ev) is Part:
                c["parts"] += 1
                file = ev.is_file
                buf = []
            elif ev is PART_END:
                if file:
                    c["files"] += 1
                else:
                    v = b"".join(buf).decode()
                    c["fields"] += 1
                    c["field_bytes"] += len(v)
    p.close()
    return c


def run_formwire_buffered(chunks):
    """``buffer_fields=True``: each text field is one ``(name, value)`` tuple."""
    c = counts()
    file = False
    Part, PART_END = multipart.Part, multipart.PART_END
    p = multipart.Parser(BOUNDARY, max_parts=None, buffer_fields=True)
    for ch in chunks:
        for ev in p.feed(ch):
            t = type(ev)
            if t is tuple:
                c["parts"] += 1
                c["fields"] += 1
                c["field_bytes"] += len(ev[1])
            elif t is memoryview or t is bytes:
                c["file_bytes"] += len(ev)
            elif t is Part:
                c["parts"] += 1
            elif ev is PART_END:
                c["files"] += 1
    p.close()
    return c


def run_parse_form(body):
    with formwire.parse_form(body, CT, max_parts=None) as form:
        return len(form.multi_items())


def report(name: str, rows: dict[str, float], ours: str, targets: dict[str, float]) -> None:
    print(f"\n{name}")
    for k, v in rows.items():
        print(f"  {k:45s} {v:9.2f} ms")
    for inc, want in targets.items():
        if inc in rows and ours in rows:
            r = rows[inc] / rows[ours]
            print(f"  ratio {inc} / {ours}: {r:.2f}x (target >= {want}x) {'PASS' if r >= want else 'FAIL'}")


def w1(defnull) -> None:
    body = w1_body()
    chunks = [body[i:i + CHUNK] for i in range(0, len(body), CHUNK)]
    ref = run_python_multipart(chunks)
    assert run_formwire(chunks) == ref, (run_formwire(chunks), ref)
    rows = {"formwire Parser.feed": timeit(lambda: run_formwire(chunks)),
            "python-multipart MultipartParser": timeit(lambda: run_python_multipart(chunks), 5)}
    if defnull:
        assert run_defnull(defnull, chunks) == ref
        rows["defnull PushMultipartParser"] = timeit(lambda: run_defnull(defnull, chunks), 5)
    report("W1 big file (64 KiB chunks)", rows, "formwire Parser.feed",
           {"python-multipart MultipartParser": 2.5, "defnull PushMultipartParser": 2.5})


def w2(defnull) -> None:
    body = w2_body()
    chunks = [body[i:i + CHUNK] for i in range(0, len(body), CHUNK)]
    ref = run_python_multipart(chunks)
    assert run_formwire(chunks) == ref
    assert run_formwire_buffered(chunks) == ref, (run_formwire_buffered(chunks), ref)
    rows = {"formwire Parser(buffer_fields=True)": timeit(lambda: run_formwire_buffered(chunks), 21),
            "formwire parse_form (whole body)": timeit(lambda: run_parse_form(body), 21),
            "formwire Parser.feed (per-event loop)": timeit(lambda: run_formwire(chunks), 11),
            "python-multipart MultipartParser": timeit(lambda: run_python_multipart(chunks))}
    if defnull:
        assert run_defnull(defnull, chunks) == ref
        rows["defnull PushMultipartParser"] = timeit(lambda: run_defnull(defnull, chunks))
    report("W2 10,000 fields (64 KiB chunks)", rows, "formwire Parser(buffer_fields=True)",
           {"python-multipart MultipartParser": 10, "defnull PushMultipartParser": 5})


def w4() -> None:
    rnd = random.Random(4)
    specials = ["café", "€", "😀", "привет", "a&b", "x=y", "100%"]
    pairs = []
    size = 0
    i = 0
    while size < (1 << 20):
        k = f"key{i:05d}"
        r = rnd.random()
        if r < 0.4:
            v = " ".join("".join(rnd.choices(string.ascii_lowercase, k=5)) for _ in range(3))
        elif r < 0.55:
            v = rnd.choice(specials) + str(i)
        else:
            v = "".join(rnd.choices(string.ascii_letters + string.digits, k=30))
        item = quote_plus(k) + "=" + quote_plus(v)
        pairs.append(item)
        size += len(item) + 1
        i += 1
    s = "&".join(pairs)
    if (f := work_file("w4.txt")) is not None:
        s = f.read_bytes().decode("ascii")
        pairs = s.split("&")
    assert dict(urlencoded.parse(s, max_pairs=None)) == dict(parse_qsl(s, keep_blank_values=True))
    assert urlencoded.parse_dict(s, max_pairs=None) == dict(parse_qsl(s, keep_blank_values=True))
    rows = {"formwire urlencoded.parse_dict": timeit(lambda: urlencoded.parse_dict(s, max_pairs=None), 21),
            "formwire urlencoded.parse -> dict": timeit(lambda: dict(urlencoded.parse(s, max_pairs=None)), 21),
            "formwire urlencoded.parse (list)": timeit(lambda: urlencoded.parse(s, max_pairs=None), 21),
            "urllib.parse.parse_qsl -> dict": timeit(lambda: dict(parse_qsl(s, keep_blank_values=True)), 11)}
    report(f"W4 urlencoded ({len(s)} B, {len(pairs)} pairs)", rows, "formwire urlencoded.parse_dict",
           {"urllib.parse.parse_qsl -> dict": 5})


def w5(encode_multipart_formdata) -> None:
    rnd = random.Random(5)
    blob = rnd.randbytes(10 << 20)
    fields = [(f"field{i:04d}", "".join(rnd.choices(string.ascii_letters, k=20))) for i in range(1000)]
    if (fb := work_file("w5.blob")) is not None and (ff := work_file("w5.fields.json")) is not None:
        import json

        blob = fb.read_bytes()
        fields = [tuple(x) for x in json.loads(ff.read_text())]

    def fw():
        return multipart.encode(fields + [("blob", multipart.File(blob, "blob.bin", "application/octet-stream"))]).to_bytes()

    rows = {"formwire multipart.encode(...).to_bytes()": timeit(fw, 21)}
    if encode_multipart_formdata:
        def u3():
            return encode_multipart_formdata(fields + [("blob", ("blob.bin", blob, "application/octet-stream"))])[0]

        rows["urllib3 encode_multipart_formdata"] = timeit(u3, 11)
    report("W5 encode 1,000 fields + 10 MiB blob", rows, "formwire multipart.encode(...).to_bytes()",
           {"urllib3 encode_multipart_formdata": 3})


def main() -> None:
    want = [a for a in sys.argv[1:] if not a.startswith("--")] or ["W1", "W2", "W4", "W5"]
    print("inputs:", "bench/.work/full (bench/run's)" if USE_WORK else "synthetic (same shapes)")
    defnull = load_defnull()
    if "W1" in want:
        w1(defnull)
    if "W2" in want:
        w2(defnull)
    if "W4" in want:
        w4()
    if "W5" in want:
        w5(load_urllib3())


if __name__ == "__main__":
    main()
