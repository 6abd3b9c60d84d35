#!/usr/bin/env python3
"""Second, independent check of every vectors/urlencoded/ case file (Python 3 standard library only), the ones
generate.mjs writes and any others in the folder (cap-* captures).

generate.mjs checks every expectation against Node's URLSearchParams before writing. This script reads the files as
written (JSON, .txt inputs, base64, generate recipes) and runs them through a small streaming reference written
straight from spec/urlencoded.md: byte at a time state for "%" / "%X", an incremental UTF-8 decoder per name and value,
and the limits of UE-L-01..03 on absolute offsets. Each parse case is fed whole, one byte at a time (inputs up to
64 KiB), cut at every single point (inputs up to 512 bytes) and with seeded random cut sets; all results must equal
the expectation (UE-P-11). Serialize cases go through a reference serializer (UE-S-03..06).

    python3 vectors/src/urlencoded/refcheck.py          # prints failures, then "N passed, N failed"

With --testee it speaks conformance/PROTOCOL.md instead (ops urlencoded.parse and urlencoded.serialize), so the
conformance runner itself can be checked against the vectors with this reference:

    conformance/run --lang vectors/src/urlencoded/ref-testee.json --filter urlencoded
"""

import base64
import codecs
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "conformance"))  # as conformance/run does: the `runner` package
from runner.cases import expand_recipe  # noqa: E402  (recipe expansion is format plumbing, not an expectation)

VECTORS = ROOT / "vectors" / "urlencoded"
DEFAULTS = {"max_pairs": 10000, "max_bytes": 10485760}  # spec/limits.md
INF = float("inf")
PLAIN_RUN = re.compile(rb"[^&=+%]+")
HEX = b"0123456789ABCDEFabcdef"


class RefParser:
    """UE-P-01..12 and UE-L-01..05 as a push parser. feed() any chunks, then finish()."""

    def __init__(self, options):
        limit = lambda k: INF if options.get(k, DEFAULTS[k]) is None else options.get(k, DEFAULTS[k])
        self.max_pairs = limit("max_pairs")
        self.max_bytes = limit("max_bytes")
        self.offset = 0
        self.pairs = []
        self.count = 0
        self.at_sequence_start = True  # UE-P-03: the next non-"&" byte starts a pair
        self.error = None

    def _start_pair(self):
        self.name = None
        self.parts = []
        self.pct = b""  # b"", b"%" or b"%X" (UE-P-07): undecided until the next byte or the end
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # UE-P-08

    def _emit(self, data):
        self.parts.append(self.decoder.decode(data))

    def _flush_pct(self):
        if self.pct:
            self._emit(self.pct)
            self.pct = b""

    def _end_field(self):
        self._flush_pct()
        self.parts.append(self.decoder.decode(b"", final=True))
        text = "".join(self.parts)
        self.parts = []
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        return text

    def _end_pair(self):
        field = self._end_field()
        self.pairs.append([field, ""] if self.name is None else [self.name, field])

    def feed(self, chunk):
        i, n = 0, len(chunk)
        while i < n and self.error is None:
            if self.offset >= self.max_bytes:  # UE-L-01, checked before the byte is looked at (UE-L-03)
                self.error = {"code": "UE_LIMIT_BYTES", "offset": self.max_bytes}
                return
            b = chunk[i]
            if b == 0x26:  # "&" (UE-P-02)
                if not self.at_sequence_start:
                    self._end_pair()
                self.at_sequence_start = True
                i += 1
                self.offset += 1
                continue
            if self.at_sequence_start:  # first byte of a pair (UE-P-12)
                self.count += 1
                if self.count > self.max_pairs:  # UE-L-02
                    self.error = {"code": "UE_LIMIT_PAIRS", "offset": self.offset}
                    return
                self.at_sequence_start = False
                self._start_pair()
            if self.pct:
                if b in HEX:
                    if len(self.pct) == 1:
                        self.pct = bytes([0x25, b])
                    else:
                        self._emit(bytes([int(bytes([self.pct[1], b]), 16)]))
                        self.pct = b""
                    i += 1
                    self.offset += 1
                    continue
                self._flush_pct()  # not an escape: "%" (and its digit) are literal; b is read normally below
            if b == 0x3D and self.name is None:  # first "=" (UE-P-04)
                self.name = self._end_field()
            elif b == 0x25:
                self.pct = b"%"
            elif b == 0x2B:  # "+" (UE-P-06), before percent-decoding
                self._emit(b" ")
            else:
                end = n if self.max_bytes == INF else min(n, i + int(self.max_bytes - self.offset))
                m = PLAIN_RUN.match(chunk, i, end) if b != 0x3D else None
                j = m.end() if m else i + 1
                self._emit(chunk[i:j])
                self.offset += j - i
                i = j
                continue
            i += 1
            self.offset += 1

    def finish(self):
        if self.error is None and not self.at_sequence_start:
            self._end_pair()
        return {"error": self.error} if self.error else {"pairs": self.pairs}


