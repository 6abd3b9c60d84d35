"""Tests of the conformance runner itself: `python3 -m unittest discover -s conformance/tests -v`.

They build tiny vector directories in a temporary folder and drive conformance/run against tests/fake_testee.py,
so they depend on neither the real vectors nor any implementation.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.dirname(HERE)
REPO = os.path.dirname(CONFORMANCE)
RUN = os.path.join(CONFORMANCE, "run")
FAKE = os.path.join(HERE, "fake_testee.py")
SCHEMA = os.path.join(REPO, "vectors", "schema.json")
sys.path.insert(0, CONFORMANCE)

from runner import chunking, compare  # noqa: E402
from runner.cases import SplitMix64, expand_recipe, random_bytes, validate  # noqa: E402
from runner.jsonschema import SchemaError, Validator  # noqa: E402

SPEC_MD = """# test spec
- **UE-P-01** pairs
- **UE-L-01** limits
| rule | text |
|---|---|
| MP-P-01 | parts |
### MP-S-01 serializer
**SC-E-01.** encode
"""
ERRORS_MD = """| code | meaning | offset |
|---|---|---|
| `UE_LIMIT_PAIRS` | x | y |
| `UE_LIMIT_BYTES` | x | y |
| `MP_TRUNCATED` | x | y |
"""


def jhex(value):
    """What fake_testee's clone.encode writes."""
    return "ff0f" + json.dumps(value, sort_keys=True).encode().hex()


def ue(cid, text, expect, options=None, verdict="accept", rules=("UE-P-01",)):
    d = {"id": cid, "kind": "urlencoded-parse", "rules": list(rules), "description": cid, "input": {"text": text},
         "expect": expect}
    if options is not None:
        d["options"] = options
    return ("urlencoded/%s/%s.json" % (verdict, cid), d)


NEG_ZERO = {"t": "array", "id": 0, "length": 3, "items": [[0, {"t": "number", "v": "-0"}],
                                                          [2, {"t": "string", "u16": [104, 105]}]], "props": []}
MP_ENTRIES = [{"name": "a\nb", "value": "x\ny"},
              {"name": "f", "file": {"filename": "q\"1.txt", "type": "text/plain", "body": {"text": "hi"}}},
              {"name": "b", "blob": {"type": "", "body": {"base64": "AAE="}}}]
MP_BODY = (b'--B\r\nContent-Disposition: form-data; name="a%0D%0Ab"\r\n\r\nx\r\ny\r\n'
           b'--B\r\nContent-Disposition: form-data; name="f"; filename="q%221.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n'
           b'--B\r\nContent-Disposition: form-data; name="b"; filename="blob"\r\nContent-Type: application/octet-stream'
           b'\r\n\r\n\x00\x01\r\n--B--\r\n')
MP_INPUT = (b'--xyz\r\nContent-Disposition: form-data; name="field"\r\n\r\nvalue\r\n'
            b'--xyz\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\nContent-Type: image/png\r\n\r\n'
            b'\x00PNG\r\n--xyz--\r\n')


