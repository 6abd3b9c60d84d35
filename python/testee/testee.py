"""The conformance testee (conformance/PROTOCOL.md): JSON lines in on stdin, results out on stdout.

It holds no test logic: each request is decoded, run through formwire's public Python API, and encoded back.
Not part of the package. Run from the repository root as ``.venv/bin/python python/testee/testee.py``; the clone ops
use the extension's neutral-JSON functions that only the development build has (``make python-build``, feature
``testee``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from typing import Any

import formwire
from formwire import multipart, urlencoded
from formwire._formwire import _testee_neutral_decode as v8_neutral_decode  # type: ignore[attr-defined]
from formwire._formwire import _testee_neutral_encode as v8_neutral_encode  # type: ignore[attr-defined]

OPS = [
    "multipart.parse",
    "multipart.serialize",
    "urlencoded.parse",
    "urlencoded.serialize",
    "clone.decode",
    "clone.encode",
]


class TesteeError(Exception):
    """A request the testee cannot run (not a formwire error code)."""


def error(e: BaseException) -> dict[str, Any]:
    if isinstance(e, formwire.ParseError):
        return {"code": e.code, "offset": e.offset, "message": str(e)}
    return {"code": "TESTEE", "offset": 0, "message": f"{type(e).__name__}: {e}"}


def chunks(data: bytes, chunking: Any) -> list[bytes]:
    if chunking == "bytes":
        return [data[i : i + 1] for i in range(len(data))]
    if not isinstance(chunking, list):
        raise TesteeError(f"bad chunking {chunking!r}")
    bounds = [0, *chunking, len(data)]
    return [data[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]


def multipart_once(content_type: str, options: dict[str, Any], pieces: list[bytes]) -> dict[str, Any]:
    parser = multipart.Parser.from_content_type(content_type, **options)
    parts: list[dict[str, Any]] = []
    state: dict[str, Any] = {}

    def take(events: list[Any]) -> None:
        for ev in events:
            if isinstance(ev, multipart.Part):
                state.update(part=ev, hash=hashlib.sha256(), size=0, body=bytearray())
            elif isinstance(ev, (memoryview, bytes)):
                state["hash"].update(ev)
                state["size"] += len(ev)
                if len(state["body"]) <= 65536:
                    state["body"] += ev
            elif ev is multipart.PART_END:
                p = state["part"]
                out = {
                    "name": p.name,
                    "filename": p.filename,
                    "name_star": p.name_star,
                    "filename_star": p.filename_star,
                    "content_type": p.content_type,
                    "type": p.type,
                    "headers": [list(h) for h in p.headers],
                    "size": state["size"],
                    "sha256": state["hash"].hexdigest(),
                }
                if state["size"] <= 65536:
                    out["body_b64"] = base64.b64encode(bytes(state["body"])).decode()
                parts.append(out)

    for piece in pieces:
        take(parser.feed(piece))
    take(parser.close())
    return {"parts": parts}


def urlencoded_once(options: dict[str, Any], data: bytes, chunking: Any) -> dict[str, Any]:
    if chunking == []:
        pairs = urlencoded.parse(data, **options)
    else:
        p = urlencoded.Parser(**options)
        pairs = []
        for piece in chunks(data, chunking):
            pairs.extend(p.feed(piece))
        pairs.extend(p.close())
    return {"pairs": [list(x) for x in pairs]}


def parse_op(req: dict[str, Any]) -> dict[str, Any]:
    data = base64.b64decode(req.get("input_b64", ""))
    options = req.get("options") or {}
    results = []
    for chunking in req.get("chunkings") or [[]]:
        try:
            if req["op"] == "multipart.parse":
                ok = multipart_once(req.get("content_type", ""), options, chunks(data, chunking))
            elif req["op"] == "urlencoded.parse":
                ok = urlencoded_once(options, data, chunking)
            else:
                ok = {"value": json.loads(v8_neutral_decode(data, **clone_decode_options(options)))}
            results.append({"ok": ok})
        except Exception as e:  # noqa: BLE001 - every failure is reported as a result
            results.append({"error": error(e)})
    return {"results": results}


def clone_decode_options(options: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in options.items():
        if k not in ("max_depth", "max_bytes", "max_values", "max_bigint_bytes", "node_ipc"):
            raise TesteeError(f"unknown clone option {k}")
        out[k] = v
    return out


def body_bytes(b: dict[str, Any]) -> bytes:
    if "base64" in b:
        return base64.b64decode(b["base64"])
    if "text" in b:
        return str(b["text"]).encode("utf-8")
    raise TesteeError(f"unsupported body {b!r}")


def serialize_op(req: dict[str, Any]) -> dict[str, Any]:
    entries: list[tuple[str, Any]] = []
    for e in req.get("entries", []):
        if "file" in e:
            f = e["file"]
            entries.append((e["name"], multipart.File(body_bytes(f["body"]), f["filename"], f["type"])))
        elif "blob" in e:
            b = e["blob"]
            entries.append((e["name"], multipart.Blob(body_bytes(b["body"]), b["type"])))
        else:
            entries.append((e["name"], e["value"]))
    enc = multipart.encode(entries, boundary=req.get("boundary"))
    length = enc.content_length  # known before the body is produced (MP-S-08)
    body = enc.to_bytes()
    return {"content_type": enc.content_type, "content_length": length, "body_b64": base64.b64encode(body).decode()}


def handle(req: dict[str, Any]) -> dict[str, Any]:
    op = req.get("op")
    if op == "hello":
        return {"ok": {"lang": "python", "version": formwire.__version__, "ops": OPS}}
    if op in ("multipart.parse", "urlencoded.parse", "clone.decode"):
        return parse_op(req)
    try:
        if op == "multipart.serialize":
            return {"ok": serialize_op(req)}
        if op == "urlencoded.serialize":
            return {"ok": {"text": urlencoded.serialize([tuple(p) for p in req.get("pairs", [])])}}
        if op == "clone.encode":
            opts = req.get("options") or {}
            data = v8_neutral_encode(json.dumps(req["value"]), max_depth=opts.get("max_depth"))
            return {"ok": {"hex": data.hex()}}
        raise TesteeError(f"unknown op {op!r}")
    except Exception as e:  # noqa: BLE001
        return {"error": error(e)}


def main() -> int:
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            out.write(json.dumps({"id": None, "error": error(e)}) + "\n")
            out.flush()
            continue
        resp = handle(req)
        resp["id"] = req.get("id")
        out.write(json.dumps(resp, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
