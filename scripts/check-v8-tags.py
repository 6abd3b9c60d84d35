#!/usr/bin/env python3
"""Check every copy of the V8 tag bytes against spec/v8-tags.json, the one table of them.

Checked: spec/structured-clone.md (the SC-W-04 item table, the SC-W-19 view subtag table, the SC-W-20 error
subtags), formwire-v8's constants and match arms (Rust), ts/src/clone/wire.ts (TypeScript), go/v8/tags.go and
value.go (Go), dev.formwire.v8.Tags and ViewKind (Java), and the JS reference codec conformance/oracles/reference.mjs.
Go and Java names follow the table's `ts` names (Go: tag/errTag + CamelCase; Java: as is, ERROR_ for Error subtags);
the oracle names tags by their character. A copy with a missing, extra or different byte fails. Prints one line per check and closes with `N passed, N failed`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
V8 = ROOT / "rust" / "crates" / "formwire-v8" / "src"


def read(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def rust_byte(lit: str) -> int:
    if lit.startswith("0x"):
        return int(lit, 16)
    c = lit[2:-1]  # b'x' or b'\x'
    return ord(c[1:] if c.startswith("\\") else c)


RUST_LIT = r"(b'(?:\\.|[^'])'|0x[0-9A-Fa-f]+)"


def main() -> int:
    table = json.loads(read("spec/v8-tags.json"))
    tags = {int(t["byte"], 16): t for t in table["tags"]}
    errs = {int(e["byte"], 16): e for e in table["error_subtags"]}
    views = {int(v["byte"], 16): v for v in table["view_subtags"]}
    results: list[tuple[str, list[str]]] = []

    def check(name: str, want: dict[str, int], got: dict[str, int]) -> None:
        problems = [f"{k}: missing" for k in want if k not in got]
        problems += [f"{k}: not in spec/v8-tags.json" for k in got if k not in want]
        problems += [f"{k}: {got[k]:#04x}, table says {want[k]:#04x}" for k in want if k in got and got[k] != want[k]]
        results.append((name, problems))

    # The table itself: bytes distinct within each list.
    for key in ("tags", "error_subtags", "view_subtags"):
        n = len(table[key])
        results.append(
            (f"table {key}: distinct bytes", [] if len({r['byte'] for r in table[key]}) == n else ["repeated byte"])
        )

    # spec/structured-clone.md
    spec = read("spec/structured-clone.md")
    m = re.search(r"^\| tag \| hex \|.*?\n\|[-|]+\n(.*?)\n\n", spec, re.S | re.M)
    listed: set[int] = set()
    for row in m.group(1).splitlines() if m else []:
        for h in re.split(r"[ /]+", row.split("|")[2].strip()):
            listed.add(int(h, 16))
    check("spec SC-W-04 item table", {f"{b:02X}": b for b in tags}, {f"{b:02X}": b for b in listed})
    sub = re.search(r"^\| subtag \|(.*)\n\|[-|]+\n\| kind \|(.*)\n", spec, re.M)
    spec_views: dict[str, int] = {}
    if sub:
        chars = [c.strip().strip("`") for c in sub.group(1).split("|") if c.strip()]
        kinds = [k.strip() for k in sub.group(2).split("|") if k.strip()]
        spec_views = {(k if k == "DataView" else k + "Array"): ord(c) for c, k in zip(chars, kinds)}
    check("spec SC-W-19 view subtags", {v["kind"]: b for b, v in views.items()}, spec_views)
    w20 = re.search(r"\*\*SC-W-20 Error\.\*\*(.*?)\n\n", spec, re.S)
    text = w20.group(1) if w20 else ""
    spec_errs = {e["char"]: b for b, e in errs.items() if f"`{e['char']}`" in text or f"({e['byte']})" in text}
    check("spec SC-W-20 error subtags", {e["char"]: b for b, e in errs.items()}, spec_errs)

    # Rust: tags.rs constants, ErrorName::subtag, ViewKind's subtag arms.
    tags_rs = (V8 / "tags.rs").read_text(encoding="utf-8")
    consts = {n: rust_byte(v) for n, v in re.findall(r"pub const (\w+): u8 = " + RUST_LIT + ";", tags_rs)}
    check(
        "rust tags.rs TAG_*",
        {t["rust"]: b for b, t in tags.items()},
        {n: v for n, v in consts.items() if n.startswith("TAG_")},
    )
    value_rs = (V8 / "value.rs").read_text(encoding="utf-8")
    rust_errs = {
        f"ErrorName::{n}": rust_byte(v)
        for n, v in re.findall(r"ErrorName::(\w+) => Some\(" + RUST_LIT + r"\)", value_rs)
    }
    rust_errs.update({n: v for n, v in consts.items() if n.startswith("ERROR_")})
    check("rust error subtags (tags.rs ERROR_*, ErrorName::subtag)", {e["rust"]: b for b, e in errs.items()}, rust_errs)
    rust_views = {n: rust_byte(v) for n, v in re.findall(r"ViewKind::(\w+) => " + RUST_LIT + ",", value_rs)}
    check("rust ViewKind subtags", {v["kind"]: b for b, v in views.items()}, rust_views)

    # TypeScript: the T and E const enums and VIEW_SUBTAG of wire.ts.
    wire = read("ts/src/clone/wire.ts")

    def block(start: str) -> str:
        b = re.search(re.escape(start) + r"(.*?)\n\}", wire, re.S)
        return b.group(1) if b else ""

    ts_t = {n: int(v, 16) for n, v in re.findall(r"(\w+) = (0x[0-9a-fA-F]+)", block("export const enum T {"))}
    check("ts wire.ts enum T", {t["ts"]: b for b, t in tags.items()}, ts_t)
    ts_e = {n: int(v, 16) for n, v in re.findall(r"(\w+) = (0x[0-9a-fA-F]+)", block("export const enum E {"))}
    check("ts wire.ts enum E", {e["ts"]: b for b, e in errs.items()}, ts_e)
    ts_v = {
        n: int(v, 16)
        for n, v in re.findall(
            r"(\w+): (0x[0-9a-fA-F]+)", block("export const VIEW_SUBTAG: Record<string, number> = {")
        )
    }
    check("ts wire.ts VIEW_SUBTAG", {v["kind"]: b for b, v in views.items()}, ts_v)

    # Go: the tag* and errTag* constants of go/v8/tags.go (names: "tag"/"errTag" + the ts name in CamelCase), the
    # viewSubtags array of value.go in the order of the ViewKind constants.
    def camel(ts: str) -> str:
        return "".join(w.capitalize() for w in ts.split("_"))

    def char_lit(lit: str) -> int:  # 'x', '\'', '\\' or 0xNN (Go, Java, Rust-free)
        if lit.startswith("0x"):
            return int(lit, 16)
        c = lit[1:-1]
        return ord(c[1:] if c.startswith("\\") else c)

    CHAR_LIT = r"('(?:\\.|[^'\\])'|0x[0-9A-Fa-f]+)"
    go_tags_src = read("go/v8/tags.go")
    go_consts = {n: char_lit(v) for n, v in re.findall(r"^\s*(\w+)\s+byte = " + CHAR_LIT, go_tags_src, re.M)}
    check(
        "go tags.go tag*",
        {"tag" + camel(t["ts"]): b for b, t in tags.items()},
        {n: v for n, v in go_consts.items() if n.startswith("tag")},
    )
    check(
        "go tags.go errTag*",
        {"errTag" + camel(e["ts"]): b for b, e in errs.items()},
        {n: v for n, v in go_consts.items() if n.startswith("errTag")},
    )
    go_value = read("go/v8/value.go")
    kinds_m = re.search(r"Int8Array ViewKind = iota\n(.*?)\n\tnumViewKinds", go_value, re.S)
    go_kinds = ["Int8Array"] + (kinds_m.group(1).split() if kinds_m else [])
    subs_m = re.search(r"var viewSubtags = \[numViewKinds\]byte\{(.*?)\}", go_value)
    go_subs = [char_lit(x.strip()) for x in subs_m.group(1).split(",")] if subs_m else []
    check(
        "go value.go viewSubtags",
        {v["kind"]: b for b, v in views.items()},
        dict(zip(go_kinds, go_subs))
        if len(go_kinds) == len(go_subs)
        else {"(ViewKind and viewSubtags differ in length)": 0},
    )

    # Java: the constants of dev.formwire.v8.Tags (names: the ts names; Error subtags ERROR_ + the ts name), the
    # subtags of the ViewKind enum.
    jdir = "java/formwire-core/src/main/java/dev/formwire/v8/"
    j_tags = {
        n: char_lit(v)
        for n, v in re.findall(r"static final byte (\w+) = (?:\(byte\) )?" + CHAR_LIT + ";", read(jdir + "Tags.java"))
    }
    check(
        "java Tags tags",
        {t["ts"]: b for b, t in tags.items()},
        {n: v for n, v in j_tags.items() if not n.startswith("ERROR_")},
    )
    check(
        "java Tags ERROR_*",
        {"ERROR_" + e["ts"]: b for b, e in errs.items()},
        {n: v for n, v in j_tags.items() if n.startswith("ERROR_")},
    )
    j_views = {n: char_lit(v) for n, v in re.findall(r"(\w+)\(" + CHAR_LIT + r", \d+\)", read(jdir + "ViewKind.java"))}
    check("java ViewKind subtags", {v["kind"]: b for b, v in views.items()}, j_views)

    # The JS reference codec (conformance/oracles/reference.mjs): tags named by their character (T), VERSION_TAG and
    # PADDING_TAG, ERROR_PROTO and ERROR_SUBTAG (characters), VIEW_SUBTAG (character -> kind).
    ref = read("conformance/oracles/reference.mjs")
    t_m = re.search(r"^const T = Object\.fromEntries\(\[\.\.\.'((?:\\.|[^'\\])*)'", ref, re.M)
    t_chars = re.sub(r"\\(.)", r"\1", t_m.group(1)).replace(" ", "") if t_m else ""
    ref_tags = {c: ord(c) for c in t_chars}
    for name in ("VERSION_TAG", "PADDING_TAG"):
        v = re.search(rf"^const {name} = (0x[0-9a-fA-F]+);", ref, re.M)
        if v:
            ref_tags[name] = int(v.group(1), 16)
    want_tags = {t["char"]: b for b, t in tags.items() if t["char"]}
    want_tags.update({"VERSION_TAG": 0xFF, "PADDING_TAG": 0x00})
    check("oracle reference.mjs T, VERSION_TAG, PADDING_TAG", want_tags, ref_tags)

    def js_object(name: str) -> dict[str, str]:
        m = re.search(rf"^const {name} = \{{(.*?)\}};", ref, re.M | re.S)
        pairs = re.findall(r"(?:'((?:\\.|[^'])*)'|(\w+)): '((?:\\.|[^'])*)'", m.group(1)) if m else []
        return {(a or b).replace("\\", ""): c.replace("\\", "") for a, b, c in pairs}

    protos = {e["meaning"].split()[-1]: b for b, e in errs.items() if e["meaning"].startswith("prototype ")}
    check("oracle reference.mjs ERROR_PROTO", protos, {n: ord(c) for c, n in js_object("ERROR_PROTO").items()})
    fields = {e["ts"].lower(): b for b, e in errs.items() if not e["meaning"].startswith("prototype ")}
    check("oracle reference.mjs ERROR_SUBTAG", fields, {k: ord(c) for k, c in js_object("ERROR_SUBTAG").items()})
    check(
        "oracle reference.mjs VIEW_SUBTAG",
        {v["kind"]: b for b, v in views.items()},
        {k: ord(c) for c, k in js_object("VIEW_SUBTAG").items()},
    )

    failed = 0
    for name, problems in results:
        print(("ok   " if not problems else "FAIL ") + name)
        for p in problems:
            print("       " + p)
        failed += bool(problems)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
