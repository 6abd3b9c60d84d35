"""interop/run: the interop matrix. See interop/README.md."""
from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from . import compare, forms, vectors
from .chromium import Chromium, find_chromium
from .consumers import CONSUMERS
from .producers import PRODUCERS, available
from .server import Server
from .testees import TesteeError, discover

INTEROP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(INTEROP)
DISAGREEMENTS = os.path.join(INTEROP, "DISAGREEMENTS.md")


@dataclass
class Check:
    producer: str
    consumer: str
    case: str
    status: str  # ok | known | fail
    detail: str = ""
    quirks: list = field(default_factory=list)


class Context:
    def __init__(self, server: Server, tmp: str):
        self.server, self.tmp = server, tmp
        self._chromium = None
        self._lock = threading.Lock()

    def chromium(self) -> Chromium:
        with self._lock:
            if self._chromium is None:
                br = Chromium(find_chromium())
                try:
                    br.start(self.server.base + "/blank")
                except BaseException:
                    br.close()
                    raise
                self._chromium = br
            return self._chromium

    def close(self):
        if self._chromium is not None:
            self._chromium.close()
            self._chromium = None


def boundary_of(ctype: str) -> str:
    m = re.search(r'boundary=(?:"([^"]*)"|([^;\s]*))', ctype, re.I)
    return (m.group(1) if m.group(1) is not None else m.group(2)) if m else ""


def disposition_offset(body: bytes, boundary: str, index: int) -> int:
    """Start of the Content-Disposition line of part `index` (MP-H-06 offset) in a captured body."""
    delim = b"--" + boundary.encode("utf-8")
    pos = 0
    for i in range(index + 1):
        pos = 0 if i == 0 else body.index(b"\r\n" + delim, pos) + 2
        pos = body.index(b"\r\n", pos) + 2  # end of the delimiter line
        if i < index:
            pos = body.index(b"\r\n\r\n", pos) + 4
    end = body.index(b"\r\n\r\n", pos - 2)
    while pos < end:
        if body[pos:pos + 20].lower() == b"content-disposition:":
            return pos
        pos = body.index(b"\r\n", pos) + 2
    raise ValueError("no Content-Disposition line")


def capture_expectation(prod, case: str, ctype: str, body: bytes) -> tuple[dict, forms.Expectation]:
    told = prod.told(case)
    if told["kind"] == "urlencoded":
        exp = forms.wire_urlencoded(prod.id, told["pairs"])
        return {"pairs": exp.entries}, exp
    exp = forms.wire_multipart(prod.id, told["entries"])
    if exp.error is not None:
        return {"error": {"code": exp.error.code,
                          "offset": disposition_offset(body, boundary_of(ctype), exp.error.index)}}, exp
    return {"entries": exp.entries}, exp


def keep(d: str, items):
    for who, case, ctype, body in items:
        os.makedirs(os.path.join(d, who), exist_ok=True)
        with open(os.path.join(d, who, case + ".body"), "wb") as f:
            f.write(body)
        with open(os.path.join(d, who, case + ".ctype"), "w", encoding="utf-8") as f:
            f.write(ctype + "\n")


