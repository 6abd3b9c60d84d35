#!/usr/bin/env python3
"""Starlette upload throughput: stock (python-multipart) vs ``formwire.compat.starlette.install()``.

One command, from the repository root (after ``make python-build``):

    python3 bench/python/starlette/run_starlette.py                 # both server stacks, both workloads
    python3 bench/python/starlette/run_starlette.py --quick         # fewer requests, 3 runs: a smoke test (not for results)
    python3 bench/python/starlette/run_starlette.py --profile       # cProfile in each server, no timing
    python3 bench/python/starlette/run_starlette.py --render        # RESULTS.md again from results.json + NOTES.md

What it does:

1. Environment: ``bench/python/starlette/.venv`` (made once, with the interpreter of the repo-root ``.venv``, no system site
   packages) gets the pinned ``requirements.txt`` (starlette, python-multipart, uvicorn, httptools, uvloop) from PyPI;
   formwire itself is the repository's editable build: a ``.pth`` file points at ``python/src``, where
   ``make python-build`` puts the compiled extension (the same thing the repo-root ``.venv`` imports). The load client
   is ``wrk`` (Debian's package; installed with apt-get when missing and running as root).
2. Bodies: a multipart form with 10 small text fields (some UTF-8), and one with a single 10 MiB file (seeded random
   bytes), in Chrome's format; written to ``bench/python/starlette/.work``.
3. Servers: ``starlette_app.py`` once per server, in separate processes, on 127.0.0.1 only: ``--parser stock``,
   ``formwire`` (``install()``, the native path), ``callbacks`` (``install(native=False)``), and the no-parser
   ``floor`` and ``floor_batched``; each stops by itself after a bounded number of requests or a time cap.
4. Correctness first: every body goes to ``/verify`` on both servers; the full form contents (values, file
   SHA-256, headers) must be identical to each other and to what was generated, or the run fails. During timing, wrk
   checks every response's status and body (the exact counts).
5. Timing: per stack and workload, a warm-up, then ``--runs`` runs of a bounded number of requests per server
   (interleaved, alternating the order), wrk with fixed connections. The servers run pinned to
   CPU 1 and wrk to CPU 0 (``taskset``) so the client does not compete with the server for its core. Reported: the
   median requests/s per server, the ratio, and the server's CPU time per request (utime+stime of the server
   process, all threads; steadier than requests/s on a shared machine).
6. Output: a table on stdout, ``bench/python/starlette/results.json`` and ``bench/python/starlette/RESULTS.md``.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import http.client
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import venv as _venv  # noqa: F401  (fails early on interpreters without venv)
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
BENCH_VENV = HERE / ".venv"
sys.path.insert(0, str(ROOT / "bench" / "lib"))
from cpu import cpu_info  # noqa: E402
WORK = HERE / ".work"
REQS = HERE / "requirements.txt"
LUA = HERE / "upload.lua"
APP = HERE / "starlette_app.py"

MiB = 1 << 20

# (name, description, requests per timed run, wrk connections, warm-up requests) at full size
WORKLOADS = {
    "fields10": ("multipart, 10 small text fields", 3000, 8, 1000),
    "file10m": ("multipart, one 10 MiB file", 60, 2, 15),
}
STACKS = {
    "h11": "uvicorn, h11 + asyncio (uvicorn's pure-Python default)",
    "httptools": "uvicorn, httptools + uvloop (uvicorn[standard])",
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------------
# environment


def bench_python() -> Path:
    return BENCH_VENV / "bin" / "python"


def ensure_env() -> None:
    py = bench_python()
    stamp = BENCH_VENV / ".bench-installed"
    if not py.exists():
        base = ROOT / ".venv" / "bin" / "python"
        if not base.exists():
            sys.exit("no repo-root .venv: run `make python-build` first")
        log(f"creating {BENCH_VENV.relative_to(ROOT)} (interpreter of .venv, no system site packages)")
        # `-m venv` run from inside a venv makes the new one from the same base interpreter
        subprocess.run([str(base), "-m", "venv", str(BENCH_VENV)], check=True)
    if not stamp.exists() or stamp.stat().st_mtime < REQS.stat().st_mtime:
        log("pip install -r bench/python/starlette/requirements.txt")
        subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", str(REQS)],
                       check=True)
        stamp.touch()
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    pth = Path(site) / "formwire-repo.pth"
    want = str(ROOT / "python" / "src") + "\n"
    if not pth.exists() or pth.read_text() != want:
        pth.write_text(want)  # the editable build: python/src holds formwire and its compiled extension
    r = subprocess.run([str(py), "-c", "import formwire._formwire, formwire; print(formwire.__file__)"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("formwire's extension does not import in bench/python/starlette/.venv (run `make python-build`):\n" + r.stderr)
    if shutil.which("wrk") is None:
        if os.geteuid() == 0 and shutil.which("apt-get"):
            log("apt-get install -y wrk")
            subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], check=True, stdout=subprocess.DEVNULL)
        if shutil.which("wrk") is None:
            sys.exit("wrk is needed (Debian: apt-get install wrk)")


def versions() -> dict:
    code = (
        "import importlib.metadata as m, json, sys, formwire\n"
        "v = {p: m.version(p) for p in ['starlette', 'python-multipart', 'uvicorn', 'h11', 'httptools', 'uvloop', 'anyio']}\n"
        "v['formwire'] = formwire.__version__\n"
        "v['python'] = sys.version.split()[0] + ' (' + sys.implementation.name + ')'\n"
        "print(json.dumps(v))\n"
    )
    v = json.loads(subprocess.run([str(bench_python()), "-c", code], check=True, capture_output=True, text=True).stdout)
    wrk = subprocess.run(["wrk", "--version"], capture_output=True, text=True)
    v["wrk"] = (wrk.stdout + wrk.stderr).split("Copyright")[0].replace("wrk ", "").strip()
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "python/src", "rust/crates/formwire",
                                "rust/crates/formwire-py"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        v["formwire_commit"] = head + (" (+ uncommitted changes in python/src or rust/)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        v["formwire_commit"] = "?"
    return v


def machine() -> dict:
    cpu = cpu_info()[0]
    mem = "?"
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kb / (1 << 20):.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return {"os": platform.platform(), "cpu": cpu, "cpus": os.cpu_count(), "memory": mem}


# ---------------------------------------------------------------------------------------------------------------
# request bodies


def _boundary(rng: random.Random) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "----WebKitFormBoundary" + "".join(rng.choice(alphabet) for _ in range(16))


def _disposition(name: str, filename: str | None = None) -> bytes:
    # Chrome's escaping of names and filenames (LF, CR, '"' percent-encoded); the names here need none
    s = f'Content-Disposition: form-data; name="{name}"'
    if filename is not None:
        s += f'; filename="{filename}"'
    return s.encode("utf-8")


def make_bodies() -> dict:
    """Writes the two request bodies; returns {workload: (path, content_type, expected /verify items, counts)}."""
    WORK.mkdir(exist_ok=True)
    rng = random.Random(20240611)
    out = {}

    fields = [
        ("username", "alice_w"),
        ("email", "alice@example.com"),
        ("first_name", "Alice"),
        ("last_name", "Wonderland-Liddell"),
        ("city", "Zürich"),
        ("comment", "Looks good: ship it. Café ☕ — 日本語 ok"),
        ("age", "34"),
        ("newsletter", "on"),
        ("csrf_token", "f2a9c1d4e5b6a7980123456789abcdef"),
        ("submit", "Save changes"),
    ]
    b = _boundary(rng)
    parts = []
    for name, value in fields:
        parts.append(b"--" + b.encode() + b"\r\n" + _disposition(name) + b"\r\n\r\n" + value.encode("utf-8") + b"\r\n")
    body = b"".join(parts) + b"--" + b.encode() + b"--\r\n"
    path = WORK / "fields10.body"
    path.write_bytes(body)
    items: list[dict] = [{"name": n, "value": v} for n, v in fields]
    counts = {"fields": len(fields), "field_chars": sum(len(v) for _, v in fields), "files": 0, "file_bytes": 0}
    out["fields10"] = (path, f"multipart/form-data; boundary={b}", items, counts)

    b = _boundary(rng)
    data = rng.randbytes(10 * MiB)
    assert b.encode() not in data
    body = (b"--" + b.encode() + b"\r\n" + _disposition("file", "upload.bin") + b"\r\n"
            + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n--" + b.encode() + b"--\r\n")
    path = WORK / "file10m.body"
    path.write_bytes(body)
    items = [{
        "name": "file", "filename": "upload.bin", "content_type": "application/octet-stream",
        "headers": [["content-disposition", 'form-data; name="file"; filename="upload.bin"'],
                    ["content-type", "application/octet-stream"]],
        "size": len(data), "read": len(data), "sha256": hashlib.sha256(data).hexdigest(),
    }]
    counts = {"fields": 0, "field_chars": 0, "files": 1, "file_bytes": len(data)}
    out["file10m"] = (path, f"multipart/form-data; boundary={b}", items, counts)
    return out


def counts_body(c: dict) -> str:
    return '{"fields":%d,"field_chars":%d,"files":%d,"file_bytes":%d}' % (
        c["fields"], c["field_chars"], c["files"], c["file_bytes"])


# ---------------------------------------------------------------------------------------------------------------
# servers and client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, parser: str, stack: str, max_requests: int, max_seconds: float, cpu: str | None,
                 profile: Path | None = None) -> None:
        self.parser, self.stack = parser, stack
        self.port = free_port()
        cmd = [str(bench_python()), str(APP), "--parser", parser, "--port", str(self.port), "--stack", stack,
               "--max-requests", str(max_requests), "--max-seconds", str(max_seconds)]
        if profile is not None:
            cmd += ["--profile", str(profile)]
        if cpu is not None:
            cmd = ["taskset", "-c", cpu] + cmd  # taskset execs: the pid is the server's
        self.proc = subprocess.Popen(cmd, cwd=HERE)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise SystemExit(f"{parser} server exited with {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise SystemExit(f"{parser} server did not start") from None
                time.sleep(0.1)

    def request(self, method: str, path: str, body: bytes | None = None, ct: str | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers = {"Content-Type": ct} if ct else {}
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()

    def cpu_seconds(self) -> tuple[float, float]:
        """(user, system) CPU seconds of the server process so far, every thread (live or ended) included."""
        f = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        tck = os.sysconf("SC_CLK_TCK")
        return int(f[11]) / tck, int(f[12]) / tck

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown (and the profile dump)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def run_wrk(server: Server, body: Path, ct: str, expect: str, n: int, conns: int, cap: float,
            cpu: str | None) -> dict:
    env = dict(os.environ, FW_BODY=str(body), FW_CT=ct, FW_N=str(n), FW_EXPECT=expect)
    cmd = ["wrk", "-t1", f"-c{conns}", f"-d{int(cap)}s", "--timeout", "30s", "-s", str(LUA),
           f"http://127.0.0.1:{server.port}/upload"]
    if cpu is not None:
        cmd = ["taskset", "-c", cpu] + cmd
    c0 = server.cpu_seconds()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    assert proc.stdout is not None
    for ln in proc.stdout:  # ends at wrk's exit: its -d cap, or the SIGINT below
        if ln.startswith("FW_DONE"):
            proc.send_signal(signal.SIGINT)
        lines.append(ln)
    proc.wait(timeout=60)
    c1 = server.cpu_seconds()
    line = [ln for ln in lines if ln.startswith("{")]
    if proc.returncode != 0 or not line:
        raise SystemExit(f"wrk failed ({proc.returncode}):\n{''.join(lines)}\n{proc.stderr.read() if proc.stderr else ''}")
    res = json.loads(line[-1])
    errors = sum(res[k] for k in ("err_connect", "err_read", "err_write", "err_status", "err_timeout"))
    if res["bad"] or errors:
        raise SystemExit(f"{server.parser} server: {res['bad']} wrong responses, {errors} errors "
                         f"(first: {res['first_bad']!r})")
    if res["requests"] < n:
        log(f"  warning: time cap hit after {res['requests']} of {n} requests")
    secs = res["duration_us"] / 1e6
    return {
        "requests": res["requests"],
        "seconds": round(secs, 4),
        "rps": round(res["requests"] / secs, 2),
        "server_cpu_ms_per_req": round((c1[0] + c1[1] - c0[0] - c0[1]) * 1000 / max(res["requests"], 1), 4),
        "server_sys_ms_per_req": round((c1[1] - c0[1]) * 1000 / max(res["requests"], 1), 4),
        "lat_p50_ms": round(res["lat_p50_us"] / 1000, 3),
        "lat_p99_ms": round(res["lat_p99_us"] / 1000, 3),
    }


# ---------------------------------------------------------------------------------------------------------------
# the bench


PARSE_MODULE = {  # what each server's Starlette must be using (its /parser endpoint)
    "stock": ("python_multipart.multipart", "starlette.formparsers"),
    "formwire": ("formwire.compat.starlette", "formwire.compat.starlette"),
    "callbacks": ("formwire.compat.starlette", "starlette.formparsers"),
}
FLOORS = ("floor", "floor_batched")
SERVER_LABELS = {
    "stock": "stock Starlette (python-multipart)",
    "formwire": "formwire.compat.starlette.install() as shipped (the native path: MultiPartParser.parse over formwire's events)",
    "callbacks": "install(native=False): Starlette's own parse over formwire's python-multipart callback shim (the previous shim)",
    "floor": "no parser at all (the body streamed; a file-sized body spooled and read back, written chunk by chunk as Starlette does)",
    "floor_batched": "the floor with the native path's spooled writes (1 MiB of chunks per thread-pool trip)",
}


def verify(servers: dict, bodies: dict) -> None:
    """Every body through /verify on every parsing server: identical contents, equal to what was sent."""
    for parser, srv in servers.items():
        status, got = srv.request("GET", "/parser")
        info = json.loads(got)
        if status != 200 or (info["multipart"], info["parse"]) != PARSE_MODULE[parser] or info["floor"]:
            raise SystemExit(f"{parser} server parses with {info}, expected {PARSE_MODULE[parser]}")
    for wl, (path, ct, items, counts) in bodies.items():
        body = path.read_bytes()
        for parser, srv in servers.items():
            status, got = srv.request("POST", "/verify", body, ct)
            if status != 200:
                raise SystemExit(f"{wl}: {parser} /verify answered {status}: {got[:300]!r}")
            seen = json.loads(got)["items"]
            if seen != items:
                raise SystemExit(f"{wl}: the {parser} server read a different form:\n read {seen}\n sent {items}")
            status, got = srv.request("POST", "/upload", body, ct)
            if status != 200 or got.decode() != counts_body(counts):
                raise SystemExit(f"{wl}: {parser} /upload answered {status} {got[:300]!r}, "
                                 f"expected {counts_body(counts)}")
        log(f"  verified {wl}: {', '.join(servers)} read the same {len(items)} item(s), identical to what was sent")


def bench_stack(stack: str, bodies: dict, workloads: list, names: list, runs: int, scale: float, pin: bool,
                cap: float) -> dict:
    srv_cpu, cli_cpu = ("1", "0") if pin else (None, None)
    plan = {wl: (max(int(WORKLOADS[wl][1] * scale), 10), WORKLOADS[wl][2], max(int(WORKLOADS[wl][3] * scale), 5))
            for wl in workloads}
    # every request a server can get (verify, warm-up, runs, requests in flight when wrk stops), with room to spare
    budget = 100 + sum((warm + runs * n + 4 * conns) * 2 for n, conns, warm in plan.values())
    max_seconds = 60 + len(workloads) * (runs + 1) * len(names) * cap
    servers = {}
    out = {}
    try:
        for p in names:
            servers[p] = Server(p, stack, budget, max_seconds, srv_cpu)
        verify({p: s for p, s in servers.items() if p not in FLOORS}, bodies)
        for p in FLOORS:
            if p in servers:
                status, got = servers[p].request("GET", "/parser")
                if status != 200 or not json.loads(got)["floor"]:
                    raise SystemExit(f"the {p} server is not a floor")
        for wl in workloads:
            path, ct, _items, counts = bodies[wl]
            n, conns, warm = plan[wl]
            expect = counts_body(counts)
            log(f"  {stack} / {wl}: warm-up {warm} requests per server, then {runs} x {n} requests, "
                f"{conns} connections")
            for p in names:
                run_wrk(servers[p], path, ct, "" if p in FLOORS else expect, warm, conns, cap, cli_cpu)
            res: dict = {p: [] for p in names}
            for i in range(runs):
                order = names if i % 2 == 0 else names[::-1]  # interleaved; who goes first alternates
                for p in order:
                    r = run_wrk(servers[p], path, ct, "" if p in FLOORS else expect, n, conns, cap, cli_cpu)
                    res[p].append(r)
                    log(f"    run {i + 1} {p:8s} {r['rps']:10.1f} req/s  server CPU {r['server_cpu_ms_per_req']:.3f} "
                        f"ms/req")
            med = {p: statistics.median(r["rps"] for r in res[p]) for p in res}
            cpu = {p: statistics.median(r["server_cpu_ms_per_req"] for r in res[p]) for p in res}
            sys_ = {p: statistics.median(r["server_sys_ms_per_req"] for r in res[p]) for p in res}
            r = out[wl] = {
                "workload": WORKLOADS[wl][0],
                "requests_per_run": n,
                "connections": conns,
                "warmup_requests": warm,
                "body_bytes": path.stat().st_size,
                "median_rps": {p: round(v, 2) for p, v in med.items()},
                # requests/s of each server over stock's (the target's measure), and stock's CPU/request over its
                "rps_ratio": {p: round(med[p] / med["stock"], 3) for p in names if p != "stock"},
                "median_server_cpu_ms_per_req": {p: round(v, 4) for p, v in cpu.items()},
                "median_server_sys_ms_per_req": {p: round(v, 4) for p, v in sys_.items()},  # kernel part of it
                "cpu_ratio": {p: round(cpu["stock"] / cpu[p], 3) if cpu[p] else None for p in names if p != "stock"},
                "runs": res,
            }
            if "floor" in names:
                # the server's CPU/request above the no-parser floor that spools files the same way (formwire's
                # native path: floor_batched; Starlette's own parse: floor): the form work a parser can influence
                def floor_of(p: str) -> str:
                    return "floor_batched" if p == "formwire" and "floor_batched" in names else "floor"

                r["form_cpu_ms_per_req"] = {p: round(cpu[p] - cpu[floor_of(p)], 4) for p in names if p not in FLOORS}
    finally:
        for s in servers.values():
            s.stop()
    return out


def profile_stack(stack: str, bodies: dict, workloads: list, names: list, n_scale: float, pin: bool,
                  cap: float) -> None:
    """Each server under cProfile for one workload at a time; writes where the time goes to .work/profile-*.txt."""
    import pstats

    srv_cpu, cli_cpu = ("1", "0") if pin else (None, None)
    for wl in workloads:
        path, ct, _items, counts = bodies[wl]
        n = max(int(WORKLOADS[wl][1] * n_scale), 10)
        for p in names:
            prof = WORK / f"profile-{stack}-{wl}-{p}.prof"
            srv = Server(p, stack, n + 100, 60 + 2 * cap, srv_cpu, profile=prof)
            try:
                r = run_wrk(srv, path, ct, "" if p in FLOORS else counts_body(counts), n, WORKLOADS[wl][2], cap,
                            cli_cpu)
            finally:
                srv.stop()
            txt = WORK / f"profile-{stack}-{wl}-{p}.txt"
            with txt.open("w") as f:
                st = pstats.Stats(str(prof), stream=f)
                f.write(f"# {stack} / {wl} / {p}: {r['requests']} requests under cProfile ({r['rps']} req/s)\n")
                st.sort_stats("tottime").print_stats(30)
                st.sort_stats("cumulative").print_stats(50)
            log(f"  {stack} / {wl} / {p}: {r['requests']} requests profiled -> {txt.relative_to(ROOT)}")


def fmt_table(results: dict, names: list) -> str:
    others = [p for p in names if p != "stock"]
    head = ["server stack", "workload", "stock req/s"]
    for p in others:
        head += [f"{p} req/s", f"{p} / stock"]
    head += [f"server CPU/req: {p}" for p in names]
    if "floor" in names:
        head += [f"form work/req: {p}" for p in names if p not in FLOORS]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    for stack, wls in results.items():
        for r in wls.values():
            m, c = r["median_rps"], r["median_server_cpu_ms_per_req"]
            row = [stack, r["workload"], f"{m['stock']:.1f}"]
            for p in others:
                x = r["rps_ratio"][p]
                row += [f"{m[p]:.1f}", f"**{x:.2f}x**" if p == "formwire" else f"{x:.2f}x"]
            row += [f"{c[p]:.3f} ms" for p in names]
            if "floor" in names:
                row += [f"{r['form_cpu_ms_per_req'][p]:.3f} ms" for p in names if p not in FLOORS]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def fmt_spread(results: dict, names: list) -> str:
    lines = ["| server stack | workload | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for stack, wls in results.items():
        for wl, r in wls.items():
            row = [stack, wl]
            for p in names:
                rps = [x["rps"] for x in r["runs"][p]]
                cpu = [x["server_cpu_ms_per_req"] for x in r["runs"][p]]
                row.append(f"{min(rps):.1f}–{max(rps):.1f} req/s; {min(cpu):.3f}–{max(cpu):.3f} ms")
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def write_results(doc: dict) -> None:
    (HERE / "results.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    v, m, names = doc["versions"], doc["machine"], doc["servers"]
    target = doc["target_ratio"]
    verdicts = []
    for stack, wls in doc["results"].items():
        for r in wls.values():
            x = r["rps_ratio"]["formwire"]
            line = f"- {stack}, {r['workload']}: formwire {x:.2f}x the requests/s of stock — target {target}x " \
                   f"{'met' if x >= target else '**not met**'}"
            extra = []
            if "cpu_ratio" in r:
                extra.append(f"server CPU/req stock/formwire {r['cpu_ratio']['formwire']:.2f}x")
            if "callbacks" in r["rps_ratio"]:
                extra.append(f"the callback shim {r['rps_ratio']['callbacks']:.2f}x requests/s "
                             f"(CPU {r['cpu_ratio']['callbacks']:.2f}x)")
            if "floor" in r["rps_ratio"]:
                extra.append(f"no parser at all {r['rps_ratio']['floor']:.2f}x requests/s "
                             f"(CPU {r['cpu_ratio']['floor']:.2f}x): the ceiling for any parser writing as Starlette does")
            if "floor_batched" in r["rps_ratio"]:
                extra.append(f"with batched writes {r['rps_ratio']['floor_batched']:.2f}x "
                             f"(CPU {r['cpu_ratio']['floor_batched']:.2f}x)")
            verdicts.append(line + ("; " + "; ".join(extra) if extra else ""))
    first = next(iter(doc["results"].values()))
    md = f"""# Starlette upload endpoint: stock vs formwire

