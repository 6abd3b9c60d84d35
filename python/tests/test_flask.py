"""A Flask app under its test client, with Werkzeug's parser and with formwire (install()): same assertions."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator

import pytest
from flask import Flask, jsonify, request

import formwire.compat.werkzeug as fw_werkzeug

app = Flask(__name__)


@app.post("/upload")
def upload():  # type: ignore[no-untyped-def]
    fields = [[k, v] for k, v in request.form.items(multi=True)]
    files = []
    for k, f in request.files.items(multi=True):
        data = f.read()
        files.append([k, f.filename, f.mimetype, len(data), hashlib.sha256(data).hexdigest()])
    return jsonify(fields=fields, files=files)


@pytest.fixture(params=["werkzeug", "formwire"])
def client(request: pytest.FixtureRequest) -> Iterator[object]:
    if request.param == "formwire":
        fw_werkzeug.install()
        assert fw_werkzeug.installed()
    app.config.update(MAX_FORM_PARTS=1000, MAX_FORM_MEMORY_SIZE=500_000)
    try:
        yield app.test_client()
    finally:
        fw_werkzeug.uninstall()
        assert not fw_werkzeug.installed()


def test_fields_and_files(client) -> None:  # type: ignore[no-untyped-def]
    big = bytes(range(256)) * 4000
    r = client.post(
        "/upload",
        data={
            "a": "1",
            "b": "é ü",
            "f": (io.BytesIO(b"hello"), "x.txt", "text/plain"),
            "g": (io.BytesIO(big), "big.bin", "application/octet-stream"),
        },
        content_type="multipart/form-data",
    )
    assert r.status_code == 200
    assert r.get_json() == {
        "fields": [["a", "1"], ["b", "é ü"]],
        "files": [
            ["f", "x.txt", "text/plain", 5, hashlib.sha256(b"hello").hexdigest()],
            ["g", "big.bin", "application/octet-stream", len(big), hashlib.sha256(big).hexdigest()],
        ],
    }


def test_limits_are_413(client) -> None:  # type: ignore[no-untyped-def]
    app.config.update(MAX_FORM_PARTS=2)
    r = client.post("/upload", data={"a": "1", "b": "2", "c": "3"}, content_type="multipart/form-data")
    assert r.status_code == 413
    app.config.update(MAX_FORM_PARTS=1000, MAX_FORM_MEMORY_SIZE=1000)
    r = client.post("/upload", data={"a": "x" * 2000}, content_type="multipart/form-data")
    assert r.status_code == 413
    r = client.post("/upload", data={"a": "x" * 500}, content_type="multipart/form-data")
    assert r.status_code == 200 and r.get_json()["fields"] == [["a", "x" * 500]]


def test_malformed_body_gives_an_empty_form(client) -> None:  # type: ignore[no-untyped-def]
    body = b"--B\r\nno colon\r\n\r\nx\r\n--B--\r\n"
    r = client.post("/upload", data=body, content_type="multipart/form-data; boundary=B")
    assert r.status_code == 200 and r.get_json() == {"fields": [], "files": []}


def test_werkzeug_test_client_boundaries_of_71_bytes_parse(client) -> None:  # type: ignore[no-untyped-def]
    """Issue #17: Werkzeug's test client sends boundaries of 71+ bytes in about 0.15% of requests; the old default
    max_boundary_bytes (70) made them a silent empty form."""
    b = "---------------WerkzeugFormPart_1732492800.12345670.0123456789012345678"
    assert len(b) == 71
    body = f'--{b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--{b}--\r\n'.encode()
    r = client.post("/upload", data=body, content_type=f"multipart/form-data; boundary={b}")
    assert r.status_code == 200 and r.get_json() == {"fields": [["a", "1"]], "files": []}


def test_formwire_limits_are_413_never_an_empty_form() -> None:
    """Every MP_LIMIT_* is a 413 through Werkzeug's silent form parsing: a boundary over max_boundary_bytes (256) and
    more than max_total_field_bytes (10 MiB) of text fields (MP-L-04; Werkzeug's per-field MAX_FORM_MEMORY_SIZE
    alone lets 30 fields of 400 KB through)."""
    fw_werkzeug.install()
    try:
        app.config.update(MAX_FORM_PARTS=1000, MAX_FORM_MEMORY_SIZE=500_000)
        c = app.test_client()
        b = "b" * 257
        body = f'--{b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--{b}--\r\n'.encode()
        r = c.post("/upload", data=body, content_type=f"multipart/form-data; boundary={b}")
        assert r.status_code == 413
        fields = {f"f{i}": "x" * 400_000 for i in range(30)}
        r = c.post("/upload", data=fields, content_type="multipart/form-data")
        assert r.status_code == 413
        r = c.post("/upload", data={f"f{i}": "x" * 400_000 for i in range(20)}, content_type="multipart/form-data")
        assert r.status_code == 200 and len(r.get_json()["fields"]) == 20
    finally:
        fw_werkzeug.uninstall()


def test_install_options_apply_to_the_patch_only() -> None:
    """install(**options) applies them to the patched parser, and nowhere else: the explicit wiring
    (fw_werkzeug.MultiPartParser, no install) keeps the defaults, and a later install() without options drops them."""
    from werkzeug.datastructures import MultiDict

    body = b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--B--\r\n'
    app.config.update(MAX_FORM_PARTS=1000, MAX_FORM_MEMORY_SIZE=500_000)
    c = app.test_client()
    explicit = fw_werkzeug.MultiPartParser(max_form_memory_size=500_000, max_form_parts=1000, cls=MultiDict)
    fw_werkzeug.install(max_field_bytes=1)  # over it: "1" and "2" are fine, "ab" would not be
    try:
        assert fw_werkzeug.installed()
        r = c.post(
            "/upload", data=body.replace(b"\r\n1\r\n", b"\r\nab\r\n"), content_type="multipart/form-data; boundary=B"
        )
        assert r.status_code == 413
        form, _ = explicit.parse(io.BytesIO(body.replace(b"\r\n1\r\n", b"\r\nab\r\n")), b"B", None)
        assert list(form.items(multi=True)) == [("a", "ab"), ("b", "2")]
        fw_werkzeug.install()
        r = c.post(
            "/upload", data=body.replace(b"\r\n1\r\n", b"\r\nab\r\n"), content_type="multipart/form-data; boundary=B"
        )
        assert r.status_code == 200 and r.get_json()["fields"] == [["a", "ab"], ["b", "2"]]
    finally:
        fw_werkzeug.uninstall()
    assert not fw_werkzeug.installed()


def test_quoted_pairs_read_as_werkzeug_reads_them(client) -> None:  # type: ignore[no-untyped-def]
    """Werkzeug unescapes quoted-pairs in parameters; the shim turns on allow_quoted_pairs (MP-H-07) to match."""
    body = (
        b'--B\r\nContent-Disposition: form-data; name="a\\\\b"\r\n\r\n1\r\n'
        b'--B\r\nContent-Disposition: form-data; name="f"; filename="C:\\\\x\\"y.txt"\r\n\r\nz\r\n--B--\r\n'
    )
    r = client.post("/upload", data=body, content_type="multipart/form-data; boundary=B")
    assert r.status_code == 200
    got = r.get_json()
    assert got["fields"] == [["a\\b", "1"]]
    assert [f[:2] for f in got["files"]] == [["f", 'C:\\x"y.txt']]
