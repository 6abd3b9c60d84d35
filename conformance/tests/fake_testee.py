"""A tiny testee for the runner's own tests: `python3 fake_testee.py MODE [OPS]`.

MODE `good` is a correct reference for the few vectors the tests write (WHATWG urlencoded parser and serializer, a
happy-path multipart parser and serializer, and a JSON-in-hex stand-in for clone). Every other mode breaks one thing:

  wrong-value     urlencoded.parse does not turn `+` into a space
  wrong-offset    UE_LIMIT_PAIRS points one byte too far
  chunking        a chunk boundary acts like `&` (only when the input is cut at an offset)
  crash           exits when the input contains `CRASH`
  hang            sleeps forever when the input contains `HANG`
  badjson         writes a line that is not JSON when the input contains `BADJSON`
  wrongid         answers with the wrong id when the input contains `WRONGID`
  badserialize    urlencoded.serialize leaves `+` unescaped; clone.encode writes -0 as 0
  lossydecode     clone.decode turns -0 into 0

OPS, when given, is a comma-separated list of the ops to announce in hello.
"""

import base64
import hashlib
import json
import re
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
ALL_OPS = ["urlencoded.parse", "urlencoded.serialize", "multipart.parse", "multipart.serialize",
           "clone.decode", "clone.encode"]
OPS = sys.argv[2].split(",") if len(sys.argv) > 2 else ALL_OPS


class Fail(Exception):
    def __init__(self, code, offset):
        self.code, self.offset = code, offset


def pct_decode(b):
    return re.sub(rb"%([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), b)


def ue_parse(data, options, cuts):
    max_bytes = options.get("max_bytes", 10485760)
    max_pairs = options.get("max_pairs", 10000)
    if max_bytes is not None and len(data) > max_bytes:
        raise Fail("UE_LIMIT_BYTES", max_bytes)
    if MODE == "chunking" and cuts:
        data = b"&".join(data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)]))
    pairs, pos = [], 0
    for seq in data.split(b"&"):
        start, pos = pos, pos + len(seq) + 1
        if not seq:
            continue
        if max_pairs is not None and len(pairs) == max_pairs:
            raise Fail("UE_LIMIT_PAIRS", start + (1 if MODE == "wrong-offset" else 0))
        name, _, value = seq.partition(b"=")
        if MODE != "wrong-value":
            name, value = name.replace(b"+", b" "), value.replace(b"+", b" ")
        pairs.append([pct_decode(name).decode("utf-8", "replace"), pct_decode(value).decode("utf-8", "replace")])
    return {"pairs": pairs}


def ue_serialize(pairs):
    def enc(s):
        out = []
        for byte in s.encode("utf-8"):
            c = chr(byte)
            if c.isascii() and (c.isalnum() or c in "*-._"):
                out.append(c)
            elif c == " ":
                out.append("+")
            elif c == "+" and MODE == "badserialize":
                out.append("+")
            else:
                out.append("%%%02X" % byte)
        return "".join(out)
    return {"text": "&".join(enc(n) + "=" + enc(v) for n, v in pairs)}


def mp_parse(ct, data):
    boundary = re.search(r"boundary=([^;\s]+)", ct).group(1).encode()
    if not data.startswith(b"--" + boundary):
        raise Fail("MP_PREAMBLE", 0)
    parts = []
    for seg in (b"\r\n" + data).split(b"\r\n--" + boundary)[1:]:
        if seg.startswith(b"--"):
            return {"parts": parts}
        head, _, body = seg[2:].partition(b"\r\n\r\n")
        headers = []
        for line in head.split(b"\r\n"):
            n, _, v = line.partition(b":")
            headers.append([n.decode().strip().lower(), v.decode("utf-8", "replace").strip()])
        cd = [v for n, v in headers if n == "content-disposition"][-1]
        name = re.search(r'; name="([^"]*)"', cd).group(1)
        fn = re.search(r'; filename="([^"]*)"', cd)
        cts = [v for n, v in headers if n == "content-type"]
        parts.append({"name": name, "filename": fn and fn.group(1), "name_star": None, "filename_star": None,
                      "content_type": cts[-1] if cts else None,
                      "type": (cts[-1] if cts else "text/plain") if fn else None, "headers": headers,
                      "size": len(body), "sha256": hashlib.sha256(body).hexdigest(),
                      "body_b64": base64.b64encode(body).decode()})
    raise Fail("MP_TRUNCATED", len(data))


