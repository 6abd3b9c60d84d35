"""Random-mutation fuzzer for formwire.v8 (not part of the wheel; standard library only).

Usage: .venv/bin/python python/fuzz/fuzz_v8.py [--seconds S | --iterations N] [--seed K] [--workers W]

Two targets, run alternately:

- decode: inputs are the shared clone vectors' bytes (vectors/clone/), mutated (bit flips, interesting bytes and
  varints, tag swaps, inserted/deleted/duplicated runs, splices of two inputs, truncation) and read with small and
  default limits. Oracle: `loads` returns a value or raises `formwire.V8Error` with a stable SC_ code and an offset
  inside the input; nothing else (no other exception, no crash). A value read must write back (`dumps`) and its
  canonical bytes must be stable: dumps(loads(dumps(v))) == dumps(v).
- round trip: random Python values (nesting, shared objects and cycles, every mapped type, adversarial keys:
  `__proto__`, `length`, index-like and negative-zero-like names, lone surrogates, NUL, long keys, huge ints and
  BigInts, NaN/-0/subnormals). Oracle: loads(dumps(v)) equals v as the mapping documents (tuples read as lists,
  frozensets as sets, ints outside 2**53 as JSBigInt, ...), and the bytes are stable.

Each worker runs in a child process, so a crash (a signal) is a finding reported with the seed that reproduces it:
the iteration sequence is a pure function of --seed. Closing line: `fuzz_v8: N passed, N failed` (N = inputs).
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CODES = {
    "SC_TRUNCATED",
    "SC_VERSION",
    "SC_TAG",
    "SC_VARINT",
    "SC_REF",
    "SC_COUNT",
    "SC_STRING",
    "SC_KEY",
    "SC_VIEW",
    "SC_HOST",
    "SC_UNSUPPORTED",
    "SC_LIMIT_DEPTH",
    "SC_LIMIT_BYTES",
    "SC_LIMIT_VALUES",
    "SC_LIMIT_BIGINT",
    "SC_DATA_CLONE",
}
TAGS = b"\x00\xff?_0TFIUNZ\"Sc^oo{AaA$@-DRrt'Bb~VuwmpkK\\.:;,'zyx"
INTERESTING = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x3F, 0x40, 0xC0]
VARINTS = [
    b"\x00",
    b"\x7f",
    b"\x80\x01",
    b"\xff\xff\xff\xff\x0f",
    b"\xff\xff\xff\xff\x7f",
    b"\x80\x80\x80\x80\x80\x01",
    b"\xfe\xff\xff\xff\x0f",
]


def corpus() -> list[bytes]:
    out = []
    for p in sorted((ROOT / "vectors" / "clone").glob("*/*.json")):
        case = json.loads(p.read_text())
        inp = case.get("input") or {}
        if "hex" in inp:
            out.append(bytes.fromhex(inp["hex"]))
        elif "base64" in inp:
            out.append(base64.b64decode(inp["base64"]))
    return [b for b in out if len(b) < 1 << 16]


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 3, 6])):
        op = rng.randrange(10)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1 and b:
            b[min(i, len(b) - 1)] = rng.choice(INTERESTING)
        elif op == 2 and b:
            b[min(i, len(b) - 1)] = rng.choice(TAGS)
        elif op == 3:
            b[i:i] = rng.choice(VARINTS)
        elif op == 4 and b:
            del b[i : i + rng.randrange(1, 9)]
        elif op == 5 and b:
            j = rng.randrange(len(b))
            b[i:i] = b[j : j + rng.randrange(1, 33)]
        elif op == 6:
            other = rng.choice(pool)
            j = rng.randrange(len(other) + 1)
            b[i:] = other[j:]
        elif op == 7:
            del b[i:]
        elif op == 8:
            b[i:i] = bytes([rng.choice(TAGS)])
        else:
            b[i:i] = b"\x00" * rng.randrange(1, 4)
    if len(b) < 2 or rng.random() < 0.9:
        b[:2] = b"\xff\x0f" if rng.random() < 0.8 else bytes([0xFF, rng.choice([13, 14, 15])])
    return bytes(b)


# ---------------------------------------------------------------------------------------------------------------
# Random values

KEYS = [
    "",
    "a",
    "__proto__",
    "constructor",
    "length",
    "0",
    "1",
    "01",
    "-0",
    "-1",
    "1e3",
    "4294967294",
    "4294967295",
    "9007199254740993",
    "\x00",
    "\ud800",
    "\udfff\ud800",
    "\U0001f600",
    "é",
    "a" * 300,
    "\u2028",
    "NaN",
    "0.5",
]


def rand_str(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.4:
        return rng.choice(KEYS)
    if r < 0.7:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(0, 20)))
    alphabet = [0, 0x7F, 0xFF, 0x100, 0x7FF, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF]
    return "".join(
        chr(rng.choice(alphabet) if rng.random() < 0.5 else rng.randrange(0x110000))
        for _ in range(rng.randrange(0, 12))
    )


def rand_int(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.5:
        return rng.randrange(-1000, 1000)
    if r < 0.8:
        return rng.choice([2**31 - 1, -(2**31), 2**32, 2**53 - 1, -(2**53 - 1), 2**53, -(2**53), 2**63, 2**64 - 1])
    return rng.choice([1, -1]) * rng.getrandbits(rng.choice([70, 200, 1000, 20000, 70000]))


def rand_float(rng: random.Random) -> float:
    return rng.choice(
        [0.5, -0.0, 1e308, 5e-324, -5e-324, 2.0**53 + 2, 1.0e-7, math.inf, -math.inf, math.nan, rng.uniform(-1e6, 1e6)]
    )


def rand_leaf(rng: random.Random, v8: Any) -> Any:
    kind = rng.randrange(14)
    if kind == 0:
        return rng.choice([None, True, False, v8.undefined])
    if kind in (1, 2):
        return rand_int(rng)
    if kind == 3:
        return rand_float(rng)
    if kind in (4, 5, 6):
        return rand_str(rng)
    if kind == 7:
        return v8.JSBigInt(rand_int(rng))
    if kind == 8:
        return rng.randbytes(rng.randrange(0, 40))
    if kind == 9:
        return bytearray(rng.randbytes(rng.randrange(0, 40)))
    if kind == 10:
        name, size = rng.choice([("Int16Array", 2), ("Float64Array", 8), ("DataView", 1), ("BigUint64Array", 8)])
        return v8.JSView(name, rng.randbytes(size * rng.randrange(0, 5)))
    if kind == 11:
        ms = rng.randrange(-(10**13), 10**13)
        return (
            (dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(milliseconds=ms))
            if rng.random() < 0.8
            else v8.JSDate(math.nan)
        )
    if kind == 12:
        return v8.JSRegExp(rand_str(rng), "".join(f for f in "dgimsuy" if rng.random() < 0.3))
    return v8.JSBoxed(rng.choice([True, 1.5, -0.0, "s", rand_str(rng), v8.JSBigInt(rand_int(rng))]))


def rand_value(rng: random.Random, v8: Any, cycles: bool) -> Any:
    """A random value of up to a few hundred nodes; with `cycles`, containers may also hold earlier containers."""
    made: list[Any] = []

    def node(depth: int) -> Any:
        if depth > rng.choice([2, 4, 8, 40]) or rng.random() < 0.35:
            if made and rng.random() < 0.1 and cycles:
                return rng.choice(made)
            return rand_leaf(rng, v8)
        kind = rng.randrange(8)
        n = rng.randrange(0, 6)
        if kind in (0, 1):
            d: dict[Any, Any] = {}
            made.append(d)
            for _ in range(n):
                d[rand_str(rng)] = node(depth + 1)
            return d
        if kind in (2, 3):
            lst: list[Any] = []
            made.append(lst)
            lst.extend(node(depth + 1) for _ in range(n))
            return lst if rng.random() < 0.9 or cycles else tuple(lst)
        if kind == 4:
            m = v8.JSMap()
            made.append(m)
            for _ in range(n):
                k = rand_leaf(rng, v8)
                if _hashable(k):
                    m[k] = node(depth + 1)
            return m
        if kind == 5:
            s = {x for x in (rand_leaf(rng, v8) for _ in range(n)) if _hashable(x) and not _nan(x)}
            return s if rng.random() < 0.8 else frozenset(s)
        if kind == 6:
            a = v8.JSArray(rng.randrange(n, n + 5))
            made.append(a)
            for i in rng.sample(range(a.length), min(n, a.length)):
                a.items[i] = node(depth + 1)
            if rng.random() < 0.5:
                a.props[rng.choice(["x", "__proto__", "-1", "1.5"])] = node(depth + 1)
            return a
        e = v8.JSError(
            rng.choice(["Error", "TypeError", "RangeError", "Custom"]), rand_str(rng), rng.choice([None, rand_str(rng)])
        )
        made.append(e)
        if rng.random() < 0.5:
            e._set_cause(node(depth + 1))
        return e

    return node(0)


def first_diff(a: Any, b: Any, path: str = "$") -> str:
    """Where two normalized values first differ (for the finding's message)."""
    if type(a) is not type(b):
        return f"{path}: {a!r:.200} vs {b!r:.200}"
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_diff(x, y, f"{path}[{i}]")
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return f"{path}: keys {sorted(map(repr, a.keys() ^ b.keys()))[:4]}"
        for k in a:
            if a[k] != b[k]:
                return first_diff(a[k], b[k], f"{path}.{k!r:.40}")
    return f"{path}: {a!r:.200} vs {b!r:.200}"


def has_set(x: Any) -> bool:
    seen, todo = set(), [x]
    while todo:
        y = todo.pop()
        if id(y) in seen:
            continue
        seen.add(id(y))
        if isinstance(y, (set, frozenset)):
            return True
        if isinstance(y, dict):
            todo.extend(y.keys())
            todo.extend(y.values())
        elif isinstance(y, (list, tuple)):
            todo.extend(y)
        elif hasattr(y, "items") and hasattr(y, "props"):
            todo.extend(y.items.values())
            todo.extend(y.props.values())
        elif hasattr(y, "has_cause") and y.has_cause:
            todo.append(y.cause)
    return False


def _hashable(x: Any) -> bool:
    try:
        hash(x)
        return True
    except TypeError:
        return False


def _nan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def norm(x: Any, v8: Any) -> Any:
    """The value as formwire.v8 documents it comes back (acyclic values only)."""
    if isinstance(x, bool) or x is None or x is v8.undefined:
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return "<NaN>"
        if x.is_integer() and abs(x) <= 2**53 - 1 and not (x == 0 and math.copysign(1, x) < 0):
            return int(x)
        return ("<float>", x, math.copysign(1, x))
    if isinstance(x, int):
        return ("<bigint>" if isinstance(x, v8.JSBigInt) or abs(x) > 2**53 - 1 else "<int>", int(x))
    if isinstance(x, str):  # JS strings are code units: a pair of surrogate code points is one code point
        return x.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    if isinstance(x, (list, tuple)):
        return [norm(i, v8) for i in x]
    if isinstance(x, dict):
        if isinstance(x, v8.JSMap) or any(not isinstance(k, str) for k in x):
            # Map.set makes a -0 key +0 (SC-D-20); insertion order is kept.
            return (
                "<map>",
                [(norm(0 if k == 0 and isinstance(k, float) else k, v8), norm(v, v8)) for k, v in x.items()],
            )
        return ("<obj>", {norm(k, v8): norm(v, v8) for k, v in x.items()})  # JS lists index-like keys first
    if isinstance(x, (set, frozenset)):
        return ("<set>", sorted(repr(norm(0 if i == 0 and isinstance(i, float) else i, v8)) for i in x))
    if isinstance(x, v8.JSArray):
        if not x.props and len(x.items) == x.length:  # dense, nothing else: read back as a list
            return [norm(x.items[i], v8) for i in range(x.length)]
        return (
            "<array>",
            x.length,
            {i: norm(v, v8) for i, v in x.items.items()},
            {norm(k, v8): norm(v, v8) for k, v in x.props.items()},
        )
    if isinstance(x, v8.JSError):
        name = (
            x.name
            if x.name in ("EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError")
            else "Error"
        )
        return (
            "<error>",
            name,
            norm(x.message, v8),
            norm(x.stack, v8),
            x.has_cause,
            norm(x.cause, v8) if x.has_cause else None,
        )
    if isinstance(x, v8.JSBoxed):
        v = x.value
        if isinstance(v, int) and not isinstance(v, (bool, v8.JSBigInt)):
            v = float(v)
        return ("<boxed>", type(v).__name__, norm(v, v8))
    if isinstance(x, v8.JSRegExp):
        return ("<regexp>", norm(x.source, v8), x.flags)
    if isinstance(x, v8.JSDate):
        return ("<date>", "<NaN>" if math.isnan(x.ms) else x.ms)
    if isinstance(x, bytearray):
        return ("<buffer>", bytes(x))
    return x


# ---------------------------------------------------------------------------------------------------------------
# The worker: one seed, a bounded number of iterations or seconds


def worker(seed: int, iterations: int, seconds: float) -> int:
    sys.setrecursionlimit(10_000)  # norm/== on generated values (the codec itself never recurses)
    sys.set_int_max_str_digits(0)  # the harness prints and sorts reprs of big ints; the codec never uses decimal
    import formwire
    from formwire import v8

    rng = random.Random(seed)
    pool = corpus()
    deadline = time.monotonic() + seconds if seconds else None
    done = findings = 0

    def finding(what: str, data: bytes | None, detail: str) -> None:
        nonlocal findings
        findings += 1
        hexed = data.hex() if data is not None and len(data) <= 4096 else f"<{len(data or b'')} bytes>"
        print(f"FINDING seed={seed} iteration={done} {what}: {detail} input={hexed}", flush=True)

    def stable(value: Any, data: bytes | None, what: str) -> None:
        try:
            b1 = v8.dumps(value, max_depth=None)
            b2 = v8.dumps(v8.loads(b1, max_depth=None, max_values=None, max_bigint_bytes=None), max_depth=None)
        except formwire.V8Error as e:
            if e.code != "SC_DATA_CLONE":
                finding(what + " re-encode", data, f"{e.code}: {e}")
            return
        except Exception as e:  # noqa: BLE001 - any other exception is the finding
            finding(what + " re-encode", data, repr(e)[:300])
            return
        if b1 != b2 and not has_set(value):  # a Python set's order is its own: only sets may reorder
            finding(what + " unstable bytes", data, f"{b1.hex()[:200]} != {b2.hex()[:200]}")

    while (done < iterations) if not deadline else (time.monotonic() < deadline):
        if done % 3 != 2:
            data = mutate(rng, rng.choice(pool), pool)
            limits = rng.choice(
                [
                    {},
                    {"max_depth": 4},
                    {"max_values": rng.randrange(0, 40)},
                    {"max_bigint_bytes": rng.randrange(0, 20)},
                    {"max_depth": None, "max_values": None},
                ]
            )
            try:
                value = v8.loads(data, node_ipc=rng.random() < 0.1, **limits)
            except formwire.V8Error as e:
                if e.code not in CODES or not (0 <= e.offset <= len(data)):
                    finding("decode", data, f"code {e.code} offset {e.offset}")
            except Exception as e:  # noqa: BLE001
                finding("decode", data, repr(e)[:300])
            else:
                stable(value, data, "decode")
        else:
            cycles = rng.random() < 0.3
            value = rand_value(rng, v8, cycles)
            try:
                data = v8.dumps(value, max_depth=None)
                back = v8.loads(data, max_depth=None, max_values=None, max_bigint_bytes=None)
            except formwire.V8Error as e:
                finding("round trip", None, f"{e.code}: {e} value={value!r:.300}")
            except Exception as e:  # noqa: BLE001
                finding("round trip", None, f"{e!r:.300} value={value!r:.300}")
            else:
                if not cycles and norm(back, v8) != norm(value, v8):
                    finding("round trip", data, first_diff(norm(back, v8), norm(value, v8)))
                stable(back, data, "round trip")
        done += 1
    print(f"WORKER seed={seed} inputs={done} findings={findings}", flush=True)
    return 1 if findings else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=0.0)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker(a.seed, a.iterations, a.seconds)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                "--seed",
                str(a.seed + i),
                "--iterations",
                str(a.iterations),
                "--seconds",
                str(a.seconds),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(a.workers)
    ]
    passed = failed = 0
    for i, p in enumerate(procs):
        out, _ = p.communicate()
        sys.stdout.write("".join(line + "\n" for line in out.splitlines() if line.startswith(("FINDING", "WORKER"))))
        last = [line for line in out.splitlines() if line.startswith("WORKER")]
        n = int(last[-1].split("inputs=")[1].split()[0]) if last else 0
        f = int(last[-1].split("findings=")[1]) if last else 0
        if p.returncode < 0 or not last:
            print(
                f"CRASH seed={a.seed + i}: exit {p.returncode} (replay: --worker --seed {a.seed + i} "
                f"--iterations {a.iterations} --seconds {a.seconds})"
            )
            f += 1
        passed += n - min(f, n)
        failed += f
    print(f"fuzz_v8: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
