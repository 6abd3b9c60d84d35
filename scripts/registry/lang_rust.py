"""Rust emitter: the registry as Rust constants and enums, one generated module per crate.

  rust/crates/formwire/src/registry.rs     `ErrorCode` (every code), `ErrorKind` (with the HTTP status), the
                                           multipart/urlencoded/clone limit defaults and the multipart `Options`
                                           struct is built from them in multipart/mod.rs
  rust/crates/formwire-v8/src/registry.rs  the `SC_` codes as formwire-v8's `ErrorCode`, `ErrorKind`, clone defaults

The output is already in rustfmt's layout (`cargo fmt --check` runs over it in `make lint`).
"""

from __future__ import annotations

import textwrap

import gen  # type: ignore[import-not-found]

KINDS = [
    ("malformed", "Malformed", "The input breaks a rule of the format (HTTP 400)."),
    (
        "unsupported",
        "Unsupported",
        "The input is well-formed but uses what cannot cross a process boundary (HTTP 400).",
    ),
    ("limit", "Limit", "A named limit of `spec/limits.md` was exceeded (HTTP 413)."),
    ("encode", "Encode", "An encoder refused its input; no HTTP response status."),
]
KIND_NAME = {k: n for k, n, _ in KINDS}


def doc(text: str, indent: str = "", prefix: str = "///") -> str:
    lead = f"{indent}{prefix} "
    lines = textwrap.wrap(" ".join(text.split()), width=100 - len(lead), break_long_words=False, break_on_hyphens=False)
    return "".join(f"{lead}{ln}\n".replace(" \n", "\n") for ln in lines)


def const(name: str) -> str:
    return name.upper()


def rust_int(n: int) -> str:
    """1048576 -> 1_048_576 (clippy's unreadable_literal is pedantic; underscores read better anyway)."""
    s = str(n)
    if len(s) <= 4:
        return s
    groups = []
    while s:
        groups.insert(0, s[-3:])
        s = s[:-3]
    return "_".join(groups)


def kind_enum() -> str:
    out = [
        "/// What an error code means for a caller: the `kind` column of `spec/registry.json`.\n",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n",
        "#[non_exhaustive]\n",
        "pub enum ErrorKind {\n",
    ]
    for _, name, d in KINDS:
        out.append(doc(d, "    "))
        out.append(f"    {name},\n")
    out.append("}\n\n")
    out.append("impl ErrorKind {\n")
    out.append("    /// The registry string, e.g. `\"limit\"`.\n")
    out.append("    pub const fn as_str(self) -> &'static str {\n        match self {\n")
    for k, name, _ in KINDS:
        out.append(f"            ErrorKind::{name} => \"{k}\",\n")
    out.append("        }\n    }\n\n")
    out.append("    /// The HTTP status a server answers with (malformed 400, limit 413); `None` for encoder errors.\n")
    out.append("    pub const fn http_status(self) -> Option<u16> {\n        match self {\n")
    by_status: dict[str, list[str]] = {}
    for k, name, _ in KINDS:
        st = gen.KIND_STATUS[k]
        by_status.setdefault("None" if st is None else f"Some({st})", []).append(f"ErrorKind::{name}")
    for st, names in by_status.items():
        out.append(f"            {' | '.join(names)} => {st},\n")
    out.append("        }\n    }\n}\n")
    return "".join(out)


def code_enum(errs: list[dict], variant, all_as_array: bool, from_fn: str) -> str:
    out = [
        "/// The error codes of `spec/errors.md`, one variant per code.\n",
        "///\n",
        "/// [`ErrorCode::as_str`] gives the registry string; the byte offset that comes with each code is\n",
        "/// documented on the variant.\n",
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n",
        "#[non_exhaustive]\n",
        "pub enum ErrorCode {\n",
    ]
    for e in errs:
        text = f"`{e['code']}`: {e['meaning']}"
        if "offset" in e:
            text += f" Offset: {e['offset']}."
        out.append(doc(text.replace(".. Offset", ". Offset").replace(".).", ".)."), "    "))
        out.append(f"    {variant(e['code'])},\n")
    out.append("}\n\nimpl ErrorCode {\n")
    out.append("    /// Every code, in registry order.\n")
    if all_as_array:
        out.append(f"    pub const ALL: [ErrorCode; {len(errs)}] = [\n")
    else:
        out.append("    pub const ALL: &'static [ErrorCode] = &[\n")
    for e in errs:
        out.append(f"        ErrorCode::{variant(e['code'])},\n")
    out.append("    ];\n\n")
    out.append("    /// The stable registry string, e.g. `\"" + errs[0]["code"] + "\"`.\n")
    out.append("    pub const fn as_str(self) -> &'static str {\n        match self {\n")
    for e in errs:
        out.append(f"            ErrorCode::{variant(e['code'])} => \"{e['code']}\",\n")
    out.append("        }\n    }\n\n")
    out.append("    /// Looks a code up by its registry string.\n")
    out.append(f"    pub fn {from_fn}(s: &str) -> Option<ErrorCode> {{\n        match s {{\n")
    for e in errs:
        out.append(f"            \"{e['code']}\" => Some(ErrorCode::{variant(e['code'])}),\n")
    out.append("            _ => None,\n        }\n    }\n\n")
    out.append("    /// The code's kind (malformed input, unsupported value, limit, encoder error).\n")
    out.append("    pub const fn kind(self) -> ErrorKind {\n        match self {\n")
    for e in errs:
        out.append(f"            ErrorCode::{variant(e['code'])} => ErrorKind::{KIND_NAME[e['kind']]},\n")
    out.append("        }\n    }\n\n")
    out.append("    /// The HTTP status for this code (400 malformed, 413 limit); `None` for encoder errors.\n")
    out.append("    pub const fn http_status(self) -> Option<u16> {\n        self.kind().http_status()\n    }\n}\n")
    return "".join(out)


