"""Driving testees through the vectors: requests per case, cross-decoding, expected failures, the report."""

import base64
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from . import chunking as chk
from .cases import ENCODE_KINDS, PARSE_KINDS, body_bytes
from .compare import check_cross, check_result, compare_values, decoding_key, short
from .testee import Testee, TesteeFailure

OPS = {
    "multipart-parse": "multipart.parse", "urlencoded-parse": "urlencoded.parse", "clone-decode": "clone.decode",
    "multipart-serialize": "multipart.serialize", "urlencoded-serialize": "urlencoded.serialize",
    "clone-encode": "clone.encode",
}
CROSS_DECODE_OP = {
    "multipart-serialize": "multipart.parse", "urlencoded-serialize": "urlencoded.parse", "clone-encode": "clone.decode",
}
DROP_INPUT_OVER = 4 << 20
MAX_START_FAILURES = 3


class Check:
    """One compared result: a chunking of a parse case, or `encode` / `roundtrip` / `cross:<lang>` of an encoder."""
    __slots__ = ("label", "diff", "stderr", "group")

    def __init__(self, label, diff, stderr="", group=None):
        self.label = label
        self.diff = diff
        self.stderr = stderr or ""
        self.group = group or label  # failures of one group are printed as one line

    @property
    def passed(self):
        return self.diff is None


class CaseRun:
    def __init__(self, lang, case):
        self.lang = lang
        self.case = case
        self.checks = []
        self.skip = None      # reason, when skipped
        self.output = None    # an encoder's ok value, for --cross
        self.status = None    # pass / fail / skip / xfail, set by evaluate()
        self.report = []      # (label, message, stderr) lines to print


class Lang:
    def __init__(self, name, config_path, xfail_path):
        self.name = name
        self.config_path = config_path
        with open(config_path, encoding="utf-8") as f:
            cfg = json.load(f)
        if not isinstance(cfg.get("cmd"), list) or not cfg["cmd"]:
            raise ValueError("%s: \"cmd\" must be a non-empty list" % config_path)
        self.cmd = [str(c) for c in cfg["cmd"]]
        self.build = cfg.get("build")
        self.env = cfg.get("env")
        self.xfail_path = xfail_path
        self.xfail = read_expected_failures(xfail_path)
        self.ops = None
        self.hello = None
        self.start_error = None
        self.start_failures = 0
        self.lock = threading.Lock()


