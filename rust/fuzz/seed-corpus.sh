#!/usr/bin/env bash
# Seeds rust/fuzz/corpus/<target>/ from the shared vectors, in the input layouts documented in
# rust/crates/formwire-props/src/lib.rs:
#   multipart_chunked  every multipart-parse case with a raw .http input (its content_type and lenient flags)
#   urlencoded         every urlencoded-parse case with a raw or inline input
#   encode_roundtrip   every multipart-serialize case (boundary + entries)
# Usage: rust/fuzz/seed-corpus.sh    (idempotent; the corpus folder is ignored by git)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
exec python3 - "$root/vectors" "$here/corpus" <<'PY'
import base64, glob, hashlib, json, os, struct, sys

vectors, corpus = sys.argv[1], sys.argv[2]
counts = {}

def write(target, case_id, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, case_id), "wb") as f:
        f.write(data)
    counts[target] = counts.get(target, 0) + 1

def body_bytes(spec, folder):
    if "text" in spec:
        return spec["text"].encode()
    if "base64" in spec:
        return base64.b64decode(spec["base64"])
    if "file" in spec:
        with open(os.path.join(folder, spec["file"]), "rb") as f:
            return f.read()
    return None  # a `generate` recipe: too large for a seed

def s8(b):
    b = b[:255]
    return bytes([len(b)]) + b

def s16(b):
    b = b[:65535]
    return struct.pack("<H", len(b)) + b

for path in sorted(glob.glob(os.path.join(vectors, "multipart", "*", "*.json"))):
    case = json.load(open(path))
    folder = os.path.dirname(path)
    if case["kind"] == "multipart-parse":
        body = body_bytes(case["input"], folder)
        if body is None:
            continue
        opts = case.get("options") or {}
        flags = (1 if opts.get("allow_preamble") else 0) | (2 if opts.get("allow_lf") else 0) | (4 if opts.get("allow_obs_fold") else 0)
        flags |= 128 if opts.get("allow_cr") else 0
        more_names = ("allow_quoted_pairs", "allow_missing_disposition", "allow_any_disposition_type",
                      "allow_junk_after_close", "allow_utf8_header_names", "allow_near_delimiters",
                      "allow_8bit_parameter_names", "allow_rfc2231_continuations")
        more = sum(1 << i for i, n in enumerate(more_names) if opts.get(n))
        ct = case.get("content_type", "").encode()[:255]
        head = bytes([flags | (64 if more else 0), 0, len(ct)]) + ct + (bytes([more]) if more else b"")
        write("multipart_chunked", case["id"], head + body)
    elif case["kind"] == "multipart-serialize":
        inp = case["input"]
        out = bytes([0]) + s8(inp["boundary"].encode())
        for e in inp["entries"]:
            name = e["name"].encode()
            if "file" in e:
                f = e["file"]
                out += bytes([1]) + s8(name) + s8(f["filename"].encode()) + s8(f.get("type", "").encode()) + s16(body_bytes(f["body"], folder) or b"")
            elif "blob" in e:
                b = e["blob"]
                out += bytes([2]) + s8(name) + s8(b.get("type", "").encode()) + s16(body_bytes(b["body"], folder) or b"")
            else:
                out += bytes([0]) + s8(name) + s16(e["value"].encode())
        write("encode_roundtrip", case["id"], out)

for path in sorted(glob.glob(os.path.join(vectors, "urlencoded", "*", "*.json"))):
    case = json.load(open(path))
    if case["kind"] != "urlencoded-parse":
        continue
    body = body_bytes(case["input"], os.path.dirname(path))
    if body is not None:
        write("urlencoded", case["id"], bytes([0, 0]) + body)

for t in sorted(counts):
    print(f"{t}: {counts[t]} seeds in {os.path.relpath(os.path.join(corpus, t))}")
PY
