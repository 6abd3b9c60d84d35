"""A FastAPI app (Form, File, UploadFile) with python-multipart and with formwire.compat.starlette.install()."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI, File, Form, UploadFile
from fastapi.testclient import TestClient

import formwire.compat.starlette as fw_starlette

app = FastAPI()


@app.post("/upload")
async def upload(title: str = Form(), tags: list[str] = Form(), photo: UploadFile = File()) -> dict[str, object]:
    data = await photo.read()
    return {"title": title, "tags": tags, "filename": photo.filename, "type": photo.content_type, "size": len(data)}


@pytest.fixture(params=["python-multipart", "formwire"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    if request.param == "formwire":
        fw_starlette.install()
    try:
        with TestClient(app) as c:
            yield c
    finally:
        fw_starlette.uninstall()


def test_form_and_file(client: TestClient) -> None:
    r = client.post("/upload", data={"title": "Holiday é", "tags": ["a", "b"]},
                    files={"photo": ("beach.jpg", b"\xff\xd8" * 50000, "image/jpeg")})
    assert r.status_code == 200, r.text
    assert r.json() == {"title": "Holiday é", "tags": ["a", "b"], "filename": "beach.jpg", "type": "image/jpeg", "size": 100000}


def test_missing_field_is_422_and_bad_body_is_400(client: TestClient) -> None:
    r = client.post("/upload", data={"title": "x"}, files={"photo": ("a", b"1")})
    assert r.status_code == 422
    r = client.post("/upload", content=b"--B\r\nbroken\r\n\r\n--B--\r\n", headers={"Content-Type": "multipart/form-data; boundary=B"})
    assert r.status_code == 400
