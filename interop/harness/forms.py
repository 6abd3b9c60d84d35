"""The forms every producer is told to send, and what each one must decode to.

Entries use the neutral form of vectors/SCHEMA.md (`{"name", "value"}`, `{"name", "file": {...}}`,
`{"name", "blob": {...}}`, bodies as `{"base64": ...}`).

Two expectations exist for every (producer, case):

- **meant**: the told entries run through the WHATWG serializer rules (MP-S-01..07) and read back by the parser rules
  (MP-H-10, MP-F-01..03): names escaped one-way (`"` -> `%22`, newlines normalized then escaped), string values with
  CRLF newlines, Blobs named `blob`, an empty type as `application/octet-stream`. This is what a browser's bytes decode
  to, and what every consumer of formwire's (WHATWG-exact) output must give.
- **wire**: what that producer really writes (its profile below, each deviation from WHATWG a named quirk documented in
  interop/DISAGREEMENTS.md), read by formwire's parser rules. formwire must decode a capture to exactly this; when it
  differs from *meant*, the matrix cell is "known (rules)", and the quirk names say why.
"""
from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------------------------------------
# Told entries


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def V(name: str, value: str) -> dict:
    return {"name": name, "value": value}


def F(name: str, filename: str, type_: str, body: bytes) -> dict:
    return {"name": name, "file": {"filename": filename, "type": type_, "body": {"base64": b64(body)}}}


def BLOB(name: str, type_: str, body: bytes) -> dict:
    return {"name": name, "blob": {"type": type_, "body": {"base64": b64(body)}}}


def body_of(e: dict) -> bytes:
    part = e.get("file") or e.get("blob")
    return base64.b64decode(part["body"]["base64"])


BIN = bytes(range(256)) + b"\r\n--\r\n\r\n--x--\r\n" + bytes(reversed(range(256)))

# Multipart forms (FormData-shaped: what fetch/new Response(formData) and formwire's serializer are given).
MULTIPART: dict[str, list[dict]] = {
    "basic": [V("a", "1"), V("note", "line1\nline2"), F("file", "hello.txt", "text/plain", b"hello\n")],
    "unicode": [V("名前", "значение ✓ 😀"),
                F("upload", "résumé ü 日本.txt", "text/plain", "héllo wörld ✓\n".encode())],
    "quotes": [V('a"b', 'say "hi"'), F("file", 'q"x.txt', "text/plain", b"q")],
    "newlines": [V("a\nb", "v1"), V("c\r\nd", "v2"), V("e\rf", "v3\rv4\n"), V("tab\there", "t"),
                 F("file", "x\ny\r.txt", "text/plain", b"n\r\n")],
    "empty": [V("empty", ""), F("nothing", "empty.bin", "application/octet-stream", b""),
              F("untyped", "u.bin", "", b"u")],
    "binary": [F("bin", "bytes.bin", "application/octet-stream", BIN)],
    "backslash": [V("x\\y", "1"), V("two\\\\slashes", "2"), F("file", "a\\b.txt", "text/plain", b"b")],
    "blob": [BLOB("blob", "application/octet-stream", b"\x00\x01\xff"), BLOB("typed", "image/png", b"\x89PNG\r\n\x1a\n")],
    "dupes": [V("k", "1"), V("k", "2"), F("k", "k.txt", "text/plain", b"3"), V("k", "4")],
    "percent": [V("a%22b%0Ac", "100%"), F("file", "p%20q.txt", "text/plain", b"p")],
    "semicolon": [V("a; b=c", "v;w"), F("file", "x; filename=evil.txt", "text/plain", b"s")],
    "empty-filename": [F("file", "", "text/plain", b"e")],
    "types": [F("j", "data.json", "application/json", b'{"a":1}'), F("h", "page.html", "text/html", b"<p>hi</p>")],
}

