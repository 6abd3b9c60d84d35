"""Coverage-guided fuzzing of formwire.v8.loads with atheris (libFuzzer), the native code's edges included.

Run through python/fuzz/run-atheris, which installs atheris, builds the extension with sanitizer-coverage
instrumentation into python/fuzz/.build/ and preloads atheris's libFuzzer runtime so that the Rust code's coverage
guides the mutations. The oracle is fuzz_v8.py's: a value or a `V8Error` with a stable SC_ code and an offset inside
the input, nothing else; a value read writes back to stable canonical bytes (unless it holds a Python set, whose
order is its own). The first input byte picks the options (small limits, node_ipc), the rest is the V8 bytes.
"""

from __future__ import annotations

import sys

import atheris

import formwire  # the instrumented build (run-atheris puts it first on PYTHONPATH)
from formwire import v8

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from fuzz_v8 import CODES, has_set  # noqa: E402

LIMITS = [{}, {"max_depth": 4}, {"max_values": 7}, {"max_bigint_bytes": 9}, {"max_depth": None, "max_values": None}]


def one_input(raw: bytes) -> None:
    if not raw:
        return
    opts = dict(LIMITS[raw[0] % len(LIMITS)])
    data = raw[1:]
    try:
        value = v8.loads(data, node_ipc=raw[0] & 0x80 != 0, **opts)
    except formwire.V8Error as e:
        if e.code not in CODES or not (0 <= e.offset <= len(data)):
            raise AssertionError(f"code {e.code} offset {e.offset}") from e
        return
    try:
        b1 = v8.dumps(value, max_depth=None)
        b2 = v8.dumps(v8.loads(b1, max_depth=None, max_values=None, max_bigint_bytes=None), max_depth=None)
    except formwire.V8Error as e:
        if e.code != "SC_DATA_CLONE":
            raise
        return
    if b1 != b2 and not has_set(value):
        raise AssertionError(f"unstable bytes {b1.hex()[:200]} != {b2.hex()[:200]}")


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
