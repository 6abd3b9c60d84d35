"""The multipart parser through the Python API: rules, chunking, zero-copy events, errors, limits, helpers."""

from __future__ import annotations

import asyncio
import threading

import pytest
from conftest import B, CT, collect, form, parse_chunks, part, splits

import formwire
from formwire import multipart
from formwire._formwire import GIL_RELEASE_BYTES


def test_events_in_order(sample: bytes) -> None:
    p = multipart.Parser.from_content_type(CT)
    events = p.feed(sample)
    kinds = [type(e).__name__ if not isinstance(e, multipart.Marker) else repr(e) for e in events]
    assert kinds == [
        "Part",
        "memoryview",
        "formwire.multipart.PART_END",
        "Part",
        "memoryview",
        "formwire.multipart.PART_END",
        "Part",
        "formwire.multipart.PART_END",
        "formwire.multipart.END",
    ]
    assert p.done and p.close() == []
    parts = collect(events)
    assert [x["name"] for x in parts] == ["a", "file", "empty"]
    assert parts[1] == {
        "name": "file",
        "filename": "x.bin",
        "content_type": "application/x-demo",
        "type": "application/x-demo",
        "body": b"\x00\x01\r\n--boundar\r\n\xff",
        "headers": [
            ("content-disposition", 'form-data; name="file"; filename="x.bin"'),
            ("content-type", "application/x-demo"),
        ],
    }
    assert parts[0]["type"] is None and parts[0]["filename"] is None  # a text field has no File type
    assert parts[2]["body"] == b""


def test_chunking_never_changes_the_result(sample: bytes) -> None:
    """MP-P-08: whole, byte by byte and cut at every point give the same parts."""
    want = parse_chunks([sample])
    assert isinstance(want, list) and len(want) == 3
    for chunks in splits(sample):
        assert parse_chunks(chunks) == want


def test_chunking_never_changes_an_error() -> None:
    bad = form(part("a", b"x"))[:-3] + b"X\r\n"  # `--boundary-X`: MP_DELIMITER at the X
    want = parse_chunks([bad])
    assert want == ("MP_DELIMITER", len(bad) - 3)
    for chunks in splits(bad):
        assert parse_chunks(chunks) == want


def test_data_events_are_views_of_the_fed_buffer(sample: bytes) -> None:
    """Zero copy: a data event is a memoryview whose .obj is the very object fed."""
    for chunk in (sample, bytearray(sample), memoryview(sample)):
        p = multipart.Parser(B)
        views = [e for e in p.feed(chunk) if isinstance(e, memoryview)]
        assert views
        base = chunk.obj if isinstance(chunk, memoryview) else chunk
        for v in views:
            assert v.obj is base
            assert v.readonly == isinstance(base, bytes)
    # Writing through the fed bytearray shows through the view: same memory.
    buf = bytearray(form(part("a", b"hello")))
    (view,) = [e for e in multipart.Parser(B).feed(buf) if isinstance(e, memoryview)]
    i = bytes(buf).index(b"hello")
    buf[i] = ord("j")
    assert bytes(view) == b"jello"


def test_whole_chunk_body_is_the_chunk_itself() -> None:
    p = multipart.Parser(B)
    p.feed(b"--boundary\r\nContent-Disposition: form-data; name=f; filename=x\r\n\r\n")
    chunk = b"0123456789" * 1000
    (v,) = p.feed(chunk)
    assert isinstance(v, memoryview) and v.obj is chunk and len(v) == len(chunk)


def test_held_back_bytes_come_as_bytes() -> None:
    """A chunk ending in a possible delimiter start holds it back; when it turns out to be data it comes as bytes."""
    p = multipart.Parser(B)
    p.feed(b"--boundary\r\nContent-Disposition: form-data; name=a\r\n\r\nab")
    assert [bytes(e) for e in p.feed(b"cd\r\n--bou")] == [b"cd"]
    events = p.feed(b"nce\r\n--boundary--")
    # `n` still matched the delimiter; `c` did not: the held bytes and `n` are data after all.
    assert isinstance(events[0], bytes) and events[0] == b"\r\n--boun"
    assert isinstance(events[1], memoryview) and bytes(events[1]) == b"ce"
    assert events[2:] == [multipart.PART_END]
    assert p.close() == [multipart.END]


