"""Deterministic benchmark inputs (stdlib only).

Every workload of /shared peers.md (W1-W6, REF) plus the worst cases (X1-X5) is generated from fixed splitmix64
seeds (vectors/SCHEMA.md) into a folder, with a manifest.json that tells each runner what to feed and what a correct
result is (counts of parts, fields, files, bytes). Every language reads the same files, so every language parses the
same bytes. Large random payloads come from the `splitmix` helper (lib/splitmix.rs, compiled with rustc into
bench/.deps/bin); without rustc a pure-Python splitmix64 writes the same bytes, slowly.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import urllib.parse
from pathlib import Path

GEN_VERSION = 3  # with the hash of this file: the cache key of bench/.work/<profile>/

BOUNDARY = "----PeerBenchFormBoundary7MA4YWxkTrZu0g"  # WebKit style, 39 characters (peers.md)
# MP-S-09 / RFC 2046: at most 70 bchars; X4 uses exactly 70.
BOUNDARY70 = "----formwireBench70-" + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
assert len(BOUNDARY) == 39 and len(BOUNDARY70) == 70

M64 = (1 << 64) - 1
ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
B64CHARS = ALNUM + b"-_"

KiB = 1024
MiB = 1024 * 1024

# Sizes per profile. "full" follows peers.md; "quick" is a smoke test of every path.
PROFILES = {
    "full": dict(w1_file=200 * MiB, w2_fields=10_000, w3_pairs=100, w3_file=100 * KiB, w4_bytes=MiB,
                 w5_fields=1000, w5_blob=10 * MiB, w6_string=3_000_000, w6_objects=100, ref=200 * MiB,
                 x_dense=8 * MiB, x_junk=MiB, x_junk_file=MiB, x4_pairs=100, x4_file=100 * KiB,
                 x5_fields=20, x5_file=2 * KiB),
    "quick": dict(w1_file=2 * MiB, w2_fields=500, w3_pairs=10, w3_file=10 * KiB, w4_bytes=64 * KiB,
                  w5_fields=100, w5_blob=MiB, w6_string=300_000, w6_objects=100, ref=2 * MiB,
                  x_dense=128 * KiB, x_junk=64 * KiB, x_junk_file=64 * KiB, x4_pairs=10, x4_file=10 * KiB,
                  x5_fields=5, x5_file=512),
}


class SplitMix:
    """splitmix64, vectors/SCHEMA.md."""

    def __init__(self, seed: int):
        self.s = seed & M64

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def between(self, lo: int, hi: int) -> int:
        """Uniform-ish integer in [lo, hi]."""
        return lo + self.next() % (hi - lo + 1)

    def alnum(self, n: int) -> bytes:
        return bytes(ALNUM[self.next() % 62] for _ in range(n))

    def chars64(self, n: int) -> bytes:
        """n characters of [A-Za-z0-9-_], 8 per 64-bit output (for long strings)."""
        out = bytearray()
        while len(out) < n:
            z = self.next()
            for k in range(8):
                out.append(B64CHARS[(z >> (8 * k)) & 63])
        return bytes(out[:n])


def random_bytes_py(seed: int, n: int) -> bytes:
    sm = SplitMix(seed)
    out = bytearray()
    for _ in range((n + 7) // 8):
        out += sm.next().to_bytes(8, "little")
    return bytes(out[:n])


class Writer:
    """Writes a body file piece by piece; random payloads are appended by the splitmix helper."""

    def __init__(self, path: Path, splitmix: str | None):
        self.path = path
        self.splitmix = splitmix
        self.f = open(path, "wb")
        self.n = 0

    def put(self, b: bytes) -> None:
        self.f.write(b)
        self.n += len(b)

    def random(self, seed: int, n: int) -> None:
        if self.splitmix and n >= 64 * KiB:
            self.f.flush()
            subprocess.run([self.splitmix, str(seed), str(n), str(self.path), "1"], check=True)
            self.f.seek(0, os.SEEK_END)
        else:
            self.f.write(random_bytes_py(seed, n))
        self.n += n

    def close(self) -> int:
        self.f.close()
        size = self.path.stat().st_size
        assert size == self.n, (self.path, size, self.n)
        return size


def text_part(boundary: str, name: bytes, value: bytes) -> bytes:
    return (b"--" + boundary.encode() + b"\r\nContent-Disposition: form-data; name=\"" + name + b"\"\r\n\r\n"
            + value + b"\r\n")


def file_head(boundary: str, name: bytes, filename: bytes, ctype: bytes = b"application/octet-stream") -> bytes:
    return (b"--" + boundary.encode() + b"\r\nContent-Disposition: form-data; name=\"" + name + b"\"; filename=\""
            + filename + b"\"\r\nContent-Type: " + ctype + b"\r\n\r\n")


def close_delim(boundary: str) -> bytes:
    return b"--" + boundary.encode() + b"--\r\n"


class Expect:
    def __init__(self) -> None:
        self.parts = self.fields = self.files = self.field_bytes = self.file_bytes = 0

    def field(self, value: bytes) -> None:
        self.parts += 1
        self.fields += 1
        self.field_bytes += len(value)

    def file(self, n: int) -> None:
        self.parts += 1
        self.files += 1
        self.file_bytes += n

    def dict(self) -> dict:
        return dict(parts=self.parts, fields=self.fields, files=self.files, field_bytes=self.field_bytes,
                    file_bytes=self.file_bytes)


def multipart_entry(wid: str, title: str, fname: str, size: int, boundary: str, exp: Expect, chunk: int = 64 * KiB,
                    **extra) -> dict:
    e = dict(id=wid, kind="multipart", title=title, file=fname, bytes=size, boundary=boundary,
             content_type="multipart/form-data; boundary=" + boundary, chunk=chunk, expect=exp.dict(),
             allow_preamble=False)
    e.update(extra)
    return e


# ---------------------------------------------------------------------------------------------------------------
# Workloads


def gen_w1(out: Path, p: dict, sm_bin: str | None) -> dict:
    """2 small text fields, then one file part of random bytes (peers.md W1; 209,715,645 B at 200 MiB)."""
    exp = Expect()
    w = Writer(out / "w1.body", sm_bin)
    v1 = b"Quarterly upload: sensor dump #42"  # the two field values are fixed text
    v2 = b"benchmark W1 / peers.md"
    w.put(text_part(BOUNDARY, b"title", v1)); exp.field(v1)
    w.put(text_part(BOUNDARY, b"description", v2)); exp.field(v2)
    w.put(file_head(BOUNDARY, b"file", b"big.bin"))
    payload_offset = w.n
    w.random(1, p["w1_file"]); exp.file(p["w1_file"])
    w.put(b"\r\n" + close_delim(BOUNDARY))
    size = w.close()
    return multipart_entry("W1", "big file", "w1.body", size, BOUNDARY, exp, payload_offset=payload_offset,
                           payload_bytes=p["w1_file"])


def gen_w2(out: Path, p: dict, sm_bin: str | None) -> dict:
    """10,000 text fields field00000..., values of 16-24 random alphanumerics (peers.md W2)."""
    exp = Expect()
    sm = SplitMix(2)
    w = Writer(out / "w2.body", sm_bin)
    for i in range(p["w2_fields"]):
        v = sm.alnum(sm.between(16, 24))
        w.put(text_part(BOUNDARY, b"field%05d" % i, v)); exp.field(v)
    w.put(close_delim(BOUNDARY))
    return multipart_entry("W2", "many fields", "w2.body", w.close(), BOUNDARY, exp)


def mixed(out: Path, fname: str, pairs: int, fsize: int, boundary: str, seed: int, sm_bin: str | None,
          wid: str, title: str) -> dict:
    exp = Expect()
    sm = SplitMix(seed)
    w = Writer(out / fname, sm_bin)
    for i in range(pairs):
        v = sm.alnum(sm.between(20, 40))
        w.put(text_part(boundary, b"text%03d" % i, v)); exp.field(v)
        w.put(file_head(boundary, b"file%03d" % i, b"upload-%03d.bin" % i))
        w.random(seed * 1000 + i, fsize); exp.file(fsize)
        w.put(b"\r\n")
    w.put(close_delim(boundary))
    return multipart_entry(wid, title, fname, w.close(), boundary, exp)


def gen_w3(out: Path, p: dict, sm_bin: str | None) -> dict:
    """100 text fields (20-40 B) interleaved with 100 file parts of 100 KiB random bytes (peers.md W3)."""
    return mixed(out, "w3.body", p["w3_pairs"], p["w3_file"], BOUNDARY, 3, sm_bin, "W3", "mixed")


SPECIALS = ["café", "€", "😀", "привет", "&", "=", "%", "naïve", "日本", "a/b?c", "#frag", "+plus"]


def gen_w4(out: Path, p: dict) -> dict:
    """~1 MiB urlencoded, unique keys; ~40% of pairs with `+` spaces, ~15% with percent-encoded UTF-8 and reserved
    characters (peers.md W4: 20,132 pairs, 8,035 with `+`, 3,012 percent-encoded)."""
    sm = SplitMix(4)
    limit = p["w4_bytes"]
    pieces: list[bytes] = []
    size = -1
    pairs = plus = pct = 0
    decoded = 0
    i = 0
    while True:
        key = "k%05d%s" % (i, sm.alnum(sm.between(4, 11)).decode())
        r = sm.below(1000)
        if r < 399:  # words separated by spaces -> `+`
            value = " ".join(sm.alnum(sm.between(3, 9)).decode() for _ in range(sm.between(2, 6)))
            kind = 1
        elif r < 549:  # percent-encoded UTF-8 and reserved characters
            bits = [sm.alnum(sm.between(3, 8)).decode()]
            for _ in range(sm.between(1, 3)):
                bits.append(SPECIALS[sm.below(len(SPECIALS))])
                bits.append(sm.alnum(sm.between(1, 4)).decode())
            value = "".join(bits)
            kind = 2
        else:
            value = sm.alnum(sm.between(30, 64)).decode()
            kind = 0
        enc = (urllib.parse.quote_plus(key, safe="") + "=" + urllib.parse.quote_plus(value, safe="")).encode()
        if size + 1 + len(enc) > limit:
            break
        pieces.append(enc)
        size += 1 + len(enc)
        pairs += 1
        plus += kind == 1
        pct += kind == 2
        decoded += len(key.encode()) + len(value.encode())
        i += 1
    body = b"&".join(pieces)
    assert len(body) == size
    (out / "w4.txt").write_bytes(body)
    return dict(id="W4", kind="urlencoded", title="urlencoded", file="w4.txt", bytes=len(body),
                expect=dict(pairs=pairs, decoded_bytes=decoded), plus_pairs=plus, pct_pairs=pct)


def gen_w5(out: Path, p: dict, sm_bin: str | None) -> dict:
    """1,000 text fields + one 10 MiB blob, to be built into a form and serialized into one contiguous body."""
    sm = SplitMix(5)
    fields = [["field%04d" % i, sm.alnum(sm.between(16, 24)).decode()] for i in range(p["w5_fields"])]
    (out / "w5.fields.json").write_text(json.dumps(fields))
    w = Writer(out / "w5.blob", sm_bin)
    w.random(55, p["w5_blob"])
    w.close()
    blob = (out / "w5.blob").read_bytes()
    # The WHATWG body for this form with BOUNDARY: what a WHATWG-exact encoder must produce byte for byte.
    h = hashlib.sha256()
    n = 0
    for name, value in fields:
        piece = text_part(BOUNDARY, name.encode(), value.encode())
        h.update(piece); n += len(piece)
    for piece in (file_head(BOUNDARY, b"file", b"blob.bin"), blob, b"\r\n", close_delim(BOUNDARY)):
        h.update(piece); n += len(piece)
    return dict(id="W5", kind="serialize", title="serialize", fields="w5.fields.json", blob="w5.blob",
                blob_name="blob.bin", blob_type="application/octet-stream", boundary=BOUNDARY,
                bytes=n, expect=dict(parts=len(fields) + 1, bytes=n, sha256=h.hexdigest(),
                                     value_bytes=sum(len(v) for _, v in fields), blob_bytes=len(blob)))


def gen_w6(out: Path, p: dict) -> list[dict]:
    """Clone inputs: a one-byte string, an 11-char string, flat objects, a nested config (clone-anchors.md)."""
    sm = SplitMix(6)
    big = sm.chars64(p["w6_string"]).decode()
    objs = [{"name": "user-%04d" % i, "age": sm.between(18, 80), "active": bool(sm.below(2))}
            for i in range(p["w6_objects"])]
    config = {
        "service": {"name": "formwire-gateway", "version": "1.4.2", "region": "eu-west-3", "replicas": 3},
        "http": {"host": "0.0.0.0", "port": 8443, "tls": {"enabled": True, "cert": "/etc/tls/server.pem",
                 "key": "/etc/tls/server.key", "protocols": ["TLSv1.2", "TLSv1.3"]}, "timeouts": {"read": 30000,
                 "write": 30000, "idle": 120000}},
        "limits": {"max_parts": 1000, "max_headers": 8, "max_header_bytes": 8192, "max_field_bytes": 1048576,
                   "max_file_bytes": 10737418240, "max_pairs": 10000},
        "features": ["streaming", "strict", "limits", "clone", "urlencoded"],
        "log": {"level": "info", "format": "json", "sampling": 0.25, "redact": ["authorization", "cookie"]},
        "upstreams": [{"name": "storage", "url": "http://127.0.0.1:9000", "weight": 3, "healthy": True},
                      {"name": "index", "url": "http://127.0.0.1:9100", "weight": 1, "healthy": False}],
        "owner": {"team": "platform", "contact": "platform@example.invalid", "oncall": None},
    }
    values = {"W6a": big, "W6b": objs, "W6c": "hello world", "W6d": config}
    (out / "w6.json").write_text(json.dumps(values))
    titles = {"W6a": "clone %s-char string" % format(len(big), ","), "W6b": "clone %d flat objects" % len(objs),
              "W6c": "clone 11-char string", "W6d": "clone nested config (%d B JSON)" % len(json.dumps(config))}
    sizes = {"W6a": len(big), "W6b": None, "W6c": 11, "W6d": None}
    return [dict(id=k, kind="clone", title=titles[k], file="w6.json", key=k, v8=k.lower() + ".v8",
                 chars=sizes[k], expect=dict(json_bytes=len(json.dumps(values[k], separators=(",", ":")))))
            for k in values]


def gen_ref(p: dict, w1: dict) -> dict:
    """Physical reference points over W1's random payload (peers.md REF)."""
    needle = "\r\n--" + BOUNDARY[:36]
    return dict(id="REF", kind="ref", title="physical reference (W1 payload)", file=w1["file"],
                offset=w1["payload_offset"], bytes=w1["payload_bytes"], needle=needle,
                expect=dict(bytes=w1["payload_bytes"], found=-1))