Generated by `{doc['command']}` on {doc['date']} (this file and `results.json` are rewritten by each full run;
`NOTES.md`, when present, is appended below).

Target: through `formwire.compat.starlette.install()`, at least {target}x the requests/s of stock Starlette
(python-multipart) on the same upload endpoint.

{fmt_table(doc['results'], names)}

{chr(10).join(verdicts)}

Spread over the runs (requests/s, min–max per server; server CPU/req in ms, min–max):

{fmt_spread(doc['results'], names)}

Servers: {'; '.join(f'**{p}** = {SERVER_LABELS[p]}' for p in names)}.

Medians of {doc['runs']} runs per server (interleaved, alternating the order), after a warm-up. "server CPU/req" is
the server process's user+system CPU time (all its threads) over the requests it served: less sensitive than
requests/s to other load on a shared machine. "form work/req" is a server's CPU/req minus that of the floor that
spools files as it does (formwire: floor_batched when measured; stock and callbacks: floor): what the form parsing
and Starlette's per-part bookkeeping cost. Load average (1 min) {doc['loadavg_before']} before,
{doc['loadavg_after']} after the run.

## Setup

- Endpoint (`starlette_app.py`): `form = await request.form()`, every field's length summed, every file read fully
  (`await f.read()`), `await form.close()`; the answer is the counts, byte-identical for every parsing server and
  checked by wrk on every response (`upload.lua`). Before timing, `/verify` returned the full contents (values, file
  SHA-256, part headers) from each parsing server, identical to what was sent.
