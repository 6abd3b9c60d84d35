"""Each adapter accepts what its incumbent accepts (issue #17): python-multipart, Werkzeug and Starlette themselves
against formwire's adapters on the same bytes, for every case of python/compat/probe.py (spec/multipart.md §8, every
lenient vector, the inputs of python/compat/expected-failures.json). The adapters get there through the core's named
lenient options only; where they still differ, ``DIFFERENT`` says why, and the README's leniency table says the same.
A difference that goes away must leave ``DIFFERENT`` too (the list only shrinks)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "compat"))

import probe  # noqa: E402

PM_FORM = "python-multipart FormParser"
PM_BARE = "python-multipart MultipartParser"
WZ = "werkzeug"
ST = "starlette"

# Reasons, one per rule formwire keeps where the incumbent reads on (or, the last ones, where formwire reads on).
TRUNCATED = "MP-P-07: a body that ends before its close delimiter is MP_TRUNCATED; the incumbent returns what it read"
CLOSE_DASH = (
    "MP-P-07: with allow_near_delimiters '--B-x' inside a body is data, so a body whose last delimiter is '--B-x' "
    "ends unfinished (MP_TRUNCATED); python-multipart stops at '--B-' and returns no part, no error"
)
ALMOST = (
    "MP-P-03/MP-P-04: CRLF--B then LF is a delimiter whose line ends at a bare LF, MP_DELIMITER without allow_lf "
    "(allow_near_delimiters covers '-' and CR only; python-multipart rejects bare-LF line ends elsewhere); "
    "python-multipart reads --B LF as body data"
)
GRAMMAR = (
    "MP-H-07/MP-H-08: a Content-Disposition value outside the grammar (a second name, junk after a quoted-string, a "
    "non-token type, a separator such as A0) is MP_DISPOSITION; the incumbent takes what it can"
)
NO_NAME_BARE = (
    "MP-H-07: a present Content-Disposition needs a name (allow_missing_disposition covers only a missing or empty "
    "one); python-multipart's MultipartParser reads no header (its FormParser rejects the part too)"
)
NAMELESS_WZ = (
    "MP-H-06/MP-H-07: a Content-Disposition without a name (empty, or form-data alone) is MP_DISPOSITION; Werkzeug "
    "files the part under the key None (allow_missing_disposition would also accept a part without any "
    "Content-Disposition, which Werkzeug rejects)"
)
DUP_DISPOSITION = "MP-H-06: a second Content-Disposition is MP_DISPOSITION; the incumbent keeps one of the two"
HEADER_LINES = (
    "MP-H-01/MP-H-02/MP-H-03: a header line must be a token name, a colon and a value; Werkzeug keeps any line up to "
    "the first blank line (no colon, CTLs or SP in the name, even a delimiter line)"
)
BARE_LF = "MP-H-02: a bare LF inside a header line is MP_HEADER_VALUE; python-multipart reads on"
PADDING = "MP-P-03: padding after a delimiter is accepted (WPT); python-multipart rejects it"
CT_BOUNDARY = "MP-B-02: the Content-Type's first boundary parameter wins (WHATWG MIME); python-multipart takes the last"
LEADING_SPACE = "MP-H-01: OWS before the first header name is skipped (WPT); python-multipart rejects it"
UTF8_UNCHECKED = (
    "MP-H-01: allow_utf8_header_names takes bytes 80-FF without UTF-8 validation; Werkzeug's decode fails (an empty "
    "form when silent)"
)
PARAM_UNCHECKED = (
    "MP-H-07: allow_8bit_parameter_names takes bytes 80-FF in a parameter name without UTF-8 validation; Werkzeug's "
    "decode of the header line fails (an empty form when silent)"
)
NEAR_FIRST = (
    "MP-P-02/MP-P-03: allow_near_delimiters is for delimiters inside a body; a first delimiter line '--B-x' is "
    "MP_DELIMITER; Werkzeug skips it as a preamble and reads the rest"
)
NEAR_PADDING = (
    "MP-P-03: padding then a byte other than CR after a delimiter inside a body is MP_DELIMITER "
    "(allow_near_delimiters covers '-' and CR only); Werkzeug reads it as body data"
)
RFC2231_DUPLICATE = (
    "MP-H-09: two continuations with the same N are MP_DISPOSITION (after a gap or beside a filename too); "
    "Werkzeug joins both"
)
RFC2231_NO_CHARSET = (
    "MP-H-09: a filename*0* value without charset'language' (two \"'\") is MP_DISPOSITION; Werkzeug keeps it raw"
)

ALL = (PM_FORM, PM_BARE, WZ, ST)
PM_ST = (PM_FORM, PM_BARE, ST)

#: (pair, case) -> why the adapter's verdict (accepts / rejects) differs from its incumbent's, with every option of
#: the README's leniency table set; every entry is a rule formwire keeps by design (no named option reads on).
DIFFERENT: dict[tuple[str, str], str] = {}
for _pairs_, _case, _why in [
    (PM_ST, "wpt-formdata-parse-fail-no-close-delimiter", TRUNCATED),
    (PM_ST, "mp-lenient-lf-body-end", TRUNCATED),
    (PM_ST, "mp-lenient-junk-after-close-ends-at-delimiter", TRUNCATED),
    (PM_ST, "mp-lenient-cr-truncated-after-delimiter-cr", TRUNCATED),
    (PM_ST, "mp-lenient-near-cr-at-end", TRUNCATED),
    (PM_ST, "mp-lenient-near-dash-at-end", TRUNCATED),
    (PM_ST, "mp-lenient-junk-after-close-dash-junk", CLOSE_DASH),
    (PM_ST, "mp-lenient-cr-dash-junk", CLOSE_DASH),
    (PM_ST, "mp-lenient-lf-delimiter-line", ALMOST),
    ((WZ,), "mp-lenient-near-first-delimiter", NEAR_FIRST),
    ((WZ,), "mp-lenient-near-padding-junk", NEAR_PADDING),
    (ALL, "cve-2026-53537-duplicate-name", GRAMMAR),
    (ALL, "cve-fastify-busboy-filename-junk-after-quote", GRAMMAR),
    (ALL, "mp-lenient-any-type-duplicate-name", GRAMMAR),
    (ALL, "mp-lenient-any-type-non-token-empty", GRAMMAR),
    (ALL, "mp-lenient-any-type-non-token-quoted", GRAMMAR),
    (ALL, "mp-lenient-any-type-non-token-slash", GRAMMAR),
    (ALL, "mp-lenient-any-type-non-token-space", GRAMMAR),
    (ALL, "mp-lenient-quoted-pairs-both-fail", GRAMMAR),
    (ALL, "mp-lenient-8bit-param-name-ascii-non-token", GRAMMAR),
    (PM_ST, "mp-lenient-8bit-param-name-bad-value", GRAMMAR),
    (PM_ST, "mp-lenient-8bit-param-name-type", GRAMMAR),
    ((WZ,), "mp-lenient-rfc2231-duplicate", RFC2231_DUPLICATE),
    ((WZ,), "mp-lenient-rfc2231-duplicate-after-gap", RFC2231_DUPLICATE),
    ((WZ,), "mp-lenient-rfc2231-duplicate-beside-filename", RFC2231_DUPLICATE),
    ((WZ,), "mp-lenient-rfc2231-no-charset", RFC2231_NO_CHARSET),
    ((PM_BARE,), "mp-lenient-any-type-no-name", NO_NAME_BARE),
    ((PM_BARE,), "mp-lenient-missing-disposition-no-name-param", NO_NAME_BARE),
    ((PM_BARE,), "x-form-data-without-name", NO_NAME_BARE),
    ((PM_BARE,), "mp-lenient-8bit-param-name-no-name", NO_NAME_BARE),
    ((WZ,), "mp-lenient-any-type-no-name", NAMELESS_WZ),
    ((WZ,), "mp-lenient-missing-disposition-no-name-param", NAMELESS_WZ),
    ((WZ,), "x-form-data-without-name", NAMELESS_WZ),
    ((WZ,), "mp-lenient-missing-disposition-empty-value", NAMELESS_WZ),
    ((WZ,), "mp-lenient-missing-disposition-empty-both", NAMELESS_WZ),
    ((WZ,), "mp-lenient-missing-disposition-empty-value-ows", NAMELESS_WZ),
    ((WZ,), "mp-lenient-missing-disposition-obs-fold-empty", NAMELESS_WZ),
    (ALL, "mp-diff-duplicate-disposition", DUP_DISPOSITION),
    (ALL, "mp-lenient-missing-disposition-empty-then-named", DUP_DISPOSITION),
    ((PM_BARE, WZ), "mp-lenient-missing-disposition-named-then-empty", DUP_DISPOSITION),
    ((WZ,), "mp-lenient-obs-fold-duplicate-disposition", DUP_DISPOSITION),
    ((WZ,), "mp-diff-no-empty-line-before-delimiter", HEADER_LINES),
    ((WZ,), "mp-lenient-preamble-lf-needs-allow-lf", HEADER_LINES),
    ((WZ,), "mp-lenient-preamble-lf-with-allow-lf", HEADER_LINES),
    ((WZ,), "mp-lenient-utf8-header-name-ctl", HEADER_LINES),
    ((WZ,), "mp-lenient-utf8-header-name-non-token-ascii", HEADER_LINES),
    ((WZ,), "mp-lenient-utf8-header-name-space-inside", HEADER_LINES),
    ((WZ,), "mp-lenient-missing-disposition-max-parts", HEADER_LINES),
    ((WZ,), "cve-fastify-busboy-bare-lf-in-header", HEADER_LINES),
    ((WZ,), "mp-lenient-cr-in-name-still-fails", HEADER_LINES),
    ((WZ,), "mp-lenient-lf-bare-cr-still-rejected", HEADER_LINES),
    (PM_ST, "cve-fastify-busboy-bare-lf-in-header", BARE_LF),
    (PM_ST, "wpt-formdata-parse-padding-after-delimiter", PADDING),
    (PM_ST, "mp-ct-two-boundary-params-first-wins", CT_BOUNDARY),
    (PM_ST, "mp-ct-two-boundary-params-second-ignored", CT_BOUNDARY),
    (PM_ST, "cve-2022-24434-leading-space", LEADING_SPACE),
    ((WZ,), "mp-lenient-utf8-header-name-invalid-utf8", UTF8_UNCHECKED),
    ((WZ,), "mp-lenient-8bit-param-name-not-name", PARAM_UNCHECKED),
    ((WZ,), "mp-lenient-8bit-param-name-python-multipart", PARAM_UNCHECKED),
    ((WZ,), "mp-lenient-newer-flags-together", PARAM_UNCHECKED),
    ((WZ,), "x-nbsp-before-parameter", PARAM_UNCHECKED),
]:
    for _pair in _pairs_:
        DIFFERENT[(_pair, _case)] = _why


STAR = "MP-H-09: name and filename come from name= and filename=; name*/filename* are only reported (CVE-2026-53537)"
BACKSLASH = (
    "MP-H-07: quoted-pairs only where the literal reading fails, so '\\\\' stays two backslashes (allow_quoted_pairs "
    "reads them, on for Werkzeug only); a UNC path as IE sends it ('\\\\srv\\a') is then a UNC path, which the "
    "adapters strip as python-multipart does, where python-multipart reads '\\srv\\a' and keeps it"
)
#: (pair, case) -> why both accept the input but read other entries from it.
READING: dict[tuple[str, str], str] = {}
for _pairs_, _case, _why in [
    ((WZ,), "cve-2026-53537-filename-star", STAR),
    ((WZ,), "cve-2026-53537-name-star", STAR),
    ((WZ,), "cve-2026-53537-filename-star-only", STAR),
    ((WZ,), "wpt-formdata-parse-percent-name-not-decoded", "MP-H-10: names are not percent-decoded (WPT)"),
    ((WZ,), "mp-cd-trailing-backslash", "MP-H-07: filename=\"a\\\" is read literally (a\\); Werkzeug drops it"),
    ((WZ,), "mp-lenient-quoted-pairs-literal-fallback", "MP-H-07: the literal reading where quoted-pairs fail"),
    ((WZ,), "mp-diff-body-starts-with-boundary", "MP-P-06: a body that starts with --B is data; Werkzeug splits there"),
    (
        (WZ,),
        "mp-lenient-cr-lf-crlf-mixed",
        "MP-H-03: with allow_cr and allow_lf, LF then CRLF ends the header block; Werkzeug's blank line is CRLF CRLF, "
        "CR CR or LF LF, so it reads on into the next part",
    ),
    (
        (WZ,),
        "mp-lenient-rfc2231-bad-percent",
        "MP-H-09: a bad '%' stays and the rest is decoded; Werkzeug decodes none",
    ),
    ((WZ,), "mp-lenient-rfc2231-case", "MP-H-09: every *N* segment is decoded; Werkzeug only after a *0* one"),
    ((WZ,), "mp-lenient-rfc2231-filename-wins", "MP-H-09: filename wins over continuations; Werkzeug's *1 replaces it"),
    (
        (WZ,),
        "mp-lenient-rfc2231-no-charset-beside-filename",
        "MP-H-09: filename wins, a filename*0* beside it is not read; Werkzeug's replaces it",
    ),
    ((WZ,), "mp-lenient-rfc2231-gap", "MP-H-09: joined in N order up to a gap; Werkzeug joins in written order"),
    ((WZ,), "mp-lenient-rfc2231-latin1-as-utf8", "MP-H-10: a filename is UTF-8 whatever the charset; Werkzeug uses it"),
    ((WZ,), "mp-lenient-rfc2231-leading-zero", "MP-H-09: N has no leading zero (*01 is no segment); Werkzeug joins it"),
    ((WZ,), "mp-lenient-rfc2231-name-not-joined", "MP-H-08: continuations of name are not joined; Werkzeug joins them"),
    ((WZ,), "mp-lenient-rfc2231-no-zero", "MP-H-09: without filename*0 nothing is joined; Werkzeug joins from *1"),
    ((PM_FORM, ST), "mp-cd-backslash-literal", BACKSLASH),
    ((PM_FORM, ST), "mp-lenient-quoted-pairs-backslash", BACKSLASH),
    ((PM_FORM, ST), "x-ie6-unc-path", BACKSLASH),
]:
    for _pair in _pairs_:
        READING[(_pair, _case)] = _why


def _cases() -> list[str]:
    return probe.case_ids()


_PAIRS: dict[str, Any] = {}


def _pairs() -> dict[str, Any]:
    if not _PAIRS:
        _PAIRS.update(probe.pairs())
    return _PAIRS


@pytest.fixture(autouse=True, scope="module")
def _quiet() -> Any:
    import logging

    logging.disable(logging.CRITICAL)  # python-multipart logs each error it raises
    yield
    logging.disable(logging.NOTSET)


@pytest.mark.parametrize("pair", [PM_FORM, PM_BARE, WZ, ST])
def test_adapter_accepts_what_its_incumbent_accepts(pair: str) -> None:
    incumbent, adapter = _pairs()[pair]
    wrong: list[str] = []
    for case in _cases():
        ct, body = probe.load_case(case)  # type: ignore[misc]
        a, b = incumbent(ct, body), adapter(ct, body)
        known = (pair, case) in DIFFERENT
        if (a[0] != b[0]) != known:
            state = "now agree, remove from DIFFERENT" if known else "differ"
            wrong.append(f"{case}: {state}: incumbent {a[0]} {str(a[1])[:80]} / formwire {b[0]} {str(b[1])[:80]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("pair", [PM_FORM, PM_BARE, WZ, ST])
def test_what_both_accept_reads_the_same(pair: str) -> None:
    """Names, filenames and bodies of every case both accept (the four new options' vectors among them), except
    the readings formwire keeps by design (``READING``)."""
    incumbent, adapter = _pairs()[pair]
    wrong: list[str] = []
    for case in _cases():
        ct, body = probe.load_case(case)  # type: ignore[misc]
        a, b = incumbent(ct, body), adapter(ct, body)
        if a[0] == b[0] == "ok" and (a[1] != b[1]) != ((pair, case) in READING):
            wrong.append(f"{case}: incumbent {str(a[1])[:100]} / formwire {str(b[1])[:100]}")
    assert not wrong, "\n".join(wrong)


def test_every_known_difference_is_a_case() -> None:
    cases = set(_cases())
    assert {c for _, c in DIFFERENT} | {c for _, c in READING} <= cases