def documented_quirks() -> set[str]:
    try:
        with open(DISAGREEMENTS, encoding="utf-8") as f:
            heads = re.findall(r"^#+ .*$", f.read(), re.M)
        return {k for h in heads for k in re.findall(r"`([a-z0-9-]+)`", h)}
    except OSError:
        return set()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="interop/run", description="Interop matrix: real clients and servers against "
                                 "every formwire implementation present.")
    ap.add_argument("--smoke", action="store_true", help="everything but Chromium, saves no vectors (for make test)")
    ap.add_argument("--producers", help="comma-separated producer ids (default: all)")
    ap.add_argument("--consumers", help="comma-separated consumer ids (default: all)")
    ap.add_argument("--no-save", action="store_true", help="do not write cap-live-* vectors")
    ap.add_argument("--keep", metavar="DIR", help="also write every capture and formwire output to DIR")
    ap.add_argument("--list", action="store_true", help="list producers, consumers and cases, then exit")
    args = ap.parse_args(argv)
    if args.smoke:
        args.no_save = True  # make test must not write into vectors/; the full run saves new captures
    t0 = time.monotonic()
    # Loopback only: no proxy may see (or redirect) any request of this run.
    for k in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        os.environ.pop(k, None)
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"

    producers = [p for p in PRODUCERS if not args.producers or p.id in args.producers.split(",")]
    consumers = [c for c in CONSUMERS if not args.consumers or c.id in args.consumers.split(",")]
    if args.list:
        for p in PRODUCERS:
            print(f"producer {p.id:16} {p.label}\n  cases: {' '.join(p.cases())}")
            for case, why in p.not_sent.items():
                print(f"  not sent: {case}: {why}")
        for c in CONSUMERS:
            print(f"consumer {c.id:16} {c.label}; known quirks: {', '.join(c.quirks) or 'none'}")
        return 0

    checks: list[Check] = []
    notes: list[str] = []
    skipped = 0
    testees, tnotes = discover(ROOT)
    notes += tnotes
    parsers = [t for t in testees if "multipart.parse" in t.ops or "urlencoded.parse" in t.ops]
    encoders = [t for t in testees if "multipart.serialize" in t.ops or "urlencoded.serialize" in t.ops]
    if not testees:  # nothing to check is a failure, never a silent pass
        checks.append(Check("*", "formwire", "*", "fail", "no formwire testee is present: build rust/ or ts/ first"))
    tmp = tempfile.mkdtemp(prefix="formwire-interop-")
    versions: dict[str, str] = {f"formwire-{t.lang}": f"{t.lang} testee {t.version}" for t in testees}
    saved: list[str] = []
    try:
        with Server() as server:
            ctx = Context(server, tmp)
            try:
                # 1. producers -> captures -> every formwire decoder
                runnable = []
                for p in producers:
                    why = available(p.needs, args.smoke)
                    if why:
                        if args.smoke and p.needs == "chromium":
                            skipped += len(p.cases()) * max(1, len(parsers))
                        else:
                            checks.append(Check(p.id, "*", "*", "fail", f"not run: {why}"))
                        notes.append(f"{p.id}: {why}")
                        continue
                    runnable.append(p)

                def run_producer(p):
                    t = time.monotonic()
                    try:
                        versions[p.id] = p.run(ctx, p, [p.told(c) for c in p.cases()])
                        return p, None, time.monotonic() - t
                    except Exception as e:  # reported as a failed row, the rest of the matrix still runs
                        return p, f"{type(e).__name__}: {e}", time.monotonic() - t

                results = []
                with ThreadPoolExecutor(max_workers=3) as pool:
                    futs = [pool.submit(run_producer, p) for p in runnable if p.needs != "chromium"]
                    results += [run_producer(p) for p in runnable if p.needs == "chromium"]
                    results += [f.result() for f in futs]
                prod_errors = {p.id: err for p, err, _ in results if err}
                timings = {p.id: dt for p, _, dt in results}

                captured: list[tuple] = []
                for p in runnable:
                    for case in p.cases():
                        got = server.store.captures.get((p.id, case))
                        if got is None:
                            why = prod_errors.get(p.id, "no request arrived")
                            checks.append(Check(p.id, "*", case, "fail", f"no capture: {why}"[:300]))
                            continue
                        captured.append((p, case, got[0], got[1]))

                if args.keep:
                    keep(args.keep, [(p.id, case, ctype, body) for p, case, ctype, body in captured])
                for p, case, ctype, body in captured:
                    expected, exp = capture_expectation(p, case, ctype, body)
                    all_match = bool(parsers)
                    for t in parsers:
                        try:
                            if case.startswith("ue-"):
                                got = t.parse_urlencoded(body)
                            else:
                                got = t.parse_multipart(ctype, body)
                        except TesteeError as e:
                            got = {"error": {"code": "TESTEE", "offset": None, "message": str(e)}}
                        diff = compare.first_difference(expected, compare.normalize(got))
                        if diff is not None:
                            checks.append(Check(p.id, f"formwire-{t.lang}", case, "fail", diff))
                            all_match = False
                        elif exp.quirks:
                            checks.append(Check(p.id, f"formwire-{t.lang}", case, "known", "", sorted(exp.quirks)))
                        else:
                            checks.append(Check(p.id, f"formwire-{t.lang}", case, "ok"))
                    if all_match and not args.no_save and "error" not in expected:
                        vid = vectors.save(ROOT, p, case, ctype, body, expected, exp, versions.get(p.id, p.id))
                        if vid:
                            saved.append(vid)

                # 2. formwire encoders -> every consumer (formwire decoders included)
                boundary = "----formwire-interop-" + secrets.token_hex(12)
                outputs = []  # (encoder, case, ctype, body, expected)
                for t in encoders:
                    for case, entries in forms.MULTIPART.items():
                        if "multipart.serialize" not in t.ops:
                            break
                        try:
                            ctype, body = t.serialize_multipart(boundary, entries)
                        except TesteeError as e:
                            checks.append(Check(f"formwire-{t.lang}", "*", case, "fail", str(e)[:300]))
                            continue
                        outputs.append((f"formwire-{t.lang}", case, ctype, body,
                                        {"entries": forms.meant_multipart(entries)}))
                    for case, pairs in forms.URLENCODED.items():
                        if "urlencoded.serialize" not in t.ops:
                            break
                        try:
                            body = t.serialize_urlencoded(pairs)
                        except TesteeError as e:
                            checks.append(Check(f"formwire-{t.lang}", "*", "ue-" + case, "fail", str(e)[:300]))
                            continue
                        outputs.append((f"formwire-{t.lang}", "ue-" + case, "application/x-www-form-urlencoded",
                                        body, {"pairs": forms.meant_urlencoded(pairs)}))

                for t in parsers:  # formwire decoders of formwire encoders (make cross, on these forms)
                    for enc, case, ctype, body, expected in outputs:
                        try:
                            got = (t.parse_urlencoded(body) if case.startswith("ue-")
                                   else t.parse_multipart(ctype, body))
                        except TesteeError as e:
                            got = {"error": {"code": "TESTEE", "offset": None, "message": str(e)}}
                        st, detail, q = compare.check(expected, compare.normalize(got), [])
                        checks.append(Check(enc, f"formwire-{t.lang}", case, st, detail, q))

                if args.keep:
                    keep(args.keep, [(enc, case, ctype, body) for enc, case, ctype, body, _ in outputs])
                batch = [{"key": f"{enc}/{case}", "content_type": ctype, "body": body}
                         for enc, case, ctype, body, _ in outputs]
                for c in consumers:
                    why = available(c.needs, args.smoke)
                    if why:
                        if args.smoke and c.needs == "chromium":
                            skipped += len(outputs)
                        else:
                            checks.append(Check("*", c.id, "*", "fail", f"not run: {why}"))
                        notes.append(f"{c.id}: {why}")
                        continue
                    if not batch:
                        continue
                    t1 = time.monotonic()
                    try:
                        res = c.run(ctx, c, batch)
                    except Exception as e:
                        checks.append(Check("*", c.id, "*", "fail", f"{type(e).__name__}: {e}"[:300]))
                        continue
                    timings[c.id] = time.monotonic() - t1
                    versions[c.id] = c.version
                    for enc, case, ctype, body, expected in outputs:
                        got = res.get(f"{enc}/{case}")
                        if got is None:
                            checks.append(Check(enc, c.id, case, "fail", "no result"))
                            continue
                        st, detail, q = compare.check(expected, compare.normalize(got), c.quirks)
                        checks.append(Check(enc, c.id, case, st, detail, q))
            finally:
                ctx.close()
    finally:
        for t in testees:
            t.close()
        shutil.rmtree(tmp, ignore_errors=True)

    # 3. every known difference must be explained in DISAGREEMENTS.md
    documented = documented_quirks()
    for ch in checks:
        missing = [q for q in ch.quirks if q not in documented]
        if ch.status == "known" and missing:
            ch.status, ch.detail = "fail", f"unexplained: {', '.join(missing)} not in interop/DISAGREEMENTS.md"

    skipped_ids = ({p.id for p in producers if p.needs == "chromium"}
                   | {c.id for c in consumers if c.needs == "chromium"})
    report(checks, notes, versions, saved, parsers, encoders, producers, consumers, timings, args,
           skipped_ids if args.smoke else set())
    passed = sum(ch.status in ("ok", "known") for ch in checks)
    failed = sum(ch.status == "fail" for ch in checks)
    known = sum(ch.status == "known" for ch in checks)
    print(f"\ninterop: {known} of the passed checks are known disagreements (interop/DISAGREEMENTS.md); "
          f"wall time {time.monotonic() - t0:.1f}s")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


