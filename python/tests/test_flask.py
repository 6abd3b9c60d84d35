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
    r = client.post("/upload", data={"a": "1", "b": "é ü", "f": (io.BytesIO(b"hello"), "x.txt", "text/plain"),
                                     "g": (io.BytesIO(big), "big.bin", "application/octet-stream")},
                    content_type="multipart/form-data")
    assert r.status_code == 200
    assert r.get_json() == {
        "fields": [["a", "1"], ["b", "é ü"]],
        "files": [["f", "x.txt", "text/plain", 5, hashlib.sha256(b"hello").hexdigest()],
                  ["g", "big.bin", "application/octet-stream", len(big), hashlib.sha256(big).hexdigest()]],
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
