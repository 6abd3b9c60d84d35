#!/usr/bin/env python3
"""The TypeScript conformance testee in headless Chromium: conformance/PROTOCOL.md on stdin/stdout, each request
handed to ts/dist/testee/testee.js running in a page (ts/browser/testee.html) served from a loopback server.

Chromium is Debian's package, launched and driven as interop/ does (interop/harness/chromium.py, DevTools protocol on
a pipe). Used by conformance/langs/ts-browser.json.
"""

from __future__ import annotations

import functools
import http.server
import json
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "interop"))
from harness.chromium import Chromium, find_chromium  # noqa: E402

# Only what the page loads is served.
SERVED = ("/ts/dist/", "/ts/browser/", "/conformance/oracles/neutral.mjs")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }

    def do_GET(self):
        if not self.path.startswith(SERVED):
            self.send_error(404)
            return
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


def serve() -> http.server.ThreadingHTTPServer:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(ROOT)))
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


def page_tests() -> int:
    """ts/browser/page-tests.js in the page: one line per test, then `N passed, N failed`."""
    srv = serve()
    br = open_page(srv)
    try:
        r = br.call(
            "Runtime.evaluate",
            session=True,
            timeout=120,
            awaitPromise=True,
            returnByValue=True,
            expression="window.__fwPageTests()",
        )
    finally:
        br.close()
        srv.shutdown()
    if "exceptionDetails" in r:
        print(json.dumps(r["exceptionDetails"])[:2000])
        return 1
    results = r["result"]["value"]
    for t in results:
        note = f" ({t['note']})" if t["note"] else ""
        print(f"{'ok' if t['ok'] else 'FAIL'} {t['name']}{note}")
    failed = sum(1 for t in results if not t["ok"])
    print(f"{br.version}: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main() -> int:
    if sys.argv[1:] == ["--page-tests"]:
        return page_tests()
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
