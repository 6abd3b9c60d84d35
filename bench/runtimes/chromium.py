#!/usr/bin/env python3
"""native.mjs's rows in headless Chromium: formwire's ESM build against the page's own natives, same page, same inputs
(bench/runtimes/chromium-page.mjs; inputs from bench/runtimes/inputs.mjs). Writes $OUT (bench/runtimes/run chromium:
bench/results/runtimes-chromium.json) in the shape of the other runtimes' files.

Chromium is Debian's package, started and driven as ts-browser and interop/ do (interop/harness/chromium.py: the
DevTools protocol on a pipe), with V8's gc() exposed (--js-flags=--expose-gc). The page is served from a loopback
server with a snapshot of ts/dist taken at start (other builds may rewrite ts/dist during a run).

Timing: a page has no CPU clock, so for each timed run the driver reads the CPU time of the page's renderer process
(all its threads: the page's main thread, its Workers, V8's helper threads; Linux /proc/<pid>/task/*/schedstat, in
ns) before and after one Runtime.evaluate of window.__bench.run(op, inner); the page measures the wall time of the
same `inner` operations with performance.now(). Medians of REPS runs after one warm-up run. The GC profile repeats
each side's runs with gc() and a settle (the renderer's background CPU quiet) before each, as bench/node/cases.mjs.

Peak memory (W1, PEAK_MIB MiB file generated as read): one parse per fresh browser; growth = VmHWM after - VmRSS
before, summed over Chromium's processes but the browser UI's renderer (the page's renderer parses; file Blobs are kept by
the browser process's blob registry), each process's high-water mark reset first (/proc/<pid>/clear_refs). In-page memory APIs give no peak:
performance.memory is the JS heap now (not the ArrayBuffers and Blobs a parse holds) and
performance.measureUserAgentSpecificMemory() a later sample of the page's memory, not a high-water mark.

Environment: OUT (JSON path), REPS (default 7), QUICK=1 (4 MiB W1 file, 16 MiB peak body), PEAK_MIB (default 200).
"""

from __future__ import annotations

import functools
import glob
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "interop"))
sys.path.insert(0, str(ROOT / "bench" / "lib"))
import harness.chromium as hc  # noqa: E402
from cpu import cpu_info  # noqa: E402

REPS = int(os.environ.get("REPS", "7"))
QUICK = os.environ.get("QUICK") == "1"
FILE_MIB = 4 if QUICK else 64
PEAK_MIB = int(os.environ.get("PEAK_MIB", "16" if QUICK else "200"))
# gc() in the page; no back/forward-cached or spare renderer beside the page's (one renderer process to account).
EXTRA_FLAGS = ["--js-flags=--expose-gc", "--enable-precise-memory-info",
               "--disable-features=BackForwardCache,SpareRendererForSitePerProcess"]


# --- server -------------------------------------------------------------------------------------------------------------

def make_handler(dist: Path):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                          ".mjs": "text/javascript"}

        def translate_path(self, path):
            p = path.split("?", 1)[0]
            if p.startswith("/ts/dist/"):
                return str(dist / p[len("/ts/dist/"):])
            return super().translate_path(path)

        def do_GET(self):
            if not self.path.startswith(("/ts/dist/", "/bench/runtimes/")):
                self.send_error(404)
                return
            super().do_GET()

        def end_headers(self):
            # Cross-origin isolated (what performance.measureUserAgentSpecificMemory() requires); no caching.
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, *args):
            pass

    return functools.partial(Handler, directory=str(ROOT))


# --- process CPU and memory ------------------------------------------------------------------------------------------

