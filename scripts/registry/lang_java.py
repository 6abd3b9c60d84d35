"""Java emitter: dev.formwire.Limits and dev.formwire.ErrorCode for formwire-core, from spec/registry.json.

Limits are grouped by format (a limit name is unique within its format only: `max_bytes` is both a urlencoded and a
clone limit): `Limits.Multipart.MAX_PARTS`. Lenient options become `Limits.Multipart.LENIENT_OPTIONS` (snake_case
names, as the vectors and the testee spell them).
"""

from __future__ import annotations

import json

BASE = "java/formwire-core/src/main/java/dev/formwire/"
NOTICE = "// generated from spec/registry.json by scripts/registry/gen.py, do not edit\n"
FORMAT_CLASS = {"multipart": "Multipart", "urlencoded": "Urlencoded", "clone": "Clone"}


def _doc(text: str) -> str:
    # Javadoc comments end at "*/"; keep the text safe and on one line.
    return text.replace("*/", "*&#47;").replace("\n", " ").replace("@", "{@literal @}")


def _str(s: str) -> str:
    return json.dumps(s, ensure_ascii=True)


def _limits(reg: dict) -> str:
    out = [
        NOTICE,
        "package dev.formwire;\n\n",
        "/** Every named limit of {@code spec/registry.json}: defaults, error codes and names, by format. */\n",
        "public final class Limits {\n    private Limits() {}\n",
    ]
    for fmt, cls in FORMAT_CLASS.items():
        lims = [x for x in reg["limits"] if x["format"] == fmt]
        opts = [o for o in reg.get("options", []) if o["format"] == fmt]
        if not lims and not opts:
            continue
        out.append(
            f"\n    /** Limits of the {fmt} format. */\n    public static final class {cls} {{\n        private {cls}() {{}}\n"
        )
        for x in lims:
            const = x["name"].upper()
            out.append(
                f"\n        /** Default of {{@code {x['name']}}} (error {{@code {x['error']}}}): {_doc(x['why'])} */\n"
            )
            out.append(f"        public static final long {const} = {int(x['default'])}L;\n")
            out.append(f"        /** The registry name of {{@link #{const}}}. */\n")
            out.append(f"        public static final String {const}_NAME = {_str(x['name'])};\n")
            out.append(f"        /** The error of {{@link #{const}}}. */\n")
            out.append(f"        public static final ErrorCode {const}_ERROR = ErrorCode.{x['error']};\n")
        names = ", ".join(_str(x["name"]) for x in lims if x.get("layer", "core") == "core")
        out.append(f"\n        /** Every {fmt} limit name the parser takes, in registry order. */\n")
        out.append(f"        public static final java.util.List<String> NAMES = java.util.List.of({names});\n")
        form = ", ".join(_str(x["name"]) for x in lims if x.get("layer", "core") == "form")
        if form:
            out.append(
                f"        /** The {fmt} limits of spooling form readers only (registry layer {{@code form}}). */\n"
            )
            out.append(f"        public static final java.util.List<String> FORM_NAMES = java.util.List.of({form});\n")
        if opts:
            onames = ", ".join(_str(o["name"]) for o in opts)
            out.append(f"        /** The named lenient options of {fmt}, in registry order (all off by default). */\n")
            out.append(
                f"        public static final java.util.List<String> LENIENT_OPTIONS = java.util.List.of({onames});\n"
            )
        out.append("    }\n")
    out.append("}\n")
    return "".join(out)


def _errors(reg: dict) -> str:
    out = [
        NOTICE,
        "package dev.formwire;\n\n",
        "/** The stable error codes of {@code spec/errors.md}, with their kind and HTTP status. */\n",
        "public enum ErrorCode {\n",
    ]
    rows = []
    for e in reg["errors"]:
        status = e["http_status"] if e["http_status"] is not None else 0
        kind = e["kind"].upper()
        doc = _doc(e["meaning"])
        if "offset" in e:
            doc += " Offset: " + _doc(e["offset"]) + "."
        rows.append(f"    /** {doc} */\n    {e['code']}({_str(e['format'])}, Kind.{kind}, {status})")
    out.append(",\n".join(rows))
    kinds = sorted({e["kind"].upper() for e in reg["errors"]})
    out.append(";\n\n    /** What kind of failure a code is. */\n    public enum Kind {\n")
    out.append("".join(f"        /** Registry kind {{@code {k.lower()}}}. */\n        {k},\n" for k in kinds))
    out.append("    }\n\n")
    out.append("""    private final String format;
    private final Kind kind;
    private final int httpStatus;

    ErrorCode(String format, Kind kind, int httpStatus) {
        this.format = format;
        this.kind = kind;
        this.httpStatus = httpStatus;
    }

    /** The format: {@code multipart}, {@code urlencoded} or {@code clone}. */
    public String format() {
        return format;
    }

    /** The kind of failure. */
    public Kind kind() {
        return kind;
    }

    /** The HTTP status a server answers with (413 for a limit, 400 for malformed input); 0 for encoder errors. */
    public int httpStatus() {
        return httpStatus;
    }

    /** {@code true} for a limit error (HTTP 413). */
    public boolean isLimit() {
        return kind == Kind.LIMIT;
    }
}
""")
    return "".join(out)


def outputs(reg: dict) -> dict[str, str]:
    return {BASE + "Limits.java": _limits(reg), BASE + "ErrorCode.java": _errors(reg)}
