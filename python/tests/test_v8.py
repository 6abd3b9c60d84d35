"""formwire.v8: round trips (lone surrogates, -0, identity) and interop with Node's v8 module, both ways."""

from __future__ import annotations

import datetime as dt
import json
import math
import shutil
import subprocess

import pytest

import formwire
from formwire import v8

NODE = shutil.which("node")


def rt(x):  # type: ignore[no-untyped-def]
    return v8.loads(v8.dumps(x))


def test_primitives_round_trip() -> None:
    for x in [None, True, False, 0, 1, -1, 2**31, 2**53 - 1, -(2**53 - 1), 1.5, "", "abc", "é", "€😀", "\x00"]:
        y = rt(x)
        assert y == x and type(y) is type(x), x
    assert rt(v8.undefined) is v8.undefined


def test_negative_zero_nan_and_infinities() -> None:
    z = rt(-0.0)
    assert isinstance(z, float) and z == 0 and math.copysign(1, z) == -1
    assert math.isnan(rt(float("nan"))) and rt(float("inf")) == float("inf") and rt(-float("inf")) == -float("inf")
    assert rt(3.0) == 3 and type(rt(3.0)) is int  # JS has one number type: integral values read as int


def test_lone_surrogates_survive() -> None:
    for s in ["\ud800", "a\udfffb", "\udc00\ud800", "\ud83d\ude00", "x\ud83dy"]:
        assert rt(s) == s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    assert rt({"\ud800": "\udfff"}) == {"\ud800": "\udfff"}


def test_bigints() -> None:
    for x in [2**53, -(2**53), 2**200, -(2**64) + 1]:
        y = rt(x)
        assert y == x and isinstance(y, v8.JSBigInt)
    assert rt(v8.JSBigInt(5)) == 5 and isinstance(rt(v8.JSBigInt(5)), v8.JSBigInt)
    assert rt(v8.JSBigInt(0)) == 0


def test_containers_and_identity() -> None:
    shared = {"k": 1}
    data = {
        "list": [1, "two", None],
        "a": shared,
        "b": shared,
        "map": v8.JSMap({1: "x", "y": 2}),
        "set": {1, "s"},
        "bytes": b"\x00\xff",
        "buf": bytearray(b"ab"),
        "tuple": (1, 2),
    }
    out = rt(data)
    assert out["list"] == [1, "two", None] and out["a"] == {"k": 1} and out["a"] is out["b"]
    assert isinstance(out["map"], v8.JSMap) and out["map"] == {1: "x", "y": 2}
    assert out["set"] == {1, "s"} and out["bytes"] == b"\x00\xff" and out["buf"] == bytearray(b"ab")
    assert out["tuple"] == [1, 2]
    assert rt({1: "a"}) == v8.JSMap({1: "a"})  # a non-str key makes a Map


def test_cycles() -> None:
    a: list = [1]  # type: ignore[type-arg]
    a.append(a)
    b = rt(a)
    assert b[0] == 1 and b[1] is b
    d: dict = {}  # type: ignore[type-arg]
    d["self"] = d
    e = rt(d)
    assert e["self"] is e


def test_other_js_types() -> None:
    when = dt.datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=dt.timezone.utc)
    assert rt(when) == when
    assert rt(v8.JSDate(float("nan"))) == v8.JSDate(float("nan"))
    assert rt(v8.JSRegExp("a+b", "gi")) == v8.JSRegExp("a+b", "gi")
    assert rt(v8.JSBoxed("s")) == v8.JSBoxed("s") and rt(v8.JSBoxed(1.5)) == v8.JSBoxed(1.5)
    assert rt(v8.JSView("Float64Array", b"\x00" * 16)) == v8.JSView("Float64Array", b"\x00" * 16)
    sparse = v8.JSArray(5, {1: "x"}, {"extra": True})
    assert rt(sparse) == sparse
    err = v8.JSError.with_cause("TypeError", "bad", "stack here", {"why": 1})
    back = rt(err)
    assert isinstance(back, v8.JSError) and back == err and back.cause == {"why": 1}


def test_errors() -> None:
    with pytest.raises(formwire.V8Error) as e:
        v8.dumps(object())
    assert e.value.code == "SC_DATA_CLONE" and isinstance(e.value, ValueError)
    with pytest.raises(formwire.V8Error) as e:
        v8.loads(b"\xff\x0f")
    assert (e.value.code, e.value.offset) == ("SC_TRUNCATED", 2)
    with pytest.raises(formwire.V8Error) as e:
        v8.loads(b"\x00")
    assert e.value.code == "SC_VERSION"
    deep: list = []  # type: ignore[type-arg]
    cur = deep
    for _ in range(1100):
        nxt: list = []  # type: ignore[type-arg]
        cur.append(nxt)
        cur = nxt
    with pytest.raises(formwire.V8Error) as e:
        v8.dumps(deep)
    assert e.value.code == "SC_LIMIT_DEPTH"
    assert len(v8.dumps(deep, max_depth=2000)) > 1100


