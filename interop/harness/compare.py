"""Comparing decoded forms, and the consumers' known deviations as transforms of the expected entries.

A check has three outcomes: `ok` (the decoder gives exactly the expectation), `known` (it gives the expectation as
transformed by that party's documented quirks, see interop/DISAGREEMENTS.md), `fail` (anything else; the first
difference is reported against the untransformed expectation).
"""
from __future__ import annotations

import base64
import re

from .forms import sha256


def _show(v) -> str:
    if isinstance(v, bytes):
        return repr(v[:60]) + ("…" if len(v) > 60 else "") + f" ({len(v)} bytes)"
    s = repr(v)
    return s if len(s) <= 80 else s[:77] + "…"


def normalize(result: dict) -> dict:
    """Consumer/testee output into {"entries": [...]} / {"pairs": [...]} / {"error": {...}}; bodies as bytes or sha."""
    if "error" in result:
        err = result["error"]
        return {"error": err if isinstance(err, dict) else {"code": None, "message": str(err)}}
    ok = result.get("ok", result)
    if "pairs" in ok:
        return {"pairs": [list(p) for p in ok["pairs"]]}
    entries = []
    for e in ok["entries"]:
        n = {"name": e["name"], "filename": e.get("filename"), "type": e.get("type") if e.get("filename") is not None
             else None}
        if "body_b64" in e:
            n["body"] = base64.b64decode(e["body_b64"])
        else:
            n.update({k: e[k] for k in ("sha256", "size", "body", "content_type") if k in e})
        if "content_type" in e:
            n["content_type"] = e["content_type"]
        entries.append(n)
    return {"entries": entries}


def first_difference(expected: dict, got: dict) -> str | None:
    """None when `got` matches `expected`; else one line saying where they first differ."""
    if "error" in expected:
        want = expected["error"]
        if "error" not in got:
            return f"decoded, want error {want['code']} at {want['offset']}"
        g = got["error"]
        if (g.get("code"), g.get("offset")) != (want["code"], want["offset"]):
            return f"error {g.get('code')} at {g.get('offset')}, want {want['code']} at {want['offset']}"
        return None
    if "error" in got:
        g = got["error"]
        where = f" at {g['offset']}" if g.get("offset") is not None else ""
        msg = f" ({g['message']})" if g.get("message") else ""
        return f"error {g.get('code') or ''}{where}{msg}".replace("error  ", "error ").strip()[:240]
    if "pairs" in expected:
        ep, gp = expected["pairs"], got.get("pairs")
        if gp is None:
            return "no pairs in the result"
        for i, (e, g) in enumerate(zip(ep, gp)):
            if list(e) != list(g):
                return f"pair {i}: got {_show(g)}, want {_show(e)}"
        if len(ep) != len(gp):
            return f"{len(gp)} pairs, want {len(ep)}" + (f" (extra: {_show(gp[len(ep)])})" if len(gp) > len(ep) else
                                                         f" (missing: {_show(ep[len(gp)])})")
        return None
    ee, ge = expected["entries"], got.get("entries")
    if ge is None:
        return "no entries in the result"
    for i, (e, g) in enumerate(zip(ee, ge)):
        for k in ("name", "filename", "type", "content_type"):
            if k in e and k in g and e[k] != g[k]:
                return f"entry {i} {k}: got {_show(g[k])}, want {_show(e[k])}"
            if k == "content_type" and k in e and k not in g:
                continue
        want_body = e["body"]
        if "body" in g:
            if g["body"] != want_body:
                return f"entry {i} ({e['name']!r}) body: got {_show(g['body'])}, want {_show(want_body)}"
        elif g.get("sha256") != sha256(want_body):
            return f"entry {i} ({e['name']!r}) body: got {g.get('size')} bytes sha256 {str(g.get('sha256'))[:12]}…, " \
                   f"want {_show(want_body)}"
    if len(ee) != len(ge):
        extra = ge[len(ee)] if len(ge) > len(ee) else ee[len(ge)]
        return f"{len(ge)} entries, want {len(ee)} ({'extra' if len(ge) > len(ee) else 'missing'}: " \
               f"{_show(extra.get('name'))})"
    return None


