"""formwire implementations, reached through their conformance testees (conformance/PROTOCOL.md).

Every `conformance/langs/<lang>.json` whose testee starts and lists a multipart or urlencoded op takes part; a new
language shows up in the matrix as soon as its file and testee exist.

The protocol client is the conformance runner's own (`conformance/runner/testee.py`: stderr kept for diagnostics,
the process killed after any protocol failure and started again by the next request, requests ASCII-escaped so a
lone surrogate travels); this module only turns the matrix's questions into requests and the answers into entries.
"""
from __future__ import annotations

import base64
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "conformance"))  # as conformance/run does: the `runner` package

from runner.compare import decoding_key  # noqa: E402
from runner.testee import Testee as ProtocolTestee, TesteeFailure  # noqa: E402

OPS = ("multipart.parse", "multipart.serialize", "urlencoded.parse", "urlencoded.serialize")
STDERR_TAIL = 300
MAX_START_FAILURES = 3  # then the testee counts as gone for the rest of the run (as in the runner)


class TesteeError(Exception):
    pass


class Testee(ProtocolTestee):
    """A runner testee plus the ops and version its hello announced, and the matrix's four questions."""

    def __init__(self, lang: str, cmd: list[str], root: str):
        super().__init__(lang, cmd, root)
        self.ops: list[str] = []
        self.version = ""
        self.start_failures = 0

    def start(self):
        """Also called by request() for a new process after a failure."""
        try:
            ok = super().start()
        except TesteeFailure:
            self.start_failures += 1
            raise
        self.start_failures = 0
        self.ops = [o for o in ok.get("ops", []) if o in OPS]
        self.version = ok.get("version", "")
        return ok

    def call(self, req: dict) -> dict:
        """One request; a failure (crash, timeout, wrong id, not JSON) raises TesteeError with the stderr tail.
        The runner's client has killed the process then, and the next call starts a new one."""
        if self.proc is None and self.start_failures >= MAX_START_FAILURES:
            raise TesteeError(f"{self.lang} testee is not running (failed to start {self.start_failures} times)")
        try:
            return self.request(req)
        except TesteeFailure as e:
            msg = f"{self.lang} testee: {e.message}"
            if e.stderr.strip():
                msg += "; stderr: " + e.stderr.strip()[-STDERR_TAIL:]
            raise TesteeError(msg) from None

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
    """The one result every chunking must give (runner.compare.decoding_key: error messages aside), converted."""
    results = resp.get("results")
    if not isinstance(results, list):
        return {"error": {"code": "TESTEE", "offset": -1, "message": json.dumps(resp)[:200]}}
    if len(results) != len(chunkings):
        return {"error": {"code": "TESTEE", "offset": -1, "message": f"{len(results)} results for {len(chunkings)}"}}
    first = results[0]
    for c, r in zip(chunkings[1:], results[1:]):
        if decoding_key(r) != decoding_key(first):
            return {"error": {"code": "CHUNKING", "offset": -1,
                              "message": f"chunking {c if c else 'whole'} gives a different result"}}
    if isinstance(first, dict) and "ok" in first:
        return convert(first["ok"])
    err = (first.get("error") if isinstance(first, dict) else None) or {}
    return {"error": {"code": err.get("code"), "offset": err.get("offset"), "message": err.get("message", "")}}


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
        except TesteeFailure as e:
            t.kill()
            tail = e.stderr.strip()[-STDERR_TAIL:]
            notes.append(f"{lang}: testee did not start ({e.message}{'; stderr: ' + tail if tail else ''})")
            continue
        if not t.ops:
            t.close()
            continue  # e.g. the V8 clone oracle: no form ops, not part of this matrix
        found.append(t)
    return found, notes
