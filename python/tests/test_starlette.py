"""A real Starlette app under its TestClient, with python-multipart and with formwire (install()): same assertions."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

import formwire
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


@pytest.fixture(params=["python-multipart", "formwire", "formwire-callbacks"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    if request.param == "formwire":
        fw_starlette.install()
        assert fw_starlette.installed() and fw_starlette.native()
    elif request.param == "formwire-callbacks":
        fw_starlette.install(native=False)
        assert fw_starlette.installed() and not fw_starlette.native()
    try:
        with TestClient(app) as c:
            yield c
    finally:
        fw_starlette.uninstall()
        assert not fw_starlette.installed() and not fw_starlette.native()


def sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def test_fields_and_files(client: TestClient) -> None:
    big = bytes(range(256)) * 12000  # ~3 MiB: spooled to disk by Starlette
    r = client.post(
        "/upload",
        data={"a": "1", "b": "é ü", "c": ["x", "y"]},
        files=[
            ("f", ("x.txt", b"hello", "text/plain")),
            ("g", ("big.bin", big, "application/octet-stream")),
            ("e", ("empty", b"", "application/x-empty")),
        ],
    )
    assert r.status_code == 200, r.text
    assert r.json() == {
        "fields": [["a", "1"], ["b", "é ü"], ["c", "x"], ["c", "y"]],
        "files": [
            ["f", "x.txt", "text/plain", 5, 5, sha(b"hello")],
            ["g", "big.bin", "application/octet-stream", len(big), len(big), sha(big)],
            ["e", "empty", "application/x-empty", 0, 0, sha(b"")],
        ],
    }


def test_raw_body_with_crlf_and_delimiter_lookalikes(client: TestClient) -> None:
    tricky = b"\r\n--boundar\r\n--boundary_not\r\n\r\n"
    body = (
        b'--B\r\nContent-Disposition: form-data; name="t"\r\n\r\n' + tricky + b"\r\n"
        b'--B\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n' + tricky * 3 + b"\r\n--B--\r\n"
    )
    r = client.post("/upload", content=body, headers={"Content-Type": "multipart/form-data; boundary=B"})
    assert r.status_code == 200, r.text
    assert r.json() == {
        "fields": [["t", tricky.decode()]],
        "files": [["f", "a.bin", None, 3 * len(tricky), 3 * len(tricky), sha(tricky * 3)]],
    }


def test_urlencoded_form(client: TestClient) -> None:
    r = client.post("/upload", data={"a": "1 2", "b": "é&=+%"})
    assert r.status_code == 200
    assert r.json() == {"fields": [["a", "1 2"], ["b", "é&=+%"]], "files": []}


@pytest.mark.parametrize(
    ("query", "data", "files", "detail"),
    [
        (
            "max_files=1",
            None,
            [("f", ("a", b"1")), ("g", ("b", b"2"))],
            "Too many files. Maximum number of files is 1.",
        ),
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
        (
            "multipart/form-data; boundary=B",
            b'--B\r\nContent-Disposition: form-data; filename="x"\r\n\r\n1\r\n--B--\r\n',
            {'The Content-Disposition header field "name" must be provided.', "Invalid multipart data."},
        ),
        ("multipart/form-data; boundary=B", b"--B\r\nno colon here\r\n\r\n1\r\n--B--\r\n", {"Invalid multipart data."}),
    ],
)
def test_bad_requests(client: TestClient, content_type: str, body: bytes, detail: set[str]) -> None:
    r = client.post("/upload", content=body, headers={"Content-Type": content_type})
    assert r.status_code == 400 and r.text in detail


def test_formwire_rejects_what_python_multipart_lets_through() -> None:
    """Where the parsers differ (spec/multipart.md §8): a body without its close delimiter (MP-P-07).
    python-multipart answers 200 with whatever it saw; formwire makes it a 400. (Junk after the close delimiter is
    ignored by both: allow_junk_after_close, in SAME_AS_STOCK.)"""
    truncated = b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data; name="b"\r\n\r\n2'
    headers = {"Content-Type": "multipart/form-data; boundary=B"}
    with TestClient(app) as c:
        assert c.post("/upload", content=truncated, headers=headers).status_code == 200
    fw_starlette.install()
    try:
        with TestClient(app) as c:
            r = c.post("/upload", content=truncated, headers=headers)
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

    p = shim.MultipartParser(b"B", allow_preamble=False)
    with pytest.raises(FormParserError) as e:
        p.write(b"nope")
    assert isinstance(e.value, shim.MultipartParseError) and e.value.code == "MP_PREAMBLE"
    # The shim's default reads what python-multipart reads: leading newlines are skipped up to the first "-", and
    # a body that never reaches the boundary is still an error (MP_TRUNCATED), never an empty form.
    p = shim.MultipartParser(b"B")
    p.write(b"\r\nnope")
    with pytest.raises(FormParserError) as e:
        p.finalize()
    assert isinstance(e.value, shim.MultipartParseError) and e.value.code == "MP_TRUNCATED"


# ---------------------------------------------------------------------------------------------------------------
# The native path (install()'s default: MultiPartParser.parse over formwire's events) against stock Starlette:
# every observable of the form, byte for byte, or the same error with the same message.


async def detail(request: Request) -> JSONResponse:
    q = request.query_params
    limits = {k: int(q[k]) for k in ("max_files", "max_fields", "max_part_size") if k in q}
    out: list[object] = []
    async with request.form(**limits) as form:  # type: ignore[arg-type]
        for k, v in form.multi_items():
            if isinstance(v, str):
                out.append([k, v])
            else:
                rolled = getattr(v.file, "_rolled", None)  # on disk (past spool_max_size) or still in memory
                data = await v.read()
                out.append(
                    [
                        k,
                        v.filename,
                        v.content_type,
                        v.size,
                        len(data),
                        sha(data),
                        rolled,
                        [[n.decode("latin-1"), x.decode("latin-1")] for n, x in v.headers.raw],
                    ]
                )
    return JSONResponse(out)


detail_app = Starlette(routes=[Route("/d", detail, methods=["POST"])])
CT = "multipart/form-data; boundary=B"


def mp(disposition: bytes, body: bytes, extra: bytes = b"") -> bytes:
    return b"--B\r\nContent-Disposition: " + disposition + b"\r\n" + extra + b"\r\n" + body + b"\r\n"


END = b"--B--\r\n"


def asgi_post(app: object, path: str, body: bytes, ct: str, chunk: int | None) -> tuple[int, bytes]:
    """One POST straight through the ASGI interface, the body in ``http.request`` messages of ``chunk`` bytes (as a
    server delivers them; Starlette's TestClient would join them into one)."""
    import asyncio

    path, _, query = path.partition("?")
    pieces = [body] if chunk is None else [body[i : i + chunk] for i in range(0, len(body), chunk)] or [b""]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"content-type", ct.encode("latin-1")), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    sent: list[dict[str, object]] = []

    async def run() -> None:
        i = 0

        async def receive() -> dict[str, object]:
            nonlocal i
            if i < len(pieces):
                i += 1
                return {"type": "http.request", "body": pieces[i - 1], "more_body": i < len(pieces)}
            await asyncio.sleep(3600)  # no disconnect while the app works
            raise AssertionError("unreachable")

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        await app(scope, receive, send)  # type: ignore[operator]

    asyncio.run(run())
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")  # type: ignore[misc,arg-type]


