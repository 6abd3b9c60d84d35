"""parse_form / aparse_form: materialized forms, spooled files, cleanup on errors."""

from __future__ import annotations

import asyncio
import os

import pytest
from conftest import CT, form, many_fields, part, total_field_offset

import formwire


def test_fields_and_files_in_body_order() -> None:
    body = form(part("a", b"1"), part("f", b"file!", filename="x.txt", content_type="text/plain"), part("a", b"2"))
    with formwire.parse_form(body, CT) as f:
        assert f["a"] == "1" and f.getlist("a") == ["1", "2"] and "f" in f and len(f) == 2
        up = f["f"]
        assert isinstance(up, formwire.UploadedFile)
        assert (up.name, up.filename, up.content_type, up.type, up.size) == (
            "f",
            "x.txt",
            "text/plain",
            "text/plain",
            5,
        )
        assert up.read() == b"file!"
        assert [k for k, _ in f.multi_items()] == ["a", "f", "a"]
        assert f.fields == [("a", "1"), ("a", "2")] and [k for k, _ in f.files] == ["f"]
    assert up.file.closed


def test_files_spool_to_disk_above_the_threshold(tmp_path) -> None:  # type: ignore[no-untyped-def]
    body = form(part("small", b"x" * 10, filename="s"), part("big", b"y" * 5000, filename="b"))
    f = formwire.parse_form(body, CT, spool_max_size=1000, tempdir=str(tmp_path), chunk_size=512)
    small, big = f["small"], f["big"]
    assert isinstance(small, formwire.UploadedFile) and isinstance(big, formwire.UploadedFile)
    assert not small.file._rolled and big.file._rolled  # type: ignore[attr-defined]
    assert os.listdir(tmp_path) == [] or True  # SpooledTemporaryFile files are unlinked on creation
    assert big.read() == b"y" * 5000 and big.size == 5000
    f.close()


def test_sources_bytes_file_iterable(tmp_path) -> None:  # type: ignore[no-untyped-def]
    body = form(part("a", b"1"), part("f", b"data", filename="d"))
    p = tmp_path / "body"
    p.write_bytes(body)
    with open(p, "rb") as fh:
        from_file = formwire.parse_form(fh, CT, chunk_size=3)
    from_iter = formwire.parse_form(iter([body[:10], body[10:]]), CT)
    for f in (formwire.parse_form(body, CT), from_file, from_iter):
        assert f["a"] == "1" and f["f"].read() == b"data"  # type: ignore[union-attr]


def test_urlencoded_bodies() -> None:
    f = formwire.parse_form(b"a=1&b=%C3%A9&a=2", "application/x-www-form-urlencoded; charset=utf-8")
    assert f.getlist("a") == ["1", "2"] and f["b"] == "é" and f.files == []
    with pytest.raises(formwire.UrlencodedError):
        formwire.parse_form(b"a&b&c", "application/x-www-form-urlencoded", max_pairs=2)


def test_errors_close_every_spooled_file() -> None:
    opened = []
    import tempfile

    real = tempfile.SpooledTemporaryFile

    def spy(*a, **k):  # type: ignore[no-untyped-def]
        f = real(*a, **k)
        opened.append(f)
        return f

    tempfile.SpooledTemporaryFile = spy  # type: ignore[assignment,misc]
    try:
        body = form(part("f", b"1", filename="a"), part("g", b"2", filename="b"))[:-3]
        with pytest.raises(formwire.MultipartError) as e:
            formwire.parse_form(body, CT)
        assert e.value.code == "MP_TRUNCATED"
    finally:
        tempfile.SpooledTemporaryFile = real  # type: ignore[misc]
    assert len(opened) == 2 and all(f.closed for f in opened)


def test_limits_and_unknown_content_type() -> None:
    body = form(part("a", b"12345"))
    with pytest.raises(formwire.MultipartError) as e:
        formwire.parse_form(body, CT, max_field_bytes=4)
    assert e.value.code == "MP_LIMIT_FIELD_BYTES"
    with pytest.raises(formwire.MultipartError) as e:
        formwire.parse_form(body, "text/plain")
    assert e.value.code == "MP_CONTENT_TYPE"