def standard_cases():
    """A small vector set that fake_testee.py in mode `good` passes entirely."""
    return dict([
        ue("ue-plain", "a=b&c=d", {"pairs": [["a", "b"], ["c", "d"]]}),
        ue("ue-plus", "a+b=c+d&&e", {"pairs": [["a b", "c d"], ["e", ""]]}),
        ue("ue-limit-pairs", "a=1&&b=2&c=3", {"error": {"code": "UE_LIMIT_PAIRS", "offset": 9}},
           options={"max_pairs": 2}, verdict="reject", rules=("UE-L-01",)),
        ("urlencoded/accept/ue-serialize.json", {
            "id": "ue-serialize", "kind": "urlencoded-serialize", "rules": ["UE-P-01"], "description": "s",
            "input": {"pairs": [["a b", "1+1=2"], ["é", ""]]}, "expect": {"text": "a+b=1%2B1%3D2&%C3%A9="}}),
        ("clone/accept/sc-neg-zero.json", {
            "id": "sc-neg-zero", "kind": "clone-encode", "rules": ["SC-E-01"], "description": "-0 survives",
            "input": {"value": NEG_ZERO}, "expect": {"hex": jhex(NEG_ZERO)}}),
        ("clone/accept/sc-decode.json", {
            "id": "sc-decode", "kind": "clone-decode", "rules": ["SC-E-01"], "description": "d",
            "input": {"hex": jhex({"t": "number", "v": "NaN"})}, "expect": {"value": {"t": "number", "v": "NaN"}}}),
        ("multipart/accept/mp-serialize.json", {
            "id": "mp-serialize", "kind": "multipart-serialize", "rules": ["MP-S-01"], "description": "s",
            "input": {"boundary": "B", "entries": MP_ENTRIES},
            "expect": {"content_type": "multipart/form-data; boundary=B", "body": {"file": "mp-serialize.http"}}}),
        ("multipart/accept/mp-serialize.http", MP_BODY),
        ("multipart/accept/mp-parse.json", {
            "id": "mp-parse", "kind": "multipart-parse", "rules": ["MP-P-01"], "description": "p",
            "content_type": "multipart/form-data; boundary=xyz", "input": {"file": "mp-parse.http"},
            "expect": {"parts": [
                {"name": "field", "body": {"text": "value"},
                 "headers": [["content-disposition", "form-data; name=\"field\""]]},
                {"name": "f", "filename": "a.bin", "content_type": "image/png", "type": "image/png",
                 "body": {"size": 4, "sha256": hashlib.sha256(b"\x00PNG").hexdigest()}}]}}),
        ("multipart/accept/mp-parse.http", MP_INPUT),
    ])


class VectorDir:
    def __init__(self, files, spec=True):
        self.root = tempfile.mkdtemp(prefix="fw-conf-test-")
        self.vectors = os.path.join(self.root, "vectors")
        self.spec = os.path.join(self.root, "spec")
        self.langs = os.path.join(self.root, "langs")
        self.xfail = os.path.join(self.root, "xfail")
        for d in (self.vectors, self.langs, self.xfail):
            os.makedirs(d)
        if spec:
            os.makedirs(self.spec)
            for name in ("urlencoded.md", "multipart.md", "structured-clone.md"):
                with open(os.path.join(self.spec, name), "w") as f:
                    f.write(SPEC_MD)
            with open(os.path.join(self.spec, "errors.md"), "w") as f:
                f.write(ERRORS_MD)
        for rel, content in files.items():
            self.write(rel, content)

    def write(self, rel, content):
        path = os.path.join(self.vectors, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, (dict, list)):
            content = json.dumps(content, indent=1).encode()
        elif isinstance(content, str):
            content = content.encode()
        with open(path, "wb") as f:
            f.write(content)

    def lang(self, name, mode, ops=None):
        cmd = [sys.executable, FAKE, mode] + ([",".join(ops)] if ops else [])
        with open(os.path.join(self.langs, name + ".json"), "w") as f:
            json.dump({"cmd": cmd}, f)

    def xfails(self, name, text):
        with open(os.path.join(self.xfail, name + ".txt"), "w") as f:
            f.write(text)

    def run(self, *args, timeout=120):
        cmd = [sys.executable, RUN, "--vectors", self.vectors, "--schema", SCHEMA, "--spec", self.spec,
               "--langs-dir", self.langs, "--expected-failures-dir", self.xfail, *args]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)


def last_line(out):
    return out.rstrip("\n").splitlines()[-1]


class Base(unittest.TestCase):
    files = None

    def setUp(self):
        self.v = VectorDir(standard_cases() if self.files is None else self.files)

    def tearDown(self):
        self.v.close()


# -- pure pieces ------------------------------------------------------------------------------------------------------

class TestSplitMix(unittest.TestCase):
    def test_reference_outputs(self):
        # Reference values of splitmix64 seeded with 1234567 (as in rand_xoshiro's and the C reference's tests).
        r = SplitMix64(1234567)
        self.assertEqual([r.next() for _ in range(5)], [6457827717110365317, 3203168211198807973,
                                                         9817491932198370423, 4593380528125082431,
                                                         16408922859458223821])

    def test_random_bytes_little_endian_truncated(self):
        first = SplitMix64(1234567).next()
        self.assertEqual(random_bytes(3, 1234567), first.to_bytes(8, "little")[:3])
        self.assertEqual(random_bytes(11, 1234567)[:8], first.to_bytes(8, "little"))
        self.assertEqual(len(random_bytes(11, 5)), 11)

    def test_recipe(self):
        data = expand_recipe([{"text": "é"}, {"hex": "0d0a"},
                              {"repeat": [{"text": "ab"}, {"repeat": [{"hex": "00"}], "count": 2}], "count": 3},
                              {"random": 4, "seed": 1234567}])
        self.assertEqual(data, "é".encode() + b"\r\n" + b"ab\x00\x00" * 3 + random_bytes(4, 1234567))