def cpu_ns(pid: int) -> int:
    """On-CPU time of every thread of `pid` (ns, /proc/<pid>/task/*/schedstat)."""
    n = 0
    for f in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(f) as fh:
                n += int(fh.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended between the listing and the read
    return n


def status_kib(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def load_avg() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


# --- the browser -----------------------------------------------------------------------------------------------------

class Page:
    def __init__(self, url: str):
        hc.FLAGS = [*hc.FLAGS, *(f for f in EXTRA_FLAGS if f not in hc.FLAGS)]
        exe = hc.find_chromium()
        if exe is None:
            sys.exit("bench/runtimes/chromium: chromium not found (interop/setup installs Debian's chromium)")
        self.br = hc.Chromium(exe)
        self.br.start(url)
        end = time.monotonic() + 60
        while self.br.evaluate("window.__benchReady === true") is not True:
            if time.monotonic() > end:
                self.close()
                sys.exit("bench/runtimes/chromium: the page did not load (a module import failed?)")
            time.sleep(0.1)
        self.version = self.br.version.split("/", 1)[-1]
        self.procs = {p["id"]: p["type"] for p in self.br.call("SystemInfo.getProcessInfo")["processInfo"]}
        self.renderer = self._find_renderer()
        self.browser = next(pid for pid, t in self.procs.items() if t == "browser")

    def _find_renderer(self) -> int:
        """The page's renderer: of Chromium's renderer processes, the one whose RSS grows by the 64 MiB the page
        allocates and touches (then drops)."""
        rs = [pid for pid, t in self.procs.items() if t == "renderer"]
        before = {pid: status_kib(pid, "VmRSS") for pid in rs}
        self.br.evaluate("(globalThis.__probe = new Uint8Array(64 << 20).fill(1)).length")
        grew = {pid: status_kib(pid, "VmRSS") - before[pid] for pid in rs}
        self.br.evaluate("(globalThis.__probe = null, window.__bench.gc())")
        won = [pid for pid, g in grew.items() if g > 48 * 1024]
        if len(won) != 1:
            sys.exit(f"bench/runtimes/chromium: not one renderer holds the page's 64 MiB (RSS growth KiB {grew})")
        return won[0]

    def evaluate(self, expr: str, timeout: float = 600):
        return self.br.evaluate(expr, timeout=timeout)

    def settle(self) -> None:
        """Until the renderer's CPU has not grown (more than 50 us per 2 ms poll) for 3 polls, at most 300 ms: the
        sweeping a forced gc() leaves to V8's helper threads is not charged to the run that follows."""
        last = cpu_ns(self.renderer)
        quiet = 0
        end = time.monotonic() + 0.3
        while quiet < 3 and time.monotonic() < end:
            time.sleep(0.002)
            c = cpu_ns(self.renderer)
            quiet = quiet + 1 if c - last < 50_000 else 0
            last = c

    def close(self) -> None:
        self.br.close()


def measure(page: Page, op: str, inner: int, gc: bool) -> dict:
    """One warm-up run, then REPS timed runs (and as many with gc() before each, when the page has gc()): medians."""
    call = f"window.__bench.run({json.dumps(op)}, {inner})"
    page.evaluate(call)
    out = {}
    for profile in ("plain", "gc") if gc else ("plain",):
        wall, cpu, bcpu = [], [], []
        for _ in range(REPS):
            if profile == "gc":
                page.evaluate("window.__bench.gc()")
                page.settle()
            b0, c0 = cpu_ns(page.browser), cpu_ns(page.renderer)
            w = page.evaluate(call)
            c1, b1 = cpu_ns(page.renderer), cpu_ns(page.browser)
            if c1 <= c0:
                live = {p["id"]: p["type"] for p in page.br.call("SystemInfo.getProcessInfo")["processInfo"]}
                raise RuntimeError(f"{op}: no CPU time counted for renderer {page.renderer} ({c0} -> {c1}; {live})")
            wall.append(w)
            cpu.append((c1 - c0) / 1e6 / inner)
            bcpu.append((b1 - b0) / 1e6 / inner)
        out[profile] = {"wall_ms": statistics.median(wall), "cpu_ms": statistics.median(cpu),
                        "browser_cpu_ms": statistics.median(bcpu)}
    return out


def main() -> int:
    dist_src = ROOT / "ts" / "dist"
    if not (dist_src / "src" / "index.js").exists():
        sys.exit("bench/runtimes/chromium: no ts/dist (npm --prefix ts run build)")
    tmp = Path(tempfile.mkdtemp(prefix="formwire-bench-chromium-"))
    dist = tmp / "dist"
    shutil.copytree(dist_src, dist)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(dist))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{srv.server_address[1]}/bench/runtimes/chromium.html"
    rows, peak = [], []
    try:
        page = Page(url)
        try:
            info = page.evaluate(f"window.__bench.setup({FILE_MIB})")
            gc = info["gc"]
            runtime = f"chromium {page.version}"
            print(f"# {runtime} (headless), REPS={REPS}, W1 file {FILE_MIB} MiB, gc() {'exposed' if gc else 'absent'}, "
                  f"cross-origin isolated {info['crossOriginIsolated']}, Proxy detector {info['proxyDetector']}, "
                  f"renderer pid {page.renderer}", flush=True)
            page.evaluate("window.__bench.gc()")
            page.settle()
            overhead = statistics.median(measure(page, "noop", 1, False)["plain"]["cpu_ms"] for _ in range(3))
            print(f"# one Runtime.evaluate of a no-op: {overhead:.3f} ms of renderer CPU (inside every timed run, "
                  "divided by its operations)", flush=True)

            def row(work, nat_name, nat, ours_name, ours, inner=1, method=None, floor=False):
                a = measure(page, nat, inner, gc)
                b = measure(page, ours, inner, gc)
                r = {"work": work, "native": nat_name, "ours": ours_name,
                     "native_wall_ms": a["plain"]["wall_ms"], "native_cpu_ms": a["plain"]["cpu_ms"],
                     "ours_wall_ms": b["plain"]["wall_ms"], "ours_cpu_ms": b["plain"]["cpu_ms"],
                     "cpu_ratio": a["plain"]["cpu_ms"] / b["plain"]["cpu_ms"],
                     "wall_ratio": a["plain"]["wall_ms"] / b["plain"]["wall_ms"], "inner": inner,
                     # The browser process's CPU in the same runs (it keeps Blobs; it also relays the evaluate).
                     "native_browser_cpu_ms": a["plain"]["browser_cpu_ms"],
                     "ours_browser_cpu_ms": b["plain"]["browser_cpu_ms"]}
                if gc:
                    r.update({"gc_native_wall_ms": a["gc"]["wall_ms"], "gc_native_cpu_ms": a["gc"]["cpu_ms"],
                              "gc_ours_wall_ms": b["gc"]["wall_ms"], "gc_ours_cpu_ms": b["gc"]["cpu_ms"],
                              "gc_cpu_ratio": a["gc"]["cpu_ms"] / b["gc"]["cpu_ms"],
                              "gc_wall_ratio": a["gc"]["wall_ms"] / b["gc"]["wall_ms"]})
                if method:
                    r["method"] = method
                if floor:
                    r["floor"] = True  # no parser: native / this row is the most a parser can win here
                rows.append(r)
                gcs = f"; browser process {r['native_browser_cpu_ms']:.3f} / {r['ours_browser_cpu_ms']:.3f} ms"
                gcs += f"; gc() profile {r['gc_cpu_ratio']:.2f}x (wall {r['gc_wall_ratio']:.2f}x)" if gc else ""
                print(f"{work:24} {nat_name:34} {r['native_cpu_ms']:9.3f} ms CPU  {ours_name:28} {r['ours_cpu_ms']:9.3f} "
                      f"ms CPU  ratio {r['cpu_ratio']:.2f}x (wall {r['wall_ratio']:.2f}x){gcs}  load {load_avg()}",
                      flush=True)

            nat = "Response.formData()"
            for w, work in (("W1", "W1 one file"), ("W2", "W2 10,000 fields"), ("W3", "W3 100 fields+100 files")):
                row(work, nat, f"{w}:native", "formData() (stream)", f"{w}:formData")
                if w == "W1":
                    row(work, nat, "W1:native", "floor: stream read + new File(chunks), no parser", "W1:floorFile",
                        floor=True)
                row(work, nat, f"{w}:native", "parseMultipart (stream)", f"{w}:parseMultipart")
                row(work, nat, f"{w}:native", "MultipartParser (sans-IO)", f"{w}:sansIo")
            row("W5 encode 1000+1 MiB", "new Response(fd).arrayBuffer()", "W5:native", "encodeFormData().bytes()",
                "W5:ours", 20)
            for k, work in (("W6a", "W6a string 3MB"), ("W6b", "W6b 100 flat objects"), ("W6d", "W6d nested config")):
                inner = {"W6a": 20, "W6b": 2000, "W6d": 5000}[k]
                # The page has no Proxy detector: clone() is structuredClone unless the caller says there is none.
                row(work, "structuredClone", f"{k}:native", "formwire clone (default)", f"{k}:ours", inner,
                    "formwire clone (default): no Proxy detector in a page (setProxyDetector not called), so clone() "
                    "hands the value to structuredClone; formwire clone, assumeNoProxies: clone(v, {assumeNoProxies: "
                    "true}), formwire's own walk")
                row(work, "structuredClone", f"{k}:native", "formwire clone, assumeNoProxies", f"{k}:walk", inner)
                if k != "W6a":
                    row(work, "structuredClone", f"{k}:native", "floor: host serializer alone (Proxy check)",
                        f"{k}:floor", inner,
                        "floor: MessagePort.postMessage(value) to a port never started: the host's structured "
                        "serialization alone, never deserialized; JavaScript cannot tell a Proxy from its target, so "
                        "a page's only Proxy check is such a host serialization, and clone()'s default must pay at "
                        "least this before making its copy (native / floor is the most it can win)", floor=True)
            for k, work in (("W6a", "W6a Worker string 3MB"), ("W6b", "W6b Worker 100 flat objects"),
                            ("W6d", "W6d Worker nested config")):
                row(work, "postMessage round trip", f"{k}W:native", "serialize+transfer round trip", f"{k}W:ours",
                    {"W6a": 20, "W6b": 500, "W6d": 1000}[k],
                    "Web Worker (module) echoing each message; native: postMessage(value) both ways; formwire: "
                    "postSerialized (serialize, transfer the buffer) / receiveSerialized both ways; CPU: the renderer "
                    "process, the Worker's thread included")
        finally:
            page.close()

        def peak_run(mode: str) -> dict:
            p = Page(url)
            try:
                pids = list(p.procs)
                p.evaluate("window.__bench.gc()")
                p.settle()
                for pid in pids:
                    with open(f"/proc/{pid}/clear_refs", "w") as fh:
                        fh.write("5")  # resets VmHWM to the current RSS
                before = {pid: status_kib(pid, "VmRSS") for pid in pids}
                p.evaluate(f"window.__bench.peak({json.dumps(mode)}, {PEAK_MIB})")
                growth = {pid: status_kib(pid, "VmHWM") - before[pid] for pid in pids}
            finally:
                p.close()
            by_type: dict[str, float] = {}
            for pid, g in growth.items():
                t = "renderer (page)" if pid == p.renderer else p.procs[pid]
                by_type[t] = by_type.get(t, 0) + g / 1024
            # The other renderer (the browser UI's omnibox-popup WebUI, --top-chrome-webui, which headless Chromium
            # loads in the background) holds nothing of the page: not summed.
            total = sum(g for pid, g in growth.items() if pid == p.renderer or p.procs[pid] != "renderer") / 1024
            return {"total": total, "by_process": by_type}

        native = peak_run("native")
        work = f"W1 peak RSS growth, {PEAK_MIB} MiB file"
        method = ("one parse per fresh headless Chromium, body generated in 64 KiB chunks as read; growth = VmHWM "
                  "after - VmRSS before (/proc/<pid>/status, each high-water mark reset first), summed over the page's "
                  "renderer, the browser process (which keeps file Blobs) and Chromium's GPU and utility processes")
        for ours, mode in (("floor: the body stream drained, no parser", "drain"),
                           ("parseMultipart (parts streamed, drained)", "parseMultipart"),
                           ("formData() (stream; the File kept in memory)", "formData")):
            o = peak_run(mode)
            peak.append({"work": work, "floor": mode == "drain", "native": nat, "ours": ours,
                         "native_mib": native["total"], "ours_mib": o["total"], "ratio": o["total"] / native["total"],
                         "native_by_process_mib": native["by_process"], "ours_by_process_mib": o["by_process"],
                         "method": method})
            print(f"W1 peak {PEAK_MIB} MiB: native {native['total']:.1f} MiB {native['by_process']}, {ours} "
                  f"{o['total']:.1f} MiB {o['by_process']}: {o['total'] / native['total']:.3f}x", flush=True)
    finally:
        srv.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)
    if os.environ.get("OUT"):
        d = {"runtime": runtime, "cpu": cpu_info()[0], "reps": REPS, "w1_mib": FILE_MIB,
             "load_note": f"load average {load_avg()} at the end (2 cores shared with other jobs)",
             "cpu_clock": "renderer process (all threads) from /proc/<pid>/task/*/schedstat around each "
                          "Runtime.evaluate; the evaluate's own cost is inside it",
             "evaluate_overhead_cpu_ms": overhead, "gc_profile": gc, "proxy_detector": info["proxyDetector"],
             "rows": rows, "peak": peak}
        Path(os.environ["OUT"]).write_text(json.dumps(d, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