def test_feed_spans_gives_offsets(sample: bytes) -> None:
    events = multipart.Parser(B).feed_spans(sample)
    spans = [e for e in events if isinstance(e, tuple)]
    assert [sample[a:b] for a, b in spans] == [b"hello", b"\x00\x01\r\n--boundar\r\n\xff"]


def test_buffer_fields_gives_one_tuple_per_text_field(sample: bytes) -> None:
    for chunks in splits(sample):
        p = multipart.Parser(B, buffer_fields=True)
        events = [e for c in chunks for e in p.feed(c)] + p.close()
        assert events[0] == ("a", "hello")
        assert isinstance(events[1], multipart.Part) and events[1].name == "file"
        assert events[-2:] == [("empty", ""), multipart.END]


def test_field_values_are_utf8_with_replacement() -> None:
    """MP-F-01: invalid UTF-8 becomes U+FFFD, a BOM is kept."""
    body = form(part("a", b"\xef\xbb\xbfok\xff\xc3"))
    (field, end) = multipart.Parser(B, buffer_fields=True).feed(body)
    assert field == ("a", "\ufeffok\ufffd\ufffd") and end is multipart.END


def test_field_errors_bytes_hands_out_invalid_utf8_fields_raw() -> None:
    """field_errors="bytes": a buffered field whose name or value is not valid UTF-8 comes as its raw (bytes, bytes),
    nothing replaced (the caller decodes it its own way); valid UTF-8 fields are str as always; every split point
    gives the same tuples. The default ("replace") gives U+FFFD (MP-F-01)."""
    body = (
        b'--boundary\r\nContent-Disposition: form-data; name="n\xe9"\r\n\r\nv\xc3\xa9\r\n'
        b'--boundary\r\nContent-Disposition: form-data; name="ok"\r\n\r\nv\xe9\xff\r\n'
        b'--boundary\r\nContent-Disposition: form-data; name="\xc3\xa9"\r\n\r\n\xe2\x98\x95\r\n--boundary--'
    )
    for chunks in splits(body):
        p = multipart.Parser(B, buffer_fields=True, field_errors="bytes")
        assert p.field_errors == "bytes"
        events = [e for c in chunks for e in p.feed(c)] + p.close()
        assert events == [(b"n\xe9", b"v\xc3\xa9"), (b"ok", b"v\xe9\xff"), ("\xe9", "\u2615"), multipart.END]
    lossy = multipart.Parser(B, buffer_fields=True)
    assert lossy.field_errors == "replace"
    assert lossy.feed(body)[:2] == [("n\ufffd", "v\xe9"), ("ok", "v\ufffd\ufffd")]
    with pytest.raises(ValueError, match="field_errors"):
        multipart.Parser(B, buffer_fields=True, field_errors="latin-1")


def test_in_field_while_a_buffered_field_is_open() -> None:
    p = multipart.Parser(B, buffer_fields=True, max_field_bytes=4)
    assert not p.in_field
    p.feed(b'--boundary\r\nContent-Disposition: form-data; name="a"\r\n\r\n12')
    assert p.in_field
    assert p.feed(b"\r\n--boundary\r\n") == [("a", "12")] and not p.in_field
    p.feed(b'Content-Disposition: form-data; name="b"\r\n\r\n')
    assert p.in_field
    with pytest.raises(formwire.MultipartError) as e:
        p.feed(b"12345")
    assert e.value.code == "MP_LIMIT_FIELD_BYTES" and p.in_field  # the error is inside field "b"
    f = multipart.Parser(B)
    f.feed(b'--boundary\r\nContent-Disposition: form-data; name="a"; filename="x"\r\n\r\n12')
    assert not f.in_field  # files (and every part without buffer_fields) come as events


