"""The matrix's testee client (harness/testees.py over conformance/runner/testee.py), against a misbehaving fake.

    python3 -m unittest discover -s interop/tests
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from harness.testees import Testee, TesteeError  # noqa: E402


class FakeTestee(unittest.TestCase):
    def setUp(self):
        self.t = Testee("fake", [sys.executable, os.path.join(HERE, "fake_testee.py")], HERE)
        self.t.start()
        self.addCleanup(self.t.close)

    def test_hello_keeps_form_ops_only(self):
        self.assertEqual(self.t.ops, ["multipart.parse", "urlencoded.parse", "urlencoded.serialize"])
        self.assertEqual(self.t.version, "0")

    def test_lone_surrogate_request_is_sent(self):
        self.assertEqual(self.t.serialize_urlencoded([["a\ud800", "b"]]), "a\ufffd=b".encode())

    def test_crash_keeps_stderr_and_next_call_restarts(self):
        with self.assertRaises(TesteeError) as cm:
            self.t.parse_multipart("crash", b"")
        self.assertIn("boom: fake testee crashed", str(cm.exception))
        self.assertIn("exit status 3", str(cm.exception))
        self.assertEqual(self.t.parse_urlencoded(b"a=b"), {"pairs": [["a", "b"]]})

    def test_wrong_id_kills_the_process(self):
        with self.assertRaises(TesteeError) as cm:
            self.t.parse_multipart("wrong-id", b"x")
        self.assertIn("expected", str(cm.exception))
        self.assertIsNone(self.t.proc)  # no answer can be read out of sync later
        self.assertEqual(self.t.parse_urlencoded(b"a=b"), {"pairs": [["a", "b"]]})

    def test_chunkings_must_agree(self):
        got = self.t.parse_multipart("disagree", b"x")
        self.assertEqual(got["error"]["code"], "CHUNKING")
        self.assertEqual(self.t.parse_multipart("agree", b"x"), {"entries": []})


if __name__ == "__main__":
    unittest.main()