def read_expected_failures(path):
    """{case id: set of labels}; the label None means the whole case."""
    out = {}
    if not path or not os.path.isfile(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            cid, _, lab = line.partition("@")
            out.setdefault(cid.strip(), set()).add(lab.strip() or None)
    return out


def b64(data):
    return base64.b64encode(data).decode("ascii")


def entries_for_request(case):
    """Entries as in the vector, every body converted to `{"base64": ...}` (PROTOCOL.md §Encoding ops)."""
    out = []
    for e in case.data["input"]["entries"]:
        e = dict(e)
        for k in ("file", "blob"):
            if k in e:
                f = dict(e[k])
                f["body"] = {"base64": b64(body_bytes(case, f["body"]))}
                e[k] = f
        out.append(e)
    return out


class Runner:
    def __init__(self, langs, cases, root_dir, quick=False, jobs=1, timeout=60.0, cross=False, out=sys.stdout,
                 progress=False):
        self.langs = langs
        self.cases = cases
        self.root_dir = root_dir
        self.quick = quick
        self.jobs = max(1, jobs)
        self.timeout = timeout
        self.cross = cross
        self.out = out
        self.progress = progress
        self.runs = {}  # (lang name, case id) -> CaseRun
        self.notes = []
        self._progress_lock = threading.Lock()

    # -- one case on one testee ------------------------------------------------------------------------------------
    def run_case(self, lang, testee, case):
        run = CaseRun(lang.name, case)
        op = OPS[case.kind]
        if op not in lang.ops:
            run.skip = "op not implemented in %s (%s)" % (lang.name, op)
            return run
        try:
            if case.kind in PARSE_KINDS:
                self._run_parse(testee, case, run)
            else:
                self._run_encode(lang, testee, case, run)
        finally:
            if case.kind in PARSE_KINDS and case.input_length() > DROP_INPUT_OVER:
                case.drop_input()
        return run

    def _request(self, lang, testee, req):
        """A request, restarting the testee when needed; raises TesteeFailure."""
        if testee.proc is None:
            with lang.lock:
                if lang.start_failures >= MAX_START_FAILURES:
                    raise TesteeFailure("not run: the testee failed to start %d times in a row (%s)"
                                        % (lang.start_failures, lang.start_error))
            try:
                testee.start()
            except TesteeFailure as e:
                with lang.lock:
                    lang.start_failures += 1
                    lang.start_error = e.message
                raise TesteeFailure("testee failed to restart: %s" % e.message, e.stderr) from e
            with lang.lock:
                lang.start_failures = 0
        return testee.request(req)

    def _run_parse(self, testee, case, run):
        lang = self._lang(run.lang)
        data = case.input_bytes()
        chunkings = chk.chunkings_for(case.id, data, case.kind, case.data.get("content_type"), self.quick)
        base = {"op": OPS[case.kind], "options": case.options, "input_b64": b64(data)}
        if case.kind == "multipart-parse":
            base["content_type"] = case.data["content_type"]
        result_size = 100 + len(json.dumps(case.expect))  # a rough guess of one result's size
        last = None
        for batch in chk.batches(chunkings, len(data), result_size):
            req = dict(base, chunkings=[c for _, c in batch])
            labels = [lab for lab, _ in batch]
            try:
                resp = self._request(lang, testee, req)
            except TesteeFailure as e:
                more = " (request of %d chunkings: %s)" % (len(labels), _label_span(labels)) if len(labels) > 1 else ""
                for lab in labels:
                    run.checks.append(Check(lab, e.message + more, e.stderr, group="request"))
                return
            results = resp.get("results")
            stderr = resp.get("_stderr", "")
            if not isinstance(results, list) or len(results) != len(batch):
                msg = ("response has no results list: %s" % short(resp, 160) if not isinstance(results, list) else
                       "response has %d results for %d chunkings" % (len(results), len(batch)))
                for lab in labels:
                    run.checks.append(Check(lab, msg, stderr, group="request"))
                continue
            for lab, result in zip(labels, results):
                if last is None or result != last[0]:  # chunkings mostly agree: compare each distinct result once
                    last = (result, check_result(case, result))
                run.checks.append(Check(lab, last[1], stderr, group="chunkings"))

    def _run_encode(self, lang, testee, case, run):
        inp = case.data["input"]
        op = OPS[case.kind]
        req = {"op": op}
        if case.kind == "multipart-serialize":
            req.update(boundary=inp["boundary"], entries=entries_for_request(case))
        elif case.kind == "urlencoded-serialize":
            req.update(pairs=inp["pairs"])
        else:
            req.update(value=inp["value"])
            if case.options:
                req["options"] = case.options
        try:
            resp = self._request(lang, testee, req)
        except TesteeFailure as e:
            run.checks.append(Check("encode", e.message, e.stderr))
            return
        result = {k: resp[k] for k in ("ok", "error") if k in resp}
        run.checks.append(Check("encode", check_result(case, result), resp.get("_stderr")))
        if isinstance(result.get("ok"), dict):
            run.output = result["ok"]
        if case.kind == "clone-encode" and run.output is not None and "clone.decode" in lang.ops:
            # SCHEMA.md: every clone-encode case is also decoded back and compared.
            try:
                data = bytes.fromhex(str(run.output.get("hex")))
            except ValueError:
                return
            try:
                resp = self._request(lang, testee, {"op": "clone.decode", "options": {}, "input_b64": b64(data),
                                                    "chunkings": [[]]})
            except TesteeFailure as e:
                run.checks.append(Check("roundtrip", e.message, e.stderr))
                return
            run.checks.append(Check("roundtrip", _single_value_check(resp, inp["value"]), resp.get("_stderr")))

    # -- a language's pass -----------------------------------------------------------------------------------------
    def _lang(self, name):
        return next(x for x in self.langs if x.name == name)

    def start_lang(self, lang):
        t = Testee(lang.name, lang.cmd, self.root_dir, self.timeout, _env(lang.env))
        try:
            lang.hello = t.start()
        except TesteeFailure as e:
            lang.start_error = e.message + ("\n" + e.stderr if e.stderr else "")
            return None
        lang.ops = set(lang.hello["ops"])
        return t

    def run_lang(self, lang, cases, make_task):
        """Run tasks (one per case) over `jobs` testee processes; returns the results in case order."""
        first = self.start_lang(lang)
        if first is None:
            return None
        pool = [first] + [Testee(lang.name, lang.cmd, self.root_dir, self.timeout, _env(lang.env))
                          for _ in range(min(self.jobs, max(1, len(cases))) - 1)]
        free = list(pool)
        free_lock = threading.Condition()
        done = [0]

        def task(case):
            with free_lock:
                while not free:
                    free_lock.wait()
                t = free.pop()
            try:
                return make_task(lang, t, case)
            finally:
                with free_lock:
                    free.append(t)
                    free_lock.notify()
                self._tick(lang.name, done, len(cases))

        try:
            if self.jobs == 1:
                results = [task(c) for c in cases]
            else:
                with ThreadPoolExecutor(max_workers=self.jobs) as ex:
                    results = list(ex.map(task, cases))
        finally:
            for t in pool:
                t.close()
            self._tick_end()
        return results

    def _tick(self, name, done, total):
        if not self.progress:
            return
        with self._progress_lock:
            done[0] += 1
            sys.stderr.write("\r%s: %d/%d " % (name, done[0], total))
            sys.stderr.flush()

    def _tick_end(self):
        if self.progress:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()

    def run(self):
        for lang in self.langs:
            results = self.run_lang(lang, self.cases, self.run_case)
            for case in self.cases:
                run = CaseRun(lang.name, case)
                self.runs[(lang.name, case.id)] = run
            if results is None:
                for case in self.cases:
                    self.runs[(lang.name, case.id)].checks.append(
                        Check("start", "testee failed to start: %s" % lang.start_error))
                continue
            for run in results:
                self.runs[(lang.name, run.case.id)] = run
        if self.cross and len(self.langs) > 1:
            self.run_cross()

    # -- --cross -------------------------------------------------------------------------------------------------------
    def run_cross(self):
        """Every encoder output is decoded by every other language and must give back the case's input.

        Some inputs cannot come back through a strict decoder by design (file bytes that hold the delimiter, a NUL
        in a name). So each decoder first decodes the vector's own expected bytes: when that does not give back
        the input, the case is not round-trippable through that decoder, and the check becomes "decoding the
        encoder's output gives what decoding the expected bytes gives" (listed in a NOTE line)."""
        encoder_cases = [c for c in self.cases if c.kind in ENCODE_KINDS and "error" not in c.expect]
        for dec in self.langs:
            if dec.ops is None:
                continue
            work = []
            for case in encoder_cases:
                if CROSS_DECODE_OP[case.kind] not in dec.ops:
                    continue
                runs = [self.runs.get((enc.name, case.id)) for enc in self.langs if enc is not dec]
                runs = [r for r in runs if r is not None and r.output is not None]
                if runs:
                    work.append((case, runs))
            if not work:
                continue
            label = "cross:" + dec.name

            def cross_task(lang, testee, item, label=label):
                case, runs = item
                ref = None
                try:
                    ref = self._decode_one(lang, testee, cross_request(case, expected_output(case)))
                except TesteeFailure:
                    pass  # the checks below will fail or pass on their own
                direct = ref is not None and check_cross(case, ref) is None
                out = []
                for run in runs:
                    req = cross_request(case, run.output)
                    if req is None:
                        out.append((run, Check(label, "the encoder output cannot be decoded: %s" % short(run.output)),
                                    direct))
                        continue
                    try:
                        got = self._decode_one(lang, testee, req)
                    except TesteeFailure as e:
                        out.append((run, Check(label, e.message, e.stderr), direct))
                        continue
                    if direct or ref is None:
                        diff = check_cross(case, got)
                    else:
                        diff = same_decoding(case, got, ref)
                    out.append((run, Check(label, diff), direct))
                return case, out

            results = self.run_lang(dec, work, cross_task)
            if results is None:
                for _case, runs in work:
                    for run in runs:
                        run.checks.append(Check(label, "decoder testee failed to start: %s" % dec.start_error))
                continue
            indirect = []
            for case, out in results:
                for run, check, _direct in out:
                    run.checks.append(check)
                if out and not out[0][2]:
                    indirect.append(case.id)
            if indirect:
                self.notes.append("%s: %d encoder case%s not round-trippable through %s's decoder (its own "
                                  "expected bytes do not decode to the input), compared as decoded alike: %s%s"
                                  % (label, len(indirect), "" if len(indirect) == 1 else "s", dec.name,
                                     ", ".join(indirect[:12]), ", ..." if len(indirect) > 12 else ""))

    def _decode_one(self, lang, testee, req):
        if req is None:
            raise TesteeFailure("nothing to decode")
        resp = self._request(lang, testee, req)
        results = resp.get("results")
        if not isinstance(results, list) or len(results) != 1:
            return {"error": {"code": "(protocol)", "message": "response has no single result: %s"
                              % short(resp, 160)}}
        return results[0]

    # -- verdicts and report ---------------------------------------------------------------------------------------
    def evaluate(self, run, lang):
        if run.skip:
            run.status = "skip"
            return
        listed = lang.xfail.get(run.case.id, set())
        failed = [c for c in run.checks if not c.passed]
        ran = {c.label for c in run.checks}
        where = os.path.relpath(lang.xfail_path) if lang.xfail_path else "expected-failures"
        if None in listed:
            if failed:
                run.status = "xfail"
            else:
                run.status = "fail"
                run.report.append(("-", "listed in %s but passes: remove it from the list" % where, ""))
            return
        unexpected = [c for c in failed if c.label not in listed]
        passing_listed = sorted(x for x in listed if x in ran and all(c.passed for c in run.checks if c.label == x))
        if unexpected:
            run.status = "fail"
            groups = {}
            for c in unexpected:
                groups.setdefault(c.group, []).append(c)
            for group, cs in groups.items():
                c = cs[0]
                msg = c.diff
                if len(cs) > 1 and group != "request":
                    msg += " (+%d more chunkings fail)" % (len(cs) - 1)
                if group == "chunkings" and any(x.label == "whole" and x.passed for x in run.checks):
                    msg += " [chunking-dependent: whole passes]"
                run.report.append((c.label, msg, c.stderr))
        for lab in passing_listed:
            run.status = "fail"
            run.report.append((lab, "listed as %s@%s in %s but passes: remove it from the list"
                               % (run.case.id, lab, where), ""))
        if run.status is None:
            run.status = "xfail" if failed else "pass"

    def report(self, invalid=0, verbose=False):
        counts = {"pass": 0, "fail": invalid, "skip": 0, "xfail": 0}
        skips = {}
        w = self.out.write
        for lang in self.langs:
            if lang.start_error and lang.ops is None:
                w("ERROR %s: %s\n" % (lang.name, lang.start_error.rstrip()))
            for case in self.cases:
                run = self.runs[(lang.name, case.id)]
                self.evaluate(run, lang)
                counts[run.status] += 1
                if run.status == "skip":
                    skips.setdefault((lang.name, run.skip), 0)
                    skips[(lang.name, run.skip)] += 1
                if run.status == "xfail" and verbose:
                    w("XFAIL %s %s\n" % (lang.name, case.id))
                if lang.ops is None:
                    continue  # one ERROR line above says it all
                for label, msg, stderr in run.report:
                    w("FAIL %s %s [%s]: %s\n" % (lang.name, case.id, label, msg))
                    if stderr.strip():
                        lines = stderr.rstrip().splitlines()
                        for line in lines[-20:]:
                            w("  | %s\n" % line)
        for note in self.notes:
            w("NOTE %s\n" % note)
        for (name, reason), n in sorted(skips.items()):
            w("SKIP %s: %d case%s: %s\n" % (name, n, "" if n == 1 else "s", reason))
        line = "%d passed, %d failed" % (counts["pass"], counts["fail"])
        if counts["skip"]:
            line += ", %d skipped" % counts["skip"]
        if counts["xfail"]:
            line += ", %d expected failures" % counts["xfail"]
        w(line + "\n")
        self.out.flush()
        return counts


def _single_value_check(resp, value):
    results = resp.get("results")
    if not isinstance(results, list) or len(results) != 1:
        return "clone.decode response has no single result: %s" % short(resp, 160)
    r = results[0]
    if not isinstance(r, dict) or "ok" not in r:
        return "decoding the encoder's own bytes: %s" % short(r, 160)
    if not isinstance(r["ok"], dict) or "value" not in r["ok"]:
        return "ok.value is missing"
    d = compare_values(r["ok"]["value"], value)
    return None if d is None else "decoding the encoder's own bytes: " + d


def expected_output(case):
    """The vector's expected encoder output, in the shape a testee returns it."""
    exp = case.expect
    if case.kind == "multipart-serialize":
        return {"content_type": exp["content_type"], "body_b64": b64(body_bytes(case, exp["body"]))}
    if case.kind == "urlencoded-serialize":
        return {"text": exp["text"]}
    return {"hex": exp["hex"]}


def same_decoding(case, got, ref):
    """None when two decode results agree (error code and offset, or the decoded content)."""
    g, w = decoding_key(got), decoding_key(ref)
    if case.kind == "clone-encode" and "ok" in g and "ok" in w and isinstance(g["ok"], dict) and isinstance(w["ok"], dict):
        d = compare_values(g["ok"].get("value"), w["ok"].get("value"))
        return None if d is None else "decodes unlike the expected bytes: " + d
    if g != w:
        return "decodes unlike the expected bytes: got %s, expected %s" % (short(g, 150), short(w, 150))
    return None


def cross_request(case, output):
    try:
        if case.kind == "multipart-serialize":
            return {"op": "multipart.parse", "content_type": output["content_type"], "options": {},
                    "input_b64": output["body_b64"], "chunkings": [[]]}
        if case.kind == "urlencoded-serialize":
            return {"op": "urlencoded.parse", "options": {}, "input_b64": b64(output["text"].encode("utf-8")),
                    "chunkings": [[]]}
        return {"op": "clone.decode", "options": {}, "input_b64": b64(bytes.fromhex(output["hex"])),
                "chunkings": [[]]}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _label_span(labels):
    return labels[0] if len(labels) == 1 else "%s .. %s" % (labels[0], labels[-1])


def _env(extra):
    if not extra:
        return None
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in extra.items()})
    return env


def build(lang, root_dir, out=sys.stdout):
    if not lang.build:
        return True
    out.write("build %s: %s\n" % (lang.name, " ".join(lang.build)))
    out.flush()
    try:
        r = subprocess.run(lang.build, cwd=root_dir)
    except OSError as e:
        out.write("ERROR %s: build failed: %s\n" % (lang.name, e))
        return False
    if r.returncode != 0:
        out.write("ERROR %s: build failed with exit status %d\n" % (lang.name, r.returncode))
        return False
    return True