def test_error_carries_the_events_before_it() -> None:
    """The events of the failing chunk before the error are on the error (.events); the parse still fails."""
    body = form(part("a", b"1"), part("f", b"xy", filename="f.txt"))[:-2] + b"junk"  # --boundary--junk
    for buffer_fields in (False, True):
        p = multipart.Parser(B, buffer_fields=buffer_fields)
        with pytest.raises(formwire.MultipartError) as e:
            p.feed(body)
        assert e.value.code == "MP_DELIMITER"
        got = collect(list(e.value.events))
        assert [x["name"] for x in got] == ["a", "f"]
        assert got[-1]["body"] == b"xy"
        with pytest.raises(formwire.MultipartError) as again:
            p.feed(b"more")
        assert again.value.events == ()  # nothing new before a repeated error
    with pytest.raises(formwire.MultipartError) as e:
        multipart.Parser(B).feed(b"--boundaryX")
    assert e.value.events == ()
    body = form(part("a", b"12"))[:-2] + b"junk"
    with pytest.raises(formwire.MultipartError) as e:
        multipart.Parser(B).feed_spans(body)
    (a, b) = e.value.events[1]  # feed_spans: data as offsets, as its events are
    assert body[a:b] == b"12"


def test_strict_profile_and_lenient_flags() -> None:
    """MP-P-02 (preamble), MP-P-03 (LF), MP-H-04 (obs-fold): strict by default, relaxed only by name."""
    pre = b"preamble\r\n" + form(part("a", b"1"))
    assert parse_chunks([pre]) == ("MP_PREAMBLE", 0)
    assert [x["name"] for x in parse_chunks([pre], allow_preamble=True)] == ["a"]  # type: ignore[union-attr,index]
    lf = b'--boundary\nContent-Disposition: form-data; name="a"\n\n1\n--boundary--\n'
    assert parse_chunks([lf]) == ("MP_DELIMITER", 10)
    assert parse_chunks([lf], allow_lf=True)[0]["body"] == b"1"  # type: ignore[index]
    fold = b'--boundary\r\nContent-Disposition: form-data;\r\n name="a"\r\n\r\n1\r\n--boundary--'
    assert parse_chunks([fold]) == ("MP_OBS_FOLD", fold.index(b"\r\n name") + 2)
    assert parse_chunks([fold], allow_obs_fold=True)[0]["name"] == "a"  # type: ignore[index]


def test_part_without_a_name_and_buffer_fields() -> None:
    """MP-H-06 (allow_missing_disposition): a Part whose name is None; buffer_fields and parse_form skip it (MP-F-05)."""
    body = (
        b"--boundary\r\nContent-Type: text/plain\r\n\r\nskipped\r\n"
        b"--boundary\r\nContent-Disposition:\r\n\r\nskipped too\r\n" + form(part("a", b"1"))
    )
    assert parse_chunks([body]) == ("MP_NO_DISPOSITION", 38)
    events = multipart.Parser(B, allow_missing_disposition=True).feed(body)
    parts = [e for e in events if isinstance(e, multipart.Part)]
    assert [(p.name, p.name_bytes) for p in parts] == [(None, None), (None, None), ("a", b"a")]
    assert "name=None" in repr(parts[0]) and parts[0].content_type == "text/plain"
    buffered = multipart.Parser(B, buffer_fields=True, allow_missing_disposition=True)
    assert buffered.feed(body) == [("a", "1"), multipart.END]
    with formwire.parse_form(body, CT, allow_missing_disposition=True) as got:
        assert list(got.items()) == [("a", "1")]
    with pytest.raises(formwire.MultipartError) as e:  # still a field for the limits
        formwire.parse_form(body, CT, allow_missing_disposition=True, max_fields=2)
    assert e.value.code == "MP_LIMIT_FIELDS"
    p = multipart.Parser(B, buffer_fields=True, allow_missing_disposition=True)
    p.feed(b"--boundary\r\n\r\nx")
    assert p.in_field