class TestChunkings(unittest.TestCase):
    def test_small_input_every_split_point(self):
        cs = chunking.chunkings_for("x", b"abcdef", "urlencoded-parse")
        self.assertEqual(cs, [("whole", []), ("1", [1]), ("2", [2]), ("3", [3]), ("4", [4]), ("5", [5]),
                              ("bytes", "bytes")])

    def test_batches_cap_and_bytes_alone(self):
        data = b"a" * 4096
        cs = chunking.chunkings_for("x", data, "urlencoded-parse")
        self.assertEqual(len(cs), 4097)
        bs = chunking.batches(cs, len(data))
        self.assertTrue(all(len(b) <= chunking.MAX_CHUNKINGS_PER_REQUEST for b in bs))
        self.assertEqual(bs[-1], [("bytes", "bytes")])
        self.assertEqual(sum(len(b) for b in bs), len(cs))

    def test_large_multipart_windows_around_delimiters(self):
        body = b"--bnd\r\nContent-Disposition: form-data; name=a\r\n\r\n" + b"x" * 10000 + b"\r\n--bnd--\r\n"
        cs = chunking.chunkings_for("big", body, "multipart-parse", "multipart/form-data; boundary=bnd")
        windows = [c for lab, c in cs if lab.startswith("window-")]
        cut = {x for c in windows for x in c}
        delim = body.index(b"\r\n--bnd--")
        # every cut within 80 bytes of each delimiter (the first one at 0 has no CRLF)
        self.assertEqual(cut, set(range(1, 5 + 81)) | set(range(delim - 80, len(body))))
        self.assertTrue(all(len(c) <= 2 for c in windows))
        randoms = [c for lab, c in cs if lab.startswith("random-")]
        self.assertEqual(len(randoms), 64)
        self.assertTrue(all(c == sorted(set(c)) and 0 < c[0] and c[-1] < len(body) and len(c) <= 8 for c in randoms))
        self.assertEqual(cs[0], ("whole", []))
        self.assertEqual(cs[-1], ("bytes", "bytes"))
        self.assertLess(len(cs), 300)
        self.assertEqual(cs, chunking.chunkings_for("big", body, "multipart-parse",
                                                    "multipart/form-data; boundary=bnd"), "seeded, repeatable")

    def test_many_delimiters_share_windows(self):
        part = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nxy\r\n"
        body = part * 1000 + b"--b--\r\n"
        cs = chunking.chunkings_for("many", body, "multipart-parse", "multipart/form-data; boundary=b")
        windows = [c for lab, c in cs if lab.startswith("window-")]
        self.assertEqual(len(windows), 2 + 3 + 2 * 80 + 1)
        self.assertTrue(all(len(c) <= 64 for c in windows))
        self.assertLess(len(cs), 250)

    def test_quick(self):
        cs = chunking.chunkings_for("q", b"a" * 100, "urlencoded-parse", quick=True)
        self.assertEqual(cs[0], ("whole", []))
        self.assertEqual(cs[-1], ("bytes", "bytes"))
        self.assertEqual(len(cs), 10)

    def test_clone_whole_only(self):
        self.assertEqual(chunking.chunkings_for("c", b"\xff\x0f\x00", "clone-decode"), [("whole", [])])

    def test_boundary_param(self):
        self.assertEqual(chunking.boundary_of('multipart/form-data; boundary="a b\\"c"; x=y'), 'a b"c')
        self.assertEqual(chunking.boundary_of("multipart/form-data;BOUNDARY=xyz"), "xyz")