def ref_serialize(pairs):
    def enc(s):
        out = []
        for byte in s.encode("utf-8"):
            c = chr(byte)
            if c.isascii() and (c.isalnum() or c in "*-._"):  # UE-S-04
                out.append(c)
            elif byte == 0x20:  # UE-S-03
                out.append("+")
            else:  # UE-S-05
                out.append("%%%02X" % byte)
        return "".join(out)

    return "&".join(enc(n) + "=" + enc(v) for n, v in pairs)  # UE-S-06


def input_bytes(case, folder):
    inp = case["input"]
    if "file" in inp:
        return (folder / inp["file"]).read_bytes()
    if "text" in inp:
        return inp["text"].encode("utf-8")
    if "base64" in inp:
        return base64.b64decode(inp["base64"])
    if "generate" in inp:
        return expand_recipe(inp["generate"])  # vectors/SCHEMA.md plumbing, shared with the runner
    raise ValueError("no input")


def chunkings(data, seed):
    n = len(data)
    yield "whole", [data]
    if n <= 65536:
        yield "bytes", [data[i:i + 1] for i in range(n)]
    if n <= 512:
        for cut in range(1, n):
            yield f"[{cut}]", [data[:cut], data[cut:]]
    rng = random.Random(seed)
    for _ in range(8 if n > 1 else 0):
        cuts = sorted(rng.sample(range(1, n), min(n - 1, rng.randint(1, 8))))
        edges = [0] + cuts + [n]
        yield str(cuts), [data[a:b] for a, b in zip(edges, edges[1:])]


def main():
    passed = failed = 0
    for verdict in ("accept", "reject"):
        for path in sorted((VECTORS / verdict).glob("*.json")):
            case = json.loads(path.read_text("utf-8"))
            problems = []
            if case["id"] != path.stem:
                problems.append("id differs from the file name")
            if case["kind"] == "urlencoded-serialize":
                got = ref_serialize(case["input"]["pairs"])
                if got != case["expect"]["text"]:
                    problems.append(f"serializer gives {got!r}")
            else:
                data = input_bytes(case, path.parent)
                want = case["expect"]
                if ("error" in want) != (verdict == "reject"):
                    problems.append(f"verdict folder {verdict} does not match the expectation")
                for label, chunks in chunkings(data, case["id"]):
                    parser = RefParser(case.get("options") or {})
                    for c in chunks:
                        parser.feed(c)
                    got = parser.finish()
                    if got != want:
                        problems.append(f"chunking {label}: got {json.dumps(got)[:300]}")
                        break
            if problems:
                failed += 1
                for p in problems:
                    print(f"FAIL {case['id']}: {p}")
            else:
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def split(data, chunking):
    if chunking == "bytes":
        return (data[i:i + 1] for i in range(len(data)))
    edges = [0] + list(chunking) + [len(data)]
    return (data[a:b] for a, b in zip(edges, edges[1:]))


def testee():
    for line in sys.stdin:
        req = json.loads(line)
        out = {"id": req["id"]}
        if req["op"] == "hello":
            out["ok"] = {"lang": "urlencoded-reference", "version": "0",
                         "ops": ["urlencoded.parse", "urlencoded.serialize"]}
        elif req["op"] == "urlencoded.parse":
            data = base64.b64decode(req["input_b64"])
            results = []
            for chunking in req["chunkings"]:
                parser = RefParser(req.get("options") or {})
                for c in split(data, chunking):
                    parser.feed(c)
                r = parser.finish()
                results.append({"ok": r} if "pairs" in r else {"error": dict(r["error"], message="limit")})
            out["results"] = results
        elif req["op"] == "urlencoded.serialize":
            out["ok"] = {"text": ref_serialize(req["pairs"])}
        else:
            out["error"] = {"code": "UNSUPPORTED", "offset": 0, "message": req["op"]}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(testee() if "--testee" in sys.argv[1:] else main())
