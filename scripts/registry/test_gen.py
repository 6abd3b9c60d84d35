"""Unit tests of the registry generator: validation refuses inconsistent registries; emitters follow the JSON."""

from __future__ import annotations

import copy
import json
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen  # noqa: E402

REG = json.loads(gen.REGISTRY.read_text(encoding="utf-8"))


def problems(edit) -> list[str]:
    reg = copy.deepcopy(REG)
    edit(reg)
    return gen.validate(reg)


def code(reg: dict, c: str) -> dict:
    return next(e for e in reg["errors"] if e["code"] == c)


class Validate(unittest.TestCase):
    def test_the_committed_registry_is_consistent(self) -> None:
        self.assertEqual(gen.validate(REG), [])

    def test_duplicate_code(self) -> None:
        bad = problems(lambda r: r["errors"].append(dict(code(r, "MP_TRUNCATED"))))
        self.assertTrue(any("listed twice" in p for p in bad), bad)

    def test_limit_error_must_exist_and_be_a_limit(self) -> None:
        bad = problems(lambda r: r["limits"][0].update(error="MP_NOPE"))
        self.assertTrue(any("not in `errors`" in p for p in bad), bad)
        bad = problems(lambda r: r["limits"][0].update(error="MP_TRUNCATED"))
        self.assertTrue(any("not of kind limit" in p for p in bad), bad)

    def test_kind_and_status_agree(self) -> None:
        bad = problems(lambda r: code(r, "MP_LIMIT_PARTS").update(http_status=400))
        self.assertTrue(any("MP_LIMIT_PARTS: kind limit means http_status 413" in p for p in bad), bad)

    def test_names_are_snake_case_and_options_off(self) -> None:
        bad = problems(lambda r: r["limits"][0].update(name="maxParts"))
        self.assertTrue(any("not snake_case" in p for p in bad), bad)
        bad = problems(lambda r: r["options"][0].update(default=True))
        self.assertTrue(any("off by default" in p for p in bad), bad)

    def test_a_new_limit_reaches_every_emitter(self) -> None:
        reg = copy.deepcopy(REG)
        reg["errors"].append(
            dict(code="UE_LIMIT_NAMES", format="urlencoded", kind="limit", http_status=413, meaning="m.", offset="0")
        )
        reg["limits"].append(dict(name="max_names", format="urlencoded", default=77, error="UE_LIMIT_NAMES", why="w"))
        self.assertEqual(gen.validate(reg), [])
        # The Python binding's signatures lack the new parameter: the generator says where.
        with self.assertRaisesRegex(gen.RegistryError, "lacks max_names"):
            gen.generate(reg)
        out = {}
        for name, mod in gen.emitters():
            if name != "lang_python":
                out.update(mod.outputs(reg))  # type: ignore[attr-defined]
        self.assertIn("pub const MAX_NAMES: u64 = 77;", out["rust/crates/formwire/src/registry.rs"])
        self.assertIn("maxNames: 77,", out["ts/src/core/registry.ts"])
        self.assertIn("| `max_names` | 77 | `UE_LIMIT_NAMES` | w |", out["spec/limits.md"])

    def test_form_layer_limits_stay_out_of_the_parser_options(self) -> None:
        bad = problems(lambda r: r["limits"][0].update(layer="disk"))
        self.assertTrue(any("unknown layer" in p for p in bad), bad)
        out = gen.generate(REG)
        rust = out["rust/crates/formwire/src/registry.rs"]
        self.assertIn("pub const MAX_DISK_BYTES: u64 = 10_737_418_240;", rust)
        self.assertIn('pub const FORM_LIMITS: &[&str] = &["max_disk_bytes"];', rust)
        self.assertNotIn("pub max_disk_bytes: u64", rust)  # not a field of multipart::Options
        self.assertNotIn('"max_disk_bytes" => &mut self', rust)
        self.assertIn("MaxDiskBytes int64 = 10737418240", out["go/registry_gen.go"])
        self.assertNotIn("MaxDiskBytes", out["go/multipart/options_gen.go"])
        ts = out["ts/src/core/registry.ts"]
        self.assertIn("MULTIPART_FORM_DEFAULTS", ts)
        self.assertNotIn("max_disk_bytes: 'maxDiskBytes'", ts)
        self.assertIn("| `max_disk_bytes` | 10737418240 (10 GiB) | `MP_LIMIT_DISK_BYTES` |", out["spec/limits.md"])

    def test_python_rewrite_leaves_prose_alone(self) -> None:
        import lang_python

        src = (
            'def loads(data, *, max_depth: int | None = 7, allow_lf: bool = True):\n'
            '    """Example: ``Decoder(max_depth=64)``, ``Parser(b, allow_lf=True)``."""\n'
            '/// `Decoder::new(max_depth=64)` in a doc comment\n'
            '#[pyo3(text_signature = "(data, *, max_depth=7)")]\n'
        )
        out = lang_python.rewrite(src, "clone", REG)
        depth = next(lim["default"] for lim in gen.limits(REG, "clone") if lim["name"] == "max_depth")
        self.assertIn(f"max_depth: int | None = {depth},", out)
        self.assertIn(f'text_signature = "(data, *, max_depth={depth})"', out)
        self.assertIn("``Decoder(max_depth=64)``", out)
        self.assertIn("``Parser(b, allow_lf=True)``", out)
        self.assertIn("`Decoder::new(max_depth=64)`", out)

    def test_generated_modules_start_with_the_notice(self) -> None:
        out = gen.generate(REG)
        whole = [p for p in out if Path(p).stem.lstrip("_") == "registry"]
        self.assertGreaterEqual(len(whole), 4, whole)  # Rust x2, TS, Python
        for path in whole:
            self.assertIn(gen.NOTICE, out[path].splitlines()[0], path)


if __name__ == "__main__":
    unittest.main()
