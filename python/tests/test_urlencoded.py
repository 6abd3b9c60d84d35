"""urlencoded through the Python API (spec/urlencoded.md)."""

from __future__ import annotations

import pytest

import formwire
from formwire import urlencoded


def test_whatwg_parse_rules() -> None:
    assert urlencoded.parse("a=1;b=2") == [("a", "1;b=2")]  # UE-P-02
    assert urlencoded.parse("&&&a=b&&&&c=d&") == [("a", "b"), ("c", "d")]  # UE-P-03
    assert urlencoded.parse("a==b&c") == [("a", "=b"), ("c", "")]  # UE-P-04
    assert urlencoded.parse(" a = b ") == [(" a ", " b ")]  # UE-P-05
    assert urlencoded.parse("a+b=c%2Bd&%+41") == [("a b", "c+d"), ("% 41", "")]  # UE-P-06
    assert urlencoded.parse("x=%&y=%4&z=%zz&w=%%41&v=%2541") == [
        ("x", "%"),
        ("y", "%4"),
        ("z", "%zz"),
        ("w", "%A"),
        ("v", "%41"),
    ]
    assert urlencoded.parse(b"a=\xc3%A9&b=%C3\xa9&c=%C0%AF") == [
        ("a", "é"),
        ("b", "é"),
        ("c", "\ufffd\ufffd"),
    ]  # UE-P-08
    assert urlencoded.parse("%EF%BB%BFx=\ufeff") == [("\ufeffx", "\ufeff")]
    assert urlencoded.parse("?a=b") == [("?a", "b")]  # UE-P-09


def test_str_and_bytes_inputs_agree() -> None:
    """UE-P-01: a str is parsed as its UTF-8 encoding; every bytes-like works."""
    s = "é=ü&x=%E2%82%AC"
    assert urlencoded.parse(s) == urlencoded.parse(s.encode()) == urlencoded.parse(bytearray(s.encode()))
    assert urlencoded.parse(memoryview(s.encode())) == [("é", "ü"), ("x", "€")]


def test_streaming_gives_the_same_pairs_for_every_split() -> None:
    data = b"a=%C3%A9&&b%3D=1+2&c&%E2%82%AC=%F0%9F%98%80"
    want = urlencoded.parse(data)
    for i in range(len(data) + 1):
        for j in range(i, len(data) + 1):
            p = urlencoded.Parser()
            got = p.feed(data[:i]) + p.feed(data[i:j]) + p.feed(data[j:]) + p.close()
            assert got == want, (i, j)


def test_serialize() -> None:
    assert urlencoded.serialize([("a b", "é&=*"), ("~!'()", "+%")]) == "a+b=%C3%A9%26%3D*&%7E%21%27%28%29=%2B%25"
    assert urlencoded.serialize({"a": "", "": "b"}) == "a=&=b"
    assert urlencoded.serialize([]) == ""
    assert urlencoded.serialize([("\n", "\r\n")]) == "%0A=%0D%0A"  # UE-S-05: no newline normalization


def test_serialize_lone_surrogates_become_replacement() -> None:
    """UE-S-01: every code point U+D800..U+DFFF of a Python str is U+FFFD (one each, pairs included)."""
    assert urlencoded.serialize([("a\ud800b", "\udc00")]) == "a%EF%BF%BDb=%EF%BF%BD"
    assert urlencoded.serialize([("x", "\ud83d\ude00")]) == "x=%EF%BF%BD%EF%BF%BD"
    assert urlencoded.serialize([("x", "😀")]) == "x=%F0%9F%98%80"


def test_round_trip() -> None:
    pairs = [("a", "1"), ("é €", "😀 +%&="), ("", ""), ("a", "dup")]
    assert urlencoded.parse(urlencoded.serialize(pairs)) == pairs


def test_limits() -> None:
    with pytest.raises(formwire.UrlencodedError) as e:
        urlencoded.parse("a&&b&c", max_pairs=2)
    assert (e.value.code, e.value.offset) == ("UE_LIMIT_PAIRS", 5)  # UE-L-02
    assert urlencoded.parse("a&b&&&", max_pairs=2) == [("a", ""), ("b", "")]
    with pytest.raises(formwire.UrlencodedError) as e:
        urlencoded.parse("abcdef", max_bytes=4)
    assert (e.value.code, e.value.offset) == ("UE_LIMIT_BYTES", 4)  # UE-L-01
    with pytest.raises(formwire.UrlencodedError) as e:  # UE-L-03: pairs first when earlier
        urlencoded.parse("a&b&c", max_pairs=1, max_bytes=3)
    assert (e.value.code, e.value.offset) == ("UE_LIMIT_PAIRS", 2)
    assert len(urlencoded.parse("a&" * 20000, max_pairs=None)) == 20000


def test_default_limits_apply() -> None:
    """UE-L-01/02 defaults, checked once here (the shared vectors use small explicit limits)."""
    big = b"a" * 10485761
    with pytest.raises(formwire.UrlencodedError) as e:
        urlencoded.parse(big)
    assert (e.value.code, e.value.offset) == ("UE_LIMIT_BYTES", 10485760)
    assert urlencoded.parse(big[:-1]) == [("a" * 10485760, "")]
    with pytest.raises(formwire.UrlencodedError) as e:
        urlencoded.parse("a&" * 10001)
    assert (e.value.code, e.value.offset) == ("UE_LIMIT_PAIRS", 20000)
    p = urlencoded.Parser()
    with pytest.raises(formwire.UrlencodedError):
        p.feed(big)
    with pytest.raises(formwire.UrlencodedError):  # UE-L-05: an error ends the parse
        p.close()


def test_parse_dict_and_type_errors() -> None:
    assert urlencoded.parse_dict("a=1&a=2&b=3") == {"a": "2", "b": "3"}
    with pytest.raises(TypeError):
        urlencoded.parse(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        urlencoded.serialize([("a", 1)])  # type: ignore[list-item]
