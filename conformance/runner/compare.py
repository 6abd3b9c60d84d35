"""Comparing testee results with expectations. Every function returns None when equal, else the first difference."""

import base64
import binascii
import hashlib
import json
import math
import struct

from .cases import body_bytes

PART_FIELDS = ("name", "filename", "name_star", "filename_star", "content_type", "type")


def short(x, n=100):
    if isinstance(x, (bytes, bytearray)):
        s = repr(bytes(x))
    else:
        try:
            s = json.dumps(x, ensure_ascii=False, default=repr)
        except ValueError:
            s = repr(x)
    return s if len(s) <= n else s[: n - 3] + "..."


def describe_error(e):
    if not isinstance(e, dict):
        return short(e)
    s = str(e.get("code"))
    if "offset" in e:
        s += " at offset %s" % e.get("offset")
    return s


def decoding_key(result):
    """What two decode results must share to agree: the error without its message, or the decoded content
    without part bodies (their sha256 and size stay). Used to compare chunkings or testees with each other."""
    if not isinstance(result, dict):
        return result
    if "error" in result and isinstance(result["error"], dict):
        return {"error": {k: v for k, v in result["error"].items() if k != "message"}}
    ok = result.get("ok")
    if isinstance(ok, dict) and isinstance(ok.get("parts"), list):
        return {"ok": {"parts": [{k: v for k, v in p.items() if k != "body_b64"} if isinstance(p, dict) else p
                                 for p in ok["parts"]]}}
    return result


def check_error(expected, result):
    """expected: `{"code", "offset"?}`; result: a result object. Offsets are compared when the vector has one."""
    if "error" not in result:
        if "ok" in result:
            return "expected error %s, got ok %s" % (describe_error(expected), short(result["ok"]))
        return "result has neither ok nor error: %s" % short(result)
    got = result["error"]
    if not isinstance(got, dict) or not isinstance(got.get("code"), str):
        return "malformed error object %s" % short(got)
    if got.get("code") != expected["code"]:
        return "error code %s, expected %s" % (describe_error(got), describe_error(expected))
    if "offset" in expected and (got.get("offset") != expected["offset"] or isinstance(got.get("offset"), bool)):
        return "error %s at offset %s, expected offset %s" % (got.get("code"), got.get("offset"), expected["offset"])
    return None


def unwrap_ok(result):
    """(value, None) for an ok result, (None, difference) otherwise."""
    if not isinstance(result, dict):
        return None, "result is not an object: %s" % short(result)
    if "error" in result:
        e = result["error"]
        msg = e.get("message") if isinstance(e, dict) else None
        return None, "unexpected error %s%s" % (describe_error(e), " (%s)" % msg if msg else "")
    if "ok" not in result:
        return None, "result has neither ok nor error: %s" % short(result)
    return result["ok"], None


def check_result(case, result):
    """Compare one result of any case kind with the case's expectation."""
    exp = case.expect
    if not isinstance(result, dict):
        return "result is not an object: %s" % short(result)
    if "error" in exp:
        return check_error(exp["error"], result)
    ok, diff = unwrap_ok(result)
    if diff:
        return diff
    if not isinstance(ok, dict):
        return "ok value is not an object: %s" % short(ok)
    return {
        "multipart-parse": check_multipart_parts,
        "urlencoded-parse": check_pairs_result,
        "clone-decode": check_value_result,
        "multipart-serialize": check_multipart_serialized,
        "urlencoded-serialize": check_urlencoded_text,
        "clone-encode": check_clone_hex,
    }[case.kind](case, exp, ok)


# -- multipart -----------------------------------------------------------------------------------------------------

def expected_body(case, body):
    """(size, sha256 hex, bytes or None) of an expected part body."""
    data = body_bytes(case, body)
    if data is None:
        return body["size"], body["sha256"], None
    return len(data), hashlib.sha256(data).hexdigest(), data


def check_multipart_parts(case, exp, ok):
    return compare_parts(ok.get("parts"), [normalize_expected_part(case, p) for p in exp["parts"]], headers=True)


def normalize_expected_part(case, p):
    q = {f: p.get(f) for f in PART_FIELDS}
    if "headers" in p:
        q["headers"] = p["headers"]
    q["body"] = expected_body(case, p["body"])
    return q


def compare_parts(got, want, headers=True, fields=PART_FIELDS):
    """want: parts as from normalize_expected_part (body as (size, sha, bytes|None))."""
    if not isinstance(got, list):
        return "ok.parts is not a list: %s" % short(got)
    if len(got) != len(want):
        names = [p.get("name") if isinstance(p, dict) else p for p in got]
        return "got %d parts %s, expected %d %s" % (len(got), short(names, 60), len(want),
                                                    short([p["name"] for p in want], 60))
    for i, (g, w) in enumerate(zip(got, want)):
        if not isinstance(g, dict):
            return "parts[%d] is not an object" % i
        for f in fields:
            if g.get(f) != w[f]:
                return "parts[%d].%s: got %s, expected %s" % (i, f, short(g.get(f)), short(w[f]))
        if headers and "headers" in w:
            gh = g.get("headers")
            if gh != w["headers"]:
                return "parts[%d].headers: got %s, expected %s" % (i, short(gh, 200), short(w["headers"], 200))
        diff = compare_body(g, w["body"])
        if diff:
            return "parts[%d].body: %s" % (i, diff)
    return None