def post(mode: str, body: bytes, ct: str = CT, query: str = "", chunk: int | None = None) -> tuple[int, object]:
    """(status, JSON or text) of /d under stock Starlette or formwire (``native`` / ``callbacks``); ``chunk``
    sends the body in ASGI messages of that size."""
    fw_starlette.uninstall()
    if mode != "stock":
        fw_starlette.install(native=mode == "native")
        assert fw_starlette.native() == (mode == "native")
    try:
        status, got = asgi_post(detail_app, "/d" + query, body, ct, chunk)
        return status, (json.loads(got) if status == 200 else got.decode())
    finally:
        fw_starlette.uninstall()


def cd_only(name: str, filename: str | None = None) -> list[list[str]]:
    v = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename is not None else "")
    return [["content-disposition", v]]


BIG = bytes(range(256)) * 9000  # 2.2 MiB: past Starlette's spool_max_size (1 MiB), so on disk
SAME_AS_STOCK = {
    "fields and files": (
        mp(b'form-data; name="a"', b"1")
        + mp(b'form-data; name="f"; filename="x.txt"', b"hello", b"Content-Type: text/plain\r\n")
        + mp(b'form-data; name="a"', b"2")
        + END,
        CT,
        "",
        [
            ["a", "1"],
            [
                "f",
                "x.txt",
                "text/plain",
                5,
                5,
                sha(b"hello"),
                False,
                [["content-disposition", 'form-data; name="f"; filename="x.txt"'], ["content-type", "text/plain"]],
            ],
            ["a", "2"],
        ],
    ),
    "non-ASCII names, values, filename": (
        mp('form-data; name="näme"'.encode(), "vé ☕".encode())
        + mp('form-data; name="fé"; filename="日本.txt"'.encode(), b"x")
        + END,
        CT,
        "",
        [
            ["näme", "vé ☕"],
            [
                "fé",
                "日本.txt",
                None,
                1,
                1,
                sha(b"x"),
                False,
                [["content-disposition", 'form-data; name="fé"; filename="日本.txt"'.encode().decode("latin-1")]],
            ],
        ],
    ),
    "invalid UTF-8: Starlette's Latin-1 fallback": (
        mp(b'form-data; name="n\\xe9"'.replace(b"\\xe9", b"\xe9"), b"v\xe9\xff")
        + mp(b'form-data; name="f"; filename="\xe9.bin"', b"x")
        + END,
        CT,
        "",
        [
            ["né", "véÿ"],
            [
                "f",
                "é.bin",
                None,
                1,
                1,
                sha(b"x"),
                False,
                [["content-disposition", 'form-data; name="f"; filename="é.bin"']],
            ],
        ],
    ),
    "invalid UTF-8 in one string of a field: the other stays UTF-8": (
        mp('form-data; name="é"'.encode(), b"v\xe9") + mp(b'form-data; name="n\xe9"', "☕".encode()) + END,
        CT,
        "",
        [["é", "vé"], ["né", "☕"]],
    ),
    "charset=latin-1": (
        mp(b'form-data; name="n\xe9"', b"v\xe9") + mp(b'form-data; name="f\xe9"; filename="\xe9"', b"") + END,
        CT + "; charset=latin-1",
        "",
        [
            ["né", "vé"],
            ["fé", "é", None, 0, 0, sha(b""), False, [["content-disposition", 'form-data; name="fé"; filename="é"']]],
        ],
    ),
    "unknown charset: Latin-1": (
        mp(b'form-data; name="n"', "é".encode()) + END,
        CT + "; charset=nope",
        "",
        [["n", "Ã©"]],
    ),
    "filename* ignored (RFC 7578), also without filename": (
        mp(b"form-data; name=\"f\"; filename=\"safe.txt\"; filename*=utf-8''evil.php", b"x")
        + mp(b"form-data; name=\"g\"; filename*=utf-8''evil.php", b"y")
        + mp(b"form-data; name=\"h\"; name*=utf-8''other", b"z")
        + END,
        CT,
        "",
        [
            [
                "f",
                "safe.txt",
                None,
                1,
                1,
                sha(b"x"),
                False,
                [["content-disposition", "form-data; name=\"f\"; filename=\"safe.txt\"; filename*=utf-8''evil.php"]],
            ],
            ["g", "y"],
            ["h", "z"],
        ],
    ),
    "empty files and an empty field": (
        mp(b'form-data; name="e"; filename=""', b"")
        + mp(b'form-data; name="z"; filename="z"', b"", b"Content-Type: application/x-empty\r\n")
        + mp(b'form-data; name="t"', b"")
        + END,
        CT,
        "",
        [
            ["e", "", None, 0, 0, sha(b""), False, [["content-disposition", 'form-data; name="e"; filename=""']]],
            [
                "z",
                "z",
                "application/x-empty",
                0,
                0,
                sha(b""),
                False,
                [["content-disposition", 'form-data; name="z"; filename="z"'], ["content-type", "application/x-empty"]],
            ],
            ["t", ""],
        ],
    ),
    "a file larger than spool_max_size, then a field": (
        mp(b'form-data; name="f"; filename="big"', BIG) + mp(b'form-data; name="after"', b"1") + END,
        CT,
        "",
        [
            [
                "f",
                "big",
                None,
                len(BIG),
                len(BIG),
                sha(BIG),
                True,
                [["content-disposition", 'form-data; name="f"; filename="big"']],
            ],
            ["after", "1"],
        ],
    ),
    "max_fields": (
        mp(b'form-data; name="a"', b"1") + mp(b'form-data; name="b"', b"2") + END,
        CT,
        "?max_fields=1",
        "Too many fields. Maximum number of fields is 1.",
    ),
    "max_files": (
        mp(b'form-data; name="a"; filename="a"', b"1") + mp(b'form-data; name="b"; filename="b"', b"2") + END,
        CT,
        "?max_files=1",
        "Too many files. Maximum number of files is 1.",
    ),
    "max_part_size": (
        mp(b'form-data; name="a"', b"x" * 3000) + END,
        CT,
        "?max_part_size=2048",
        "Part exceeded maximum size of 2KB.",
    ),
    "max_part_size exactly": (
        mp(b'form-data; name="a"', b"x" * 2048) + END,
        CT,
        "?max_part_size=2048",
        [["a", "x" * 2048]],
    ),
    "max_part_size does not apply to files": (
        mp(b'form-data; name="a"; filename="a"', b"x" * 3000) + END,
        CT,
        "?max_part_size=2048",
        [
            [
                "a",
                "a",
                None,
                3000,
                3000,
                sha(b"x" * 3000),
                False,
                [["content-disposition", 'form-data; name="a"; filename="a"']],
            ]
        ],
    ),
    "max_fields before junk later in the stream": (
        mp(b'form-data; name="a"', b"1") + mp(b'form-data; name="b"', b"2") + b"--B--junk",
        CT,
        "?max_fields=1",
        "Too many fields. Maximum number of fields is 1.",
    ),
    "max_files before junk later in the stream": (
        mp(b'form-data; name="a"; filename="a"', b"1") + mp(b'form-data; name="b"; filename="b"', b"2") + b"--B--junk",
        CT,
        "?max_files=1",
        "Too many files. Maximum number of files is 1.",
    ),
    "max_fields at the headers of a field that is then cut": (
        mp(b'form-data; name="a"', b"1") + b'--B\r\nContent-Disposition: form-data; name="b"\r\n\r\n22',
        CT,
        "?max_fields=1",
        "Too many fields. Maximum number of fields is 1.",
    ),
    "max_fields before max_part_size of the same field": (
        mp(b'form-data; name="a"', b"1") + mp(b'form-data; name="b"', b"x" * 3000) + END,
        CT,
        "?max_fields=1&max_part_size=1024",
        "Too many fields. Maximum number of fields is 1.",
    ),
    "max_part_size before max_fields": (
        mp(b'form-data; name="a"', b"x" * 3000) + mp(b'form-data; name="b"', b"1") + END,
        CT,
        "?max_fields=1&max_part_size=1024",
        "Part exceeded maximum size of 1KB.",
    ),
    "no name": (
        mp(b'form-data; filename="x"', b"1") + END,
        CT,
        "",
        'The Content-Disposition header field "name" must be provided.',
    ),
    "no Content-Disposition": (
        b"--B\r\nContent-Type: text/plain\r\n\r\n1\r\n" + END,
        CT,
        "",
        'The Content-Disposition header field "name" must be provided.',
    ),
    # what python-multipart reads, through the core's named options: any disposition type
    # (allow_any_disposition_type), any byte after the close delimiter (allow_junk_after_close)
    "form-field disposition": (mp(b'form-field; name="a"', b"1") + END, CT, "", [["a", "1"]]),
    "attachment disposition, a file": (
        mp(b'attachment; name="f"; filename="a"', b"x") + END,
        CT,
        "",
        [["f", "a", None, 1, 1, sha(b"x"), False, [["content-disposition", 'attachment; name="f"; filename="a"']]]],
    ),
    "junk after the close delimiter": (mp(b'form-data; name="a"', b"1") + b"--B--junk", CT, "", [["a", "1"]]),
    "dashes after the close delimiter": (
        mp(b'form-data; name="a"', b"1") + b"--B--" + b"-" * 5000,
        CT,
        "",
        [["a", "1"]],
    ),
    "a CR at the end after the close delimiter": (mp(b'form-data; name="a"', b"1") + b"--B--\r", CT, "", [["a", "1"]]),
    # python-multipart's start: a body that begins with CR or LF is skipped up to its first "-"
    "leading CRLF": (b"\r\n\r\n" + mp(b'form-data; name="a"', b"1") + END, CT, "", [["a", "1"]]),
    "leading LF then bytes": (b"\nxy\r\n" + mp(b'form-data; name="a"', b"1") + END, CT, "", [["a", "1"]]),
    "leading bytes are no preamble": (
        b"xy\r\n" + mp(b'form-data; name="a"', b"1") + END,
        CT,
        "",
        "Invalid multipart data.",
    ),
    # python-multipart's parse_options_header (Starlette's reading of Content-Disposition) strips a Windows
    # directory prefix from a filename; the raw header keeps it
    "IE drive path in a filename": (
        mp(b'form-data; name="f"; filename="C:\\dir\\x.txt"', b"x") + END,
        CT,
        "",
        [["f", "x.txt", None, 1, 1, sha(b"x"), False, cd_only("f", "C:\\dir\\x.txt")]],
    ),
    "IE UNC path in a filename, with quoted-pairs": (
        mp(b'form-data; name="f"; filename="\\\\\\\\srv\\share\\x.txt"', b"x") + END,
        CT,
        "",
        [["f", "x.txt", None, 1, 1, sha(b"x"), False, cd_only("f", "\\\\\\\\srv\\share\\x.txt")]],
    ),
    "a backslash elsewhere stays": (
        mp(b'form-data; name="f"; filename="dir\\x.txt"', b"x") + END,
        CT,
        "",
        [["f", "dir\\x.txt", None, 1, 1, sha(b"x"), False, cd_only("f", "dir\\x.txt")]],
    ),
    "missing boundary": (END, "multipart/form-data", "", "Missing boundary in multipart."),
    "malformed header line": (b"--B\r\nno colon here\r\n\r\n1\r\n" + END, CT, "", "Invalid multipart data."),
}


