"""A stand-in testee for test_testees.py: speaks just enough of conformance/PROTOCOL.md to misbehave on request."""
import json
import sys

for line in sys.stdin:
    req = json.loads(line)
    rid, op = req["id"], req["op"]
    if op == "hello":
        out = {"ok": {"lang": "fake", "version": "0", "ops": ["multipart.parse", "urlencoded.parse",
                                                               "urlencoded.serialize", "clone.decode"]}}
    elif op == "urlencoded.serialize":  # a lone surrogate arrives as \ud800 escapes; answer U+FFFD like a serializer
        text = "&".join(f"{n}={v}" for n, v in req["pairs"])
        out = {"ok": {"text": text.encode("utf-8", "replace").decode("utf-8").replace("?", "\ufffd")}}
    elif op == "multipart.parse":
        what = req["content_type"]
        if what == "crash":
            sys.stderr.write("boom: fake testee crashed\n")
            sys.stderr.flush()
            sys.exit(3)
        if what == "wrong-id":
            rid += 100
        results = [{"ok": {"parts": []}}, {"error": {"code": "MP_X", "offset": 1, "message": "m"}}]
        out = {"results": [results[0]] * len(req["chunkings"]) if what == "agree" else results}
    else:
        out = {"results": [{"ok": {"pairs": [["a", "b"]]}} for _ in req["chunkings"]]}
    sys.stdout.write(json.dumps(dict(out, id=rid)) + "\n")
    sys.stdout.flush()
