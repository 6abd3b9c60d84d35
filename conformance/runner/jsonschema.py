"""A small JSON Schema (draft 2020-12) validator for the subset that vectors/schema.json uses.

Standard library only. Unknown keywords are refused when the schema is loaded, so the schema file cannot silently
use a keyword this validator ignores: vectors/schema.json stays the single source of truth.
"""

import json
import math
import re

SUPPORTED = {
    # annotations (ignored)
    "$schema", "$id", "$comment", "title", "description", "examples", "default", "$defs",
    # applicators and assertions
    "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "prefixItems",
    "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "minProperties", "maxProperties",
}
_SCHEMA_MAPS = {"properties", "$defs"}
_SCHEMA_LISTS = {"oneOf", "anyOf", "allOf", "prefixItems"}
_SCHEMA_ONE = {"additionalProperties", "items", "not", "if", "then", "else"}


class SchemaError(Exception):
    """The schema itself uses something this validator does not implement."""


class Validator:
    def __init__(self, schema):
        self.schema = schema
        self._patterns = {}
        self._check_schema(schema, "#")

    @classmethod
    def from_file(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))

    # -- schema sanity -----------------------------------------------------------------------------------------
    def _check_schema(self, s, where):
        if isinstance(s, bool):
            return
        if not isinstance(s, dict):
            raise SchemaError("%s: a schema must be an object or a boolean" % where)
        for k, v in s.items():
            if k not in SUPPORTED:
                raise SchemaError("%s: keyword %r is not supported by conformance/runner/jsonschema.py" % (where, k))
            if k in _SCHEMA_MAPS:
                for name, sub in v.items():
                    self._check_schema(sub, "%s/%s/%s" % (where, k, name))
            elif k in _SCHEMA_LISTS:
                for i, sub in enumerate(v):
                    self._check_schema(sub, "%s/%s/%d" % (where, k, i))
            elif k in _SCHEMA_ONE:
                self._check_schema(v, "%s/%s" % (where, k))
            elif k == "$ref":
                self._resolve(v)  # raises on a dangling reference
            elif k == "pattern":
                self._pattern(v)

    def _resolve(self, ref):
        if not ref.startswith("#"):
            raise SchemaError("only local $ref is supported: %r" % ref)
        node = self.schema
        for part in ref[1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise SchemaError("dangling $ref %r" % ref)
            node = node[part]
        return node

    def _pattern(self, p):
        r = self._patterns.get(p)
        if r is None:
            r = self._patterns[p] = re.compile(p)
        return r

    # -- validation --------------------------------------------------------------------------------------------
    def errors(self, instance):
        """All errors as (json-pointer-ish path, message), empty when valid."""
        out = []
        self._validate(self.schema, instance, "$", out)
        return out

    def _validate(self, s, x, path, out):
        if s is True:
            return
        if s is False:
            out.append((path, "no value allowed here"))
            return
        if "$ref" in s:
            self._validate(self._resolve(s["$ref"]), x, path, out)
        t = s.get("type")
        if t is not None:
            types = t if isinstance(t, list) else [t]
            if not any(_is_type(x, ty) for ty in types):
                out.append((path, "expected %s, got %s" % (" or ".join(types), _describe(x))))
                return
        if "const" in s and not _json_equal(x, s["const"]):
            out.append((path, "expected %s, got %s" % (_short(s["const"]), _short(x))))
        if "enum" in s and not any(_json_equal(x, e) for e in s["enum"]):
            out.append((path, "%s is not one of %s" % (_short(x), ", ".join(_short(e) for e in s["enum"]))))
        if isinstance(x, str):
            if "minLength" in s and len(x) < s["minLength"]:
                out.append((path, "string shorter than %d" % s["minLength"]))
            if "maxLength" in s and len(x) > s["maxLength"]:
                out.append((path, "string longer than %d" % s["maxLength"]))
            if "pattern" in s and not self._pattern(s["pattern"]).search(x):
                out.append((path, "%s does not match /%s/" % (_short(x), s["pattern"])))
        if _is_type(x, "number"):
            if "minimum" in s and x < s["minimum"]:
                out.append((path, "%s is less than %s" % (x, s["minimum"])))
            if "maximum" in s and x > s["maximum"]:
                out.append((path, "%s is greater than %s" % (x, s["maximum"])))
        if isinstance(x, list):
            self._array(s, x, path, out)
        if isinstance(x, dict):
            self._object(s, x, path, out)
        for sub in s.get("allOf", ()):
            self._validate(sub, x, path, out)
        if "anyOf" in s:
            branches = [self._try(sub, x, path) for sub in s["anyOf"]]
            if all(branches):
                out.append((path, "matches none of the allowed forms"))
                out.extend(min(branches, key=len))
        if "oneOf" in s:
            branches = [self._try(sub, x, path) for sub in s["oneOf"]]
            ok = sum(1 for b in branches if not b)
            if ok == 0:
                best = min(branches, key=_branch_rank)
                out.append((path, "matches none of the %d allowed forms; closest form says:" % len(branches)))
                out.extend(best)
            elif ok > 1:
                out.append((path, "matches %d of the oneOf forms, expected exactly one" % ok))
        if "not" in s and not self._try(s["not"], x, path):
            out.append((path, "matches a form that is not allowed"))
        if "if" in s:
            if not self._try(s["if"], x, path):
                if "then" in s:
                    self._validate(s["then"], x, path, out)
            elif "else" in s:
                self._validate(s["else"], x, path, out)

    def _try(self, s, x, path):
        errs = []
        self._validate(s, x, path, errs)
        return errs

    def _array(self, s, x, path, out):
        if "minItems" in s and len(x) < s["minItems"]:
            out.append((path, "expected at least %d items, got %d" % (s["minItems"], len(x))))
        if "maxItems" in s and len(x) > s["maxItems"]:
            out.append((path, "expected at most %d items, got %d" % (s["maxItems"], len(x))))
        prefix = s.get("prefixItems", [])
        for i, sub in enumerate(prefix[: len(x)]):
            self._validate(sub, x[i], "%s[%d]" % (path, i), out)
        if "items" in s:
            for i in range(len(prefix), len(x)):
                self._validate(s["items"], x[i], "%s[%d]" % (path, i), out)
        if s.get("uniqueItems"):
            seen = []
            for i, item in enumerate(x):
                if any(_json_equal(item, o) for o in seen):
                    out.append(("%s[%d]" % (path, i), "duplicate item %s" % _short(item)))
                seen.append(item)

    def _object(self, s, x, path, out):
        for k in s.get("required", ()):
            if k not in x:
                out.append((path, "missing required field %r" % k))
        if "minProperties" in s and len(x) < s["minProperties"]:
            out.append((path, "expected at least %d fields" % s["minProperties"]))
        if "maxProperties" in s and len(x) > s["maxProperties"]:
            out.append((path, "expected at most %d fields" % s["maxProperties"]))
        props = s.get("properties", {})
        for k, v in x.items():
            sub_path = "%s.%s" % (path, k)
            if k in props:
                self._validate(props[k], v, sub_path, out)
            elif "additionalProperties" in s:
                ap = s["additionalProperties"]
                if ap is False:
                    out.append((sub_path, "unknown field %r (allowed: %s)" % (k, ", ".join(props) or "none")))
                else:
                    self._validate(ap, v, sub_path, out)


def _branch_rank(errs):
    # Prefer the branch whose errors lie deepest (it matched the most structure), then the fewest errors.
    depth = max((len(p) for p, _ in errs), default=0)
    unknown = sum(1 for _, m in errs if m.startswith(("unknown field", "missing required", "expected object")))
    return (unknown, -depth, len(errs))


def _is_type(x, t):
    if t == "null":
        return x is None
    if t == "boolean":
        return isinstance(x, bool)
    if t == "integer":
        return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())
    if t == "number":
        return isinstance(x, (int, float)) and not isinstance(x, bool) and not (isinstance(x, float) and math.isnan(x))
    if t == "string":
        return isinstance(x, str)
    if t == "array":
        return isinstance(x, list)
    if t == "object":
        return isinstance(x, dict)
    raise SchemaError("unknown type %r" % t)


def _json_equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(p, q) for p, q in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _describe(x):
    for t in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _is_type(x, t):
            return "%s %s" % (t, _short(x)) if t not in ("array", "object") else t
    return type(x).__name__


def _short(x, n=60):
    s = json.dumps(x, ensure_ascii=False)
    return s if len(s) <= n else s[: n - 3] + "..."
