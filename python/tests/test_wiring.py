"""Framework wiring without patching: Starlette's ``await form(request)`` under a real uvicorn server and Flask's
``form_data_parser_class`` under a real Werkzeug server, both on 127.0.0.1; neither framework is patched."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import Depends, FastAPI, File, Form, Request, UploadFile
from starlette.datastructures import FormData

import formwire.compat.starlette as fw_starlette
import formwire.compat.werkzeug as fw_werkzeug

from _serve import uvicorn_serving

BODY = (
    b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n"
    b"--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\n"
    b"hello\r\n--B--\r\n"
)
MP = {"Content-Type": "multipart/form-data; boundary=B"}


@pytest.fixture(scope="module")
def starlette_url() -> Iterator[str]:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def upload(request: Request) -> JSONResponse:
        form = await fw_starlette.form(request, max_fields=3)
        try:
            out = []
            for k, v in form.multi_items():
                out.append([k, v] if isinstance(v, str) else [k, v.filename, (await v.read()).decode()])
            return JSONResponse(out)
        finally:
            await form.close()

    app = Starlette(routes=[Route("/upload", upload, methods=["POST"])])
    with uvicorn_serving(app) as base:
        yield base


def test_starlette_form_limits_are_413_and_malformed_400_with_the_code(starlette_url: str) -> None:
    # A formwire limit (MP-B-04: a 300-byte boundary is over max_boundary_bytes, 256) is 413 with its code; a
    # malformed part header is 400 with its code. Stock FastAPI/Starlette answer 400 for both.
    long = "b" * 300
    body = BODY.replace(b"--B", b"--" + long.encode())
    r = httpx.post(
        starlette_url + "/upload", content=body, headers={"Content-Type": f"multipart/form-data; boundary={long}"}
    )
    assert r.status_code == 413 and "MP_LIMIT_BOUNDARY at byte" in r.text, r.text
    r = httpx.post(
        starlette_url + "/upload", content=BODY.replace(b"Content-Disposition:", b"Content Disposition:"), headers=MP
    )
    assert r.status_code == 400 and "(MP_" in r.text, r.text
    # Starlette's own count limit (max_fields=3 here) is a limit too.
    many = b"".join(b'--B\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n' for _ in range(5)) + b"--B--\r\n"
    r = httpx.post(starlette_url + "/upload", content=many, headers=MP)
    assert r.status_code == 413 and "Too many fields" in r.text and "(MP_LIMIT_FIELDS)" in r.text, r.text


def test_starlette_form_without_install(starlette_url: str) -> None:
    assert not fw_starlette.installed()
    r = httpx.post(starlette_url + "/upload", content=BODY, headers=MP)
    assert r.status_code == 200 and r.json() == [["a", "one"], ["f", "x.txt", "hello"]]
    # formwire's rules, not python-multipart's: a body without its close delimiter is a 400 (python-multipart
    # and Starlette's own parser answer 200 with what they read).
    r = httpx.post(starlette_url + "/upload", content=BODY[:-9], headers=MP)
    assert r.status_code == 400 and "MP_TRUNCATED at byte" in r.text, r.text
    # Starlette's limits and message; the urlencoded path too.
    r = httpx.post(
        starlette_url + "/upload",
        content=b"a=1&b=2&c=3&d=4",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 413 and "Too many fields" in r.text
    r = httpx.post(
        starlette_url + "/upload", content=b"a=%C3%A9&b", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.json() == [["a", "é"], ["b", ""]]
    assert not fw_starlette.installed()


@pytest.fixture(scope="module")
def flask_url() -> Iterator[str]:
    import flask
    from werkzeug.serving import make_server

    class Request(flask.Request):
        form_data_parser_class = fw_werkzeug.FormDataParser

    app = flask.Flask(__name__)
    app.request_class = Request

    @app.post("/upload")
    def upload():  # type: ignore[no-untyped-def]
        out = [[k, v] for k, v in flask.request.form.items(multi=True)]
        out += [[k, f.filename, f.read().decode()] for k, f in flask.request.files.items(multi=True)]
        return flask.jsonify(out)

    server = make_server("127.0.0.1", 0, app, threaded=True)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        t.join(5)


def test_flask_request_subclass_without_install(flask_url: str) -> None:
    from werkzeug import formparser

    assert not fw_werkzeug.installed()
    r = httpx.post(flask_url + "/upload", content=BODY, headers=MP)
    assert r.status_code == 200 and r.json() == [["a", "one"], ["f", "x.txt", "hello"]]
    # formwire's limit, not Werkzeug's reading: a 300-byte boundary is over max_boundary_bytes (256): 413.
    long = "b" * 300
    body = BODY.replace(b"--B", b"--" + long.encode())
    r = httpx.post(
        flask_url + "/upload", content=body, headers={"Content-Type": f"multipart/form-data; boundary={long}"}
    )
    assert r.status_code == 413 and "MP_LIMIT_BOUNDARY at byte" in r.text, r.text
    # A malformed body is 400 with its code (Werkzeug's own parser answers 200 with an empty form).
    r = httpx.post(flask_url + "/upload", content=BODY[:-9], headers=MP)
    assert r.status_code == 400 and "MP_TRUNCATED at byte" in r.text, r.text
    r = httpx.post(flask_url + "/upload", content=BODY, headers=MP)
    assert r.status_code == 200
    assert formparser.MultiPartParser.parse is not fw_werkzeug._parse and not fw_werkzeug.installed()


def test_fastapi_dependency_without_install() -> None:
    from starlette.testclient import TestClient

    async def formwire_form(request: Request) -> FormData:
        return await fw_starlette.form(request)

    app = FastAPI()

    @app.post("/upload")
    async def upload(form: FormData = Depends(formwire_form)) -> dict[str, str]:  # noqa: B008
        return {k: v if isinstance(v, str) else (v.filename or "") for k, v in form.multi_items()}

    with TestClient(app) as c:
        assert c.post("/upload", content=BODY, headers=MP).json() == {"a": "one", "f": "x.txt"}
        assert c.post("/upload", content=BODY[:-9], headers=MP).status_code == 400  # python-multipart: 200
    assert not fw_starlette.installed()


def test_fastapi_dependency_answers_413_and_400_with_the_code() -> None:
    from fastapi import Depends, FastAPI, Request  # noqa: F401 (read by FastAPI from the annotation)

    async def parsed(request: Request) -> Any:
        return await fw_starlette.form(request)

    app = FastAPI()

    @app.post("/upload")
    async def upload(form: Any = Depends(parsed)) -> list[str]:  # noqa: B008 (FastAPI's dependency idiom)
        try:
            return [k for k, _ in form.multi_items()]
        finally:
            await form.close()

    with uvicorn_serving(app) as base:
        url = f"{base}/upload"
        r = httpx.post(url, content=BODY, headers=MP)
        assert r.status_code == 200 and r.json() == ["a", "f"]
        # Stock FastAPI answers 400 "Invalid multipart data." for both of these.
        long = "b" * 300
        r = httpx.post(
            url,
            content=BODY.replace(b"--B", b"--" + long.encode()),
            headers={"Content-Type": f"multipart/form-data; boundary={long}"},
        )
        assert r.status_code == 413 and "MP_LIMIT_BOUNDARY" in r.json()["detail"], r.text
        r = httpx.post(url, content=BODY[:-9], headers=MP)
        assert r.status_code == 400 and "MP_TRUNCATED" in r.json()["detail"], r.text


def _fastapi_stock_form_app() -> Any:
    """FastAPI's stock form handling (``Form``/``File``/``UploadFile``, which call ``request.form()``), and a route
    that calls ``formwire.compat.starlette.form()`` in the same process."""
    app = FastAPI()

    @app.post("/upload")
    async def upload(title: str = Form(), photo: UploadFile = File()) -> dict[str, Any]:  # noqa: B008
        return {"title": title, "filename": photo.filename, "data": (await photo.read()).decode()}

    @app.post("/dep")
    async def dep(request: Request) -> list[Any]:
        form = await fw_starlette.form(request)
        try:
            return [[k, v if isinstance(v, str) else (await v.read()).decode()] for k, v in form.multi_items()]
        finally:
            await form.close()

    return app


@pytest.mark.parametrize("native", [True, False])
def test_fastapi_stock_form_under_install_on_uvicorn(native: bool) -> None:
    """The documented one line (``install()``) under a real uvicorn on 127.0.0.1 and real clients (httpx, requests
    with a file object, a chunked body): FastAPI's own ``request.form()`` answers 200 with the form, and
    ``form(request)`` works beside it (it raised RuntimeError while the native path was installed)."""
    import requests

    fw_starlette._form_parsers.clear()  # form()'s parser classes are cached: build them under install() here
    fw_starlette.install(native=native)
    try:
        assert fw_starlette.native() == native
        with uvicorn_serving(_fastapi_stock_form_app()) as base:
            r = httpx.post(base + "/upload", data={"title": "Holiday é"}, files={"photo": ("a.txt", b"hello")})
            assert r.status_code == 200, r.text
            assert r.json() == {"title": "Holiday é", "filename": "a.txt", "data": "hello"}
            big = b"z" * (3 << 20)  # several uvicorn body chunks, past Starlette's 1 MiB spool size
            r = requests.post(base + "/upload", data={"title": "t"}, files={"photo": ("big.txt", io.BytesIO(big))})
            assert r.status_code == 200 and r.json()["data"] == big.decode(), r.text[:200]
            r = requests.post(base + "/upload", data=iter([BODY_FASTAPI[:40], BODY_FASTAPI[40:]]), headers=MP)
            assert r.request.headers.get("Transfer-Encoding") == "chunked"
            assert r.status_code == 200 and r.json() == {"title": "t", "filename": "p.txt", "data": "hi"}, r.text
            r = httpx.post(base + "/dep", content=BODY, headers=MP)
            assert r.status_code == 200 and r.json() == [["a", "one"], ["f", "hello"]], r.text
            # A malformed body is still a 400 (FastAPI's own answer).
            r = httpx.post(base + "/upload", content=BODY_FASTAPI[:-9], headers=MP)
            assert r.status_code == 400, r.text
    finally:
        fw_starlette.uninstall()


BODY_FASTAPI = (
    b'--B\r\nContent-Disposition: form-data; name="title"\r\n\r\nt\r\n'
    b'--B\r\nContent-Disposition: form-data; name="photo"; filename="p.txt"\r\n\r\nhi\r\n--B--\r\n'
)


def test_install_refuses_an_extension_module_out_of_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension module built from older sources than formwire.compat.starlette (here: one whose parser does not
    take ``max_files``, as before MP-L-05) made every form request a FastAPI 400 ("There was an error parsing the
    body": the TypeError, at each request). install() now fails at once with the reason and changes nothing."""
    real = fw_starlette.Parser

    def old_parser(boundary: Any, **options: Any) -> Any:
        if "max_files" in options:
            raise TypeError("MultipartParser.__new__() got an unexpected keyword argument 'max_files'")
        return real(boundary, **options)

    monkeypatch.setattr(fw_starlette, "Parser", old_parser)
    with pytest.raises(RuntimeError, match="rebuild or reinstall formwire"):
        fw_starlette.install()
    assert not fw_starlette.installed() and not fw_starlette.native()
    with pytest.raises(RuntimeError, match="rebuild or reinstall formwire"):
        fw_starlette._native_options({})


