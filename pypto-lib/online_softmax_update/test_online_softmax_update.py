"""Tests of pypto-lib/online_softmax_update: the online-softmax recurrence and its golden.

Plain torch, no PyPTO build needed; exit status 77 (skipped) when torch is missing.
Run: python3 pypto-lib/online_softmax_update/test_online_softmax_update.py
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from block_testing import check_contract_runs, contract_runs, load_block, torch  # noqa: E402  (exits 77, skipped, without torch)

B = load_block(pathlib.Path(__file__).resolve().parent / "online_softmax_update.py")


def _spec_tensors():
    return {s.name: (s.init_value() if s.init_value else torch.zeros(s.shape, dtype=s.dtype)) for s in B.build_tensor_specs()}


class RecurrenceTest(unittest.TestCase):
    def test_merging_block_partials_equals_two_pass_softmax(self):
        s, v = B._scores_and_values()
        merged = B.merge_reference(*B.block_partials(s, v))
        expected = torch.softmax(s.double(), dim=-1) @ v.double()
        self.assertLess((merged.double() - expected).abs().max().item(), 1e-5)

    def test_one_block_needs_no_first_flag(self):
        s, v = B._scores_and_values()
        m, l, o = B.block_partials(s[:, : B.KV_BLOCK], v[: B.KV_BLOCK])
        merged = B.merge_reference(m, l, o)
        self.assertTrue(torch.allclose(merged, o / l[0][:, None], rtol=1e-6, atol=1e-7))

    def test_running_max_changes_mid_sequence(self):
        # The inputs must exercise the rescale: the last block's max exceeds the first's.
        m, _, _ = B.block_partials(*B._scores_and_values())
        self.assertGreater((m[-1] > m[0]).float().mean().item(), 0.9)

    def test_skipping_the_rescale_fails_the_golden_tolerance(self):
        s, v = B._scores_and_values()
        m, l, o = B.block_partials(s, v)
        rows = m.shape[1]
        wrong = sum(o[j * rows:(j + 1) * rows] for j in range(m.shape[0])) / l.sum(dim=0)[:, None]
        expected = torch.softmax(s, dim=-1) @ v
        self.assertFalse(torch.allclose(wrong, expected, rtol=B.RTOL, atol=B.ATOL))


class GoldenTest(unittest.TestCase):
    def test_specs_follow_the_entry_parameters(self):
        specs = B.build_tensor_specs()
        self.assertEqual([s.name for s in specs], ["m_blocks", "l_blocks", "o_blocks", "out"])
        self.assertEqual([s.name for s in specs if s.is_output], ["out"])
        for s in specs:
            if s.init_value:
                self.assertEqual(list(s.init_value().shape), s.shape, s.name)

    def test_golden_matches_the_recurrence_within_its_tolerance(self):
        tensors = _spec_tensors()
        B.golden_online_softmax_update_chain(tensors)
        merged = B.merge_reference(tensors["m_blocks"], tensors["l_blocks"], tensors["o_blocks"])
        self.assertTrue(torch.allclose(merged.to(torch.bfloat16).float(), tensors["out"].float(), rtol=B.RTOL, atol=B.ATOL))

    def test_an_unwritten_output_fails(self):
        tensors = _spec_tensors()
        B.golden_online_softmax_update_chain(tensors)
        self.assertGreater(tensors["out"].float().abs().max().item(), 10 * B.ATOL)
        self.assertFalse(torch.allclose(torch.zeros_like(tensors["out"]).float(), tensors["out"].float(), rtol=B.RTOL, atol=B.ATOL))

    def test_contract_cases_differ_by_seed_and_from_the_base(self):
        check_contract_runs(self, B, B.golden_online_softmax_update_chain)

    def test_the_negative_case_fails_a_running_max_that_does_not_start_at_neg_big(self):
        # A dropped init store leaves m_run at 0 (what the mutation check's GOLD024 found): harmless while a
        # row's max is above 0, every block weight exp(m_blk - 0) underflows when it is far below.
        def merge_from(m0, m_blocks, l_blocks, o_blocks):
            rows = m_blocks.shape[1]
            m, l, o = torch.full((rows,), m0), torch.zeros(rows), torch.zeros(rows, o_blocks.shape[1])
            for j in range(m_blocks.shape[0]):
                m_new = torch.maximum(m, m_blocks[j])
                a, b = torch.exp(m - m_new), torch.exp(m_blocks[j] - m_new)
                l = a * l + b * l_blocks[j]
                o = a[:, None] * o + b[:, None] * o_blocks[j * rows:(j + 1) * rows]
                m = m_new
            return (o / l[:, None]).to(torch.bfloat16).float()

        def passes(got, want):
            return torch.allclose(got, want.float(), rtol=B.RTOL, atol=B.ATOL)

        for run, t in contract_runs(B, B.golden_online_softmax_update_chain):
            parts = (t["m_blocks"], t["l_blocks"], t["o_blocks"])
            self.assertTrue(passes(merge_from(B.NEG_BIG, *parts), t["out"]), run["label"])
            self.assertEqual(passes(merge_from(0.0, *parts), t["out"]), run["case"] != "negative", run["label"])


if __name__ == "__main__":
    unittest.main()
