"""Command line of conformance/run."""

import argparse
import os
import signal
import sys

from .cases import load_cases, validate
from .jsonschema import SchemaError, Validator
from .run import Lang, Runner, build
from .testee import kill_all

CONFORMANCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(CONFORMANCE_DIR)

USAGE_EPILOG = """\
examples:
  conformance/run --validate
  conformance/run --lang rust
  conformance/run --lang rust --lang ts --lang v8 --cross -j 2
  conformance/run --lang ts --filter wpt- --quick
"""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="conformance/run", epilog=USAGE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Validate the shared vectors, or run them against language testees (conformance/PROTOCOL.md).")
    p.add_argument("--validate", action="store_true", help="check every case against vectors/schema.json, the "
                   "layout and the spec (rule IDs, error codes); no testee is started")
    p.add_argument("--lang", action="append", default=[], metavar="LANG",
                   help="a testee: a name from conformance/langs/<LANG>.json, or a path to such a .json (repeatable)")
    p.add_argument("--vectors", metavar="DIR", help="vector directory, searched recursively (default: vectors/)")
    p.add_argument("--filter", metavar="SUBSTR", help="only cases whose path under the vector directory contains "
                   "SUBSTR (the id is part of the path)")
    p.add_argument("--cross", action="store_true", help="decode every encoder output with every other --lang")
    p.add_argument("--quick", action="store_true", help="parse cases: whole, bytes and 8 random split points only")
    p.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="testee processes per language (default 1)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS", help="per request (default 60)")
    p.add_argument("--build", action="store_true", help="run each language's \"build\" command first")
    p.add_argument("-v", "--verbose", action="store_true", help="also list expected failures")
    p.add_argument("--schema", metavar="FILE", help="default: <vectors>/schema.json, else vectors/schema.json")
    p.add_argument("--spec", metavar="DIR", help="spec directory for --validate (default: spec/)")
    p.add_argument("--langs-dir", metavar="DIR", help="default: conformance/langs/")
    p.add_argument("--expected-failures-dir", metavar="DIR", help="default: conformance/expected-failures/")
    p.add_argument("--root", metavar="DIR", help="directory testee commands run in (default: the repository root)")
    args = p.parse_args(argv)
    if not args.validate and not args.lang:
        p.error("give --validate or at least one --lang")
    if args.jobs < 1:
        p.error("-j must be at least 1")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out = sys.stdout
    vectors = os.path.abspath(args.vectors or os.path.join(REPO_ROOT, "vectors"))
    if not os.path.isdir(vectors):
        out.write("ERROR: vector directory %s does not exist\n" % vectors)
        return 2
    schema_path = args.schema
    if schema_path is None:
        schema_path = os.path.join(vectors, "schema.json")
        if not os.path.isfile(schema_path):
            schema_path = os.path.join(REPO_ROOT, "vectors", "schema.json")
    try:
        validator = Validator.from_file(schema_path)
    except (OSError, ValueError, SchemaError) as e:
        out.write("ERROR: cannot load the schema %s: %s\n" % (schema_path, e))
        return 2

    if args.validate:
        spec = args.spec or os.path.join(REPO_ROOT, "spec")
        cases, errors, warnings = validate(vectors, validator, spec)
        if args.filter:
            cases = [c for c in cases if args.filter in c.rel]
            errors = [e for e in errors if not e[0] or args.filter in e[0]]
        for where, msg in warnings:
            out.write("WARN %s%s\n" % (where + ": " if where else "", msg))
        for where, msg in errors:
            out.write("INVALID %s: %s\n" % (where, msg))
        bad = {w for w, _ in errors if w}
        loaded = {c.rel for c in cases}
        out.write("%d cases valid, %d invalid\n" % (len(loaded - bad), len(bad)))
        if not args.lang:
            return 1 if errors else 0
        if errors:
            return 1

    cases, problems = load_cases(vectors, validator)
    if args.filter:
        cases = [c for c in cases if args.filter in c.rel]
        problems = [p for p in problems if args.filter in p[0]]
    for where, msg in problems:
        out.write("INVALID %s: %s\n" % (where, msg))
    invalid = len({w for w, _ in problems})

    langs_dir = args.langs_dir or os.path.join(CONFORMANCE_DIR, "langs")
    xfail_dir = args.expected_failures_dir or os.path.join(CONFORMANCE_DIR, "expected-failures")
    langs = []
    for spec in args.lang:
        if spec.endswith(".json"):
            path, name = spec, os.path.basename(spec)[:-5]
        else:
            path, name = os.path.join(langs_dir, spec + ".json"), spec
        if any(x.name == name for x in langs):
            continue
        try:
            langs.append(Lang(name, path, os.path.join(xfail_dir, name + ".txt")))
        except (OSError, ValueError) as e:
            out.write("ERROR: language %s: %s\n" % (name, e))
            return 2
    root = os.path.abspath(args.root or REPO_ROOT)
    if args.build:
        for lang in langs:
            if not build(lang, root, out):
                return 1
    if not args.filter and args.vectors is None:
        ids = {c.id for c in cases}
        for lang in langs:
            for cid in sorted(lang.xfail):
                if cid not in ids:
                    out.write("WARN %s: %s is listed but no such case exists\n"
                              % (os.path.relpath(lang.xfail_path), cid))

    runner = Runner(langs, cases, root, quick=args.quick, jobs=args.jobs, timeout=args.timeout, cross=args.cross,
                    out=out, progress=sys.stderr.isatty())
    def interrupted(signum, frame):
        kill_all()
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    try:
        runner.run()
    except KeyboardInterrupt:
        kill_all()
        out.write("interrupted\n")
        return 130
    counts = runner.report(invalid=invalid, verbose=args.verbose)
    return 1 if counts["fail"] else 0
