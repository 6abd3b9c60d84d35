"""formwire.compat.python_multipart: python-multipart's public API (FormParser, Field, File, decoders, callbacks)."""

from __future__ import annotations

import io

import pytest

from formwire.compat import python_multipart as pm

BODY = (
    b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n"
    b"--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\n"
    b"hello\r\n--B--\r\n"
)


def test_form_parser_gives_fields_and_files_at_every_split() -> None:
    for cut in range(len(BODY) + 1):
        fields: list[pm.Field] = []
        files: list[pm.File] = []
        ended: list[bool] = []
        p = pm.FormParser("multipart/form-data", fields.append, files.append, lambda e=ended: e.append(True), b"B")
        assert p.write(BODY[:cut]) + p.write(BODY[cut:]) == len(BODY)
        p.finalize()
        assert [(f.field_name, f.value) for f in fields] == [(b"a", b"one")]
        (f,) = files
        assert (f.field_name, f.file_name, f.content_type) == (b"f", b"x.txt", "text/plain")
        f.file_object.seek(0)
        assert f.file_object.read() == b"hello" and f.in_memory and ended == [True]


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        (b"C:\\Documents and Settings\\u\\x.txt", b"x.txt"),
        (b"\\\\\\\\srv\\share\\x.txt", b"x.txt"),  # quoted-pairs: python-multipart reads \\srv
        (b"c:\\", b""),
        (b"dir\\x.txt", b"dir\\x.txt"),
        (b"C:/dir/x.txt", b"C:/dir/x.txt"),
    ],
)
def test_form_parser_file_name_without_an_ie_path_as_python_multipart(filename: bytes, expected: bytes) -> None:
    """python-multipart's FormParser takes ``file_name`` from its ``parse_options_header``, which strips a Windows
    directory prefix (IE6 sent the whole path); the shim's File objects report the same name."""
    from python_multipart import multipart as real

    body = b'--B\r\nContent-Disposition: form-data; name="f"; filename="' + filename + b'"\r\n\r\nx\r\n--B--\r\n'
    names = []
    for mod in (real, pm):
        files: list = []  # type: ignore[type-arg]
        p = mod.FormParser("multipart/form-data", None, files.append, boundary=b"B")
        p.write(body)
        p.finalize()
        names.append(files[0].file_name)
    assert names == [expected, expected]


def test_parse_form_and_a_file_over_the_memory_limit_goes_to_disk(tmp_path) -> None:  # noqa: ANN001
    files: list[pm.File] = []
    headers = {"Content-Type": "multipart/form-data; boundary=B", "Content-Length": str(len(BODY))}
    pm.parse_form(headers, io.BytesIO(BODY), None, files.append, chunk_size=7)
    assert files[0].size == 5
    f = pm.File(
        b"../../evil.txt",
        b"f",
        {
            "UPLOAD_DIR": str(tmp_path),
            "MAX_MEMORY_FILE_SIZE": 2,
            "UPLOAD_KEEP_FILENAME": True,
            "UPLOAD_KEEP_EXTENSIONS": True,
        },
    )
    f.write(b"abc")
    f.finalize()
    assert not f.in_memory and f.actual_file_name == b"evil.txt"  # base name only: no traversal
    assert (tmp_path / "evil.txt").read_bytes() == b"abc"
    f.close()


def test_content_transfer_encodings_decode_as_they_stream() -> None:
    body = (
        b"--B\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: base64\r\n\r\naGVsbG8=\r\n"
        b"--B\r\nContent-Disposition: form-data; name=\"q\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"a=3Db\r\n--B--\r\n"
    )
    for cut in range(len(body) + 1):
        values: list[bytes | None] = []
        p = pm.FormParser("multipart/form-data", lambda f, v=values: v.append(f.value), None, boundary=b"B")
        p.write(body[:cut])
        p.write(body[cut:])
        p.finalize()
        assert values == [b"hello", b"a=b"]
    d = pm.Base64Decoder(io.BytesIO())
    d.write(b"aGV")
    with pytest.raises(pm.DecodeError):
        d.finalize()


def test_urlencoded_fields_stream_and_the_field_limit_fires_before_the_field_is_whole() -> None:
    fields: list[pm.Field] = []
    p = pm.FormParser("application/x-www-form-urlencoded", fields.append, None, config={"MAX_FIELD_SIZE": 10})
    p.write(b"a=1&b")
    p.write(b"&c=x+y")
    p.finalize()
    assert [(f.field_name, f.value) for f in fields] == [(b"a", b"1"), (b"b", None), (b"c", b"x+y")]
    p = pm.FormParser("application/x-www-form-urlencoded", None, None, config={"MAX_FIELD_SIZE": 10})
    p.write(b"big=12345")
    with pytest.raises(pm.FormParserError, match="maximum size"):
        p.write(b"67890")  # the field is never held whole