# Limits whose Rust option field is narrower than u64 (formwire-v8's DecodeOptions/EncodeOptions).
NARROW = {("clone", "max_depth"): "u32", ("clone", "max_bigint_bytes"): "u32"}


def limits_mod(reg: dict, fmt: str, indent: str = "") -> str:
    out = []
    for lim in gen.limits(reg, fmt):
        ty = NARROW.get((fmt, lim["name"]), "u64")
        if ty == "u32" and lim["default"] >= 2**32:
            raise gen.RegistryError(f"{lim['name']}: default {lim['default']} does not fit the Rust field's u32")
        out.append(doc(f"`{lim['name']}` (`{lim['error']}`): {lim['why']}", indent))
        out.append(f"{indent}pub const {const(lim['name'])}: {ty} = {rust_int(lim['default'])};\n")
    for lim in gen.limits(reg, fmt, "form"):
        out.append(doc(f"`{lim['name']}` (`{lim['error']}`, spooling form readers only): {lim['why']}", indent))
        out.append(f"{indent}pub const {const(lim['name'])}: u64 = {rust_int(lim['default'])};\n")
    names = [f'"{x["name"]}"' for x in gen.limits(reg, fmt)]
    out.append(f"{indent}/// Every {fmt} limit's spec name that the parser takes, in registry order.\n")
    out.append(list_const(f"{indent}pub const LIMITS: &[&str] = ", names, indent))
    form = [f'"{x["name"]}"' for x in gen.limits(reg, fmt, "form")]
    if form:
        out.append(f"{indent}/// The {fmt} limits of spooling form readers only (registry layer `form`).\n")
        out.append(list_const(f"{indent}pub const FORM_LIMITS: &[&str] = ", form, indent))
    flags = [f'"{x["name"]}"' for x in gen.options(reg, fmt)]
    if flags:
        out.append(f"{indent}/// Every {fmt} lenient option's spec name (all off by default), in registry order.\n")
        out.append(list_const(f"{indent}pub const FLAGS: &[&str] = ", flags, indent))
    return "".join(out)


def list_const(head: str, items: list[str], indent: str) -> str:
    one = head + "&[" + ", ".join(items) + "];\n"
    if len(one) <= 101:
        return one
    return head + "&[\n" + "".join(f"{indent}    {x},\n" for x in items) + f"{indent}];\n"


