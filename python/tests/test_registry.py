"""The generated registry module against spec/registry.json; ParseError.kind/http_status; signature defaults."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

import formwire
from formwire import _formwire, _registry
from formwire.errors import ParseError

REG = json.loads((Path(__file__).resolve().parents[2] / "spec" / "registry.json").read_text(encoding="utf-8"))


def test_defaults_and_codes_equal_the_registry() -> None:
    want: dict[str, dict[str, int]] = {}
    form: dict[str, dict[str, int]] = {}
    for lim in REG["limits"]:
        layer = form if lim.get("layer") == "form" else want
        layer.setdefault(lim["format"], {})[lim["name"]] = lim["default"]
    assert {k: v for k, v in _registry.DEFAULTS.items() if v} == want
    assert _registry.FORM_DEFAULTS == form
    assert form["multipart"]["max_disk_bytes"] == 10 << 30
    assert _registry.ERRORS == {e["code"]: (e["kind"], e["http_status"]) for e in REG["errors"]}


def test_native_signatures_take_the_registry_defaults() -> None:
    sig = inspect.signature(_formwire.MultipartParser)
    for name, default in _registry.DEFAULTS["multipart"].items():
        assert sig.parameters[name].default == default, name
    for name in _registry.FLAGS["multipart"]:
        assert sig.parameters[name].default is False, name
    loads = inspect.signature(_formwire.v8_loads)
    for name, default in _registry.DEFAULTS["clone"].items():
        assert loads.parameters[name].default == default, name


def test_parse_error_kind_and_http_status() -> None:
    with pytest.raises(ParseError) as limit:
        formwire.urlencoded.parse("a&b", max_pairs=1)
    assert (limit.value.code, limit.value.kind, limit.value.http_status) == ("UE_LIMIT_PAIRS", "limit", 413)
    with pytest.raises(ParseError) as bad:
        formwire.v8.loads(b"\x00")
    assert (bad.value.kind, bad.value.http_status) == ("malformed", 400)
    enc = ParseError("x", "MP_ENCODE_HEADER", 0)
    assert (enc.kind, enc.http_status) == ("encode", None)
    assert ParseError("x", "NOPE", 0).http_status is None
