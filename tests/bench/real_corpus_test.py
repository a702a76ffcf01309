#!/usr/bin/env python3
"""bench/real_corpus.py's pure parts: the AllocateMemoryAddr dump parser on real dumps of the corpus
fixtures, which files count as program files (and which are left out, with why), and the line a
failed compile is reported by."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import real_corpus  # noqa: E402

FIXTURES = os.path.join(ROOT, "tests", "fixtures", "corpus")


class DumpFigures(unittest.TestCase):
    def test_real_dumps_give_each_kernels_high_water_mark(self):
        dump = os.path.join(FIXTURES, "bound_at_import", "compiled", "35_after_AllocateMemoryAddr.py")
        self.assertEqual(real_corpus.dump_figures(dump), {"wide_rows/Vec": 65536, "finish_wide/Vec": 16384})
        dump = os.path.join(FIXTURES, "prefetch_scope", "compiled", "a5", "35_after_AllocateMemoryAddr.py")
        self.assertEqual(real_corpus.dump_figures(dump), {"warm_and_scale/Vec": 8192})

    def test_a_mixed_kernel_dump_has_every_space(self):
        dump = os.path.join(FIXTURES, "gathered_l1_operand", "compiled", "35_after_AllocateMemoryAddr.py")
        figures = real_corpus.dump_figures(dump)
        self.assertEqual(figures["qk_pv_aic/Mat"], 40960)
        self.assertEqual(figures["qk_pv_aiv/Vec"], 41344)


class Corpus(unittest.TestCase):
    def test_entries_with_or_without_main_count_and_helper_modules_are_left_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            lib, pypto = os.path.join(tmp, "lib"), os.path.join(tmp, "pypto")
            files = {
                os.path.join(lib, "models", "a", "with_main.py"):
                    "import pypto.language as pl\n@pl.jit\ndef f(x):\n    pass\n"
                    "if __name__ == \"__main__\":\n    f(1)\n",
                os.path.join(lib, "models", "a", "no_main.py"):
                    "import pypto.language as pl\n@pl.jit.host\ndef g(x):\n    pass\n",
                os.path.join(lib, "models", "a", "helpers.py"):
                    "import pypto.language as pl\n@pl.jit.inline\ndef h(x):\n    pass\n",
                os.path.join(lib, "examples", "plain.py"): "def nothing():\n    pass\n",
                os.path.join(pypto, "examples", "prog.py"):
                    "import pypto.language as pl\n@pl.program\nclass P:\n    pass\n",
            }
            for path, text in files.items():
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
            left_out = []
            got = real_corpus.corpus({"pypto-lib": lib, "pypto": pypto}, None, left_out)
            self.assertEqual(got, [("pypto-lib", "models/a/no_main.py"), ("pypto-lib", "models/a/with_main.py"),
                                   ("pypto", "examples/prog.py")])
            self.assertEqual([(label, rel) for label, rel, _ in left_out], [("pypto-lib", "models/a/helpers.py")])
            self.assertIn("no @pl.jit", left_out[0][2])


class LastError(unittest.TestCase):
    def test_the_exception_line_of_a_traceback(self):
        log = ("Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    f()\n"
               "TypeError: @pl.jit function 'f': cannot specialize from the signature\n")
        self.assertEqual(real_corpus.last_error(log), "TypeError: @pl.jit function 'f': cannot specialize from the signature")

    def test_a_timeout_and_an_empty_log(self):
        self.assertEqual(real_corpus.last_error("[RUN] compile ...\nTimeout: 300 s"), "Timeout: 300 s")
        self.assertEqual(real_corpus.last_error(""), "no output")


if __name__ == "__main__":
    unittest.main()