def compare_body(g, want):
    size, sha, data = want
    gsize, gsha = g.get("size"), g.get("sha256")
    if gsize == size and isinstance(gsha, str) and gsha.lower() == sha:
        return None
    msg = "got %s bytes sha256 %s, expected %d bytes sha256 %s" % (gsize, str(gsha)[:12], size, sha[:12])
    if data is not None and isinstance(g.get("body_b64"), str):
        try:
            got = base64.b64decode(g["body_b64"])
        except (binascii.Error, ValueError):
            return msg
        return "%s; %s" % (msg, first_byte_difference(got, data))
    return msg


def first_byte_difference(got, want):
    n = min(len(got), len(want))
    i = next((k for k in range(n) if got[k] != want[k]), n)
    lo = max(0, i - 8)
    return "first difference at byte %d: got %s, expected %s" % (i, short(got[lo:i + 16], 80), short(want[lo:i + 16], 80))


def check_multipart_serialized(case, exp, ok):
    if ok.get("content_type") != exp["content_type"]:
        return "content_type: got %s, expected %s" % (short(ok.get("content_type")), short(exp["content_type"]))
    body, diff = decode_b64_field(ok, "body_b64")
    if diff:
        return diff
    want = body_bytes(case, exp["body"])
    if body != want:
        return "body (%d bytes, expected %d): %s" % (len(body), len(want), first_byte_difference(body, want))
    cl = ok.get("content_length")
    if cl != len(body) or isinstance(cl, bool):
        return "content_length %s, but the body has %d bytes" % (short(cl), len(body))
    return None


def decode_b64_field(ok, field):
    v = ok.get(field)
    if not isinstance(v, str):
        return None, "ok.%s is missing or not a string" % field
    try:
        return base64.b64decode(v.encode("ascii"), validate=True), None
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None, "ok.%s is not valid base64" % field


# -- urlencoded ------------------------------------------------------------------------------------------------------

def check_pairs_result(case, exp, ok):
    return compare_pairs(ok.get("pairs"), exp["pairs"])


def compare_pairs(got, want):
    if not isinstance(got, list):
        return "ok.pairs is not a list: %s" % short(got)
    if got == want:
        return None
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return "pairs[%d]: got %s, expected %s" % (i, short(g), short(w))
    if len(got) != len(want):
        extra = got[len(want):] if len(got) > len(want) else want[len(got):]
        return "got %d pairs, expected %d (%s %s)" % (len(got), len(want),
                                                     "extra" if len(got) > len(want) else "missing", short(extra))
    return None


def check_urlencoded_text(case, exp, ok):
    text = ok.get("text")
    if text != exp["text"]:
        if not isinstance(text, str):
            return "ok.text is missing or not a string"
        n = min(len(text), len(exp["text"]))
        i = next((k for k in range(n) if text[k] != exp["text"][k]), n)
        return "text differs at char %d: got %s, expected %s" % (i, short(text[max(0, i - 10):i + 30]),
                                                               short(exp["text"][max(0, i - 10):i + 30]))
    return None


# -- clone -----------------------------------------------------------------------------------------------------------

def check_value_result(case, exp, ok):
    if "value" not in ok:
        return "ok.value is missing"
    return compare_values(ok["value"], exp["value"])


def check_clone_hex(case, exp, ok):
    h = ok.get("hex")
    if not isinstance(h, str):
        return "ok.hex is missing or not a string"
    h = h.lower()
    if h != exp["hex"]:
        try:
            got = bytes.fromhex(h)
        except ValueError:
            return "ok.hex is not hex: %s" % short(h)
        return "bytes differ: %s" % first_byte_difference(got, bytes.fromhex(exp["hex"]))
    return None


class Num:
    """A JS number: compared as an IEEE double, -0 distinct from 0, NaN equal to NaN."""
    __slots__ = ("key", "text")
    SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}

    def __init__(self, v):
        if isinstance(v, str):
            if v not in self.SPECIAL:
                raise ValueError("not a number description: %r" % v)
            f = self.SPECIAL[v]
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            f = float(v)
        else:
            raise ValueError("not a number description: %r" % (v,))
        self.key = "NaN" if math.isnan(f) else struct.pack(">d", f)
        self.text = json.dumps(v) if not isinstance(v, str) else v

    def __eq__(self, other):
        return isinstance(other, Num) and self.key == other.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return self.text