# ---------------------------------------------------------------------------------------------------------------------
# Consumer quirks: each maps the expected result (MP rules) to what that consumer gives instead.

def _params(fn):
    def t(exp: dict) -> dict:
        if "entries" not in exp:
            return exp
        out = []
        for e in exp["entries"]:
            e = dict(e)
            e["name"] = fn(e["name"], "name")
            if e["filename"] is not None:
                e["filename"] = fn(e["filename"], "filename")
            out.append(e)
        return {"entries": out}
    return t


def _percent_decode(s: str, _k: str) -> str:
    return s.replace("%0D", "\r").replace("%0A", "\n").replace("%22", '"')


def _percent_22(s: str, _k: str) -> str:
    return s.replace("%22", '"')


def _latin1(s: str, _k: str) -> str:
    return s.encode("utf-8").decode("latin-1")


def _basename(s: str, k: str) -> str:
    return re.split(r"[/\\]", s)[-1] if k == "filename" else s


def _quoted_pairs(s: str, _k: str) -> str:
    return re.sub(r"\\(.)", r"\1", s, flags=re.S)


def _quoted_pairs_quote_backslash(s: str, _k: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", s)


def _quoted_pairs_tspecials(s: str, _k: str) -> str:
    return re.sub(r'\\([()<>@,;:\\"/\[\]?=])', r"\1", s)


def _empty_filename_field(exp: dict) -> dict:
    if "entries" not in exp:
        return exp
    return {"entries": [dict(e, filename=None, type=None) if e["filename"] == "" else e for e in exp["entries"]]}


def _group(items, key):
    groups: dict = {}
    for it in items:
        groups.setdefault(key(it), []).append(it)
    return [it for g in groups.values() for it in g]


def _groups_by_name(exp: dict) -> dict:
    if "pairs" in exp:
        return {"pairs": _group(exp["pairs"], lambda p: p[0])}
    fields = [e for e in exp["entries"] if e["filename"] is None]
    files = [e for e in exp["entries"] if e["filename"] is not None]
    return {"entries": _group(fields, lambda e: e["name"]) + _group(files, lambda e: e["name"])}


def _names_unordered(exp: dict) -> dict:
    if "pairs" in exp:
        return {"pairs": sorted(exp["pairs"], key=lambda p: p[0].encode("utf-8"))}
    return exp


CONSUMER_TRANSFORMS = {
    "consumer-percent-decodes-params": _params(_percent_decode),
    "consumer-decodes-percent-22": _params(_percent_22),
    "consumer-params-latin1": _params(_latin1),
    "consumer-filename-basename": _params(_basename),
    "consumer-quoted-pairs": _params(_quoted_pairs),
    "consumer-quoted-pairs-quote-backslash": _params(_quoted_pairs_quote_backslash),
    "consumer-quoted-pairs-tspecials": _params(_quoted_pairs_tspecials),
    "consumer-empty-filename-is-field": _empty_filename_field,
    "consumer-groups-by-name": _groups_by_name,
    "consumer-names-unordered": _names_unordered,
}


def check(expected: dict, got: dict, quirks: list[str]) -> tuple[str, str, list[str]]:
    """(status, detail, quirk keys that applied) for one decode; status is ok | known | fail."""
    diff = first_difference(expected, got)
    if diff is None:
        return "ok", "", []
    applied, exp = [], expected
    for q in quirks:
        nxt = CONSUMER_TRANSFORMS[q](exp)
        if nxt != exp:
            applied.append(q)
        exp = nxt
    if applied and first_difference(exp, got) is None:
        return "known", "", applied
    return "fail", diff, []
