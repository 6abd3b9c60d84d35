#!/usr/bin/env python3
"""The TypeScript conformance testee in headless Chromium: conformance/PROTOCOL.md on stdin/stdout, each request
handed to ts/dist/testee/testee.js running in a page (ts/browser/testee.html) served from a loopback server.

Chromium is Debian's package, launched and driven as interop/ does (interop/harness/chromium.py, DevTools protocol on
a pipe). Used by conformance/langs/ts-browser.json.

--page-tests [--ts DIR] [--graph FILE] (ts/browser/run.py): instead, one line per test and `N passed, N failed`:
- each runtime-neutral entry point (ts/browser/neutral-imports.mjs --json: the "exports" subpaths with a "browser"
  condition, as that condition resolves them) imported in a page of its own without an import map
  (ts/browser/neutral.html): it must load, and the modules the page fetched must be the static walk's set;
- the page tests (ts/browser/page-tests.js in ts/browser/page.html, no import map either), with an HTTP/2 echo
  endpoint (ts/browser/h2-echo.mjs: Node's http2, TLS with a certificate made at start, 127.0.0.1 only) that
  Chromium trusts through --ignore-certificate-errors-spki-list, for fetch() with a streamed body.
--ts DIR serves the package (package.json, dist/) from DIR instead of ts/, e.g. a scratch copy of a build; --graph
FILE reads the entry points from neutral-imports.mjs --graph-out FILE instead of running it again.
"""

from __future__ import annotations

import functools
import http.server
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "interop"))
from harness import chromium as chromium_harness  # noqa: E402
from harness.chromium import Chromium, find_chromium  # noqa: E402

# Only what the page loads is served.
SERVED = ("/ts/dist/", "/ts/browser/", "/conformance/oracles/neutral.mjs")
# Where /ts/ (but /ts/browser/) is served from: --ts DIR.
TS_DIR = ROOT / "ts"


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }

    def translate_path(self, path):
        p = Path(super().translate_path(path))
        parts = p.relative_to(ROOT).parts if p.is_relative_to(ROOT) else ()
        if len(parts) > 1 and parts[0] == "ts" and parts[1] != "browser":
            return str(TS_DIR.joinpath(*parts[1:]))
        return str(p)

    def end_headers(self):
        # Each page's module graph must be fetched again, so that the server sees it (the neutral-load tests).
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self):
        if not self.path.startswith(SERVED):
            self.send_error(404)
            return
        self.server.fetched.append(self.path.split("?")[0])
        super().do_GET()

    def do_POST(self):
        # /echo: the body back with its Content-Type (the page posts encodeFormData() output here).
        if self.path != "/echo":
            self.send_error(404)
            return
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                n = int(self.rfile.readline().split(b";")[0], 16)
                if n == 0:
                    self.rfile.readline()
                    break
                body += self.rfile.read(n)
                self.rfile.readline()
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", self.headers.get("Content-Type", "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # The browser drops the rest of a module graph's fetches once one fails (the neutral-load tests): quiet.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def serve() -> http.server.ThreadingHTTPServer:
    srv = Server(("127.0.0.1", 0), functools.partial(Handler, directory=str(ROOT)))
    srv.fetched = []  # paths of the GETs, in order
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def open_page(srv) -> Chromium:
    exe = find_chromium()
    if exe is None:
        sys.exit("ts-browser: chromium not found (interop/setup installs Debian's chromium)")
    br = Chromium(exe)
    br.start(f"http://127.0.0.1:{srv.server_address[1]}/ts/browser/testee.html")
    deadline = time.monotonic() + 60
    while True:
        r = br.call("Runtime.evaluate", session=True, expression="window.__fwReady === true", returnByValue=True)
        if r.get("result", {}).get("value") is True:
            return br
        if time.monotonic() > deadline:
            br.close()
            sys.exit("ts-browser: the testee page did not load")
        time.sleep(0.1)


def h2_info(p: subprocess.Popen) -> dict:
    """ts/browser/h2-echo.mjs (started by the caller, so that it starts while the entry points are read) prints
    {port, spki} once it listens, and exits when its stdin closes."""
    line = p.stdout.readline()
    if not line:
        p.kill()
        sys.exit("ts-browser: ts/browser/h2-echo.mjs did not start")
    return json.loads(line)