# HTML form submissions (Chromium): what the form holds. File inputs take files from disk, typed by Chromium from the
# extension (.txt text/plain, .bin application/octet-stream); a file input with no file sends an empty File named "".
FORM_MULTIPART: dict[str, list[dict]] = {
    "basic": [V("a", "1"), V("note", "line1\nline2"), F("file", "hello.txt", "text/plain", b"hello\n")],
    "unicode": [V("名前", "значение ✓ 😀"),
                F("upload", "résumé ü 日本.txt", "text/plain", "héllo wörld ✓\n".encode())],
    "quotes": [V('a"b', 'say "hi"'), F("file", 'q"x.txt', "text/plain", b"q")],
    "newlines": [V("a\nb", "v1"), V("c\r\nd", "v2"), V("e\rf", "v3\rv4\n"), V("tab\there", "t"),
                 F("file", "x\ny.txt", "text/plain", b"n\r\n")],
    "empty": [V("empty", ""), F("nothing", "empty.bin", "application/octet-stream", b""),
              F("nofile", "", "application/octet-stream", b"")],
    "binary": [F("bin", "bytes.bin", "application/octet-stream", BIN)],
    "backslash": [V("x\\y", "1"), V("two\\\\slashes", "2"), F("file", "a\\b.txt", "text/plain", b"b")],
    "dupes": [V("k", "1"), V("k", "2"), F("k", "k.txt", "text/plain", b"3"), V("k", "4")],
    "percent": [V("a%22b%0Ac", "100%"), F("file", "p%20q.txt", "text/plain", b"p")],
    "semicolon": [V("a; b=c", "v;w"), F("file", "x; filename=evil.txt", "text/plain", b"s")],
}

URLENCODED: dict[str, list[list[str]]] = {
    "basic": [["a", "1"], ["b", "two words"]],
    "symbols": [["sym", "&=+%#?/;"], ["q", "\"'<>*~"]],
    "unicode": [["名前", "é✓😀"]],
    "newlines": [["nl", "l1\nl2\r\nl3\r"]],
    "empty": [["e", ""], ["f", ""]],
    "dupes": [["k", "1"], ["j", "x"], ["k", "2"]],
    "name-symbols": [["a b&c=d+e%", "v"]],
}

# ---------------------------------------------------------------------------------------------------------------------
# Decoded entries: {"name", "filename" (None for a string entry), "type" (None for a string entry), "body" (bytes)}


def norm_newlines(s: str) -> str:
    return re.sub(r"\r\n|\r|\n", "\r\n", s)


def esc_filename(s: str) -> str:
    """MP-S-03 (and the percent style of many producers): CR, LF, `"` percent-encoded, no normalization."""
    return s.replace("\r", "%0D").replace("\n", "%0A").replace('"', "%22")


def esc_name(s: str) -> str:
    """MP-S-02: newlines normalized to CRLF, then escaped like a filename."""
    return esc_filename(norm_newlines(s))


def meant_multipart(entries: list[dict]) -> list[dict]:
    """What WHATWG bytes for these entries decode to under the MP rules."""
    out = []
    for e in entries:
        if "value" in e:
            out.append({"name": esc_name(e["name"]), "filename": None, "type": None,
                        "body": norm_newlines(e["value"]).encode("utf-8")})  # MP-S-04, MP-F-01
        else:
            part = e.get("file") or e.get("blob")
            filename = "blob" if "blob" in e else part["filename"]  # MP-S-05
            out.append({"name": esc_name(e["name"]), "filename": esc_filename(filename),
                        "type": part["type"] or "application/octet-stream",  # MP-S-06
                        "body": body_of(e)})
    return out


def meant_urlencoded(pairs: list[list[str]], html_form: bool = False) -> list[list[str]]:
    """UE-S-07: pairs come back as given. An HTML form first normalizes newlines in names and values (HTML
    "convert to a list of name-value pairs")."""
    if html_form:
        return [[norm_newlines(n), norm_newlines(v)] for n, v in pairs]
    return [[n, v] for n, v in pairs]


# ---------------------------------------------------------------------------------------------------------------------
# Producer profiles: how each producer deviates from the WHATWG serializer. Every deviation is a quirk key, documented
# in interop/DISAGREEMENTS.md with the rule that decides how formwire reads the bytes.

# The first rule of each quirk is the one that decides formwire's reading (shown in the matrix cells).
QUIRK_RULES = {
    # producer side (multipart)
    "name-newlines-not-normalized": ["MP-S-02", "MP-H-10"],
    "value-newlines-not-normalized": ["MP-S-04", "MP-P-06"],
    "backslash-escaped": ["MP-H-07", "MP-H-10"],
    "quote-as-quoted-pair": ["MP-H-07", "MP-H-10"],
    "control-chars-escaped": ["MP-S-02", "MP-S-03", "MP-H-10"],
    "untyped-file-no-content-type": ["MP-F-03", "MP-S-06"],
    "empty-filename-omitted": ["MP-S-05", "MP-H-08"],
    "fields-before-files": ["MP-F-04", "MP-S-01"],
    # producer side (urlencoded)
    "postform-sorted-by-name": ["UE-P-09"],
    "dict-groups-duplicate-names": ["UE-P-09"],
    # consumer side
    "consumer-percent-decodes-params": ["MP-H-10", "MP-S-02"],
    "consumer-filename-basename": ["MP-H-10"],
    "consumer-quoted-pairs": ["MP-H-07"],
    "consumer-quoted-pairs-quote-backslash": ["MP-H-07"],
    "consumer-quoted-pairs-tspecials": ["MP-H-07"],
    "consumer-decodes-percent-22": ["MP-H-10", "MP-S-02"],
    "consumer-params-latin1": ["MP-H-10"],
    "consumer-empty-filename-is-field": ["MP-H-08", "MP-F-02"],
    "consumer-groups-by-name": ["MP-F-04", "UE-P-09"],
    "consumer-names-unordered": ["UE-P-09"],
}