class TestCompare(unittest.TestCase):
    def test_numbers(self):
        def n(v):
            return {"t": "number", "v": v}

        self.assertIsNone(compare.compare_values(n("NaN"), n("NaN")))
        self.assertIsNone(compare.compare_values(n(1), n(1.0)))
        self.assertIsNone(compare.compare_values(n(-0.0), n("-0")))
        self.assertIn("expected -0", compare.compare_values(n(0), n("-0")))
        self.assertIsNotNone(compare.compare_values(n("Infinity"), n("-Infinity")))
        self.assertIsNotNone(compare.compare_values(n(1e308), n("Infinity")))

    def test_strings_v_and_u16(self):
        self.assertIsNone(compare.compare_values({"t": "string", "v": "hé"}, {"t": "string", "u16": [104, 233]}))
        self.assertIsNone(compare.compare_values({"t": "string", "v": "\ud800"}, {"t": "string", "u16": [55296]}))
        self.assertIsNotNone(compare.compare_values({"t": "string", "v": "a"}, {"t": "string", "u16": [98]}))

    def test_nested_difference_path(self):
        got = {"t": "map", "id": 0, "entries": [[{"t": "bigint", "v": "10"}, {"t": "null"}]]}
        want = {"t": "map", "id": 0, "entries": [[{"t": "bigint", "v": "10"}, {"t": "undefined"}]]}
        self.assertIn("value.entries[0][1].t", compare.compare_values(got, want))
        self.assertIsNone(compare.compare_values(got, json.loads(json.dumps(got))))

    def test_cross_expectation_of_entries(self):
        class C:
            data = {"input": {"entries": MP_ENTRIES}}
        parts = compare.parts_from_entries(C)
        self.assertEqual([p["name"] for p in parts], ["a%0D%0Ab", "f", "b"])
        self.assertEqual([p["filename"] for p in parts], [None, "q%221.txt", "blob"])
        self.assertEqual([p["content_type"] for p in parts], [None, "text/plain", "application/octet-stream"])
        self.assertEqual(parts[0]["body"][2], b"x\r\ny")


class TestSchema(unittest.TestCase):
    def test_schema_md_examples_are_valid(self):
        """The JSON examples of vectors/SCHEMA.md satisfy vectors/schema.json (the two must not drift)."""
        with open(os.path.join(REPO, "vectors", "SCHEMA.md"), encoding="utf-8") as f:
            md = f.read()
        blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", md, re.S)]
        self.assertGreaterEqual(len(blocks), 2)
        v = Validator.from_file(SCHEMA)
        for b in blocks:
            self.assertEqual(v.errors(b), [], b["id"])

    def test_rejects_unknown_keywords(self):
        with self.assertRaises(SchemaError):
            Validator({"type": "object", "patternProperties": {}})

    def test_errors(self):
        v = Validator.from_file(SCHEMA)
        bad = {"id": "x", "kind": "clone-encode", "rules": [], "description": "d",
               "input": {"value": {"t": "number", "v": "nan"}}, "expect": {"hex": "FF"}, "extra": 1}
        msgs = "\n".join("%s: %s" % e for e in v.errors(bad))
        for needle in ("$.rules: expected at least 1", "$.input.value.v", "$.expect", "unknown field 'extra'"):
            self.assertIn(needle, msgs)


# -- --validate ----------------------------------------------------------------------------------------------------------

