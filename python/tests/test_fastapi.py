"""A FastAPI app (Form, File, UploadFile) with python-multipart and with formwire.compat.starlette.install()."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from fastapi import FastAPI, File, Form, UploadFile
from fastapi.testclient import TestClient

import formwire.compat.starlette as fw_starlette

app = FastAPI()


@app.post("/files")
async def files(files: list[UploadFile] = File(), note: str = Form("")) -> dict[str, object]:
    out = []
    for f in files:
        data = await f.read()
        out.append(
            [
                f.filename,
                f.content_type,
                f.size,
                len(data),
                hashlib.sha256(data).hexdigest(),
                getattr(f.file, "_rolled", None),
            ]
        )
    return {"note": note, "files": out}


@app.post("/upload")
async def upload(title: str = Form(), tags: list[str] = Form(), photo: UploadFile = File()) -> dict[str, object]:
    data = await photo.read()
    return {"title": title, "tags": tags, "filename": photo.filename, "type": photo.content_type, "size": len(data)}


@pytest.fixture(params=["python-multipart", "formwire", "formwire-callbacks"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    if request.param != "python-multipart":
        fw_starlette.install(native=request.param == "formwire")
        assert fw_starlette.native() == (request.param == "formwire")
    try:
        with TestClient(app) as c:
            yield c
    finally:
        fw_starlette.uninstall()


def test_form_and_file(client: TestClient) -> None:
    r = client.post(
        "/upload",
        data={"title": "Holiday é", "tags": ["a", "b"]},
        files={"photo": ("beach.jpg", b"\xff\xd8" * 50000, "image/jpeg")},
    )
    assert r.status_code == 200, r.text
    assert r.json() == {
        "title": "Holiday é",
        "tags": ["a", "b"],
        "filename": "beach.jpg",
        "type": "image/jpeg",
        "size": 100000,
    }


def test_missing_field_is_422_and_bad_body_is_400(client: TestClient) -> None:
    r = client.post("/upload", data={"title": "x"}, files={"photo": ("a", b"1")})
    assert r.status_code == 422
    r = client.post(
        "/upload",
        content=b"--B\r\nbroken\r\n\r\n--B--\r\n",
        headers={"Content-Type": "multipart/form-data; boundary=B"},
    )
    assert r.status_code == 400


def test_many_files_one_past_the_spool_size(client: TestClient) -> None:
    big = bytes(range(256)) * 6000  # 1.5 MiB: on disk (spool_max_size 1 MiB)
    r = client.post(
        "/files",
        data={"note": "Grüße ☕"},
        files=[
            ("files", ("日本.txt", "é".encode(), "text/plain; charset=utf-8")),
            ("files", ("big.bin", big, "application/octet-stream")),
            ("files", ("empty", b"", "application/x-empty")),
        ],
    )
    assert r.status_code == 200, r.text
    sha = lambda b: hashlib.sha256(b).hexdigest()  # noqa: E731
    assert r.json() == {
        "note": "Grüße ☕",
        "files": [
            ["日本.txt", "text/plain; charset=utf-8", 2, 2, sha("é".encode()), False],
            ["big.bin", "application/octet-stream", len(big), len(big), sha(big), True],
            ["empty", "application/x-empty", 0, 0, sha(b""), False],
        ],
    }


def test_starlette_limits_through_fastapi(client: TestClient) -> None:
    # FastAPI reads forms with Starlette's defaults (max_part_size 1 MiB for a text field)
    r = client.post("/files", data={"note": "x" * (1024 * 1024 + 1)}, files=[("files", ("a", b"1"))])
    assert r.status_code == 400 and "Part exceeded maximum size of 1024KB." in r.text
