"""The loopback HTTP server: records what producers send, serves the browser page and formwire's output.

Binds 127.0.0.1 only (port chosen by the OS). Endpoints:

- `POST /capture/<producer>/<case>`: keeps the exact body bytes and Content-Type (chunked bodies are de-chunked);
  answers a tiny HTML page so a browser form submission completes.
- `GET /blank`: an empty UTF-8 page (the origin for the browser's forms and fetches).
- `GET /out/<key>`: a body registered with `serve()` (formwire's encoder output), with its Content-Type.
"""
from __future__ import annotations

import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BLANK = b'<!doctype html><html><head><meta charset="utf-8"><title>formwire interop</title></head><body></body></html>'


class Store:
    def __init__(self):
        self.lock = threading.Condition()
        self.captures: dict[tuple[str, str], tuple[str, bytes]] = {}
        self.outputs: dict[str, tuple[str, bytes]] = {}

    def put(self, producer: str, case: str, ctype: str, body: bytes):
        with self.lock:
            self.captures[(producer, case)] = (ctype, body)
            self.lock.notify_all()

    def wait(self, producer: str, case: str, timeout: float) -> tuple[str, bytes] | None:
        end = time.monotonic() + timeout
        with self.lock:
            while (producer, case) not in self.captures:
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.lock.wait(left)
            return self.captures[(producer, case)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    store: Store  # set on the subclass

    def log_message(self, *args):
        pass

    def _reply(self, status: int, body: bytes = b"", ctype: str = "text/html; charset=utf-8"):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _body(self) -> bytes:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            out = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(out)
                out += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_POST(self):
        body = self._body()
        parts = self.path.split("?")[0].split("/")
        if len(parts) == 4 and parts[1] == "capture":
            self.store.put(urllib.parse.unquote(parts[2]), urllib.parse.unquote(parts[3]),
                           self.headers.get("Content-Type") or "", body)
            self._reply(200, b"<!doctype html><meta charset=utf-8><title>captured</title>captured")
        else:
            self._reply(404)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/blank":
            self._reply(200, BLANK)
        elif path.startswith("/out/"):
            got = self.store.outputs.get(urllib.parse.unquote(path[5:]))
            if got is None:
                self._reply(404)
            else:
                self._reply(200, got[1], got[0])
        elif path == "/favicon.ico":
            self._reply(404)
        else:
            self._reply(404)


class Server:
    def __init__(self):
        self.store = Store()
        handler = type("BoundHandler", (Handler,), {"store": self.store})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def capture_url(self, producer: str, case: str = "") -> str:
        u = f"{self.base}/capture/{urllib.parse.quote(producer)}"
        return u + "/" + urllib.parse.quote(case) if case else u

    def serve(self, key: str, ctype: str, body: bytes):
        self.store.outputs[key] = (ctype, body)
