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


def main() -> int:
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