def mp_serialize(boundary, entries):
    def crlf(s):
        return s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")

    def esc(s):
        return s.replace("\n", "%0A").replace("\r", "%0D").replace('"', "%22")
    out = b""
    for e in entries:
        out += b'--%s\r\nContent-Disposition: form-data; name="%s"' % (boundary.encode(), esc(crlf(e["name"])).encode())
        if "value" in e:
            out += b"\r\n\r\n" + crlf(e["value"]).encode() + b"\r\n"
        else:
            f = e.get("file") or e.get("blob")
            fn = esc(f["filename"]) if "file" in e else "blob"
            out += b'; filename="%s"\r\nContent-Type: %s\r\n\r\n' % (fn.encode(), (f["type"] or "application/octet-stream").encode())
            out += base64.b64decode(f["body"]["base64"]) + b"\r\n"
    out += b"--%s--\r\n" % boundary.encode()
    return {"content_type": "multipart/form-data; boundary=" + boundary, "content_length": len(out),
            "body_b64": base64.b64encode(out).decode()}


def clone_encode(value):
    if MODE == "badserialize":
        value = json.loads(json.dumps(value).replace('"v": "-0"', '"v": 0'))
    return {"hex": "ff0f" + json.dumps(value, sort_keys=True).encode().hex()}


def clone_decode(data):
    if data[:2] != b"\xff\x0f":
        raise Fail("SC_VERSION", 0)
    text = data[2:].decode()
    if MODE == "lossydecode":
        text = text.replace('"v": "-0"', '"v": 0')
    return {"value": json.loads(text)}


def chunk_cuts(c):
    return [] if c == "bytes" else c


def handle(req):
    op = req["op"]
    if op == "hello":
        return {"ok": {"lang": "fake-" + MODE, "version": "0", "ops": OPS}}
    data = base64.b64decode(req["input_b64"]) if "input_b64" in req else b""
    for trigger, mode in ((b"CRASH", "crash"), (b"HANG", "hang")):
        if trigger in data and MODE == mode:
            if mode == "crash":
                sys.stderr.write("fake testee: crashing on purpose\n")
                sys.stderr.flush()
                sys.exit(3)
            time.sleep(3600)
    if op in ("urlencoded.parse", "multipart.parse", "clone.decode"):
        results = []
        for c in req["chunkings"]:
            try:
                if op == "urlencoded.parse":
                    r = ue_parse(data, req.get("options", {}), chunk_cuts(c))
                elif op == "multipart.parse":
                    r = mp_parse(req["content_type"], data)
                else:
                    r = clone_decode(data)
                results.append({"ok": r})
            except Fail as f:
                results.append({"error": {"code": f.code, "offset": f.offset, "message": "fake"}})
        return {"results": results}
    if op == "urlencoded.serialize":
        return {"ok": ue_serialize(req["pairs"])}
    if op == "multipart.serialize":
        return {"ok": mp_serialize(req["boundary"], req["entries"])}
    if op == "clone.encode":
        return {"ok": clone_encode(req["value"])}
    return {"error": {"code": "UNKNOWN_OP", "offset": 0, "message": op}}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        resp = handle(req)
        resp["id"] = req["id"]
        data = base64.b64decode(req.get("input_b64", ""))
        if MODE == "badjson" and b"BADJSON" in data:
            sys.stdout.write("this is not json\n")
        elif MODE == "wrongid" and b"WRONGID" in data:
            resp["id"] += 100
            sys.stdout.write(json.dumps(resp) + "\n")
        else:
            sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