def neutral_entries(graph: str | None) -> list[dict]:
    """The runtime-neutral entry points and their static module sets: from --graph FILE (written by run.py's
    neutral-imports.mjs --graph-out), or neutral-imports.mjs --json run here."""
    if graph:
        return json.loads(Path(graph).read_text())["entries"]
    p = subprocess.run(
        ["node", str(ROOT / "ts/browser/neutral-imports.mjs"), "--ts", str(TS_DIR), "--json"],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    return json.loads(p.stdout)["entries"]


def neutral_load(br: Chromium, srv, base: str, e: dict) -> dict:
    """One entry point imported in a fresh page without an import map: it loads, the page fetched exactly its static
    graph, and it tried to load nothing else (a node: URL shows in the DevTools log, even from a caught import())."""
    name = f"'{e['spec']}' ({e['file']}) loads in a page without an import map, fetching its static graph and no node:"
    br.navigate(f"{base}/ts/browser/neutral.html")
    srv.fetched.clear()
    while not br.events.empty():  # the events of the navigation
        br.events.get()
    r = br.evaluate(f"window.__fwLoad({json.dumps('/ts/' + e['file'])})", timeout=60)
    br.evaluate("new Promise((r) => setTimeout(r, 100))")  # a late import() of the entry's evaluation
    attempts = []
    while not br.events.empty():
        ev = br.events.get()
        url = ev.get("params", {}).get("entry", {}).get("url") if ev.get("method") == "Log.entryAdded" else None
        if url and not url.startswith(base + "/"):
            attempts.append(url)
    fetched = sorted({p[len("/ts/dist/src/") :] for p in srv.fetched if p.startswith("/ts/dist/src/")})
    others = [p for p in srv.fetched if not p.startswith("/ts/dist/src/")]
    problems = []
    if not r["ok"]:
        problems.append(r["error"])
    if attempts:
        problems.append(f"tried to load {sorted(set(attempts))}")
    if r["ok"] and (fetched != e["modules"] or others):
        problems.append(f"fetched {fetched + others}, the static walk has {e['modules']}")
    if problems:
        return {"name": name, "ok": False, "note": "; ".join(problems)}
    return {"name": name, "ok": True, "note": f"{len(fetched)} modules, {r['exports']} exports"}


def page_tests(graph: str | None) -> int:
    """The neutral-load tests and ts/browser/page-tests.js: one line per test, then `N passed, N failed`."""
    h2 = subprocess.Popen(["node", str(ROOT / "ts/browser/h2-echo.mjs")], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    entries = neutral_entries(graph)
    h2info = h2_info(h2)
    srv = serve()
    base = f"http://127.0.0.1:{srv.server_address[1]}"
    exe = find_chromium()
    if exe is None:
        sys.exit("ts-browser: chromium not found (interop/setup installs Debian's chromium)")
    # Chromium trusts the echo endpoint's certificate by its key (made by h2-echo.mjs at start) and no other; the
    # harness's flags are read when the browser starts, so this process's browser alone gets the extra one.
    chromium_harness.FLAGS = [*chromium_harness.FLAGS, f"--ignore-certificate-errors-spki-list={h2info['spki']}"]
    br = Chromium(exe)
    results = []
    try:
        br.start("about:blank")
        br.call("Log.enable", session=True)
        done = set()
        for e in entries:
            if e["file"] in done:
                continue
            done.add(e["file"])
            results.append(neutral_load(br, srv, base, e))
        br.navigate(f"{base}/ts/browser/page.html")
        ready = br.evaluate("window.__fwReady", timeout=60)
        if ready is True:
            env = {"h2": f"https://127.0.0.1:{h2info['port']}"}
            results += br.evaluate(f"window.__fwPageTests({json.dumps(env)})", timeout=120)
        else:
            results.append({"name": "the page tests load (ts/browser/page.html)", "ok": False, "note": ready})
    finally:
        br.close()
        srv.shutdown()
        h2.stdin.close()
        h2.wait(10)
    for t in results:
        note = f" ({t['note']})" if t["note"] else ""
        print(f"{'ok' if t['ok'] else 'FAIL'} {t['name']}{note}")
    failed = sum(1 for t in results if not t["ok"])
    print(f"{br.version}: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    global TS_DIR
    args = sys.argv[1:]
    if "--ts" in args:
        TS_DIR = Path(args[args.index("--ts") + 1]).resolve()
    if "--page-tests" in args:
        return page_tests(args[args.index("--graph") + 1] if "--graph" in args else None)
    srv = serve()
    br = open_page(srv)
    print(f"ts-browser: {br.version}", file=sys.stderr)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            r = br.call(
                "Runtime.evaluate",
                session=True,
                timeout=120,
                awaitPromise=True,
                returnByValue=True,
                expression=f"window.__fw.request({json.dumps(line.rstrip(chr(10)))})",
            )
            if "exceptionDetails" in r:
                print(json.dumps(r["exceptionDetails"])[:2000], file=sys.stderr)
                return 1
            sys.stdout.write(r["result"]["value"])
            sys.stdout.flush()
    finally:
        br.close()
        srv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