class U16:
    """A JS string as UTF-16 code units, whether described by `v` or `u16`."""
    __slots__ = ("units",)

    def __init__(self, v=None, u16=None):
        if u16 is not None:
            self.units = tuple(u16)
        else:
            b = v.encode("utf-16-le", "surrogatepass")
            self.units = struct.unpack("<%dH" % (len(b) // 2), b)

    def __eq__(self, other):
        return isinstance(other, U16) and self.units == other.units

    def __hash__(self):
        return hash(self.units)

    def __repr__(self):
        b = struct.pack("<%dH" % len(self.units), *self.units)
        return json.dumps(b.decode("utf-16-le", "surrogatepass"), ensure_ascii=False)


class BigInt:
    __slots__ = ("n",)

    def __init__(self, v):
        self.n = int(v)

    def __eq__(self, other):
        return isinstance(other, BigInt) and self.n == other.n

    def __hash__(self):
        return hash(self.n)

    def __repr__(self):
        return "%dn" % self.n


NUMBERISH = {"number", "date", "number-object"}
STRINGISH = {"string", "string-object"}
BIGINTISH = {"bigint", "bigint-object"}


def normalize(x):
    """A neutral value description in comparable form (vectors/SCHEMA.md §Neutral value description)."""
    if isinstance(x, list):
        return [normalize(i) for i in x]
    if isinstance(x, dict):
        t = x.get("t")
        out = {}
        for k, v in x.items():
            if k in ("v", "u16") and t in STRINGISH:
                out["v"] = U16(u16=v) if k == "u16" else U16(v=v)
            elif k == "v" and t in NUMBERISH:
                out["v"] = Num(v)
            elif k == "v" and t in BIGINTISH:
                out["v"] = BigInt(v)
            elif k == "base64" and t == "arraybuffer":
                out[k] = base64.b64decode(v)
            else:
                out[k] = normalize(v)
        return out
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, (int, float)):
        return Num(x)
    if isinstance(x, str):
        return U16(v=x)
    return x


def compare_values(got, want):
    try:
        g = normalize(got)
    except (ValueError, TypeError, binascii.Error) as e:
        return "value is not a valid neutral description: %s" % e
    return first_difference(g, normalize(want), "value")


def first_difference(g, w, path):
    if isinstance(w, dict):
        if not isinstance(g, dict):
            return "%s: got %s, expected an object description" % (path, short(g))
        if w.get("t") != g.get("t"):
            return "%s.t: got %s, expected %s" % (path, short(g.get("t")), short(w.get("t")))
        for k in w:
            if k not in g:
                return "%s.%s: missing, expected %s" % (path, k, _repr(w[k]))
            d = first_difference(g[k], w[k], "%s.%s" % (path, k))
            if d:
                return d
        for k in g:
            if k not in w:
                return "%s.%s: unexpected %s" % (path, k, _repr(g[k]))
        return None
    if isinstance(w, list):
        if not isinstance(g, list):
            return "%s: got %s, expected a list" % (path, _repr(g))
        for i, (a, b) in enumerate(zip(g, w)):
            d = first_difference(a, b, "%s[%d]" % (path, i))
            if d:
                return d
        if len(g) != len(w):
            return "%s: got %d items, expected %d" % (path, len(g), len(w))
        return None
    if type(g) is not type(w) or g != w:
        return "%s: got %s, expected %s" % (path, _repr(g), _repr(w))
    return None


def _repr(x, n=100):
    if isinstance(x, (bytes, bytearray)):
        s = "bytes " + bytes(x).hex()
    elif isinstance(x, (dict, list)):
        s = short(x, n)
    else:
        s = repr(x) if isinstance(x, (Num, U16, BigInt)) else json.dumps(x)
    return s if len(s) <= n else s[: n - 3] + "..."


# -- --cross: what a decoder must give back for an encoder case's input ------------------------------------------------

def _crlf(s):
    return s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")


def _escape_name(s):
    return s.replace("\n", "%0A").replace("\r", "%0D").replace('"', "%22")


def parts_from_entries(case):
    """The parts a WHATWG multipart/form-data encoding of the entries parses back to (HTML §multipart/form-data
    encoding algorithm): names get newlines normalized to CRLF then escaped (%0A %0D %22); string values get
    newlines normalized; filenames are escaped; a Blob is named "blob"; an empty type becomes
    application/octet-stream."""
    out = []
    for e in case.data["input"]["entries"]:
        p = {f: None for f in PART_FIELDS}
        p["name"] = _escape_name(_crlf(e["name"]))
        if "value" in e:
            data = _crlf(e["value"]).encode("utf-8")
        else:
            f = e.get("file") or e.get("blob")
            p["filename"] = _escape_name(f["filename"]) if "file" in e else "blob"
            p["content_type"] = f["type"] or "application/octet-stream"
            data = body_bytes(case, f["body"])
        p["body"] = (len(data), hashlib.sha256(data).hexdigest(), data)
        out.append(p)
    return out


def check_cross(case, result):
    """Compare a decoder's result for an encoder's output with the encoder case's input."""
    ok, diff = unwrap_ok(result)
    if diff:
        return diff
    if not isinstance(ok, dict):
        return "ok value is not an object: %s" % short(ok)
    if case.kind == "multipart-serialize":
        return compare_parts(ok.get("parts"), parts_from_entries(case), headers=False,
                             fields=("name", "filename", "content_type"))
    if case.kind == "urlencoded-serialize":
        return compare_pairs(ok.get("pairs"), case.data["input"]["pairs"])
    if "value" not in ok:
        return "ok.value is missing"
    return compare_values(ok["value"], case.data["input"]["value"])