- Servers: uvicorn on 127.0.0.1, one process each, {'pinned to CPU 1 with `taskset`' if doc['pinned'] else 'not pinned'},
  access log off. Stacks: {'; '.join(f'`{k}` = {STACKS[k]}' for k in doc['results'])}.
- Client: `wrk -t1`{' pinned to CPU 0' if doc['pinned'] else ''}, keep-alive connections, a bounded number of requests per run (then SIGINT),
  time cap {doc['cap_seconds']:.0f} s per run: {'; '.join(f"{wl}: {r['requests_per_run']} requests, {r['connections']} connections, warm-up {r['warmup_requests']}" for wl, r in first.items())}.
- Bodies (`.work/`, made by the runner): Chrome's multipart format; 10 text fields of 2 to 45 bytes (some UTF-8);
  one 10 MiB file of seeded random bytes.

## Machine and versions

- {m['os']}; {m['cpu']}; {m['cpus']} CPUs; {m['memory']}; shared with other work (see the load average)
- Python {v['python']}; starlette {v['starlette']}; python-multipart {v['python-multipart']}; uvicorn {v['uvicorn']};
  h11 {v['h11']}; httptools {v['httptools']}; uvloop {v['uvloop']}; anyio {v['anyio']}; wrk {v['wrk']}
