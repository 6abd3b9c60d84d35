"""multipart.encode: WHATWG bytes, Content-Length up front, streaming, client interop."""

from __future__ import annotations

import io
import re

import httpx
import pytest
from conftest import collect

import formwire
from formwire import multipart


def test_whatwg_bytes() -> None:
    blob = bytes(range(256))
    enc = multipart.encode(
        [
            ("a\nb", "line 1\nline 2"),
            ("f", multipart.File(blob, 'x".txt')),
            ("b", multipart.Blob(b"", "text/plain")),
            ("z", "end"),
        ],
        boundary="XyZ",
    )
    want = (
        b'--XyZ\r\nContent-Disposition: form-data; name="a%0D%0Ab"\r\n\r\nline 1\r\nline 2\r\n'
        b'--XyZ\r\nContent-Disposition: form-data; name="f"; filename="x%22.txt"\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n" + blob + b"\r\n"
        b'--XyZ\r\nContent-Disposition: form-data; name="b"; filename="blob"\r\nContent-Type: text/plain\r\n\r\n\r\n'
        b'--XyZ\r\nContent-Disposition: form-data; name="z"\r\n\r\nend\r\n--XyZ--\r\n'
    )
    assert enc.to_bytes() == bytes(enc) == b"".join(enc) == want
    assert enc.content_length == len(want)
    assert enc.content_type == "multipart/form-data; boundary=XyZ"
    assert enc.headers == {"Content-Type": enc.content_type, "Content-Length": str(len(want))}


def test_empty_form_and_escapes() -> None:
    """MP-S-01: an empty form; MP-S-02/03: names normalize newlines, filenames do not."""
    assert multipart.encode(boundary="B").to_bytes() == b"--B--\r\n"
    body = multipart.encode([("a\n\rb", multipart.File(b"", "b\n\rc"))], boundary="B").to_bytes()
    assert b'name="a%0D%0A%0D%0Ab"; filename="b%0A%0Dc"' in body


def test_lone_surrogates_become_replacement() -> None:
    """MP-S-07: USVString conversion."""
    body = multipart.encode([("n\ud800", "v\udfff")], boundary="B").to_bytes()
    assert 'name="n\ufffd"'.encode() in body and "v\ufffd".encode() in body


def test_generated_boundaries_are_fresh_and_well_formed() -> None:
    """MP-S-09: 27-70 characters of [0-9A-Za-z-], from a CSPRNG (never twice the same)."""
    seen = set()
    for _ in range(50):
        b = multipart.encode({"a": "1"}).boundary
        assert re.fullmatch(r"[0-9A-Za-z-]{27,70}", b), b
        seen.add(b)
    assert len(seen) == 50


def test_generated_boundary_characters_are_uniform() -> None:
    """MP-S-09, issue #13 item 8: the 32 random characters of 20,000 boundaries against the uniform distribution over
    the 62 characters (Pearson's chi-squared, 61 degrees of freedom: P(> 153) is about 1e-9). A modulo-62 map of every
    byte value (0-7 1.25x as likely) gives about 4,100."""
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    counts = dict.fromkeys(alphabet, 0)
    n = 20_000
    for _ in range(n):
        b = multipart.encode({}).boundary
        assert b.startswith("----formwire-") and len(b) == 45, b
        for c in b[13:]:
            counts[c] += 1
    expected = n * 32 / 62
    chi2 = sum((o - expected) ** 2 / expected for o in counts.values())
    assert chi2 < 153, chi2


def test_encoder_errors() -> None:
    with pytest.raises(formwire.MultipartError) as e:
        multipart.encode({"a": "1"}, boundary="bad\"quote")
    assert (e.value.code, e.value.offset) == ("MP_ENCODE_BOUNDARY", 0)
    with pytest.raises(formwire.MultipartError) as e:
        multipart.encode([("a", "1"), ("b", "2"), ("f", multipart.File(b"", "x", "text/plain\r\nX-Evil: 1"))])
    assert (e.value.code, e.value.offset) == ("MP_ENCODE_HEADER", 2)
    enc = multipart.encode({"a": "1"}, boundary="a/b=c")
    assert enc.content_type == 'multipart/form-data; boundary="a/b=c"'  # MP-S-10