@pytest.mark.parametrize("chunk", [None, 7, 1 << 16], ids=["whole", "small chunks", "64KiB chunks"])
@pytest.mark.parametrize("case", list(SAME_AS_STOCK))
def test_native_path_is_stock_starlette(case: str, chunk: int | None) -> None:
    body, ct, query, expected = SAME_AS_STOCK[case]
    if chunk == 7 and len(body) > 100_000:
        chunk = 4099  # 7-byte messages of a 2 MiB body take stock Starlette minutes
    stock = post("stock", body, ct, query, chunk)
    native = post("native", body, ct, query, chunk)
    want = (200 if isinstance(expected, list) else 400, expected)
    assert stock == want
    assert native == want


@pytest.mark.parametrize("case", [c for c in SAME_AS_STOCK if "filename" in c or "backslash" in c])
def test_callback_path_strips_ie_paths_as_stock(case: str) -> None:
    body, ct, query, expected = SAME_AS_STOCK[case]
    assert post("callbacks", body, ct, query) == (200, expected)


@pytest.mark.parametrize(
    ("body", "stock", "formwire"),
    [
        # formwire's reading rules (spec/multipart.md §8), the same on both of formwire's paths. MP-H-11: header
        # values are trimmed of OWS (python-multipart keeps trailing whitespace)
        (
            mp(b'form-data; name="f"; filename="a"', b"x", b"Content-Type: text/plain \t\r\n") + END,
            (
                200,
                [
                    [
                        "f",
                        "a",
                        "text/plain \t",
                        1,
                        1,
                        sha(b"x"),
                        False,
                        cd_only("f", "a") + [["content-type", "text/plain \t"]],
                    ]
                ],
            ),
            (
                200,
                [
                    [
                        "f",
                        "a",
                        "text/plain",
                        1,
                        1,
                        sha(b"x"),
                        False,
                        cd_only("f", "a") + [["content-type", "text/plain"]],
                    ]
                ],
            ),
        ),
        # MP-H-07: a UNC path as IE sends it is read literally, so it is stripped; python-multipart first reads its
        # two leading backslashes as one, and then it is no UNC path
        (
            mp(b'form-data; name="f"; filename="\\\\srv\\share\\x.txt"', b"x") + END,
            (200, [["f", "\\srv\\share\\x.txt", None, 1, 1, sha(b"x"), False, cd_only("f", "\\\\srv\\share\\x.txt")]]),
            (200, [["f", "x.txt", None, 1, 1, sha(b"x"), False, cd_only("f", "\\\\srv\\share\\x.txt")]]),
        ),
        # MP-H-07: quoted-pairs only where the literal reading fails, so a\\b keeps both backslashes
        (mp(b'form-data; name="a\\\\b"', b"1") + END, (200, [['a\\b', "1"]]), (200, [['a\\\\b', "1"]])),
        # MP-H-08: a second name parameter is an error
        (mp(b'form-data; name="a"; name="b"', b"1") + END, (200, [["b", "1"]]), (400, "Invalid multipart data.")),
        # a truncated body: python-multipart keeps what it saw (MP-P-07)
        (
            mp(b'form-data; name="a"', b"1") + b'--B\r\nContent-Disposition: form-data; name="b"\r\n\r\n2',
            (200, [["a", "1"]]),
            (400, "Invalid multipart data."),
        ),
    ],
)
def test_documented_differences(body: bytes, stock: object, formwire: object) -> None:
    assert post("stock", body) == stock
    assert post("native", body) == formwire
    assert post("callbacks", body) == formwire


