"""formwire.v8.Decoder and Encoder: the module functions' results with memory kept between calls, shareable by
threads (a busy one falls back to memory of the call's own)."""

from __future__ import annotations

import threading

import pytest

import formwire
from formwire import v8

VALUES = [
    None,
    "a string",
    12.5,
    {"name": "Alice", "tags": ["a", "b"], "n": -0.0, "lone": "\ud800"},
    [{"id": i, "name": f"n{i}", "active": i % 2 == 0} for i in range(100)],
    {"a": {"b": {"c": [1, 2, {"d": None}]}}, "e": v8.JSMap({1: "x"}), "f": {1, 2}},
    "x" * 300_000,
]


def test_decoder_and_encoder_give_the_module_functions_results() -> None:
    dec, enc = v8.Decoder(), v8.Encoder()
    for _ in range(3):
        for x in VALUES:
            data = v8.dumps(x)
            assert enc.dumps(x) == data
            assert dec.loads(data) == v8.loads(data)


def test_shared_values_and_cycles_across_calls() -> None:
    dec = v8.Decoder()
    shared: list[object] = [1]
    cyc: dict[str, object] = {}
    cyc["self"] = cyc
    for _ in range(3):
        back = dec.loads(v8.dumps([shared, shared, cyc]))
        assert back[0] is back[1] and back[2]["self"] is back[2]


def test_decoder_limits_are_the_loads_keywords() -> None:
    dec = v8.Decoder(max_depth=2, max_values=4)
    assert dec.loads(v8.dumps([[1]])) == [[1]]
    with pytest.raises(formwire.V8Error) as e:
        dec.loads(v8.dumps([[[1]]]))
    assert e.value.code == "SC_LIMIT_DEPTH"
    with pytest.raises(formwire.V8Error) as e:
        dec.loads(v8.dumps([1, 2, 3, 4]))
    assert e.value.code == "SC_LIMIT_VALUES"
    # An error leaves the decoder as good as new.
    assert dec.loads(v8.dumps({"a": 1})) == {"a": 1}
    assert v8.Decoder(max_depth=None).loads(v8.dumps([[[[1]]]])) == [[[[1]]]]
    with pytest.raises(formwire.V8Error) as e:
        v8.Decoder(node_ipc=False, max_bytes=3).loads(v8.dumps("abc"))
    assert e.value.code == "SC_LIMIT_BYTES"


def test_encoder_max_depth_and_errors() -> None:
    enc = v8.Encoder(max_depth=1)
    assert v8.loads(enc.dumps([1])) == [1]
    with pytest.raises(formwire.V8Error) as e:
        enc.dumps([[1]])
    assert e.value.code == "SC_LIMIT_DEPTH"
    with pytest.raises(formwire.V8Error) as e:
        enc.dumps(object())
    assert e.value.code == "SC_DATA_CLONE"
    assert enc.dumps({"a": 1}) == v8.dumps({"a": 1})
    assert v8.Encoder(max_depth=None).dumps([[[1]]]) == v8.dumps([[[1]]])


def test_one_decoder_and_encoder_shared_by_threads() -> None:
    # Large inputs are decoded with the GIL released: threads then find the shared decoder busy and use
    # memory of their own; every answer is the same.
    dec, enc = v8.Decoder(), v8.Encoder()
    big = v8.dumps([{"k": i, "s": "v" * (i % 50)} for i in range(20_000)])
    want = v8.loads(big)
    bad: list[str] = []

    def work() -> None:
        for i in range(5):
            if dec.loads(big) != want:
                bad.append("loads")
            if enc.dumps(want) != big:
                bad.append("dumps")
            if dec.loads(enc.dumps({"i": i})) != {"i": i}:
                bad.append("small")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []


def test_subclassable_and_keyword_only() -> None:
    class Mine(v8.Decoder):
        pass

    assert Mine(max_depth=5).loads(v8.dumps([1])) == [1]
    with pytest.raises(TypeError):
        v8.Decoder(5)  # type: ignore[misc]
    with pytest.raises(TypeError):
        v8.Encoder(5)  # type: ignore[misc]