def test_fastapi_route_class_without_install() -> None:
    """FastAPI's documented custom route class (``route_class``, a custom ``Request``): ``Form()``, ``File()`` and
    ``UploadFile`` parameters read by formwire under a real uvicorn on 127.0.0.1, for the routes of that router only,
    and nothing in Starlette or FastAPI patched."""
    import starlette.formparsers
    from fastapi import APIRouter

    stock_parse = starlette.formparsers.MultiPartParser.parse
    app = FastAPI()
    router = APIRouter(route_class=fw_starlette.APIRoute)

    @router.post("/upload")
    async def upload(title: str = Form(), photo: UploadFile = File()) -> dict[str, Any]:  # noqa: B008
        return {"title": title, "filename": photo.filename, "data": (await photo.read()).decode()}

    @app.post("/stock")
    async def stock(title: str = Form()) -> dict[str, Any]:  # noqa: B008
        return {"title": title}

    app.include_router(router, prefix="/fw")
    long = "b" * 300  # over formwire's max_boundary_bytes (256, MP-B-04); python-multipart reads it
    over = BODY_FASTAPI.replace(b"--B", b"--" + long.encode())
    over_ct = {"Content-Type": f"multipart/form-data; boundary={long}"}
    with uvicorn_serving(app) as base:
        r = httpx.post(base + "/fw/upload", data={"title": "Holiday é"}, files={"photo": ("a.txt", b"hello")})
        assert r.status_code == 200, r.text
        assert r.json() == {"title": "Holiday é", "filename": "a.txt", "data": "hello"}
        r = httpx.post(base + "/fw/upload", content=over, headers=over_ct)
        assert r.status_code == 413 and "MP_LIMIT_BOUNDARY" in r.json()["detail"], r.text
        r = httpx.post(base + "/fw/upload", content=BODY_FASTAPI[:-9], headers=MP)
        assert r.status_code == 400 and "MP_TRUNCATED" in r.json()["detail"], r.text
        # A route outside that router keeps Starlette's parser (python-multipart's reading): the unfinished body
        # is a form with what was read, and the long boundary a 400 without a code.
        r = httpx.post(base + "/stock", content=BODY_FASTAPI[:-9], headers=MP)
        assert r.status_code == 200 and r.json() == {"title": "t"}, r.text
        r = httpx.post(base + "/stock", content=over, headers=over_ct)
        assert r.status_code == 400 and "MP_" not in r.text, r.text
    assert not fw_starlette.installed() and starlette.formparsers.MultiPartParser.parse is stock_parse