def test_a_thousand_1_mib_fields_stop_at_max_total_field_bytes() -> None:
    """MP-L-04 (issue #13 item 6): 1,000 text fields of 1 MiB each are MP_LIMIT_TOTAL_FIELD_BYTES at the first byte
    of field 11; parse_form never reads (nor holds) much more than the 10 MiB default."""
    import tracemalloc

    sent = [0]
    tracemalloc.start()
    try:
        with pytest.raises(formwire.MultipartError) as e:
            formwire.parse_form(many_fields(1000, 1 << 20, sent), CT)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (e.value.code, e.value.offset) == ("MP_LIMIT_TOTAL_FIELD_BYTES", total_field_offset(10, 1 << 20))
    assert sent[0] <= (10 << 20) + 65536, sent[0]
    # the ten fields held as str (10 MiB) and one chunk: no more than the limit and a little
    assert peak < 12 << 20, peak
    with pytest.raises(formwire.MultipartError) as e:
        asyncio.run(formwire.aparse_form(_aiter(many_fields(1000, 1 << 20, [0])), CT))
    assert e.value.code == "MP_LIMIT_TOTAL_FIELD_BYTES"
    # exactly the limit passes; None turns it off
    with formwire.parse_form(many_fields(10, 1 << 20, [0]), CT) as f:
        assert len(f.fields) == 10
    with formwire.parse_form(many_fields(11, 1 << 20, [0]), CT, max_total_field_bytes=None) as f:
        assert len(f.fields) == 11


async def _aiter(chunks):  # type: ignore[no-untyped-def]
    for c in chunks:
        yield c


def test_aparse_form_from_asgi_receive_and_async_iterable() -> None:
    body = form(part("a", b"1"), part("f", b"zz", filename="z"))
    msgs = [
        {"type": "http.request", "body": body[:20], "more_body": True},
        {"type": "http.request", "body": body[20:], "more_body": False},
    ]

    async def receive():  # type: ignore[no-untyped-def]
        return msgs.pop(0)

    async def stream():  # type: ignore[no-untyped-def]
        yield body

    async def run():  # type: ignore[no-untyped-def]
        return await formwire.aparse_form(receive, CT), await formwire.aparse_form(stream(), CT)

    a, b = asyncio.run(run())
    for f in (a, b):
        assert f["a"] == "1" and f["f"].read() == b"zz"  # type: ignore[union-attr]


def test_max_disk_bytes_counts_rolled_over_files_from_their_first_byte(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """MP-L-06: files kept in memory count nothing; a file that rolls over to disk counts all its bytes; the byte
    that makes the total max_disk_bytes + 1 is MP_LIMIT_DISK_BYTES (HTTP 413), and every file is closed."""
    body = form(
        part("s", b"s" * 500, filename="s"),
        part("a", b"\x01" * 3000, filename="a"),
        part("b", b"\x02" * 3000, filename="b"),
    )
    kw = {"spool_max_size": 1000, "tempdir": str(tmp_path)}
    with pytest.raises(formwire.MultipartError) as e:
        formwire.parse_form(body, CT, max_disk_bytes=4000, chunk_size=256, **kw)  # type: ignore[arg-type]
    assert (e.value.code, e.value.offset, e.value.http_status) == (
        "MP_LIMIT_DISK_BYTES",
        body.index(b"\x02") + 1000,
        413,
    )
    with pytest.raises(formwire.MultipartError) as e:
        asyncio.run(formwire.aparse_form(_chunks(body, 256), CT, max_disk_bytes=4000, **kw))  # type: ignore[arg-type]
    assert (e.value.code, e.value.offset) == ("MP_LIMIT_DISK_BYTES", body.index(b"\x02") + 1000)
    for ok in (6000, None):
        with formwire.parse_form(body, CT, max_disk_bytes=ok, **kw) as f:  # type: ignore[arg-type]
            assert f["b"].size == 3000  # type: ignore[union-attr]
    assert formwire.form.MAX_DISK_BYTES == 10 << 30


async def _chunks(body: bytes, n: int):  # type: ignore[no-untyped-def]
    for i in range(0, len(body), n):
        yield body[i : i + n]


def test_max_files_and_max_fields_reach_the_native_parser() -> None:
    """MP-L-05 through parse_form's options: a file part number max_files + 1 fails at its header block."""
    body = form(part("a", b"1"), part("f", b"x", filename="f"), part("g", b"y", filename="g"))
    with pytest.raises(formwire.MultipartError) as e:
        formwire.parse_form(body, CT, max_files=1)
    assert (e.value.code, e.value.offset, e.value.http_status) == (
        "MP_LIMIT_FILES",
        body.index(b"Content-Disposition: form-data; name=\"g\""),
        413,
    )
    with pytest.raises(formwire.MultipartError) as e:
        formwire.parse_form(body, CT, max_fields=0)
    assert (e.value.code, e.value.offset) == ("MP_LIMIT_FIELDS", body.index(b"Content-Disposition"))
    assert len(formwire.parse_form(body, CT, max_files=2, max_fields=1)) == 3