class TestValidate(Base):
    def test_valid_set(self):
        code, out, _ = self.v.run("--validate")
        self.assertEqual(code, 0, out)
        self.assertEqual(last_line(out), "8 cases valid, 0 invalid")

    def test_catches_problems(self):
        self.v.write("urlencoded/accept/wrong-name.json", ue("other-id", "a", {"pairs": [["a", ""]]})[1])
        self.v.write("urlencoded/accept/undefined-rule.json",
                     ue("undefined-rule", "a", {"pairs": [["a", ""]]}, rules=("UE-P-99",))[1])
        self.v.write("urlencoded/accept/no-rules.json", ue("no-rules", "a", {"pairs": [["a", ""]]}, rules=())[1])
        self.v.write("urlencoded/reject/ue-plain.json", ue("ue-plain", "a", {"error": {"code": "UE_LIMIT_BYTES",
                                                                                      "offset": 0}})[1])
        self.v.write("urlencoded/accept/no-file.json", {
            "id": "no-file", "kind": "urlencoded-parse", "rules": ["UE-P-01"], "description": "d",
            "input": {"file": "no-file.txt"}, "expect": {"pairs": []}})
        self.v.write("urlencoded/reject/not-error.json", ue("not-error", "a", {"pairs": [["a", ""]]})[1])
        self.v.write("urlencoded/reject/bad-code.json", ue("bad-code", "a", {"error": {"code": "UE_NOPE",
                                                                                      "offset": 0}})[1])
        self.v.write("urlencoded/accept/lone.json", ue("lone", "\ud800", {"pairs": [["\ufffd", ""]]})[1])
        code, out, _ = self.v.run("--validate")
        self.assertEqual(code, 1)
        for needle in ("lone.json: $.input.text holds a lone surrogate",
                       "wrong-name.json: id 'other-id' does not equal the file name",
                       "undefined-rule.json: rule UE-P-99 is cited but not defined",
                       "no-rules.json: $.rules: expected at least 1 items",
                       "id 'ue-plain' is not unique",
                       "no-file.json: raw file no-file.txt does not exist",
                       "not-error.json: a case under reject/ must expect an error",
                       "bad-code.json: error code UE_NOPE is not in spec/errors.md"):
            self.assertIn(needle, out)

    def test_absent_spec_is_a_warning(self):
        shutil.rmtree(self.v.spec)
        code, out, _ = self.v.run("--validate")
        self.assertEqual(code, 0, out)
        self.assertIn("WARN spec/urlencoded.md is absent", out)

    def test_validate_in_process(self):
        cases, errors, warnings = validate(self.v.vectors, Validator.from_file(SCHEMA), self.v.spec)
        self.assertEqual(len(cases), 8)
        self.assertEqual(errors, [])


# -- running testees ---------------------------------------------------------------------------------------------------

