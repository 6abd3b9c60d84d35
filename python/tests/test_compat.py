"""formwire.compat.python_multipart: the same callbacks, in the same order, as python-multipart."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import form, part
from python_multipart.multipart import MultipartParser as PMMultipartParser
from python_multipart.multipart import QuerystringParser as PMQuerystringParser
from python_multipart.multipart import parse_options_header as pm_parse_options_header

from formwire._formwire import parse_mime
from formwire.compat import python_multipart as shim


def record(parser_cls: Any, chunks: list[bytes], *args: Any, **kwargs: Any) -> list[tuple[Any, ...]]:
    log: list[tuple[Any, ...]] = []

    def cb(name: str, with_data: bool) -> Any:
        if with_data:
            return lambda data, start, end: log.append((name, bytes(data[start:end])))
        return lambda: log.append((name,))

    names = [
        "on_part_begin",
        "on_part_end",
        "on_header_end",
        "on_headers_finished",
        "on_end",
        "on_field_start",
        "on_field_end",
    ]
    data_names = ["on_part_data", "on_header_field", "on_header_value", "on_field_name", "on_field_data"]
    callbacks = {n: cb(n, False) for n in names} | {n: cb(n, True) for n in data_names}
    p = parser_cls(*args, callbacks=callbacks, **kwargs)
    for c in chunks:
        p.write(c)
    p.finalize()
    return merge(log)


def merge(log: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Adjacent data callbacks of one kind joined (parsers may split data differently), header names lowercased."""
    out: list[tuple[Any, ...]] = []
    for ev in log:
        if len(ev) == 2 and out and out[-1][0] == ev[0]:
            out[-1] = (ev[0], out[-1][1] + ev[1])
        else:
            out.append(ev)
    return [
        (n, d.lower()) if n == "on_header_field" else ev for ev in out for n, d in [ev + (None,) * (2 - len(ev))][:1]
    ]


BODY = form(
    part("a", b"hello"), part("f", b"\r\n--boundar\r\nxx", filename="f.txt", content_type="text/plain"), part("e", b"")
)


@pytest.mark.parametrize("size", [len(BODY), 1, 7, 64])
def test_multipart_callbacks_match(size: int) -> None:
    chunks = [BODY[i : i + size] for i in range(0, len(BODY), size)]
    ours = record(shim.MultipartParser, chunks, b"boundary")
    theirs = record(PMMultipartParser, chunks, b"boundary")
    assert ours == theirs
    assert ("on_part_data", b"\r\n--boundar\r\nxx") in ours and ours[-1] == ("on_end",)


def test_on_part_data_gets_the_written_chunk_without_a_copy() -> None:
    seen: list[Any] = []
    p = shim.MultipartParser(b"boundary", {"on_part_data": lambda d, s, e: seen.append((d, s, e))})
    p.write(BODY)
    assert all(d is BODY for d, _, _ in seen)
    z: list[Any] = []
    p = shim.MultipartParser(b"boundary", {"on_part_data": lambda d, s, e: z.append(d[s:e])}, zero_copy=True)
    p.write(BODY)
    assert all(isinstance(v, memoryview) and v.obj is BODY for v in z)


def test_querystring_callbacks_decode_like_python_multipart_for_plain_input() -> None:
    from urllib.parse import unquote_plus

    data = b"a=1&b=%C3%A9+x&&c=&d=%25"

    def decoded(cls: Any) -> list[tuple[str, str]]:
        pairs: list[tuple[str, str]] = []
        cur: dict[str, bytes] = {}
        p = cls(
            {
                "on_field_start": lambda: cur.clear(),
                "on_field_name": lambda d, s, e: cur.__setitem__("n", cur.get("n", b"") + d[s:e]),
                "on_field_data": lambda d, s, e: cur.__setitem__("v", cur.get("v", b"") + d[s:e]),
                "on_field_end": lambda: pairs.append(
                    (
                        unquote_plus(cur.get("n", b"").decode("latin-1")),
                        unquote_plus(cur.get("v", b"").decode("latin-1")),
                    )
                ),
            }
        )
        for i in range(0, len(data), 3):
            p.write(data[i : i + 3])
        p.finalize()
        return pairs

    assert (
        decoded(shim.QuerystringParser)
        == decoded(PMQuerystringParser)
        == [("a", "1"), ("b", "é x"), ("c", ""), ("d", "%")]
    )


