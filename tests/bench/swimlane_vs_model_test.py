#!/usr/bin/env python3
"""bench/swimlane_vs_model.py's pure parts: the reading of simpler's chip swimlane records joined with
deps.json and the compile's kernel table (a real a2a3sim capture, trimmed), and the schedule shape two
timelines are compared by."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import swimlane_vs_model as bench  # noqa: E402

CAPTURE = os.path.join(ROOT, "tests", "fixtures", "swimlane", "row_softmax_naive")


class SimulatorRecords(unittest.TestCase):
    def test_each_task_is_joined_to_its_kernel_through_deps_and_the_kernel_table(self):
        spans = bench.sim_kernels(CAPTURE)
        self.assertEqual(sorted(spans), ["div_k", "exp_k", "row_max_k", "row_sum_k", "sub_k"])
        for kernel, (start, end) in spans.items():
            self.assertLess(start, end, kernel)
        # the chain of one row block: row_max_k starts first, div_k last
        order, _ = bench.shape(spans)
        self.assertEqual(order[0], "row_max_k")
        self.assertEqual(order[-1], "div_k")

    def test_a_folder_without_a_capture_says_what_is_missing(self):
        with tempfile.TemporaryDirectory() as empty:
            with self.assertRaisesRegex(RuntimeError, "no swimlane records"):
                bench.sim_kernels(empty)


class Shape(unittest.TestCase):
    def test_kernels_overlapping_by_more_than_a_sliver_run_at_the_same_time(self):
        spans = {"a": (0.0, 10.0), "b": (5.0, 15.0), "c": (9.9, 20.0), "d": (30.0, 31.0)}
        order, together = bench.shape(spans)
        self.assertEqual(order, ["a", "b", "c", "d"])
        # a and c share 0.1 of c's 10.1: under 5% of the shorter interval, not "at the same time"
        self.assertEqual(together, {frozenset(("a", "b")), frozenset(("b", "c"))})


if __name__ == "__main__":
    unittest.main()