@pytest.mark.parametrize("spool", [1000, 4096])
@pytest.mark.parametrize("size", [0, 999, 1000, 1001, 5000])
def test_spool_max_size_as_stock(monkeypatch: pytest.MonkeyPatch, spool: int, size: int) -> None:
    """In memory up to spool_max_size, on disk past it: the same decision as Starlette's, whatever the chunking."""
    import starlette.formparsers as fp

    monkeypatch.setattr(fp.MultiPartParser, "spool_max_size", spool)
    data = bytes(range(251)) * (size // 251 + 1)
    data = data[:size]
    body = mp(b'form-data; name="f"; filename="f"', data) + END
    for chunk in (None, 300, 1):
        if chunk == 1 and size > 1001:
            continue
        stock, native = post("stock", body, chunk=chunk), post("native", body, chunk=chunk)
        assert stock == native
        assert native[1][0][3:7] == [size, size, sha(data), size > spool]  # type: ignore[index]


def test_native_writes_spooled_data_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past spool_max_size, Starlette goes through the thread pool once per received chunk; the native path once per
    WRITE_BATCH_BYTES of chunks (plus the write that rolls the file over and the final seek), with the same bytes."""
    import starlette.concurrency

    trips: list[str] = []
    real = starlette.concurrency.run_in_threadpool

    async def counting(func, *args, **kwargs):  # type: ignore[no-untyped-def]
        trips.append(getattr(func, "__name__", "?"))
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(starlette.concurrency, "run_in_threadpool", counting)
    import starlette.datastructures

    monkeypatch.setattr(starlette.datastructures, "run_in_threadpool", counting)
    data = bytes(range(256)) * (12 * 4096)  # 12 MiB
    body = mp(b'form-data; name="f"; filename="f"', data) + END
    got = {}
    for mode in ("stock", "native"):
        trips.clear()
        got[mode] = post(mode, body, chunk=1 << 16)
        got[mode + " trips"] = len(trips)  # type: ignore[assignment]
    assert got["stock"] == got["native"]
    assert got["native"][1][0][3:7] == [len(data), len(data), sha(data), True]  # type: ignore[index]
    # stock: 176 writes past 1 MiB, seek, the endpoint's read and close; native: 1 + 11 batches + 1, read, close
    assert got["stock trips"] >= 170
    assert got["native trips"] <= 16


def test_files_closed_on_error_as_stock(monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    import starlette.formparsers as fp

    made: list[tempfile.SpooledTemporaryFile[bytes]] = []

    class Recording(tempfile.SpooledTemporaryFile):  # type: ignore[type-arg]
        def __init__(self, *a: object, **k: object) -> None:
            super().__init__(*a, **k)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(fp, "SpooledTemporaryFile", Recording)
    bodies = [
        (
            mp(b'form-data; name="f"; filename="a"', BIG) + mp(b'form-data; name="g"; filename="b"', b"2") + END,
            "?max_files=1",
        ),
        (
            mp(b'form-data; name="f"; filename="a"', BIG) + mp(b'form-data; name="t"', b"x" * 3000) + END,
            "?max_part_size=1024",
        ),
        (mp(b'form-data; name="f"; filename="a"', BIG) + b"--B\r\nbroken\r\n\r\n" + END, ""),
    ]
    for body, query in bodies:
        for mode in ("stock", "native", "callbacks"):
            made.clear()
            status, _ = post(mode, body, query=query, chunk=1 << 16)
            assert status == 400
            assert made and all(f.closed for f in made), mode


@pytest.mark.parametrize("mode", ["stock", "native", "callbacks"])
def test_client_disconnect_mid_body(mode: str) -> None:
    """The client goes away during the body: Starlette's ClientDisconnect comes out of request.form() as it is, with
    the files made so far closed."""
    import asyncio

    from starlette.datastructures import Headers
    from starlette.formparsers import MultiPartParser
    from starlette.requests import ClientDisconnect

    async def stream():  # type: ignore[no-untyped-def]
        yield (
            mp(b'form-data; name="a"', b"1")
            + b'--B\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\n'
            + BIG
        )
        raise ClientDisconnect()

    async def run() -> tuple[type, list[object]]:
        p = MultiPartParser(Headers({"content-type": CT}), stream())
        try:
            await p.parse()
        except BaseException as e:  # noqa: BLE001 - the type is what is compared
            return type(e), [f.closed for f in p._files_to_close_on_error]
        raise AssertionError("no error")

    fw_starlette.uninstall()
    if mode != "stock":
        fw_starlette.install(native=mode == "native")
    try:
        assert asyncio.run(run()) == (ClientDisconnect, [True])
    finally:
        fw_starlette.uninstall()


def test_install_uninstall_restore_starlette() -> None:
    import starlette.formparsers as fp
    import starlette.requests as rq

    before = (
        fp.MultiPartParser.__dict__["parse"],
        fp.multipart,
        fp.parse_options_header,
        fp.FormParserError,
        rq.parse_options_header,
    )
    fw_starlette.install()
    fw_starlette.install()  # again: still one saved original
    assert fw_starlette.native() and fp.MultiPartParser.parse is not before[0]
    fw_starlette.install(native=False)
    assert fw_starlette.installed() and not fw_starlette.native() and fp.MultiPartParser.__dict__["parse"] is before[0]
    fw_starlette.install(max_header_bytes=4096)
    assert fw_starlette.native()
    fw_starlette.uninstall()
    fw_starlette.uninstall()  # no-op
    after = (
        fp.MultiPartParser.__dict__["parse"],
        fp.multipart,
        fp.parse_options_header,
        fp.FormParserError,
        rq.parse_options_header,
    )
    assert after == before and not fw_starlette.installed() and not fw_starlette.native()
    assert fp.multipart.__name__ == "python_multipart"


def test_install_rejects_options_the_native_path_owns() -> None:
    for bad in ({"max_field_bytes": 10}, {"buffer_fields": True}, {"field_errors": "bytes"}):
        with pytest.raises(ValueError, match="max_part_size"):
            fw_starlette.install(**bad)
    with pytest.raises(TypeError):
        fw_starlette.install(no_such_option=1)
    assert not fw_starlette.installed()


def test_native_falls_back_when_starlette_differs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starlette internals the native path reproduces are checked at install(): when they differ (here: no
    _user_safe_decode, then another message), the callback path is used and forms still parse."""
    import starlette.formparsers as fp

    body = mp(b'form-data; name="a"', b"1") + END
    with monkeypatch.context() as m:
        m.delattr(fp, "_user_safe_decode")
        fw_starlette.install()
        try:
            assert fw_starlette.installed() and not fw_starlette.native()
        finally:
            fw_starlette.uninstall()

    def on_part_data(self, data, start, end):  # type: ignore[no-untyped-def]
        raise fp.MultiPartException("some other message")

    with monkeypatch.context() as m:
        m.setattr(fp.MultiPartParser, "on_part_data", on_part_data)
        fw_starlette.install()
        try:
            assert not fw_starlette.native()
        finally:
            fw_starlette.uninstall()
    assert post("native", body) == (200, [["a", "1"]])


def test_subclass_with_its_own_callbacks_keeps_starlettes_parse() -> None:
    import asyncio

    import starlette.formparsers as fp
    from starlette.datastructures import Headers

    class Upper(fp.MultiPartParser):
        def on_part_end(self) -> None:
            self._current_part.data = bytearray(self._current_part.data.upper())
            super().on_part_end()

    async def stream():  # type: ignore[no-untyped-def]
        yield mp(b'form-data; name="a"', b"abc") + END

    async def run(cls: type) -> list[tuple[str, object]]:
        return list((await cls(Headers({"content-type": CT}), stream()).parse()).multi_items())

    fw_starlette.install()
    try:
        assert fw_starlette.native()
        assert asyncio.run(run(Upper)) == [("a", "ABC")]
        assert asyncio.run(run(fp.MultiPartParser)) == [("a", "abc")]
    finally:
        fw_starlette.uninstall()


@pytest.mark.parametrize("native", [True, False])
def test_a_thousand_1_mib_fields_stop_at_max_total_field_bytes(native: bool) -> None:
    """MP-L-04 (issue #13 item 6): Starlette keeps every text field in memory, each up to max_part_size (1 MiB), up
    to max_fields (1,000): 1,000 MiB. With formwire the form stops at 10 MiB of fields in all, on both paths, and the
    rest of the body is never read."""
    import asyncio

    from starlette.formparsers import MultiPartException
    from conftest import many_fields

    sent = [0]
    chunks = many_fields(1000, 1 << 20, sent, boundary="B")

    async def receive() -> dict[str, object]:
        c = next(chunks, None)
        return {"type": "http.request", "body": c or b"", "more_body": c is not None}

    async def parse() -> None:
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/",
            "query_string": b"",
            "headers": [(b"content-type", b"multipart/form-data; boundary=B")],
        }
        async with Request(scope, receive).form():
            pass

    fw_starlette.install(native=native)
    try:
        with pytest.raises(MultiPartException) as e:
            asyncio.run(parse())
    finally:
        fw_starlette.uninstall()
    if native:
        assert e.value.message == "Fields exceeded maximum total size of 10240KB."
    assert isinstance(e.value.__cause__, formwire.MultipartError)
    assert e.value.__cause__.code == "MP_LIMIT_TOTAL_FIELD_BYTES"
    assert sent[0] <= (10 << 20) + 65536, sent[0]


