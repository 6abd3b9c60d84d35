"""formwire implementations, reached through their conformance testees (conformance/PROTOCOL.md).

Every `conformance/langs/<lang>.json` whose testee starts and lists a multipart or urlencoded op takes part; a new
language shows up in the matrix as soon as its file and testee exist.
"""
from __future__ import annotations

import base64
import json
import os
import subprocess
import threading

OPS = ("multipart.parse", "multipart.serialize", "urlencoded.parse", "urlencoded.serialize")


class TesteeError(Exception):
    pass


class Testee:
    def __init__(self, lang: str, cmd: list[str], root: str):
        self.lang, self.cmd, self.root = lang, cmd, root
        self.proc = None
        self.next_id = 0
        self.ops: list[str] = []
        self.version = ""
        self.lock = threading.Lock()

    def start(self, timeout: float = 30):
        self.proc = subprocess.Popen(self.cmd, cwd=self.root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        hello = self.call({"op": "hello"}, timeout)
        ok = hello.get("ok") or {}
        self.ops = [o for o in ok.get("ops", []) if o in OPS]
        self.version = ok.get("version", "")

    def restart(self):
        """After a crash or timeout: start again; if that fails too, later calls fail as 'not running'."""
        self.close()
        try:
            self.start()
        except (TesteeError, OSError, ValueError):
            self.close()

    def call(self, req: dict, timeout: float = 60) -> dict:
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                raise TesteeError(f"{self.lang} testee is not running")
            req = {"id": self.next_id, **req}
            self.next_id += 1
            line = json.dumps(req, ensure_ascii=False) + "\n"
            result: dict = {}

            def talk():
                try:
                    self.proc.stdin.write(line.encode("utf-8"))
                    self.proc.stdin.flush()
                    result["line"] = self.proc.stdout.readline()
                except OSError as e:
                    result["exc"] = e

            t = threading.Thread(target=talk, daemon=True)
            t.start()
            t.join(timeout)
            if t.is_alive():
                self.close()
                raise TesteeError(f"{self.lang} testee timed out on {req['op']}")
            if "exc" in result or not result.get("line"):
                self.close()
                raise TesteeError(f"{self.lang} testee died on {req['op']}")
            resp = json.loads(result["line"])
            if resp.get("id") != req["id"]:
                raise TesteeError(f"{self.lang} testee answered id {resp.get('id')} to {req['id']}")
            return resp

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    # --- ops ------------------------------------------------------------------------------------------------------

    def parse_multipart(self, ctype: str, body: bytes) -> dict:
        """Whole and byte by byte (small bodies); both results must agree. Returns {"entries": [...]} or
        {"error": {"code", "offset"}}."""
        chunkings = [[], "bytes"] if len(body) <= 16384 else [[], [len(body) // 3, 2 * len(body) // 3]]
        resp = self.call({"op": "multipart.parse", "content_type": ctype, "options": {},
                          "input_b64": base64.b64encode(body).decode(), "chunkings": chunkings})
        return _one_result(resp, chunkings, _parts_to_entries)

    def parse_urlencoded(self, body: bytes) -> dict:
        chunkings = [[], "bytes"] if len(body) <= 16384 else [[]]
        resp = self.call({"op": "urlencoded.parse", "options": {}, "input_b64": base64.b64encode(body).decode(),
                          "chunkings": chunkings})
        return _one_result(resp, chunkings, lambda ok: {"pairs": ok["pairs"]})

    def serialize_multipart(self, boundary: str, entries: list[dict]) -> tuple[str, bytes]:
        resp = self.call({"op": "multipart.serialize", "boundary": boundary, "entries": entries})
        if "ok" not in resp:
            raise TesteeError(f"{self.lang} multipart.serialize failed: {resp.get('error')}")
        ok = resp["ok"]
        body = base64.b64decode(ok["body_b64"])
        if ok.get("content_length") != len(body):
            raise TesteeError(f"{self.lang} content_length {ok.get('content_length')} != body length {len(body)}")
        return ok["content_type"], body

    def serialize_urlencoded(self, pairs: list[list[str]]) -> bytes:
        resp = self.call({"op": "urlencoded.serialize", "pairs": pairs})
        if "ok" not in resp:
            raise TesteeError(f"{self.lang} urlencoded.serialize failed: {resp.get('error')}")
        return resp["ok"]["text"].encode("utf-8")


def _parts_to_entries(ok: dict) -> dict:
    out = []
    for p in ok["parts"]:
        e = {"name": p["name"], "filename": p.get("filename"),
             "type": p.get("type") if p.get("filename") is not None else None,
             "content_type": p.get("content_type"), "sha256": p["sha256"], "size": p["size"]}
        if p.get("body_b64") is not None:
            e["body"] = base64.b64decode(p["body_b64"])
        out.append(e)
    return {"entries": out}


def _one_result(resp: dict, chunkings: list, convert) -> dict:
    if "results" not in resp:
        return {"error": {"code": "TESTEE", "offset": -1, "message": json.dumps(resp)[:200]}}
    results = resp["results"]
    if len(results) != len(chunkings):
        return {"error": {"code": "TESTEE", "offset": -1, "message": f"{len(results)} results for {len(chunkings)}"}}
    norm = []
    for r in results:
        if "ok" in r:
            norm.append(convert(r["ok"]))
        else:
            err = r.get("error") or {}
            norm.append({"error": {"code": err.get("code"), "offset": err.get("offset"),
                                   "message": err.get("message", "")}})
    first = norm[0]
    for c, r in zip(chunkings[1:], norm[1:]):
        if _strip_msg(r) != _strip_msg(first):
            return {"error": {"code": "CHUNKING", "offset": -1,
                              "message": f"chunking {c if c else 'whole'} gives a different result"}}
    return first


def _strip_msg(r: dict) -> dict:
    if "error" in r:
        return {"error": {k: v for k, v in r["error"].items() if k != "message"}}
    return r


def discover(root: str) -> tuple[list[Testee], list[str]]:
    """Every language testee that starts and has a multipart/urlencoded op; notes for the others."""
    langs_dir = os.path.join(root, "conformance", "langs")
    found, notes = [], []
    for fn in sorted(os.listdir(langs_dir)):
        if not fn.endswith(".json"):
            continue
        lang = fn[:-5]
        with open(os.path.join(langs_dir, fn)) as f:
            cmd = json.load(f)["cmd"]
        exe = cmd[0]
        if os.sep in exe or "/" in exe:
            if not os.path.exists(os.path.join(root, exe)):
                notes.append(f"{lang}: not present ({exe} missing; build it to include it)")
                continue
        t = Testee(lang, cmd, root)
        try:
            t.start()
        except (TesteeError, OSError, ValueError) as e:
            t.close()
            notes.append(f"{lang}: testee did not start ({e})")
            continue
        if not t.ops:
            t.close()
            continue  # e.g. the V8 clone oracle: no form ops, not part of this matrix
        found.append(t)
    return found, notes