def human(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return str(n)


def options_struct(reg: dict, fmt: str) -> str:
    """`Options`: every lenient flag (false) and limit (its default) of the format, settable by spec name."""
    codes = {e["code"]: e for e in reg["errors"]}
    lims, flags = gen.limits(reg, fmt), gen.options(reg, fmt)
    i = "    "
    out = [
        f"{i}/// Parser options: the lenient flags (MP-R-02, all off) and limits (`spec/limits.md`) of\n"
        if flags
        else f"{i}/// Parser options: the limits (`spec/limits.md`) of\n",
        f"{i}/// `spec/registry.json`.\n",
        f"{i}///\n",
        f"{i}/// `Default` is the strict profile with the default limits. A limit of\n",
        f"{i}/// [`UNLIMITED`](crate::registry::UNLIMITED) (`u64::MAX`) is off. Field names are the spec's;\n",
        f"{i}/// [`Options::set_limit`]{' and [`Options::set_flag`]' if flags else ''} take them as strings, "
        f"for bindings and\n",
        f"{i}/// configuration files.\n",
        f"{i}#[derive(Clone, Debug, PartialEq, Eq)]\n",
        f"{i}#[non_exhaustive]\n",
        f"{i}pub struct Options {{\n",
    ]
    for o in flags:
        rules = ", ".join(o.get("rules", []))
        out.append(doc(f"`{o['name']}`{' (' + rules + ')' if rules else ''}: {o['meaning']}.", i * 2))
        out.append(f"{i}{i}pub {o['name']}: bool,\n")
    for lim in lims:
        e = codes[lim["error"]]
        m = e["meaning"]
        m = m[0].lower() + m[1:] if m[1:2].islower() or m[1:2] == " " else m
        out.append(doc(f"`{lim['name']}` (default {human(lim['default'])}): `{lim['error']}` when {m}", i * 2))
        out.append(f"{i}{i}pub {lim['name']}: u64,\n")
    out.append(f"{i}}}\n\n")
    out.append(f"{i}impl Default for Options {{\n{i}{i}fn default() -> Options {{\n{i * 3}Options {{\n")
    for o in flags:
        out.append(f"{i * 4}{o['name']}: false,\n")
    for lim in lims:
        out.append(f"{i * 4}{lim['name']}: {const(lim['name'])},\n")
    out.append(f"{i * 3}}}\n{i}{i}}}\n{i}}}\n\n")
    out.append(f"{i}impl Options {{\n")
    if flags:
        out.append(
            f"{i}{i}/// Sets a lenient flag by its spec name ([`FLAGS`]). Returns `false` for an unknown name.\n"
        )
        out.append(f"{i}{i}pub fn set_flag(&mut self, name: &str, on: bool) -> bool {{\n")
        out.append(f"{i * 3}let slot = match name {{\n")
        for o in flags:
            out.append(f"{i * 4}\"{o['name']}\" => &mut self.{o['name']},\n")
        out.append(f"{i * 4}_ => return false,\n{i * 3}}};\n{i * 3}*slot = on;\n{i * 3}true\n{i}{i}}}\n\n")
    out.append(f"{i}{i}/// Sets a limit by its spec name ([`LIMITS`]); `None` is unlimited. Returns `false` for an\n")
    out.append(f"{i}{i}/// unknown name.\n")
    out.append(f"{i}{i}pub fn set_limit(&mut self, name: &str, limit: Option<u64>) -> bool {{\n")
    out.append(f"{i * 3}let slot = match name {{\n")
    for lim in lims:
        out.append(f"{i * 4}\"{lim['name']}\" => &mut self.{lim['name']},\n")
    out.append(
        f"{i * 4}_ => return false,\n{i * 3}}};\n"
        f"{i * 3}*slot = limit.unwrap_or(crate::registry::UNLIMITED);\n{i * 3}true\n{i}{i}}}\n{i}}}\n"
    )
    return "".join(out)


STRUCTS = ("multipart", "urlencoded")  # formats whose Options struct formwire takes from here


def format_mod(reg: dict, fmt: str) -> str:
    body = limits_mod(reg, fmt, "    ")
    if fmt in STRUCTS:
        body += "\n" + options_struct(reg, fmt)
    return f"/// Default values and names of the {fmt} limits and lenient options.\npub mod {fmt} {{\n{body}}}\n"


def core(reg: dict) -> str:
    out = [
        gen.header("//"),
        "//! The limits, error codes and lenient options of `spec/registry.json`.\n",
        "//!\n",
        "//! Generated: edit `spec/registry.json` and run `make registry`. Limit defaults are `u64`\n",
        "//! ([`UNLIMITED`] is off).\n\n",
        "/// The value of a limit that is off.\n",
        "pub const UNLIMITED: u64 = u64::MAX;\n\n",
    ]
    for fmt in gen.FORMATS:
        out.append(format_mod(reg, fmt))
        out.append("\n")
    out.append(kind_enum())
    out.append("\n")
    out.append(code_enum(reg["errors"], gen.pascal, False, "from_code"))
    return "".join(out)


def v8(reg: dict) -> str:
    errs = gen.errors(reg, "clone")
    out = [
        gen.header("//"),
        "//! The structured-clone limits and `SC_` error codes of `spec/registry.json`.\n",
        "//!\n",
        "//! Generated: edit `spec/registry.json` and run `make registry`.\n\n",
        limits_mod(reg, "clone"),
        "\n",
        kind_enum(),
        "\n",
        code_enum(errs, lambda c: gen.pascal(c[3:]), True, "from_str_code"),
    ]
    return "".join(out)


def outputs(reg: dict) -> dict[str, str]:
    return {
        "rust/crates/formwire/src/registry.rs": core(reg),
        "rust/crates/formwire-v8/src/registry.rs": v8(reg),
    }