class TestRun(Base):
    def test_correct_testee_passes(self):
        self.v.lang("good", "good")
        code, out, err = self.v.run("--lang", "good")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(last_line(out), "8 passed, 0 failed")
        self.assertNotIn("FAIL", out)

    def test_quick_and_jobs(self):
        self.v.lang("good", "good")
        code, out, _ = self.v.run("--lang", "good", "--quick", "-j", "2")
        self.assertEqual(code, 0, out)
        self.assertEqual(last_line(out), "8 passed, 0 failed")

    def test_filter(self):
        self.v.lang("good", "good")
        code, out, _ = self.v.run("--lang", "good", "--filter", "urlencoded/")
        self.assertEqual(last_line(out), "4 passed, 0 failed")

    def test_wrong_value(self):
        self.v.lang("bad", "wrong-value")
        code, out, _ = self.v.run("--lang", "bad")
        self.assertEqual(code, 1)
        self.assertIn('FAIL bad ue-plus [whole]: pairs[0]: got ["a+b", "c+d"], expected ["a b", "c d"]', out)
        self.assertEqual(last_line(out), "7 passed, 1 failed")

    def test_wrong_error_offset(self):
        self.v.lang("bad", "wrong-offset")
        code, out, _ = self.v.run("--lang", "bad")
        self.assertEqual(code, 1)
        self.assertIn("FAIL bad ue-limit-pairs [whole]: error UE_LIMIT_PAIRS at offset 10, expected offset 9", out)

    def test_chunking_dependent(self):
        self.v.lang("bad", "chunking")
        code, out, _ = self.v.run("--lang", "bad", "--filter", "ue-plain")
        self.assertEqual(code, 1)
        line = [x for x in out.splitlines() if x.startswith("FAIL")]
        self.assertEqual(len(line), 1, out)
        self.assertRegex(line[0], r"^FAIL bad ue-plain \[1\]: .*\(\+3 more chunkings fail\) "
                                  r"\[chunking-dependent: whole passes\]$")

    def test_crash_restarts_and_continues(self):
        self.v.write("urlencoded/accept/crash-me.json", ue("crash-me", "CRASH=1", {"pairs": [["CRASH", "1"]]})[1])
        self.v.lang("bad", "crash")
        code, out, _ = self.v.run("--lang", "bad")
        self.assertEqual(code, 1)
        self.assertIn("FAIL bad crash-me [whole]: testee crashed (exit status 3)", out)
        self.assertIn("  | fake testee: crashing on purpose", out)
        self.assertEqual(last_line(out), "8 passed, 1 failed")  # every case after the crash still ran

    def test_timeout(self):
        self.v.write("urlencoded/accept/hang.json", ue("hang", "HANG", {"pairs": [["HANG", ""]]})[1])
        self.v.lang("bad", "hang")
        code, out, _ = self.v.run("--lang", "bad", "--timeout", "1", "--filter", "urlencoded/")
        self.assertEqual(code, 1)
        self.assertIn("FAIL bad hang [whole]: timeout: no answer to urlencoded.parse within 1 s", out)
        self.assertEqual(last_line(out), "4 passed, 1 failed")

    def test_invalid_json_and_wrong_id(self):
        self.v.write("urlencoded/accept/badjson.json", ue("badjson", "BADJSON", {"pairs": [["BADJSON", ""]]})[1])
        self.v.write("urlencoded/accept/wrongid.json", ue("wrongid", "WRONGID", {"pairs": [["WRONGID", ""]]})[1])
        self.v.lang("bj", "badjson")
        self.v.lang("wi", "wrongid")
        code, out, _ = self.v.run("--lang", "bj", "--lang", "wi", "--filter", "urlencoded/")
        self.assertEqual(code, 1)
        self.assertIn("FAIL bj badjson [whole]: testee wrote a line that is not JSON: 'this is not json'", out)
        self.assertRegex(out, r"FAIL wi wrongid \[whole\]: testee answered with id (\d+)0(\d), expected \2 "
                              r"\(request of 7 chunkings: whole \.\. 6\)")
        self.assertEqual(last_line(out), "10 passed, 2 failed")

    def test_testee_that_cannot_start(self):
        with open(os.path.join(self.v.langs, "nope.json"), "w") as f:
            json.dump({"cmd": ["./does-not-exist-testee"]}, f)
        code, out, _ = self.v.run("--lang", "nope")
        self.assertEqual(code, 1)
        self.assertIn("ERROR nope: cannot start ./does-not-exist-testee", out)
        self.assertEqual(last_line(out), "0 passed, 8 failed")

    def test_build_runs_only_with_flag(self):
        marker = os.path.join(self.v.root, "built")
        build = [sys.executable, "-c", "open(%r, 'w').write('x')" % marker]
        with open(os.path.join(self.v.langs, "b.json"), "w") as f:
            json.dump({"cmd": [sys.executable, FAKE, "good"], "build": build}, f)
        code, out, _ = self.v.run("--lang", "b", "--filter", "ue-plain")
        self.assertEqual((code, os.path.exists(marker)), (0, False), out)
        code, out, _ = self.v.run("--lang", "b", "--filter", "ue-plain", "--build")
        self.assertEqual((code, os.path.exists(marker)), (0, True), out)
        with open(os.path.join(self.v.langs, "b.json"), "w") as f:
            json.dump({"cmd": [sys.executable, FAKE, "good"], "build": [sys.executable, "-c", "exit(2)"]}, f)
        code, out, _ = self.v.run("--lang", "b", "--build")
        self.assertEqual(code, 1)
        self.assertIn("ERROR b: build failed with exit status 2", out)

    def test_unimplemented_ops_are_skipped(self):
        self.v.lang("partial", "good", ops=["urlencoded.parse"])
        code, out, _ = self.v.run("--lang", "partial")
        self.assertEqual(code, 0, out)
        for op in ("clone.decode", "clone.encode", "multipart.parse", "multipart.serialize", "urlencoded.serialize"):
            self.assertIn("SKIP partial: 1 case: op not implemented in partial (%s)" % op, out)
        self.assertEqual(last_line(out), "3 passed, 0 failed, 5 skipped")

    def test_clone_roundtrip(self):
        self.v.lang("lossy", "lossydecode")
        code, out, _ = self.v.run("--lang", "lossy", "--filter", "sc-")
        self.assertEqual(code, 1)
        self.assertIn("FAIL lossy sc-neg-zero [roundtrip]: decoding the encoder's own bytes: value.items[0][1].v: "
                      "got 0, expected -0", out)


