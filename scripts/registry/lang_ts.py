"""TypeScript emitter: ts/src/core/registry.ts, the limit defaults, lenient option names, the `ErrorCode` union (every
format, SC codes included) and each code's kind and HTTP status. Runtime-free, no imports."""

from __future__ import annotations

import textwrap

import gen  # type: ignore[import-not-found]

NAMES = {"multipart": "MULTIPART", "urlencoded": "URLENCODED", "clone": "CLONE"}
TYPES = {"multipart": "Multipart", "urlencoded": "Urlencoded", "clone": "Clone"}


def jsdoc(text: str, indent: str = "") -> str:
    lines = textwrap.wrap(
        " ".join(text.split()), width=116 - len(indent), break_long_words=False, break_on_hyphens=False
    )
    if len(lines) == 1 and len(indent) + len(lines[0]) + 7 <= 120:
        return f"{indent}/** {lines[0]} */\n"
    return f"{indent}/**\n" + "".join(f"{indent} * {ln}\n" for ln in lines) + f"{indent} */\n"


def union(name: str, codes: list[str]) -> str:
    if not codes:
        return f"export type {name} = never;\n"
    return f"export type {name} =\n" + "".join(f"  | '{c}'\n" for c in codes).rstrip("\n") + ";\n"


def outputs(reg: dict) -> dict[str, str]:
    out = [
        gen.header("//"),
        "/**\n",
        " * The limits, lenient options and error codes of spec/registry.json: defaults by format, the `ErrorCode`\n",
        " * union and each code's kind and HTTP status. Edit spec/registry.json and run `make registry`.\n",
        " */\n\n",
    ]
    for fmt in gen.FORMATS:
        lims = gen.limits(reg, fmt)
        out.append(f"/** The {fmt} limits, each optional; `Infinity` or `null` is unlimited. */\n")
        out.append(f"export interface {TYPES[fmt]}Limits {{\n")
        for lim in lims:
            out.append(jsdoc(f"`{lim['name']}`, default {lim['default']}; exceeding it is {lim['error']}.", "  "))
            out.append(f"  {gen.camel(lim['name'])}?: number | null;\n")
        out.append("}\n\n")
        out.append(f"/** Default {fmt} limits (spec/limits.md). */\n")
        out.append(
            f"export const {NAMES[fmt]}_DEFAULTS: Readonly<Record<keyof {TYPES[fmt]}Limits, number>> = Object.freeze({{\n"
        )
        for lim in lims:
            out.append(jsdoc(f"`{lim['name']}` ({lim['error']}): {lim['why']}", "  "))
            out.append(f"  {gen.camel(lim['name'])}: {lim['default']},\n")
        out.append("});\n\n")
        form = gen.limits(reg, fmt, "form")
        if form:
            out.append(
                f"/** The {fmt} limits of the whole-form readers that spool files to disk (registry layer `form`); the\n"
                " * streaming parser does not take them. `Infinity` or `null` is unlimited. */\n"
            )
            out.append(f"export interface {TYPES[fmt]}FormLimits {{\n")
            for lim in form:
                out.append(jsdoc(f"`{lim['name']}`, default {lim['default']}; exceeding it is {lim['error']}.", "  "))
                out.append(f"  {gen.camel(lim['name'])}?: number | null;\n")
            out.append("}\n\n")
            out.append(f"/** Default {fmt} limits of the spooling form readers (spec/limits.md). */\n")
            out.append(
                f"export const {NAMES[fmt]}_FORM_DEFAULTS: Readonly<Record<keyof {TYPES[fmt]}FormLimits, number>> = "
                "Object.freeze({\n"
            )
            for lim in form:
                out.append(jsdoc(f"`{lim['name']}` ({lim['error']}): {lim['why']}", "  "))
                out.append(f"  {gen.camel(lim['name'])}: {lim['default']},\n")
            out.append("});\n\n")
        opts = gen.options(reg, fmt)
        if opts:
            out.append(f"/** The {fmt} lenient options (MP-R-02), all off by default. */\n")
            out.append(f"export interface {TYPES[fmt]}Flags {{\n")
            for o in opts:
                rules = ", ".join(o.get("rules", []))
                out.append(jsdoc(f"{rules + ': ' if rules else ''}{o['meaning']}.", "  "))
                out.append(f"  {gen.camel(o['name'])}?: boolean;\n")
            out.append("}\n\n")
        out.append(union(f"{TYPES[fmt]}ErrorCode", [e["code"] for e in gen.errors(reg, fmt)]))
        out.append("\n")
    out.append(
        "/** Each format's limit and lenient option names: spec (snake_case) name -> TypeScript option name. */\n"
    )
    out.append(
        "export const OPTION_NAMES: Readonly<Record<'multipart' | 'urlencoded' | 'clone', "
        "Readonly<Record<string, string>>>> = Object.freeze({\n"
    )
    for fmt in gen.FORMATS:
        names = [o["name"] for o in gen.options(reg, fmt)] + [x["name"] for x in gen.limits(reg, fmt)]
        out.append(f"  {fmt}: Object.freeze({{\n")
        out.extend(f"    {n}: '{gen.camel(n)}',\n" for n in names)
        out.append("  }),\n")
    out.append("});\n\n")
    out.append("/** Every error code of spec/errors.md. Codes are the contract; messages are not. */\n")
    out.append("export type ErrorCode = " + " | ".join(f"{TYPES[f]}ErrorCode" for f in gen.FORMATS) + ";\n\n")
    out.append(
        "/** What a code means for a caller: malformed input (400), an unsupported value (400), a limit (413), an\n"
        " * encoder error (no HTTP status). */\n"
    )
    out.append("export type ErrorKind = " + " | ".join(f"'{k}'" for k in gen.KIND_STATUS) + ";\n\n")
    out.append("/** Each code's kind and the HTTP status a server answers with (`null` for encoder errors). */\n")
    out.append(
        "export const ERROR_CODES: Readonly<Record<ErrorCode, { readonly kind: ErrorKind; "
        "readonly httpStatus: number | null }>> =\n  Object.freeze({\n"
    )
    for e in reg["errors"]:
        st = "null" if e["http_status"] is None else e["http_status"]
        out.append(f"    {e['code']}: {{ kind: '{e['kind']}', httpStatus: {st} }},\n")
    out.append("  });\n")
    return {"ts/src/core/registry.ts": "".join(out)}