def _cell(checks: list[Check], skipped: bool = False) -> str:
    if not checks:
        return "skipped" if skipped else "–"
    fails = [c for c in checks if c.status == "fail"]
    if fails:
        return f"FAIL {len(fails)}/{len(checks)}"
    known = [c for c in checks if c.status == "known"]
    if known:
        rules = sorted({forms.QUIRK_RULES.get(q, ["?"])[0] for c in known for q in c.quirks})
        return f"known {len(known)}/{len(checks)} ({', '.join(rules)})"
    return f"ok {len(checks)}/{len(checks)}"


def _table(title: str, rows: list[str], cols: list[str], get, corner: str, skipped_ids=frozenset()):
    print(f"\n{title}")
    cells = {(r, c): _cell(get(r, c), r in skipped_ids or c in skipped_ids) for r in rows for c in cols}
    w0 = max([len(corner)] + [len(r) for r in rows])
    widths = [max([len(c)] + [len(cells[(r, c)]) for r in rows]) for c in cols]
    print("  " + corner.ljust(w0) + " | " + " | ".join(c.ljust(w) for c, w in zip(cols, widths)))
    print("  " + "-" * w0 + "-+-" + "-+-".join("-" * w for w in widths))
    for r in rows:
        print("  " + r.ljust(w0) + " | " + " | ".join(cells[(r, c)].ljust(w) for c, w in zip(cols, widths)))