@dataclass(frozen=True)
class Profile:
    name_esc: str = "whatwg"  # whatwg | pct | go | httpx
    filename_esc: str = "whatwg"  # whatwg | pct | go | httpx
    value_nl: str = "crlf"  # crlf | raw
    untyped: str = "octet"  # octet | none  (a told type "" is sent as application/octet-stream, or with no header)
    empty_filename: str = "empty"  # empty | omit
    order: str = "keep"  # keep | fields-first
    ue_order: str = "keep"  # keep | sorted | grouped
    html_form: bool = False


PROFILES: dict[str, Profile] = {
    "chromium-form": Profile(html_form=True),
    "chromium-fetch": Profile(),
    "node-fetch": Profile(empty_filename="omit"),
    "node-response": Profile(empty_filename="omit"),
    "node-form-data": Profile(name_esc="pct", filename_esc="pct", value_nl="raw"),
    "py-requests": Profile(name_esc="pct", filename_esc="pct", value_nl="raw", untyped="none", order="fields-first"),
    "py-httpx": Profile(name_esc="httpx", filename_esc="httpx", value_nl="raw", order="fields-first",
                        empty_filename="omit", ue_order="grouped"),
    "py-urllib3": Profile(name_esc="pct", filename_esc="pct", value_nl="raw"),
    "go": Profile(name_esc="go", filename_esc="go", value_nl="raw", ue_order="sorted"),
    "curl": Profile(name_esc="pct", filename_esc="pct", value_nl="raw"),
}


class WireError(Exception):
    """The producer's bytes for this entry break an MP rule: formwire must report this error."""

    def __init__(self, code: str, index: int, quirk: str):
        super().__init__(code)
        self.code, self.index, self.quirk = code, index, quirk


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def _cd_params(v: str, qp: bool) -> dict | None:
    """MP-H-07's grammar over a Content-Disposition value, quoted-strings read literally or (`qp`) with quoted-pairs:
    the parameters by lowercased name, or None when the value does not match (a separate reading from the parsers')."""
    m = _TOKEN.match(v)
    if not m or m.group().lower() != "form-data":
        return None
    i, out = m.end(), {}
    while True:
        while i < len(v) and v[i] in " \t":
            i += 1
        if i == len(v):
            return out
        if v[i] != ";":
            return None
        i += 1
        while i < len(v) and v[i] in " \t":
            i += 1
        if i == len(v) or v[i] == ";":
            continue
        m = _TOKEN.match(v, i)
        if not m:
            return None
        key, i = m.group().lower(), m.end()
        while i < len(v) and v[i] in " \t":
            i += 1
        if i == len(v) or v[i] != "=":
            return None
        i += 1
        while i < len(v) and v[i] in " \t":
            i += 1
        if i < len(v) and v[i] == '"':
            i += 1
            val = []
            while i < len(v) and v[i] != '"':
                if qp and v[i] == "\\" and i + 1 < len(v):
                    i += 1
                val.append(v[i])
                i += 1
            if i == len(v):
                return None
            i += 1
            value = "".join(val)
        else:
            m = _TOKEN.match(v, i)
            if not m:
                return None
            value, i = m.group(), m.end()
        if key in out:
            return None
        out[key] = value


def _go_read(name: str, filename: str | None, quirks: set, index: int) -> tuple[str, str | None]:
    """How formwire reads Go's Content-Disposition for these (already escaped) parameters: literally first, with
    quoted-pairs when that fails (MP-H-07)."""
    cd = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename is not None else "")
    for qp in (False, True):
        got = _cd_params(cd, qp)
        if got is not None and "name" in got:
            if qp:
                quirks.add("quote-as-quoted-pair")
            elif "\\" in cd:
                quirks.add("backslash-escaped")
            return got["name"], got.get("filename")
    raise WireError("MP_DISPOSITION", index, "quote-as-quoted-pair")