def test_parse_disposition_options() -> None:
    from formwire._formwire import parse_disposition

    assert parse_disposition('form-field; name="a"') is None
    assert parse_disposition('form-field; name="a"', allow_any_disposition_type=True) == (b"a", None, None, None)
    assert parse_disposition('x; name="a\\\\b"', allow_any_disposition_type=True, allow_quoted_pairs=True) == (
        b"a\\b",
        None,
        None,
        None,
    )


def test_disposition_readings() -> None:
    """MP-H-07..10: backslashes are literal, filename* never overrides, names are not percent-decoded."""

    def first(cd: str) -> multipart.Part:
        body = f"--boundary\r\nContent-Disposition: {cd}\r\n\r\nx\r\n--boundary--".encode()
        ev = multipart.Parser(B).feed(body)[0]
        assert isinstance(ev, multipart.Part)
        return ev

    p = first('form-data; name="f"; filename="a\\\\b"')
    assert p.filename == "a\\\\b" and p.filename_bytes == b"a\\\\b"
    p = first("form-data; name=\"f\"; filename=\"safe.txt\"; filename*=utf-8''evil.php")
    assert p.filename == "safe.txt" and p.filename_star == "utf-8''evil.php"
    p = first('form-data; name="a%0Ab%22c"')
    assert p.name == "a%0Ab%22c" and p.name_bytes == b"a%0Ab%22c"
    p = first("form-data; name=\"f\"; filename*=utf-8''x")
    assert p.filename is None and not p.is_file and p.type is None
    with pytest.raises(formwire.MultipartError) as e:
        first('form-data; name="a"; name="b"')
    assert (e.value.code, e.value.offset) == ("MP_DISPOSITION", 12)


def test_file_type_is_fetchs_mime_type() -> None:
    """MP-F-03: text/plain without a Content-Type, serialized MIME type, "" when invalid."""

    def ty(ct: str | None) -> str | None:
        ev = multipart.Parser(B).feed(form(part("f", b"", filename="x", content_type=ct)))[0]
        assert isinstance(ev, multipart.Part)
        return ev.type

    assert ty(None) == "text/plain"
    assert ty("TEXT/HTML") == "text/html"
    assert ty('text/html;;x="y"') == "text/html;x=y"
    assert ty("text") == ""


def test_errors_are_coded_value_errors() -> None:
    with pytest.raises(ValueError) as e:
        multipart.Parser.from_content_type("text/plain")
    assert isinstance(e.value, formwire.ParseError) and isinstance(e.value, formwire.MultipartError)
    assert (e.value.code, e.value.offset) == ("MP_CONTENT_TYPE", 0)
    with pytest.raises(formwire.MultipartError, match="MP_BOUNDARY"):
        multipart.Parser.from_content_type("multipart/form-data")
    with pytest.raises(formwire.MultipartError) as e:
        multipart.Parser("x" * 257)
    assert e.value.code == "MP_LIMIT_BOUNDARY"
    # MP-B-04: 256 by default, so werkzeug's 71+ byte test-client boundaries parse.
    assert multipart.Parser("x" * 71).boundary == b"x" * 71


def test_truncated_input_is_an_error_at_close() -> None:
    data = form(part("a", b"1"))[:-5]
    p = multipart.Parser(B)
    p.feed(data)  # need-more-data is never an error
    with pytest.raises(formwire.MultipartError) as e:
        p.close()
    assert (e.value.code, e.value.offset) == ("MP_TRUNCATED", len(data))


def test_an_error_poisons_the_parser() -> None:
    p = multipart.Parser(B)
    with pytest.raises(formwire.MultipartError) as first:
        p.feed(b"junk")
    with pytest.raises(formwire.MultipartError) as again:
        p.feed(b"--boundary--")
    assert (first.value.code, first.value.offset) == (again.value.code, again.value.offset) == ("MP_PREAMBLE", 0)


A = part("a", b"1234")
F = part("f", b"123", filename="x", content_type="a/b")
DELIM = len(b"--boundary\r\n")


