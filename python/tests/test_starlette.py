"""A real Starlette app under its TestClient, with python-multipart and with formwire (install()): same assertions."""
from __future__ import annotations

import hashlib
from collections.abc import Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

import formwire.compat.starlette as fw_starlette
from formwire.compat import python_multipart as shim


async def upload(request: Request) -> JSONResponse:
    q = request.query_params
    limits = {k: int(q[k]) for k in ("max_files", "max_fields", "max_part_size") if k in q}
    async with request.form(**limits) as form:  # type: ignore[arg-type]
        fields, files = [], []
        for k, v in form.multi_items():
            if isinstance(v, str):
                fields.append([k, v])
            else:
                data = await v.read()
                files.append([k, v.filename, v.content_type, v.size, len(data), hashlib.sha256(data).hexdigest()])
    return JSONResponse({"fields": fields, "files": files})


app = Starlette(routes=[Route("/upload", upload, methods=["POST"])])


@pytest.fixture(params=["python-multipart", "formwire"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    if request.param == "formwire":
        fw_starlette.install()
        assert fw_starlette.installed()
    try:
        with TestClient(app) as c:
            yield c
    finally:
        fw_starlette.uninstall()
        assert not fw_starlette.installed()


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def test_fields_and_files(client: TestClient) -> None:
    big = bytes(range(256)) * 12000  # ~3 MiB: spooled to disk by Starlette
    r = client.post("/upload", data={"a": "1", "b": "é ü", "c": ["x", "y"]},
                    files=[("f", ("x.txt", b"hello", "text/plain")), ("g", ("big.bin", big, "application/octet-stream")),
                           ("e", ("empty", b"", "application/x-empty"))])
    assert r.status_code == 200, r.text
    assert r.json() == {
        "fields": [["a", "1"], ["b", "é ü"], ["c", "x"], ["c", "y"]],
        "files": [["f", "x.txt", "text/plain", 5, 5, sha(b"hello")],
                  ["g", "big.bin", "application/octet-stream", len(big), len(big), sha(big)],
                  ["e", "empty", "application/x-empty", 0, 0, sha(b"")]],
    }


def test_raw_body_with_crlf_and_delimiter_lookalikes(client: TestClient) -> None:
    tricky = b"\r\n--boundar\r\n--boundary_not\r\n\r\n"
    body = (b'--B\r\nContent-Disposition: form-data; name="t"\r\n\r\n' + tricky + b"\r\n"
            b'--B\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n' + tricky * 3 + b"\r\n--B--\r\n")
    r = client.post("/upload", content=body, headers={"Content-Type": "multipart/form-data; boundary=B"})
    assert r.status_code == 200, r.text
    assert r.json() == {"fields": [["t", tricky.decode()]], "files": [["f", "a.bin", None, 3 * len(tricky), 3 * len(tricky), sha(tricky * 3)]]}


def test_urlencoded_form(client: TestClient) -> None:
    r = client.post("/upload", data={"a": "1 2", "b": "é&=+%"})
    assert r.status_code == 200
    assert r.json() == {"fields": [["a", "1 2"], ["b", "é&=+%"]], "files": []}


@pytest.mark.parametrize(
    ("query", "data", "files", "detail"),
    [
        ("max_files=1", None, [("f", ("a", b"1")), ("g", ("b", b"2"))], "Too many files. Maximum number of files is 1."),
        ("max_fields=1", {"a": "1", "b": "2"}, [("f", ("a", b"1"))], "Too many fields. Maximum number of fields is 1."),
        ("max_part_size=2048", {"a": "x" * 3000}, [("f", ("a", b"1"))], "Part exceeded maximum size of 2KB."),
    ],
)
def test_starlette_limits(client: TestClient, query: str, data: dict | None, files: list, detail: str) -> None:  # type: ignore[type-arg]
    r = client.post(f"/upload?{query}", data=data, files=files)
    assert r.status_code == 400 and r.text == detail


def test_limit_fits_exactly(client: TestClient) -> None:
    r = client.post("/upload?max_part_size=2048", data={"a": "x" * 2048}, files=[("f", ("a", b"1"))])
    assert r.status_code == 200 and r.json()["fields"] == [["a", "x" * 2048]]


@pytest.mark.parametrize(
    ("content_type", "body", "detail"),
    [
        ("multipart/form-data", b"--B--\r\n", {"Missing boundary in multipart."}),
        # Starlette's own check (python-multipart) or formwire's MP_DISPOSITION (MP-H-08): a 400 either way
        ("multipart/form-data; boundary=B", b'--B\r\nContent-Disposition: form-data; filename="x"\r\n\r\n1\r\n--B--\r\n',
         {'The Content-Disposition header field "name" must be provided.', "Invalid multipart data."}),
        ("multipart/form-data; boundary=B", b"--B\r\nno colon here\r\n\r\n1\r\n--B--\r\n", {"Invalid multipart data."}),
    ],
)
def test_bad_requests(client: TestClient, content_type: str, body: bytes, detail: set[str]) -> None:
    r = client.post("/upload", content=body, headers={"Content-Type": content_type})
    assert r.status_code == 400 and r.text in detail


def test_formwire_rejects_what_python_multipart_lets_through() -> None:
    """Where the parsers differ (spec/multipart.md §8): a body without its close delimiter, and junk after it.
    python-multipart answers 200 with whatever it saw; formwire makes both a 400."""
    truncated = b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data; name="b"\r\n\r\n2'
    junk = b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--junk'
    headers = {"Content-Type": "multipart/form-data; boundary=B"}
    with TestClient(app) as c:
        assert c.post("/upload", content=truncated, headers=headers).status_code == 200
        assert c.post("/upload", content=junk, headers=headers).status_code == 200
    fw_starlette.install()
    try:
        with TestClient(app) as c:
            for body in (truncated, junk):
                r = c.post("/upload", content=body, headers=headers)
                assert r.status_code == 400 and r.text == "Invalid multipart data."
    finally:
        fw_starlette.uninstall()


def test_install_with_options_and_shim_errors() -> None:
    fw_starlette.install(max_header_bytes=150)
    try:
        with TestClient(app) as c:
            r = c.post("/upload", files=[("f", ("x" * 100, b"1"))])
            assert r.status_code == 400
            r = c.post("/upload", files=[("f", ("x", b"1"))])
            assert r.status_code == 200
    finally:
        fw_starlette.uninstall()
    from python_multipart.exceptions import FormParserError

    p = shim.MultipartParser(b"B")
    with pytest.raises(FormParserError) as e:
        p.write(b"nope")
    assert isinstance(e.value, shim.MultipartParseError) and e.value.code == "MP_PREAMBLE"