SCRIPT_CHECK = r"""
const v8 = require('v8');
const b = Buffer.from(process.argv[1], 'hex');
const v = v8.deserialize(b);
const lone = v.lone;
const out = {
  neg_zero: Object.is(v.neg_zero, -0),
  lone_units: Array.from(lone, c => c.charCodeAt(0)),
  big: typeof v.big === 'bigint' ? v.big.toString() : null,
  bytes: v.bytes instanceof Uint8Array ? Array.from(v.bytes) : null,
  map: v.map instanceof Map ? Array.from(v.map.entries()) : null,
  same: v.a === v.b,
  date: v.date instanceof Date ? v.date.getTime() : null,
  undef: v.undef === undefined && 'undef' in v,
  nan: Number.isNaN(v.nan),
};
process.stdout.write(JSON.stringify(out));
"""

SCRIPT_MAKE = r"""
const v8 = require('v8');
const shared = {k: 1};
const v = {s: 'a\ud800b', z: -0, n: 1.5, i: 42, big: 123456789012345678901234567890n,
           arr: [1, , 3], buf: Buffer.from([1, 2, 3]), u8: new Uint8Array([9, 8]),
           f64: new Float64Array([0.5]), m: new Map([[1, 'one']]), set: new Set(['x']),
           a: shared, b: shared, d: new Date(86400000), re: /ab+c/gi, err: new RangeError('boom'),
           nul: null, u: undefined, t: true};
process.stdout.write(v8.serialize(v).toString('hex'));
"""


@pytest.mark.skipif(
    NODE is None, reason="node is not installed (the repository's setup requires it; this guards odd runs)"
)
def test_node_reads_what_python_writes() -> None:
    shared = {"x": 1}
    data = {
        "neg_zero": -0.0,
        "lone": "\ud800x\udc00",
        "big": 2**70,
        "bytes": b"\x01\x02",
        "map": v8.JSMap({1: "a"}),
        "a": shared,
        "b": shared,
        "date": dt.datetime(1970, 1, 2, tzinfo=dt.timezone.utc),
        "undef": v8.undefined,
        "nan": float("nan"),
    }
    out = subprocess.run([NODE, "-e", SCRIPT_CHECK, v8.dumps(data).hex()], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got == {
        "neg_zero": True,
        "lone_units": [0xD800, ord("x"), 0xDC00],
        "big": str(2**70),
        "bytes": [1, 2],
        "map": [[1, "a"]],
        "same": True,
        "date": 86400000,
        "undef": True,
        "nan": True,
    }


@pytest.mark.skipif(
    NODE is None, reason="node is not installed (the repository's setup requires it; this guards odd runs)"
)
def test_python_reads_what_node_writes() -> None:
    out = subprocess.run([NODE, "-e", SCRIPT_MAKE], capture_output=True, text=True, check=True)
    v = v8.loads(bytes.fromhex(out.stdout))
    assert v["s"] == "a\ud800b" and math.copysign(1, v["z"]) == -1 and v["n"] == 1.5 and v["i"] == 42
    assert v["big"] == 123456789012345678901234567890 and isinstance(v["big"], v8.JSBigInt)
    assert v["arr"] == v8.JSArray(3, {0: 1, 2: 3})
    assert v["buf"] == b"\x01\x02\x03" and v["u8"] == b"\x09\x08"
    assert v["f64"] == v8.JSView("Float64Array", (0.5).hex() and bytes.fromhex("000000000000e03f"))
    assert v["m"] == {1: "one"} and v["set"] == {"x"} and v["a"] is v["b"]
    assert v["d"] == dt.datetime(1970, 1, 2, tzinfo=dt.timezone.utc) and v["re"] == v8.JSRegExp("ab+c", "gi")
    assert isinstance(v["err"], v8.JSError) and v["err"].name == "RangeError" and v["err"].message == "boom"
    assert v["nul"] is None and v["u"] is v8.undefined and v["t"] is True
    # and back: Node reads our re-encoding of its value
    again = subprocess.run(
        [
            NODE,
            "-e",
            "const v8=require('v8');const v=v8.deserialize(Buffer.from(process.argv[1],'hex'));"
            "process.stdout.write(JSON.stringify([v.s.charCodeAt(1), Object.is(v.z,-0), v.big.toString(), v.a===v.b]))",
            v8.dumps(v).hex(),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(again.stdout) == [0xD800, True, "123456789012345678901234567890", True]
