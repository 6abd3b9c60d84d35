"""Loading vector cases, expanding generated inputs, and `--validate` cross-file checks (vectors/SCHEMA.md)."""

import base64
import binascii
import hashlib
import json
import os
import re
import struct

MASK64 = (1 << 64) - 1

KIND_FORMAT = {
    "multipart-parse": "multipart", "multipart-serialize": "multipart",
    "urlencoded-parse": "urlencoded", "urlencoded-serialize": "urlencoded",
    "clone-decode": "clone", "clone-encode": "clone",
}
FORMAT_EXT = {"multipart": "http", "urlencoded": "txt", "clone": "bin"}
FORMAT_PREFIX = {"multipart": "MP", "urlencoded": "UE", "clone": "SC"}
PREFIX_SPEC = {"MP": "multipart.md", "UE": "urlencoded.md", "SC": "structured-clone.md"}
VERDICTS = ("accept", "reject", "lenient")
# The lenient options are those of spec/registry.json (its one list; gen.py writes every language's from it).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "registry.json"),
          encoding="utf-8") as _f:
    LENIENT_FLAGS = tuple(o["name"] for o in json.load(_f)["options"])
PARSE_KINDS = ("multipart-parse", "urlencoded-parse", "clone-decode")
ENCODE_KINDS = ("multipart-serialize", "urlencoded-serialize", "clone-encode")
SKIP_DIRS = {"src", "node_modules", "__pycache__"}
RULE_RE = re.compile(r"\b(?:MP|UE|SC)(?:-[A-Z0-9]+)+\b")
CODE_RE = re.compile(r"`((?:MP|UE|SC)_[A-Z0-9_]+)`")


class CaseError(Exception):
    pass


# -- splitmix64 and generated inputs -----------------------------------------------------------------------------