def test_boundaries_of_71_bytes_parse_and_over_the_limit_are_an_error(client: TestClient) -> None:
    """MP-B-04 (issue #17): Werkzeug's test client sends 71+ byte boundaries; over max_boundary_bytes (256) is an
    error, never an empty form."""
    for n, status in ((71, 200), (300, 400)):
        b = "b" * n
        body = f'--{b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--{b}--\r\n'.encode()
        r = client.post("/upload", content=body, headers={"Content-Type": f"multipart/form-data; boundary={b}"})
        assert r.status_code == status, (n, r.text)
        if status == 200:
            assert r.json() == {"fields": [["a", "1"]], "files": []}


@pytest.mark.parametrize("charset", ["", "; charset=latin-1"])
def test_form_with_allow_missing_disposition_skips_the_nameless_part(charset: str) -> None:
    """A caller's allow_missing_disposition (off in this adapter: Starlette rejects such parts) makes a part without
    Content-Disposition a nameless part (MP-H-06), which the form skips (MP-F-05), on the UTF-8 path (whole text
    fields) and on the per-chunk path of another charset alike."""
    import asyncio

    from starlette.requests import Request as StarletteRequest

    body = b"--B\r\nContent-Type: text/plain\r\n\r\nv\r\n" + mp(b'form-data; name="b"', b"w") + END

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def go(**options: object) -> list[tuple[str, object]]:
        scope = {"type": "http", "method": "POST", "headers": [(b"content-type", (CT + charset).encode())]}
        form = await fw_starlette.form(StarletteRequest(scope, receive), **options)
        try:
            return list(form.multi_items())
        finally:
            await form.close()

    assert asyncio.run(go(allow_missing_disposition=True)) == [("b", "w")]
    with pytest.raises(Exception, match='The Content-Disposition header field "name" must be provided.'):
        asyncio.run(go())