def test_starlette_request_class_without_install() -> None:
    """``formwire.compat.starlette.Request(request.scope, request.receive)``: Starlette's ``request.form()`` API
    (awaited, or ``async with``) parsed by formwire, with per-class formwire options, under a real uvicorn."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    class LenientRequest(fw_starlette.Request):
        formwire_options = {"allow_preamble": True}

    async def upload(request: Request) -> JSONResponse:
        req = fw_starlette.Request(request.scope, request.receive)
        async with req.form(max_fields=3) as form:
            assert await req.form() is form  # parsed once per request, as Starlette's
            return JSONResponse([[k, v if isinstance(v, str) else v.filename] for k, v in form.multi_items()])

    async def lenient(request: Request) -> JSONResponse:
        form = await LenientRequest(request.scope, request.receive).form()
        try:
            return JSONResponse([k for k, _ in form.multi_items()])
        finally:
            await form.close()

    app = Starlette(routes=[Route("/upload", upload, methods=["POST"]), Route("/lenient", lenient, methods=["POST"])])
    with uvicorn_serving(app) as base:
        r = httpx.post(base + "/upload", content=BODY, headers=MP)
        assert r.status_code == 200 and r.json() == [["a", "one"], ["f", "x.txt"]], r.text
        r = httpx.post(base + "/upload", content=BODY[:-9], headers=MP)
        assert r.status_code == 400 and "MP_TRUNCATED" in r.text, r.text
        many = (
            b"".join(b'--B\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n' for _ in range(5)) + b"--B--\r\n"
        )
        r = httpx.post(base + "/upload", content=many, headers=MP)
        assert r.status_code == 413 and "Too many fields" in r.text, r.text
        r = httpx.post(base + "/lenient", content=b"preamble\r\n" + BODY, headers=MP)
        assert r.status_code == 200 and r.json() == ["a", "f"], r.text
        r = httpx.post(base + "/upload", content=b"preamble\r\n" + BODY, headers=MP)
        assert r.status_code == 400 and "MP_PREAMBLE" in r.text, r.text
    assert not fw_starlette.installed()