def test_querystring_gives_whatwg_results_where_the_old_reading_differs() -> None:
    """A raw UTF-8 byte next to a percent escape: WHATWG decodes bytes first (UE-P-08)."""
    from urllib.parse import unquote_plus

    got: list[bytes] = []
    p = shim.QuerystringParser({"on_field_data": lambda d, s, e: got.append(d[s:e])})
    p.write("v=\u00e9%C3%A9".encode())
    p.finalize()
    assert unquote_plus(b"".join(got).decode("latin-1")) == "éé"


def test_parse_options_header() -> None:
    assert shim.parse_options_header('form-data; name="a"; filename="x.txt"') == (
        b"form-data",
        {b"name": b"a", b"filename": b"x.txt"},
    )
    assert pm_parse_options_header('form-data; name="a"; filename="x.txt"') == (
        b"form-data",
        {b"name": b"a", b"filename": b"x.txt"},
    )
    # python-multipart's IE6 workaround: a Windows directory prefix is stripped from a filename, in any header
    assert shim.parse_options_header(b'form-data; name="f"; filename="C:\\dir\\a.txt"')[1][b"filename"] == b"a.txt"
    assert shim.parse_options_header(b'text/plain; filename="C:\\this\\is\\a\\path\\file.txt"')[1] == {
        b"filename": b"file.txt"
    }
    # formwire reads a filename's backslashes literally (MP-H-07), so a UNC path as IE sends it is stripped;
    # python-multipart first unescapes its two leading backslashes into one and then keeps the whole path
    unc = b'form-data; name="f"; filename="\\\\srv\\share\\a.txt"'
    assert shim.parse_options_header(unc)[1][b"filename"] == b"a.txt"
    # a backslash anywhere else is an ordinary byte (MP-H-07)
    assert shim.parse_options_header(b'form-data; name="f"; filename="dir\\a.txt"')[1][b"filename"] == b"dir\\a.txt"
    ct, params = shim.parse_options_header("Multipart/Form-Data; Boundary=\"a b\"; charset=utf-8")
    assert ct == b"multipart/form-data" and params == {b"boundary": b"a b", b"charset": b"utf-8"}
    assert shim.parse_options_header(None) == (b"", {})
    assert shim.parse_options_header(b"multipart/form-data; boundary=b\xe9")[1][b"boundary"] == "bé".encode()  # MP-B-02
    # a disposition MP-H-07 rejects (formwire's parser rejects the part) is read as python-multipart reads it
    assert shim.parse_options_header('form-data; name="a"; name="b"') == (b"form-data", {b"name": b"b"})


@pytest.mark.parametrize(
    "value",
    [
        b"application/json;\t par \t=\t val\t",  # SP/HT around a parameter and its '=' trimmed
        b"form-data; name=voil\xc3\xa0",  # a value MP-H-07 rejects (non-token, unquoted): the bytes as sent
        b'application/x-www-form-urlencoded; !="' + b"\\" * 301,  # an unterminated quote: the raw value
        b'text/plain; a="x;y"; b=\\"; c=1; A=2',  # ';' inside quotes, an escaped quote, a later name wins
        b"text/plain; charset*=utf-8''x; q",  # RFC 2231 names left out; a parameter without '='
        b'form-data; name="a"; extra=1; filename*=utf-8\'\'b',  # parameters besides name and filename kept
        b"Text/Plain",
        b"not a mime type; x=1",
        # IE6 paths: a drive or UNC prefix is stripped, quoted or not, literal or with quoted-pairs
        b'form-data; name="f"; filename="C:\\dir\\a.txt"',
        b'form-data; name="f"; filename="C:\\\\dir\\\\a.txt"',
        b"form-data; name=f; filename=C:\\a.txt",
        b'form-data; name="f"; filename="\\\\\\\\srv\\share\\a.txt"',
        b'form-data; name="f"; filename="c:\\"',
        b'form-data; name="f"; filename="\xe9:\\d\\a.txt"',
        b'form-data; name="f"; filename="\\a.txt"',
        b'form-data; name="f"; filename="C:/dir/a.txt"',
        b'text/plain; filename="C:\\this\\is\\a\\path\\file.txt"',
        b'text/plain; filename="\\\\x"; name="C:\\y"',
    ],
)
def test_parse_options_header_reads_parameters_as_python_multipart(value: bytes) -> None:
    assert shim.parse_options_header(value) == pm_parse_options_header(value)
    assert shim.parse_options_header(value.decode("latin-1")) == pm_parse_options_header(value.decode("latin-1"))


