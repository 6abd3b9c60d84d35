"""Unit tests of the matrix's own machinery (stdlib unittest; no network, no third-party package).

    python3 -m unittest discover -s interop/tests
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from harness import compare, forms  # noqa: E402
from harness.consumers import CONSUMERS  # noqa: E402
from harness.run import boundary_of, disposition_offset, documented_quirks  # noqa: E402


class Meant(unittest.TestCase):
    def test_whatwg_escapes(self):
        got = forms.meant_multipart([forms.V('a\nb"c', "x\ry"), forms.F("f", 'q"\r\n.txt', "", b"\x00")])
        self.assertEqual(got[0], {"name": "a%0D%0Ab%22c", "filename": None, "type": None, "body": b"x\r\ny"})
        self.assertEqual(got[1]["filename"], "q%22%0D%0A.txt")  # MP-S-03: no normalization, so CR LF stays two escapes
        self.assertEqual(got[1]["type"], "application/octet-stream")  # MP-S-06

    def test_blob_is_named_blob(self):
        self.assertEqual(forms.meant_multipart([forms.BLOB("b", "", b"1")])[0]["filename"], "blob")

    def test_html_form_normalizes_urlencoded_newlines(self):
        self.assertEqual(forms.meant_urlencoded([["a\nb", "c\rd"]], html_form=True), [["a\r\nb", "c\r\nd"]])
        self.assertEqual(forms.meant_urlencoded([["a\nb", "c"]]), [["a\nb", "c"]])


class Wire(unittest.TestCase):
    def test_go_quote_is_read_with_quoted_pairs(self):
        # MP-H-07: the literal reading of name="a\"b" fails, so the whole header is read with quoted-pairs
        exp = forms.wire_multipart("go", [forms.V("ok", "1"), forms.V('a"b', "2"), forms.F('q"\\', "c\\d", "", b"x")])
        self.assertIsNone(exp.error)
        self.assertEqual([(e["name"], e["filename"]) for e in exp.entries], [("ok", None), ('a"b', None), ('q"\\', "c\\d")])
        self.assertEqual(exp.quirks, {"quote-as-quoted-pair"})

    def test_go_quote_hiding_a_parameter_is_one_value(self):
        # Go writes filename="x\"; filename=\"": literally a second filename (MP-H-08 fails), with quoted-pairs one value
        exp = forms.wire_multipart("go", [forms.F('a', 'x"; filename=', "", b"1")])
        self.assertIsNotNone(exp.entries)
        self.assertEqual(exp.entries[0]["filename"], 'x"; filename=')

    def test_go_cd_reader(self):
        self.assertEqual(forms._cd_params('form-data; name="a\\"; filename="b\\"c"', False), None)
        self.assertEqual(forms._cd_params('form-data; name="a\\"; filename="b\\"c"', True), None)
        self.assertEqual(forms._cd_params('form-data; name="a\\\\b"', False), {"name": "a\\\\b"})
        self.assertEqual(forms._cd_params('form-data; name="a\\\\b"', True), {"name": "a\\b"})

    def test_go_backslash_doubles(self):
        exp = forms.wire_multipart("go", [forms.F("f", "a\\b", "text/plain", b"x")])
        self.assertEqual(exp.entries[0]["filename"], "a\\\\b")
        self.assertEqual(exp.quirks, {"backslash-escaped"})

    def test_requests_orders_fields_first_and_drops_empty_type(self):
        exp = forms.wire_multipart("py-requests", [forms.F("f", "u.bin", "", b"u"), forms.V("k", "v")])
        self.assertEqual([e["name"] for e in exp.entries], ["k", "f"])
        self.assertEqual((exp.entries[1]["content_type"], exp.entries[1]["type"]), (None, "text/plain"))
        self.assertEqual(exp.quirks, {"fields-before-files", "untyped-file-no-content-type"})

    def test_whatwg_producer_has_no_quirks(self):
        for case, entries in forms.MULTIPART.items():
            self.assertEqual(forms.wire_multipart("chromium-fetch", entries).quirks, set(), case)

    def test_postform_sorts(self):
        exp = forms.wire_urlencoded("go", [["k", "1"], ["j", "x"], ["k", "2"]])
        self.assertEqual(exp.entries, [["j", "x"], ["k", "1"], ["k", "2"]])


class Compare(unittest.TestCase):
    exp = {"entries": [{"name": "a%22b", "filename": "x\\y.txt", "type": "text/plain", "body": b"1"}]}

    def test_ok(self):
        got = {"entries": [dict(self.exp["entries"][0])]}
        self.assertEqual(compare.check(self.exp, got, [])[0], "ok")

    def test_known_only_through_a_listed_quirk(self):
        got = {"entries": [dict(self.exp["entries"][0], name='a"b')]}
        self.assertEqual(compare.check(self.exp, got, ["consumer-percent-decodes-params"])[:1], ("known",))
        status, detail, _ = compare.check(self.exp, got, ["consumer-quoted-pairs"])
        self.assertEqual(status, "fail")
        self.assertIn("entry 0 name", detail)

    def test_body_and_count_differences(self):
        got = {"entries": [dict(self.exp["entries"][0], body=b"2")]}
        self.assertIn("body", compare.first_difference(self.exp, got))
        self.assertIn("2 entries, want 1", compare.first_difference(self.exp, {"entries": self.exp["entries"] * 2}))

    def test_testee_sha_bodies(self):
        e = self.exp["entries"][0]
        got = {"entries": [{"name": e["name"], "filename": e["filename"], "type": e["type"],
                            "sha256": forms.sha256(b"1"), "size": 1}]}
        self.assertIsNone(compare.first_difference(self.exp, got))

    def test_expected_error(self):
        want = {"error": {"code": "MP_DISPOSITION", "offset": 40}}
        self.assertIsNone(compare.first_difference(want, {"error": {"code": "MP_DISPOSITION", "offset": 40}}))
        self.assertIsNotNone(compare.first_difference(want, {"error": {"code": "MP_DISPOSITION", "offset": 41}}))
        self.assertIsNotNone(compare.first_difference(want, {"entries": []}))


class Offsets(unittest.TestCase):
    def test_disposition_offset(self):
        body = (b'--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n'
                b'--B\r\nContent-Type: text/plain\r\nContent-Disposition: form-data; name="b\\"c"\r\n\r\n2\r\n--B--\r\n')
        self.assertEqual(disposition_offset(body, "B", 0), 5)
        off = disposition_offset(body, "B", 1)
        self.assertTrue(body[off:].startswith(b'Content-Disposition: form-data; name="b'))
        self.assertEqual(boundary_of('multipart/form-data; boundary="a:b"'), "a:b")
        self.assertEqual(boundary_of("multipart/form-data; boundary=xyz; charset=utf-8"), "xyz")


class Documented(unittest.TestCase):
    def test_every_quirk_has_a_heading_and_rules(self):
        documented = documented_quirks()
        for q, rules in forms.QUIRK_RULES.items():
            self.assertIn(q, documented, q)
            self.assertTrue(rules, q)
        for c in CONSUMERS:
            for q in c.quirks:
                self.assertIn(q, compare.CONSUMER_TRANSFORMS, (c.id, q))
                self.assertIn(q, forms.QUIRK_RULES, (c.id, q))


if __name__ == "__main__":
    unittest.main()