@pytest.mark.parametrize(
    ("options", "body", "error"),
    [
        # MP-L-01: the line start of the first header line of part max_parts + 1
        ({"max_parts": 1}, form(A, A), ("MP_LIMIT_PARTS", len(A) + DELIM)),
        # MP-L-02: body start + limit
        ({"max_field_bytes": 3}, form(A), ("MP_LIMIT_FIELD_BYTES", A.index(b"1234") + 3)),
        ({"max_file_bytes": 2}, form(F), ("MP_LIMIT_FILE_BYTES", F.index(b"123\r\n") + 2)),
        # MP-H-05: the line start of header line max_headers + 1; header block start + max_header_bytes
        ({"max_headers": 1}, form(F), ("MP_LIMIT_HEADERS", F.index(b"Content-Type"))),
        ({"max_header_bytes": 10}, form(A), ("MP_LIMIT_HEADER_BYTES", DELIM + 10)),
        # MP-L-03: max_total_bytes itself
        ({"max_total_bytes": 20}, form(A), ("MP_LIMIT_TOTAL_BYTES", 20)),
    ],
)
def test_limits_are_coded_errors(options: dict[str, int], body: bytes, error: tuple[str, int]) -> None:
    for chunks in ([body], [body[i : i + 1] for i in range(len(body))]):
        assert parse_chunks(chunks, **options) == error


def test_limits_at_exactly_the_limit_pass_and_none_is_unlimited() -> None:
    body = form(part("a", b"123"))
    assert parse_chunks([body], max_field_bytes=3)[0]["body"] == b"123"  # type: ignore[index]
    parts = [part(f"f{i}", b"x") for i in range(1001)]
    many = form(*parts)
    assert parse_chunks([many]) == ("MP_LIMIT_PARTS", len(b"".join(parts[:1000])) + DELIM)
    # MP-L-05: with max_parts off, max_fields (1000) stops field 1001 at its header block
    assert parse_chunks([many], max_parts=None) == ("MP_LIMIT_FIELDS", many.index(b'name="f1000"') - 32)
    assert len(parse_chunks([many], max_parts=None, max_fields=None)) == 1001
    with pytest.raises(ValueError):
        multipart.Parser(B, max_parts=-1)
    with pytest.raises(TypeError):
        multipart.Parser(B, max_partz=1)  # type: ignore[call-arg]


def test_options_report_the_defaults_of_spec_limits() -> None:
    assert multipart.Parser(B).options == {
        "allow_preamble": False,
        "allow_lf": False,
        "allow_obs_fold": False,
        "allow_quoted_pairs": False,
        "allow_missing_disposition": False,
        "allow_any_disposition_type": False,
        "allow_junk_after_close": False,
        "allow_utf8_header_names": False,
        "allow_cr": False,
        "allow_near_delimiters": False,
        "allow_8bit_parameter_names": False,
        "allow_rfc2231_continuations": False,
        "max_boundary_bytes": 256,
        "max_parts": 1000,
        "max_files": 1000,
        "max_fields": 1000,
        "max_headers": 8,
        "max_header_bytes": 8192,
        "max_field_bytes": 1048576,
        "max_total_field_bytes": 10485760,
        "max_file_bytes": 10737418240,
        "max_total_bytes": 21474836480,
    }
    assert multipart.Parser(B, max_total_bytes=None).options["max_total_bytes"] is None


def test_content_type_as_bytes_is_isomorphic_decoded() -> None:
    """MP-B-02: header byte E9 is é, whose UTF-8 bytes are the boundary."""
    p = multipart.Parser.from_content_type(b"multipart/form-data; boundary=b\xe9")
    assert p.boundary == "bé".encode()
    assert multipart.boundary_from_content_type('multipart/form-data; boundary="a.b(c)"') == b"a.b(c)"