def test_httpx_style_files_and_type_guessing() -> None:
    enc = multipart.encode(
        {"n": 1, "t": True}, {"f": ("report.pdf", b"%PDF"), "g": b"raw", "h": (None, "plain")}, boundary="B"
    )
    parts = collect(multipart.Parser("B").feed(enc.to_bytes()))
    assert [(p["name"], p.get("filename"), p.get("content_type"), p["body"]) for p in parts] == [
        ("n", None, None, b"1"),
        ("t", None, None, b"true"),
        ("f", "report.pdf", "application/pdf", b"%PDF"),
        ("g", "upload", "application/octet-stream", b"raw"),
        ("h", None, None, b"plain"),
    ]


def test_file_bodies_stream_without_copies(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "big.bin"
    data = bytes(range(256)) * 1000
    path.write_bytes(data)
    blob = b"in memory"
    with open(path, "rb") as fh:
        enc = multipart.encode(
            [("f", multipart.File(fh, "big.bin")), ("m", multipart.File(blob, "m"))], boundary="B", chunk_size=4096
        )
        assert enc.content_length is not None
        pieces = list(enc)
        assert any(p is blob for p in pieces)  # a bytes body is yielded as is
        assert max(len(p) for p in pieces if p is not blob) <= 4096 + 200
        body = b"".join(pieces)
        assert len(body) == enc.content_length
        assert b"".join(enc) == body  # a seekable file is rewound for a second pass
    parts = collect(multipart.Parser("B").feed(body))
    assert parts[0]["body"] == data and parts[1]["body"] == blob


def test_unknown_size_streams_and_has_no_length() -> None:
    class Pipe(io.RawIOBase):
        def __init__(self) -> None:
            self.left = [b"abc", b"def"]

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            return self.left.pop(0) if self.left else b""

    enc = multipart.encode([("p", multipart.File(Pipe(), "p"))], boundary="B")  # type: ignore[arg-type]
    assert enc.content_length is None and "Content-Length" not in enc.headers
    assert collect(multipart.Parser("B").feed(enc.to_bytes()))[0]["body"] == b"abcdef"


def test_httpx_sends_it_and_python_multipart_reads_it() -> None:
    from python_multipart import parse_form as pm_parse_form

    enc = multipart.encode(
        [("greeting", "héllo"), ("upload", multipart.File(b"\x00\x01\x02", "a.bin", "application/x-demo"))]
    )
    seen = {}

    def handler(request: httpx.Request) -> httpx.Response:
        seen["body"] = request.read()
        seen["headers"] = request.headers
        return httpx.Response(200)

    with httpx.Client(transport=httpx.MockTransport(handler)) as client:
        client.post("http://test/upload", content=enc, headers=enc.headers)
    assert seen["body"] == enc.to_bytes()
    assert seen["headers"]["content-length"] == str(enc.content_length)
    fields, files = {}, {}

    def on_field(f) -> None:  # type: ignore[no-untyped-def]
        fields[f.field_name] = f.value

    def on_file(f) -> None:  # type: ignore[no-untyped-def]
        f.file_object.seek(0)
        files[f.field_name] = (f.file_name, f.file_object.read())

    pm_parse_form(
        {"Content-Type": enc.content_type.encode(), "Content-Length": str(enc.content_length).encode()},
        io.BytesIO(seen["body"]),
        on_field,
        on_file,
    )
    assert fields == {b"greeting": "héllo".encode()} and files == {b"upload": (b"a.bin", b"\x00\x01\x02")}


def test_round_trip_through_parse_form() -> None:
    entries = [("a", "1"), ("é", "ü\r\n"), ("f", multipart.File(b"\r\n--x\r\n", "f.txt", "text/plain"))]
    enc = multipart.encode(entries)
    f = formwire.parse_form(enc.to_bytes(), enc.content_type)
    assert f["a"] == "1" and f["é"] == "ü\r\n" and f["f"].read() == b"\r\n--x\r\n"  # type: ignore[union-attr]