def report(checks, notes, versions, saved, parsers, encoders, producers, consumers, timings, args, skipped_ids):
    by = {}
    for ch in checks:
        by.setdefault((ch.producer, ch.consumer), []).append(ch)
    print("interop matrix (loopback 127.0.0.1 only)" + (" --smoke: Chromium skipped" if args.smoke else ""))
    for k in sorted(versions):
        print(f"  {k:16} {versions[k]}")
    parser_cols = [f"formwire-{t.lang}" for t in parsers]
    prod_rows = [p.id for p in producers] + [f"formwire-{t.lang}" for t in encoders]
    _table("Producers (rows) decoded by formwire (columns); a cell: ok n/total | known n/total (deciding rules) | "
           "FAIL n/total",
           prod_rows, parser_cols, lambda r, c: by.get((r, c), []) + by.get((r, "*"), []) * (c == parser_cols[0]),
           "producer \\ decoder", skipped_ids)
    enc_cols = [f"formwire-{t.lang}" for t in encoders]
    cons_rows = parser_cols + [c.id for c in consumers]
    _table("formwire's encoders (columns) decoded by consumers (rows)", cons_rows, enc_cols,
           lambda r, c: by.get((c, r), []) + by.get(("*", r), []) * (c == enc_cols[0] if enc_cols else False),
           "consumer \\ encoder", skipped_ids)

    known = [c for c in checks if c.status == "known"]
    if known:
        print("\nKnown disagreements seen (each explained in interop/DISAGREEMENTS.md):")
        groups = {}
        for c in known:
            side = c.producer if c.consumer.startswith("formwire-") and not c.producer.startswith("formwire-") \
                else c.consumer
            for q in c.quirks:
                groups.setdefault((side, q), set()).add(c.case)
        for (side, q), cases in sorted(groups.items()):
            print(f"  {side:16} {q:34} ({', '.join(forms.QUIRK_RULES.get(q, []))}): {', '.join(sorted(cases))}")
    fails = [c for c in checks if c.status == "fail"]
    if fails:
        print("\nFailures (first difference against the MP/UE expectation):")
        for c in fails:
            print(f"  {c.producer} -> {c.consumer} [{c.case}]: {c.detail}")
    for n in notes:
        print(f"  note: {n}")
    if saved:
        print(f"\nnew vectors written ({len(saved)}): {', '.join(saved)}")
    if timings:
        print("\ntimes: " + ", ".join(f"{k} {v:.1f}s" for k, v in sorted(timings.items())))


if __name__ == "__main__":
    sys.exit(main())