def gen_worst(out: Path, p: dict, sm_bin: str | None) -> list[dict]:
    res = []
    # X1: a file body that is nothing but CRLF pairs: every CR is a delimiter candidate.
    exp = Expect()
    w = Writer(out / "x1.body", sm_bin)
    w.put(text_part(BOUNDARY, b"a", b"x")); exp.field(b"x")
    w.put(file_head(BOUNDARY, b"f", b"crlf.bin"))
    w.put(b"\r\n" * (p["x_dense"] // 2)); exp.file(p["x_dense"])
    w.put(b"\r\n" + close_delim(BOUNDARY))
    res.append(multipart_entry("X1", "CR/LF-dense file body", "x1.body", w.close(), BOUNDARY, exp))
    # X2: a file body of delimiter near-misses: CRLF "--" and the boundary minus its last byte.
    exp = Expect()
    near = b"\r\n--" + BOUNDARY[:-1].encode() + b"!"
    reps = p["x_dense"] // len(near)
    w = Writer(out / "x2.body", sm_bin)
    w.put(text_part(BOUNDARY, b"a", b"x")); exp.field(b"x")
    w.put(file_head(BOUNDARY, b"f", b"prefix.bin"))
    w.put(near * reps); exp.file(len(near) * reps)
    w.put(b"\r\n" + close_delim(BOUNDARY))
    res.append(multipart_entry("X2", "boundary-prefix-dense file body", "x2.body", w.close(), BOUNDARY, exp))
    # X3: 1 MiB of junk before the first delimiter (preamble) and after the close delimiter (epilogue).
    exp = Expect()
    sm = SplitMix(33)
    w = Writer(out / "x3.body", sm_bin)
    w.random(331, p["x_junk"])
    w.put(b"\r\n")
    for i in range(10):
        v = sm.alnum(sm.between(16, 24))
        w.put(text_part(BOUNDARY, b"field%02d" % i, v)); exp.field(v)
    w.put(file_head(BOUNDARY, b"file", b"mid.bin"))
    w.random(332, p["x_junk_file"]); exp.file(p["x_junk_file"])
    w.put(b"\r\n" + close_delim(BOUNDARY))
    w.random(333, p["x_junk"])
    res.append(multipart_entry("X3", "1 MiB junk before and after (allow_preamble)", "x3.body", w.close(), BOUNDARY,
                               exp, allow_preamble=True))
    # X4: W3's shape with a 70-byte boundary.
    res.append(mixed(out, "x4.body", p["x4_pairs"], p["x4_file"], BOUNDARY70, 4, sm_bin, "X4", "70-byte boundary"))
    # X5: a small form fed one byte per chunk.
    exp = Expect()
    sm = SplitMix(55)
    w = Writer(out / "x5.body", sm_bin)
    for i in range(p["x5_fields"]):
        v = sm.alnum(sm.between(16, 24))
        w.put(text_part(BOUNDARY, b"field%02d" % i, v)); exp.field(v)
    for i in range(2):
        w.put(file_head(BOUNDARY, b"file%d" % i, b"small-%d.bin" % i))
        w.random(550 + i, p["x5_file"]); exp.file(p["x5_file"])
        w.put(b"\r\n")
    w.put(close_delim(BOUNDARY))
    res.append(multipart_entry("X5", "1-byte chunks (small form)", "x5.body", w.close(), BOUNDARY, exp, chunk=1))
    return res


def v8_files(out: Path, node: str | None) -> bool:
    """The V8 wire bytes of the W6 values (Node's v8.serialize), inputs of the Rust and Python V8 decoders."""
    if not node:
        return False
    script = ("const v8=require('v8'),fs=require('fs');const d=JSON.parse(fs.readFileSync(process.argv[1],'utf8'));"
              "for(const k of Object.keys(d))fs.writeFileSync(process.argv[2]+'/'+k.toLowerCase()+'.v8',"
              "v8.serialize(d[k]));")
    subprocess.run([node, "-e", script, str(out / "w6.json"), str(out)], check=True)
    return True


def gen_hash() -> str:
    """The generator's own source and the splitmix helper's: any change regenerates the inputs."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update((Path(__file__).parent / "splitmix.rs").read_bytes())
    return h.hexdigest()[:16]


def generate(out: Path, profile: str, sm_bin: str | None, node: str | None, log=print) -> dict:
    """Generates every input into `out` (skipped when the manifest for this GEN_VERSION is there)."""
    mf = out / "manifest.json"
    if mf.exists():
        try:
            m = json.loads(mf.read_text())
            if m.get("gen_version") == GEN_VERSION and m.get("gen_hash") == gen_hash() and all((out / w["file"]).exists() for w in m["workloads"]
                                                           if "file" in w):
                return m
        except (ValueError, KeyError):
            pass
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    p = PROFILES[profile]
    log(f"bench: generating {profile} inputs into {out}")
    w1 = gen_w1(out, p, sm_bin)
    ws = [w1, gen_w2(out, p, sm_bin), gen_w3(out, p, sm_bin), gen_w4(out, p), gen_w5(out, p, sm_bin)]
    ws += gen_w6(out, p)
    ws.append(gen_ref(p, w1))
    ws += gen_worst(out, p, sm_bin)
    have_v8 = v8_files(out, node)
    m = dict(gen_version=GEN_VERSION, gen_hash=gen_hash(), profile=profile, v8_files=have_v8, workloads=ws)
    mf.write_text(json.dumps(m, indent=1))
    return m