def _wire_param(s: str, style: str, is_name: bool, quirks: set, index: int) -> str:
    """The parameter value a producer writes for `s`, as formwire reads it back (MP-H-10: no decoding); Go's values
    are returned as written, for `_go_read` to read (MP-H-07 reads the whole header one way)."""
    if style == "whatwg":
        return esc_name(s) if is_name else esc_filename(s)
    lone_nl = re.search(r"\r(?!\n)|(?<!\r)\n", s) is not None
    if style in ("pct", "go") and is_name and lone_nl:
        quirks.add("name-newlines-not-normalized")
    if style == "pct":
        return esc_filename(s)
    if style == "go":  # mime/multipart escapeQuotes: \ -> \\, " -> \", CR -> %0D, LF -> %0A
        return s.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "%0D").replace("\n", "%0A")
    if style == "httpx":  # " -> %22, \ -> \\, every C0 control but ESC -> %XX
        if "\\" in s:
            quirks.add("backslash-escaped")
        out = s.replace('"', "%22").replace("\\", "\\\\")
        out = "".join("%%%02X" % ord(c) if ord(c) < 0x20 and c != "\x1b" else c for c in out)
        if is_name and lone_nl:
            quirks.add("name-newlines-not-normalized")
        if any(ord(c) < 0x20 and c not in "\r\n\x1b" for c in s):
            quirks.add("control-chars-escaped")
        return out
    raise ValueError(style)


@dataclass
class Expectation:
    entries: list | None = None  # decoded entries, or None when an error is expected
    error: WireError | None = None
    quirks: set = field(default_factory=set)

    def rules(self) -> list[str]:
        return sorted({r for q in self.quirks for r in QUIRK_RULES[q]})


def wire_multipart(producer: str, entries: list[dict]) -> Expectation:
    """What formwire must decode `producer`'s bytes for `entries` to (MP rules applied to the producer's profile)."""
    p = PROFILES[producer]
    quirks: set = set()
    ordered = list(entries)
    if p.order == "fields-first":
        ordered = [e for e in entries if "value" in e] + [e for e in entries if "value" not in e]
        if ordered != list(entries):
            quirks.add("fields-before-files")
    out = []
    try:
        for i, e in enumerate(ordered):
            name = _wire_param(e["name"], p.name_esc, True, quirks, i)
            if "value" in e:
                v = e["value"]
                if p.value_nl == "raw":
                    if norm_newlines(v) != v:
                        quirks.add("value-newlines-not-normalized")
                else:
                    v = norm_newlines(v)
                if p.name_esc == "go":
                    name, _ = _go_read(name, None, quirks, i)
                out.append({"name": name, "filename": None, "type": None, "content_type": None,
                            "body": v.encode("utf-8")})
                continue
            part = e.get("file") or e.get("blob")
            fn = "blob" if "blob" in e else part["filename"]
            ctype = part["type"] or ("application/octet-stream" if p.untyped == "octet" else None)
            if ctype is None:
                quirks.add("untyped-file-no-content-type")
            if fn == "" and p.empty_filename == "omit":
                quirks.add("empty-filename-omitted")
                out.append({"name": name, "filename": None, "type": None, "content_type": ctype,
                            "body": body_of(e)})
                continue
            filename = _wire_param(fn, p.filename_esc, False, quirks, i)
            if p.name_esc == "go":
                name, filename = _go_read(name, filename, quirks, i)
            out.append({"name": name, "filename": filename, "type": ctype if ctype is not None else "text/plain",
                        "content_type": ctype, "body": body_of(e)})
    except WireError as err:
        return Expectation(error=err, quirks=quirks)
    exp = Expectation(entries=out, quirks=quirks)
    if not quirks:
        assert strip_ct(out) == meant_multipart(entries), (producer, entries)
    return exp


def wire_urlencoded(producer: str, pairs: list[list[str]]) -> Expectation:
    p = PROFILES[producer]
    quirks: set = set()
    out = meant_urlencoded(pairs, p.html_form)
    if p.ue_order == "sorted":  # Go url.Values.Encode sorts by name (stable for one name's values)
        s = sorted(out, key=lambda kv: kv[0].encode("utf-8"))
        if s != out:
            quirks.add("postform-sorted-by-name")
        out = s
    elif p.ue_order == "grouped":  # a dict of lists: every value of a name at its first position
        seen: dict[str, list[str]] = {}
        for n, v in out:
            seen.setdefault(n, []).append(v)
        g = [[n, v] for n, vs in seen.items() for v in vs]
        if g != out:
            quirks.add("dict-groups-duplicate-names")
        out = g
    return Expectation(entries=out, quirks=quirks)


def strip_ct(entries: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "content_type"} for e in entries]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