class SplitMix64:
    """splitmix64 exactly as vectors/SCHEMA.md gives it."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        """A value in 0..n-1 (modulo bias is irrelevant for choosing cut points)."""
        return self.next() % n


def random_bytes(n, seed):
    """N bytes: each 64-bit output little-endian, the last one truncated."""
    rng = SplitMix64(seed)
    words = (n + 7) // 8
    nxt = rng.next
    return struct.pack("<%dQ" % words, *[nxt() for _ in range(words)])[:n]


def expand_recipe(pieces):
    out = []
    for p in pieces:
        if "text" in p:
            out.append(p["text"].encode("utf-8"))
        elif "hex" in p:
            out.append(bytes.fromhex(p["hex"]))
        elif "repeat" in p:
            out.append(expand_recipe(p["repeat"]) * p["count"])
        elif "random" in p:
            out.append(random_bytes(p["random"], p["seed"]))
        else:
            raise CaseError("unknown recipe piece %r" % (sorted(p),))
    return b"".join(out)


def recipe_length(pieces):
    n = 0
    for p in pieces:
        if "text" in p:
            n += len(p["text"].encode("utf-8"))
        elif "hex" in p:
            n += len(p["hex"]) // 2
        elif "repeat" in p:
            n += recipe_length(p["repeat"]) * p["count"]
        elif "random" in p:
            n += p["random"]
    return n


def strict_json_loads(text):
    def bad_constant(name):
        raise ValueError("%s is not JSON" % name)
    return json.loads(text, parse_constant=bad_constant)


def b64decode(s):
    return base64.b64decode(s.encode("ascii"), validate=True)


# -- cases -------------------------------------------------------------------------------------------------------

class Case:
    def __init__(self, path, root, data):
        self.path = path
        self.dir = os.path.dirname(path)
        self.rel = os.path.relpath(path, root)
        self.data = data
        self.id = data.get("id")
        self.kind = data.get("kind")
        self._input = None

    @property
    def format(self):
        return KIND_FORMAT.get(self.kind)

    @property
    def options(self):
        return self.data.get("options") or {}

    @property
    def expect(self):
        return self.data["expect"]

    def read_file(self, name):
        with open(os.path.join(self.dir, name), "rb") as f:
            return f.read()

    def input_bytes(self):
        """The raw input of a parse case (files read, recipes expanded, inline forms decoded); cached."""
        if self._input is None:
            inp = self.data["input"]
            if "file" in inp:
                self._input = self.read_file(inp["file"])
            elif "generate" in inp:
                self._input = expand_recipe(inp["generate"])
            elif "text" in inp:
                self._input = inp["text"].encode("utf-8")
            elif "base64" in inp:
                self._input = b64decode(inp["base64"])
            elif "hex" in inp:
                self._input = bytes.fromhex(inp["hex"])
            else:
                raise CaseError("no byte input")
        return self._input

    def input_length(self):
        inp = self.data["input"]
        if "generate" in inp and self._input is None:
            return recipe_length(inp["generate"])
        return len(self.input_bytes())

    def drop_input(self):
        self._input = None

    def verdict(self):
        parent = os.path.basename(self.dir)
        return parent if parent in VERDICTS else None

    def format_dir(self):
        if self.verdict() is None:
            return None
        fmt = os.path.basename(os.path.dirname(self.dir))
        return fmt if fmt in FORMAT_EXT else None


def body_bytes(case, body):
    """Bytes of a `{"text"}` / `{"base64"}` / `{"file"}` body; None for `{"size","sha256"}`."""
    if "text" in body:
        return body["text"].encode("utf-8")
    if "base64" in body:
        return b64decode(body["base64"])
    if "file" in body:
        return case.read_file(body["file"])
    return None


def find_case_files(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for fn in sorted(filenames):
            if fn.endswith(".json") and not (dirpath == root and fn == "schema.json"):
                out.append(os.path.join(dirpath, fn))
    return out


def load_cases(root, validator):
    """Returns (cases, problems): problems are (path, message) for files that are not valid cases."""
    cases, problems = [], []
    for path in find_case_files(root):
        rel = os.path.relpath(path, root)
        try:
            with open(path, encoding="utf-8") as f:
                data = strict_json_loads(f.read())
        except (ValueError, UnicodeDecodeError) as e:
            problems.append((rel, "not valid JSON: %s" % e))
            continue
        errs = validator.errors(data)
        if errs:
            for p, m in errs[:8]:
                problems.append((rel, "%s: %s" % (p, m)))
            if len(errs) > 8:
                problems.append((rel, "... and %d more schema errors" % (len(errs) - 8)))
            continue
        case = Case(path, root, data)
        stem = os.path.basename(path)[: -len(".json")]
        if case.id != stem:
            problems.append((rel, "id %r does not equal the file name %r" % (case.id, stem)))
            continue
        missing = [f for f in referenced_files(case) if not os.path.isfile(os.path.join(case.dir, f))]
        if missing:
            problems.append((rel, "raw file %s does not exist next to the case" % ", ".join(missing)))
            continue
        cases.append(case)
    return cases, problems


def referenced_files(case):
    out = []
    inp = case.data.get("input", {})
    if isinstance(inp, dict) and "file" in inp:
        out.append(inp["file"])
    exp = case.data.get("expect", {})
    if isinstance(exp, dict) and isinstance(exp.get("body"), dict) and "file" in exp["body"]:
        out.append(exp["body"]["file"])
    return out


# -- spec lookups ------------------------------------------------------------------------------------------------

def spec_rule_ids(spec_dir):
    """Rule IDs defined in spec/*.md: in a heading, in the first cell of a table row, or opening a line/list item."""
    defined = {}
    present = set()
    if not os.path.isdir(spec_dir):
        return defined, present
    for fn in sorted(os.listdir(spec_dir)):
        if not fn.endswith(".md"):
            continue
        present.add(fn)
        with open(os.path.join(spec_dir, fn), encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                s = line.strip()
                if s.startswith("#"):
                    ids = RULE_RE.findall(s)
                elif s.startswith("|"):
                    cells = s.strip("|").split("|")
                    ids = RULE_RE.findall(cells[0]) if cells else []
                else:
                    m = re.match(r"^(?:[-*+]|\d+\.)?\s*[*_`\[]*((?:MP|UE|SC)(?:-[A-Z0-9]+)+)\b", s)
                    ids = [m.group(1)] if m else []
                for rid in ids:
                    defined.setdefault(rid, "%s:%d" % (fn, lineno))
    return defined, present


def spec_error_codes(spec_dir):
    path = os.path.join(spec_dir, "errors.md")
    if not os.path.isfile(path):
        return None
    codes = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("|"):
                cells = line.strip().strip("|").split("|")
                codes.update(CODE_RE.findall(cells[0]))
    return codes


def error_codes_in(case):
    exp = case.data.get("expect", {})
    if "error" in exp:
        return [exp["error"]["code"]]
    return []


# -- --validate ----------------------------------------------------------------------------------------------------

def validate(root, validator, spec_dir):
    """Returns (cases, errors, warnings); errors/warnings are (rel path or '', message)."""
    cases, errors = load_cases(root, validator)
    warnings = []
    by_id = {}
    for c in cases:
        by_id.setdefault(c.id, []).append(c)
    for cid, cs in sorted(by_id.items()):
        if len(cs) > 1:
            for c in cs:
                errors.append((c.rel, "id %r is not unique (also %s)" % (cid, ", ".join(o.rel for o in cs if o is not c))))

    # Rule IDs and error codes against the spec.
    defined, present = spec_rule_ids(spec_dir)
    missing_specs = {}
    for c in cases:
        for rid in c.data["rules"]:
            spec_file = PREFIX_SPEC[rid.split("-")[0]]
            if spec_file not in present:
                missing_specs.setdefault(spec_file, set()).add(rid)
            elif rid not in defined:
                errors.append((c.rel, "rule %s is cited but not defined in spec/%s (no heading or table entry)"
                               % (rid, spec_file)))
    for spec_file, rids in sorted(missing_specs.items()):
        warnings.append(("", "spec/%s is absent: %d cited rule IDs not checked (%s)"
                         % (spec_file, len(rids), ", ".join(sorted(rids)[:6]) + (", ..." if len(rids) > 6 else ""))))
    codes = spec_error_codes(spec_dir)
    if codes is None:
        warnings.append(("", "spec/errors.md is absent: error codes not checked"))
    for c in cases:
        for code in error_codes_in(c):
            if codes is not None and code not in codes:
                errors.append((c.rel, "error code %s is not in spec/errors.md" % code))
            if not code.startswith(FORMAT_PREFIX[c.format] + "_"):
                errors.append((c.rel, "error code %s does not belong to format %s" % (code, c.format)))

    # Layout: vectors/<format>/<verdict>/<id>.json and <id>.<ext>.
    for c in cases:
        for f in referenced_files(c):
            want = "%s.%s" % (c.id, FORMAT_EXT[c.format])
            if f != want:
                errors.append((c.rel, "raw file %r should be named %r" % (f, want)))
        for where in _lone_surrogates(c):
            errors.append((c.rel, "%s holds a lone surrogate (not UTF-8 encodable; use base64 or u16)" % where))
        for body in _inline_b64(c):
            try:
                b64decode(body)
            except (binascii.Error, ValueError) as e:
                errors.append((c.rel, "invalid base64: %s" % e))
        verdict, fmt = c.verdict(), c.format_dir()
        if fmt is not None and fmt != c.format:
            errors.append((c.rel, "kind %s does not belong under %s/" % (c.kind, fmt)))
        is_error = "error" in c.expect
        lenient = [k for k in LENIENT_FLAGS if c.options.get(k)]
        if verdict == "reject" and not is_error:
            errors.append((c.rel, "a case under reject/ must expect an error"))
        if verdict in ("accept", "lenient") and is_error:
            errors.append((c.rel, "a case under %s/ must not expect an error" % verdict))
        if verdict == "accept" and lenient:
            errors.append((c.rel, "a case under accept/ must not set lenient options (%s)" % ", ".join(lenient)))
        if verdict == "lenient" and not lenient:
            errors.append((c.rel, "a case under lenient/ must set a lenient option (%s)" % ", ".join(LENIENT_FLAGS)))
    _check_lenient_counterparts(cases, errors)

    # Raw files that no case references.
    referenced = {os.path.normpath(os.path.join(c.dir, f)) for c in cases for f in referenced_files(c)}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")]
        for fn in filenames:
            if fn.endswith(tuple("." + e for e in FORMAT_EXT.values())):
                p = os.path.normpath(os.path.join(dirpath, fn))
                if p not in referenced:
                    warnings.append((os.path.relpath(p, root), "raw file is not referenced by any case"))
    return cases, errors, warnings


def _inline_b64(case):
    out = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "base64" and isinstance(v, str):
                    out.append(v)
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(case.data.get("input"))
    walk(case.data.get("expect"))
    return out


def _lone_surrogates(case):
    """Paths of strings that cannot be UTF-8 encoded where the case needs bytes or USV strings: every `text`, and
    everything in a serializer's input (FormData and URLSearchParams hold USV strings, SCHEMA.md)."""
    out = []
    serialize = case.kind in ("multipart-serialize", "urlencoded-serialize")

    def walk(x, path, all_strings):
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(v, str) and (all_strings or k == "text"):
                    try:
                        v.encode("utf-8")
                    except UnicodeEncodeError:
                        out.append("%s.%s" % (path, k))
                else:
                    walk(v, "%s.%s" % (path, k), all_strings)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                if isinstance(v, str) and all_strings:
                    try:
                        v.encode("utf-8")
                    except UnicodeEncodeError:
                        out.append("%s[%d]" % (path, i))
                else:
                    walk(v, "%s[%d]" % (path, i), all_strings)
    walk(case.data.get("input"), "$.input", serialize)
    walk(case.data.get("expect"), "$.expect", False)
    return out


def _check_lenient_counterparts(cases, errors):
    """SCHEMA.md: a lenient case's input without the option must be rejected, as its own case in reject/, or (an
    option that changes how valid input reads, such as allow_quoted_pairs) read as its own case in accept/."""
    lenient = [c for c in cases if c.verdict() == "lenient" and c.kind in PARSE_KINDS]
    if not lenient:
        return

    def key(c, opts):
        return (c.kind, c.data.get("content_type"), json.dumps(opts, sort_keys=True),
                hashlib.sha256(c.input_bytes()).hexdigest())
    lengths = {c.input_length() for c in lenient}
    rejects = set()
    for c in cases:
        if c.verdict() in ("reject", "accept") and c.kind in PARSE_KINDS and c.input_length() in lengths:
            opts = {k: v for k, v in c.options.items() if k not in LENIENT_FLAGS or v}
            rejects.add(key(c, opts))
            c.drop_input()
    for c in lenient:
        opts = {k: v for k, v in c.options.items() if k not in LENIENT_FLAGS}
        if key(c, opts) not in rejects:
            errors.append((c.rel, "no reject/ or accept/ case has the same input without the lenient option(s)"))
        c.drop_input()