def test_parse_options_header_random_parameters_as_python_multipart() -> None:
    """Everything but the boundary (MP-B-02) reads the same, IE path stripping included."""
    import random

    rng = random.Random(7)
    atoms = ["a", "N", ";", '"', "\\", "=", " ", "\t", "*", "\xa0", "\xe9", "name", "form-data", "text/plain", "x;y"]
    atoms += ["filename=", "C:", ":"]
    for _ in range(20000):
        value = "".join(rng.choice(atoms) for _ in range(rng.randint(0, 12)))
        assert shim.parse_options_header(value) == pm_parse_options_header(value), value


@pytest.mark.parametrize(
    "value",
    [
        "multipart/form-data; boundary=----WebKitFormBoundaryABCDEFGHabcdefgh",  # the fast path
        "multipart/form-data; boundary=a'()+_,-./:=?!#$%&*~^`{|}<>[]@\\",  # every plain character
        "multipart/form-data; boundary=x ",
        "multipart/form-data; boundary=x\t",
        "multipart/form-data; boundary=\"x\"",
        "multipart/form-data; boundary=x;charset=latin-1",
        "multipart/form-data; boundary=",
        "multipart/form-data; boundary=é",
        "multipart/form-data; boundary=x\x7f",
        "multipart/form-data; boundary=x; boundary=y",
        "Multipart/form-data; boundary=x",
    ],
)
def test_parse_options_header_fast_path_is_the_parse(value: str) -> None:
    """The request Content-Type fast path gives what the WHATWG MIME type parse gives (it is only taken when the
    boundary is plain printable ASCII to the end)."""
    raw = value.encode("latin-1")
    m = parse_mime(raw)
    slow = (b"", {}) if m is None else (f"{m[0]}/{m[1]}".encode(), {k.encode(): v.encode() for k, v in m[2]})
    assert shim.parse_options_header(value) == slow
    assert shim.parse_options_header(raw) == slow  # bytes never take the fast path


def test_header_names_as_written_at_every_split() -> None:
    """python-multipart passes header names as they were written (the core reports them lowercased, MP-H-11): the
    shim takes them from the header block, whole or split anywhere, the first part and the later ones, a part
    without headers (allow_missing_disposition, on in the shim) included."""
    body = (
        b'--boundary\r\nCONTENT-Disposition: form-data; name="a"\r\nX-Empty:\r\n\r\nfirst\r\n'
        b"--boundary\r\n\r\nsecond\r\n"
        b'--boundary\r\ncontent-disposition: form-data; name="b"\r\nX-Mixed-Case:v\r\n\r\n\r\n--boundary--\r\n'
    )

    def names(parser_cls: Any, chunks: list[bytes]) -> list[bytes]:
        out: list[bytes] = []
        p = parser_cls(b"boundary", {"on_header_field": lambda d, s, e: out.append(bytes(d[s:e]))})
        for c in chunks:
            p.write(c)
        p.finalize()
        return out

    want = names(PMMultipartParser, [body])
    assert want == [b"CONTENT-Disposition", b"X-Empty", b"content-disposition", b"X-Mixed-Case"]
    for cut in range(len(body) + 1):
        assert names(shim.MultipartParser, [body[:cut], body[cut:]]) == want, cut
    assert names(shim.MultipartParser, [body[i : i + 1] for i in range(len(body))]) == want