class TestExpectedFailures(Base):
    def test_listed_failure_is_expected(self):
        self.v.lang("bad", "wrong-value")
        self.v.xfails("bad", "# known\nue-plus  # + handling\n")
        code, out, _ = self.v.run("--lang", "bad")
        self.assertEqual(code, 0, out)
        self.assertEqual(last_line(out), "7 passed, 0 failed, 1 expected failures")

    def test_ratchet_listed_pass_fails_the_run(self):
        self.v.lang("good", "good")
        self.v.xfails("good", "ue-plain\n")
        code, out, _ = self.v.run("--lang", "good")
        self.assertEqual(code, 1)
        self.assertRegex(out, r"FAIL good ue-plain \[-\]: listed in .*good.txt but passes: remove it from the list")
        self.assertEqual(last_line(out), "7 passed, 1 failed")

    def test_chunking_keys(self):
        self.v.lang("bad", "chunking")
        # For "a=b&c=d" a cut acting like `&` changes the result at 1, 2, 5 and 6 only.
        self.v.xfails("bad", "ue-plain@1\nue-plain@2\nue-plain@5\nue-plain@6\n")
        code, out, _ = self.v.run("--lang", "bad", "--filter", "ue-plain")
        self.assertEqual(code, 0, out)
        self.assertEqual(last_line(out), "0 passed, 0 failed, 1 expected failures")
        self.v.xfails("bad", "ue-plain@1\nue-plain@whole\n")
        code, out, _ = self.v.run("--lang", "bad", "--filter", "ue-plain")
        self.assertEqual(code, 1)
        self.assertIn("FAIL bad ue-plain [2]:", out)
        self.assertIn("FAIL bad ue-plain [whole]: listed as ue-plain@whole", out)


class TestCross(Base):
    def test_cross_catches_a_bad_encoder(self):
        self.v.lang("good", "good")
        self.v.lang("badser", "badserialize")
        code, out, _ = self.v.run("--lang", "good", "--lang", "badser", "--cross")
        self.assertEqual(code, 1)
        self.assertIn('FAIL badser ue-serialize [encode]: text differs at char 5: got "a+b=1+1%3D2&%C3%A9=", '
                      'expected "a+b=1%2B1%3D2&%C3%A9="', out)
        self.assertIn('FAIL badser ue-serialize [cross:good]: pairs[0]: got ["a b", "1 1=2"], expected ["a b", '
                      '"1+1=2"]', out)
        self.assertIn("FAIL badser sc-neg-zero [cross:good]: value.items[0][1].v: got 0, expected -0", out)
        self.assertNotIn("FAIL good", out)
        self.assertEqual(last_line(out), "14 passed, 2 failed")

    def test_not_round_trippable_case(self):
        # File bytes holding the close delimiter cannot come back through a parser: the cross check then only
        # asks that the encoder's output decodes like the vector's own bytes.
        self.v.write("multipart/accept/mp-delim-in-file.json", {
            "id": "mp-delim-in-file", "kind": "multipart-serialize", "rules": ["MP-S-01"], "description": "d",
            "input": {"boundary": "B", "entries": [
                {"name": "f", "file": {"filename": "x", "type": "", "body": {"text": "a\r\n--B--\r\n"}}}]},
            "expect": {"content_type": "multipart/form-data; boundary=B", "body": {"text":
                       '--B\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n'
                       'Content-Type: application/octet-stream\r\n\r\na\r\n--B--\r\n\r\n--B--\r\n'}}})
        self.v.lang("one", "good")
        self.v.lang("two", "good")
        code, out, _ = self.v.run("--lang", "one", "--lang", "two", "--cross", "--filter", "multipart/")
        self.assertEqual(code, 0, out)
        self.assertIn("NOTE cross:two: 1 encoder case not round-trippable through two's decoder", out)
        self.assertEqual(last_line(out), "6 passed, 0 failed")

    def test_cross_of_good_encoders_passes(self):
        self.v.lang("one", "good")
        self.v.lang("two", "good")
        code, out, _ = self.v.run("--lang", "one", "--lang", "two", "--cross")
        self.assertEqual(code, 0, out)
        self.assertEqual(last_line(out), "16 passed, 0 failed")


if __name__ == "__main__":
    unittest.main()