def test_callbacks_none_set_callback_header_begin_and_max_size() -> None:
    seen: list[str] = []
    p = pm.MultipartParser(b"B", {"on_part_begin": None, "on_end": lambda: seen.append("end")})
    p.set_callback("header_begin", lambda: seen.append("hb"))
    p.set_callback("end", None)
    p.write(BODY)
    p.finalize()
    assert seen == ["hb", "hb", "hb"]
    data: list[bytes] = []
    p = pm.MultipartParser(b"B", {"on_part_data": lambda d, s, e: data.append(bytes(d[s:e]))})
    p.max_size = 60  # settable after construction: write takes 60 bytes and says so
    assert p.write(BODY) == 60
    # python-multipart's truncation: the caller asked for the first max_size bytes, so finalize ends quietly
    p.finalize()
    assert b"".join(data) == b"one"
    # a body that ends early on its own stays an error (MP_TRUNCATED), never a quiet partial form
    p = pm.MultipartParser(b"B", {"on_part_data": lambda d, s, e: None})
    assert p.write(BODY[:60]) == 60
    with pytest.raises(pm.MultipartParseError) as e:
        p.finalize()
    assert e.value.code == "MP_TRUNCATED"
    # a max_size that cut nothing leaves that rule as it is
    p = pm.MultipartParser(b"B", max_size=1000)
    p.write(BODY[:60])
    with pytest.raises(pm.MultipartParseError):
        p.finalize()


def test_form_parser_max_body_size_truncates_as_python_multipart() -> None:
    fields: list[pm.Field] = []
    files: list[pm.File] = []
    cut = BODY.index(b"hello") + 3
    p = pm.FormParser("multipart/form-data", fields.append, files.append, boundary=b"B", config={"MAX_BODY_SIZE": cut})
    assert p.write(BODY) == cut
    p.finalize()
    assert [(f.field_name, f.value) for f in fields] == [(b"a", b"one")]
    assert not files  # the file part never ended: python-multipart hands over no File either


def test_querystring_pieces_read_as_whatwg_by_unquote_plus() -> None:
    from urllib.parse import unquote_plus

    parts: list[bytes] = []
    p = pm.QuerystringParser({"on_field_data": lambda d, s, e: parts.append(d[s:e])})
    p.write("v=é%2".encode())
    p.write(b"6x")
    p.finalize()
    assert unquote_plus(b"".join(parts).decode("latin-1")) == "é&x"
    p = pm.QuerystringParser(strict_parsing=True)
    with pytest.raises(pm.QuerystringParseError):
        p.write(b"a&b=1")


def test_multipart_start_as_python_multipart() -> None:
    """python-multipart skips a body's leading CR/LF up to its first "-" and nothing else: other bytes before the
    first delimiter are an error at write(), in its words, at the index where they differ (MP-P-02's strict
    reading; the core's allow_preamble, by name, still skips any preamble)."""
    for pre in (b"\r\n", b"\n\r\n", b"\r\nignored "):
        body = pre + BODY
        for cut in range(len(body) + 1):
            data: list[bytes] = []
            p = pm.MultipartParser(b"B", {"on_part_data": lambda d, s, e, out=data: out.append(bytes(d[s:e]))})
            assert p.write(body[:cut]) + p.write(body[cut:]) == len(body)
            p.finalize()
            assert b"".join(data) == b"onehello", (pre, cut)
    for body, at in ((b"junk" + BODY, 0), (b"--Bx\r\n", 3), (b"--b\r\n", 2)):
        for cut in range(len(body) + 1):
            p = pm.MultipartParser(b"B")
            with pytest.raises(pm.MultipartParseError) as e:
                p.write(body[:cut])
                p.write(body[cut:])
            assert e.value.code in ("MP_PREAMBLE", "MP_DELIMITER"), (body, cut)
            if e.value.code == "MP_PREAMBLE":
                assert e.value.offset == at and f"got {body[at]!r} at index {at}" in str(e.value), (body, cut)
    p = pm.MultipartParser(b"B", allow_preamble=True)
    p.write(b"junk\r\n" + BODY)
    p.finalize()


def test_querystring_strict_parsing_offset_is_the_index_in_the_write() -> None:
    """strict_parsing is python-multipart's rule (no formwire code): its error offset is python-multipart's, the
    index in the chunk of the write that failed."""
    data = b"foo=bar&&another=asdf"
    for cut in range(len(data) + 1):
        p = pm.QuerystringParser(strict_parsing=True)
        taken = 0
        with pytest.raises(pm.QuerystringParseError) as e:
            taken += p.write(data[:cut])
            taken += p.write(data[cut:])
        assert e.value.offset == 8 - taken, cut
    p = pm.QuerystringParser(strict_parsing=True)
    p.write(b"a=1&")
    with pytest.raises(pm.QuerystringParseError) as e:
        p.write(b"b&c=2")
    assert e.value.offset == 0


