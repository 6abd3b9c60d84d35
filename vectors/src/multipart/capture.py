#!/usr/bin/env python3
"""Re-record the real-producer captures used by the `cap-mp-*` vectors.

Run by hand (not by the generator, not by `make test`): it needs curl, Go, Node
and Python `requests`/`urllib3` on the machine. Each capture is written to
captures/<name>.http (the exact body bytes) and captures/<name>.ctype (the exact
Content-Type the producer sent); captures/versions.txt records the producers.
generate.py reads these files and pairs them with hand-written expectations, so after
re-recording, check that `python3 generate.py` still passes its self-checks (the
boundaries are random, everything else must stay the same).

    python3 vectors/src/multipart/capture.py
"""
import http.server
import os
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "captures")


def save(name, body, ctype):
    with open(os.path.join(OUT, name + ".http"), "wb") as f:
        f.write(body)
    with open(os.path.join(OUT, name + ".ctype"), "w") as f:
        f.write(ctype)
    print(f"{name}: {len(body)} bytes, {ctype}")


class Sink(http.server.BaseHTTPRequestHandler):
    """Keeps the last request body and Content-Type (loopback only)."""
    last = None

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        Sink.last = (self.rfile.read(n), self.headers.get("Content-Type"))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def curl_captures(versions):
    srv = http.server.HTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{srv.server_address[1]}/"
    versions.append(subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.splitlines()[0])
    with tempfile.TemporaryDirectory() as tmp:
        hello = os.path.join(tmp, "hello.txt")
        with open(hello, "wb") as f:
            f.write(b"hello\n")
        binf = os.path.join(tmp, "bytes.bin")
        with open(binf, "wb") as f:
            f.write(bytes(range(256)))
        runs = {
            "curl-basic": ["-F", "a=1", "-F", "note=line1\nline2", "-F", f"file=@{hello};type=text/plain",
                           "-F", f"bin=@{binf}"],
            # curl >= 7.81 percent-encodes `"` (and CR/LF) in names and filenames by default...
            "curl-quote-filename": ["-F", f'file=@{hello};filename=a"b\\c.txt'],
            # ...and with --form-escape uses backslash escapes instead.
            "curl-form-escape": ["--form-escape", "-F", f'file=@{hello};filename=a"b.txt'],
            "curl-empty-value": ["-F", "empty=", "-F", "x=y"],
        }
        for name, args in runs.items():
            Sink.last = None
            subprocess.run(["curl", "-s", "-o", os.devnull, "--max-time", "10", *args, url], check=True)
            body, ctype = Sink.last
            save(name, body, ctype)
    srv.shutdown()


def python_captures(versions):
    try:
        import requests
        import urllib3
    except ImportError:
        print("requests/urllib3 not installed: skipping Python captures", file=sys.stderr)
        return
    versions.append(f"requests {requests.__version__}, urllib3 {urllib3.__version__}")
    req = requests.Request("POST", "http://127.0.0.1/", data={"a": "1", "note": "line1\nline2"},
                           files={"file": ("hello.txt", b"hello\n", "text/plain"),
                                  "bin": ("b.bin", bytes([0, 0x0D, 0x0A, 0x2D, 0x2D, 0xFF]))}).prepare()
    save("requests-basic", req.body, req.headers["Content-Type"])
    body, ctype = urllib3.encode_multipart_formdata(
        [("q\"n", "v"), ("f", ("a\"b\\c\r\n\u00e9.txt", b"data", "text/plain"))])
    save("urllib3-escapes", body, ctype)


def go_captures(versions):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["go", "run", os.path.join(HERE, "capture", "producer.go"), tmp], check=True)
        collect(tmp, versions, "go.version")


def node_captures(versions):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["node", os.path.join(HERE, "capture", "producer.mjs"), tmp], check=True)
        collect(tmp, versions, "node.version")


def collect(tmp, versions, version_file):
    for fn in sorted(os.listdir(tmp)):
        if fn.endswith(".http"):
            name = fn[:-5]
            with open(os.path.join(tmp, fn), "rb") as f:
                body = f.read()
            with open(os.path.join(tmp, name + ".ctype")) as f:
                save(name, body, f.read())
    with open(os.path.join(tmp, version_file)) as f:
        versions.append(f.read().strip())


def main():
    os.makedirs(OUT, exist_ok=True)
    versions = []
    curl_captures(versions)
    python_captures(versions)
    go_captures(versions)
    node_captures(versions)
    with open(os.path.join(OUT, "versions.txt"), "w") as f:
        f.write("\n".join(versions) + "\n")


if __name__ == "__main__":
    main()