def test_events_over_a_file_and_an_iterable(sample: bytes, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "body"
    path.write_bytes(sample)
    with open(path, "rb") as f:
        from_file = collect(list(multipart.Parser(B).events(f, chunk_size=7)))
    from_iter = collect(list(multipart.Parser(B).events(iter([sample[:5], sample[5:50], sample[50:]]))))
    assert from_file == from_iter == parse_chunks([sample])


def test_aevents_over_an_async_iterable_and_asgi_receive(sample: bytes) -> None:
    async def chunks():  # type: ignore[no-untyped-def]
        for i in range(0, len(sample), 16):
            yield sample[i : i + 16]

    messages = [
        {"type": "http.request", "body": sample[:30], "more_body": True},
        {"type": "http.request", "body": sample[30:], "more_body": False},
    ]

    async def receive():  # type: ignore[no-untyped-def]
        return messages.pop(0)

    async def run() -> tuple[list, list]:  # type: ignore[type-arg]
        a = [e async for e in multipart.Parser(B).aevents(chunks())]
        b = [e async for e in multipart.Parser(B).aevents(receive)]
        return a, b

    a, b = asyncio.run(run())
    assert collect(a) == collect(b) == parse_chunks([sample])


def test_large_chunks_parse_with_the_gil_released_from_many_threads() -> None:
    """Chunks of GIL_RELEASE_BYTES or more are scanned without the GIL: threads run in parallel, results are exact."""
    payload = bytes(range(256)) * (GIL_RELEASE_BYTES // 128)
    body = form(part("f", payload, filename="big"))
    results: list[object] = []

    def work() -> None:
        for _ in range(3):
            results.append(parse_chunks([body]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 12
    assert all(r == results[0] for r in results) and results[0][0]["body"] == payload  # type: ignore[index]


def test_subclass_and_repr() -> None:
    class Mine(multipart.Parser):
        pass

    p = Mine.from_content_type(CT, max_parts=3)
    assert isinstance(p, Mine) and p.options["max_parts"] == 3
    ev = p.feed(form(part("a", b"1", filename="f.txt")))[0]
    assert repr(ev) == "Part(index=0, name='a', filename='f.txt', content_type=None)"
    assert repr(multipart.PART_END) == "formwire.multipart.PART_END"


def test_views_are_bytes_whatever_the_exporter() -> None:
    """Offsets are byte offsets even for a typed or 2-D buffer (viewed as flat unsigned bytes)."""
    import array

    body = form(part("a", b"hello world!"))  # 4-byte aligned length below
    body += b" " * (-len(body) % 4)
    typed = array.array("I")
    typed.frombytes(body)
    for chunk in (typed, memoryview(body).cast("B", (len(body) // 4, 4))):
        views = [e for e in multipart.Parser(B).feed(chunk) if isinstance(e, memoryview)]
        assert [bytes(v) for v in views] == [b"hello world!"]
        assert all(v.format == "B" and v.ndim == 1 for v in views)


def test_headers_as_written_keep_the_names_as_sent() -> None:
    """`Part.headers_as_written`: `(name bytes as written, value bytes)`, where `raw_headers` lowercases the name."""
    body = (
        b"--boundary\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Trace-ID: 1\r\n"
        b"cOnTeNt-TyPe : text/plain\r\n\r\nv\r\n--boundary--\r\n"
    )
    for chunks in ([body], [body[i : i + 1] for i in range(len(body))]):
        p = multipart.Parser.from_content_type(CT)
        events = [ev for c in chunks for ev in p.feed(c)] + p.close()
        (head,) = [ev for ev in events if isinstance(ev, multipart.Part)]
        assert head.headers_as_written == [
            (b"Content-Disposition", b'form-data; name="a"'),
            (b"X-Trace-ID", b"1"),
            (b"cOnTeNt-TyPe", b"text/plain"),
        ]
        assert [n for n, _ in head.raw_headers] == [b"content-disposition", b"x-trace-id", b"content-type"]
    # Bytes 80-FF as sent (`headers` shows them decoded with U+FFFD).
    odd = b"--boundary\r\nContent-Disposition: form-data; name=\"a\"\r\nX-\xc3\x98\xff: v\r\n\r\nv\r\n--boundary--\r\n"
    p = multipart.Parser.from_content_type(CT, allow_utf8_header_names=True)
    (head,) = [ev for ev in p.feed(odd) + p.close() if isinstance(ev, multipart.Part)]
    assert head.headers_as_written[1] == (b"X-\xc3\x98\xff", b"v")
    assert head.headers[1][0] == "x-\xd8\ufffd"