def test_cr_without_lf_in_header_lines_at_python_multipart_offset() -> None:
    """A CR that ends a header value or starts a line, then not LF: python-multipart's offset is where the LF
    should be; a CR inside a header name is reported at the CR (both at every split)."""
    head = b'--B\r\nContent-Disposition: form-data; name="a"\r\n'
    cases = (
        (b'--B\r\nContent-Disposition: form-data; n\rame="a"\r\n\r\nx\r\n--B--\r\n', 39),  # in a value
        (head + b"\rX\r\n\r\nx\r\n--B--\r\n", len(head) + 1),  # where the blank line goes
        (head + b"X\rY: 1\r\n\r\nx\r\n--B--\r\n", len(head) + 1),  # inside a name: at the CR
    )
    for body, want in cases:
        for cut in range(len(body) + 1):
            p = pm.MultipartParser(b"B")
            with pytest.raises(pm.MultipartParseError) as e:
                p.write(body[:cut])
                p.write(body[cut:])
                p.finalize()
            assert e.value.offset == want, (body, cut, e.value)


def test_max_header_size_fires_as_soon_as_a_header_line_is_over() -> None:
    """python-multipart raises "Maximum header size exceeded" at the write where a header line (name, colon, value,
    without CRLF) goes over max_header_size, before the part's header block is complete; a line of exactly the limit
    passes. The same at every split, in a later part, and with the limit set after construction."""
    limit = 40
    head = b'--B\r\nContent-Disposition: form-data; name="a"\r\n'
    second = b'\r\n\r\none\r\n--B\r\nContent-Disposition: form-data; name="b"\r\n'
    for body, first_part_ends in (
        (head + b"X-A: " + b"a" * (limit - 4), None),  # one byte over, no CRLF yet
        (head + b"X-A: " + b"a" * (limit - 5) + b"\r\n\r\none\r\n--B\r\nY: " + b"b" * (limit - 2), True),
    ):
        for cut in range(len(body) + 1):
            ended: list[str] = []
            p = pm.MultipartParser(b"B", {"on_part_end": lambda ended=ended: ended.append("end")})
            p.max_header_size = limit
            with pytest.raises(pm.MultipartParseError, match="Maximum header size exceeded") as e:
                p.write(body[:cut])
                p.write(body[cut:])
            assert e.value.code == "MP_LIMIT_HEADER_BYTES"
            line = body.rfind(b"\n") + 1
            assert e.value.offset == line + limit, (cut, e.value)
            assert ended == (["end"] if first_part_ends else []), cut
    # exactly the limit, its CR and LF in other writes: no error, and the form parses
    ok = head + b"X-A: " + b"a" * (limit - 5) + second + b"Y: " + b"b" * (limit - 3) + b"\r\n\r\ntwo\r\n--B--\r\n"
    assert len(b'Content-Disposition: form-data; name="a"') == limit
    for cut in range(len(ok) + 1):
        for cut2 in (cut, min(len(ok), cut + 1)):
            data: list[bytes] = []
            p = pm.MultipartParser(b"B", {"on_part_data": lambda d, s, e, data=data: data.append(bytes(d[s:e]))})
            p.max_header_size = limit
            for piece in (ok[:cut], ok[cut:cut2], ok[cut2:]):
                p.write(piece)
            p.finalize()
            assert b"".join(data) == b"onetwo", (cut, cut2)


@pytest.mark.parametrize("rest", [b"x", b"\rx", b" \t\ry"])
def test_padding_without_crlf_in_python_multipart_words(rest: bytes) -> None:
    """MP-P-03: a delimiter line's padding followed by neither CRLF nor more padding is an error in both; the shim
    says it as python-multipart does (its message, then formwire's), with the code."""
    p = pm.MultipartParser(b"B")
    with pytest.raises(pm.MultipartParseError, match="Did not find CRLF after boundary padding") as e:
        p.write(b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\nfirst\r\n--B ' + rest)
    assert e.value.code == "MP_DELIMITER"


def test_form_data_without_a_name_in_python_multipart_words() -> None:
    """MP-H-07: ``form-data;`` without ``name`` is MP_DISPOSITION; python-multipart's FormParser says "Field name not
    found in Content-Disposition" for it (its bare parser reads no header), and so does the shim."""
    body = b'--B\r\nContent-Disposition: form-data; filename="a"\r\n\r\nx\r\n--B--\r\n'
    f = pm.FormParser("multipart/form-data", lambda _: None, lambda _: None, boundary=b"B")
    with pytest.raises(pm.FormParserError, match="Field name not found in Content-Disposition") as e:
        f.write(body)
    assert isinstance(e.value, pm.MultipartParseError) and e.value.code == "MP_DISPOSITION"
    # a named disposition that fails the grammar keeps formwire's words only
    with pytest.raises(pm.MultipartParseError) as e:
        pm.MultipartParser(b"B").write(body.replace(b'filename="a"', b'name="a"; name="b"'))
    assert "Field name not found" not in str(e.value)