- formwire {v['formwire']} at {v['formwire_commit']}
"""
    if doc.get("notes"):
        md += "\n" + doc["notes"].strip() + "\n"
    (HERE / "RESULTS.md").write_text(md)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stacks", default="h11,httptools", help="comma-separated: h11, httptools")
    ap.add_argument("--workloads", default="fields10,file10m", help="comma-separated: fields10, file10m")
    ap.add_argument("--servers", default="stock,formwire,callbacks,floor,floor_batched",
                    help="comma-separated, stock first: stock, formwire, callbacks, floor, floor_batched")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies the requests per run")
    ap.add_argument("--cap", type=float, default=60.0, help="time cap per wrk run, seconds")
    ap.add_argument("--no-pin", action="store_true", help="do not pin server and client to separate CPUs")
    ap.add_argument("--quick", action="store_true", help="3 runs of a quarter of the requests; writes no results")
    ap.add_argument("--profile", action="store_true", help="cProfile each server instead of timing")
    ap.add_argument("--target", type=float, default=1.5)
    ap.add_argument("--render", action="store_true",
                    help="only rewrite RESULTS.md from results.json (and NOTES.md); measures nothing")
    args = ap.parse_args()
    if args.render:
        doc = json.loads((HERE / "results.json").read_text())
        notes = HERE / "NOTES.md"
        doc.pop("notes", None)
        if notes.exists():
            doc["notes"] = notes.read_text()
        write_results(doc)
        log("rewrote bench/python/starlette/RESULTS.md (and results.json's notes) from results.json")
        return
    stacks = [s for s in args.stacks.split(",") if s]
    workloads = [w for w in args.workloads.split(",") if w]
    names = [s for s in args.servers.split(",") if s]
    for s in stacks:
        if s not in STACKS:
            ap.error(f"unknown stack {s}")
    for w in workloads:
        if w not in WORKLOADS:
            ap.error(f"unknown workload {w}")
    if names[:1] != ["stock"] or "formwire" not in names or any(p not in SERVER_LABELS for p in names):
        ap.error("--servers: stock first, formwire among them, from: " + ", ".join(SERVER_LABELS))
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.quick:
        args.runs, args.scale = 3, args.scale * 0.25
    pin = not args.no_pin and (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None

    ensure_env()
    bodies = make_bodies()
    if args.profile:
        for stack in stacks:
            profile_stack(stack, bodies, workloads, names, args.scale * 0.5, pin, args.cap)
        return

    load0 = f"{os.getloadavg()[0]:.2f}"
    results = {}
    for stack in stacks:
        log(f"{stack}: {STACKS[stack]}")
        results[stack] = bench_stack(stack, bodies, workloads, names, args.runs, args.scale, pin, args.cap)
    load1 = f"{os.getloadavg()[0]:.2f}"
    print(fmt_table(results, names))
    for stack, wls in results.items():
        for wl, r in wls.items():
            x = r["rps_ratio"]["formwire"]
            print(f"{stack} {wl}: formwire {x:.2f}x stock requests/s ({'met' if x >= args.target else 'NOT met'} "
                  f"{args.target}x), server CPU/req stock/formwire {r['cpu_ratio']['formwire']:.2f}x; "
                  + ", ".join(f"{p} {v:.2f}x" for p, v in r["rps_ratio"].items() if p != "formwire"))
    if args.quick:
        log("--quick: results not written")
        return
    doc = {
        "command": " ".join(["python3 bench/python/starlette/run_starlette.py"] + sys.argv[1:]),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "target_ratio": args.target,
        "servers": names,
        "server_labels": {p: SERVER_LABELS[p] for p in names},
        "runs": args.runs,
        "cap_seconds": args.cap,
        "pinned": pin,
        "machine": machine(),
        "versions": versions(),
        "loadavg_before": load0,
        "loadavg_after": load1,
        "results": results,
    }
    notes = HERE / "NOTES.md"
    if notes.exists():
        doc["notes"] = notes.read_text()
    write_results(doc)
    log("wrote bench/python/starlette/results.json and bench/python/starlette/RESULTS.md")


if __name__ == "__main__":
    main()
