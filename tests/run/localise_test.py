"""The first-wrong-task look of the run stage (docs/first-wrong-task.md, harness/adapter/port_check_localise.py)
on its own: the IR run's call recording and last writers, the reading of a runtime args dump, the task
replay that finds a simulated kernel differing from its torch replay, the store line of a kernel, and the
verdicts. The program and the dump are built here the way PyPTO's torch_codegen and simpler's args dump
lay them out (the real runs are recorded in tests/fixtures/run/results/real_sim_localise_*.json)."""
import json
import os
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "harness", "adapter"))

try:
    import torch

    import port_check_localise as loc

    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False

KERNELS = '''
import pypto.language as pl

@pl.jit.incore
def scale_k(x: pl.Tensor[[8, 4], pl.FP32], y: pl.Out[pl.Tensor[[8, 4], pl.FP32]], r0: pl.Scalar[pl.INDEX]):
    t = pl.load(x, [r0, 0], [4, 4])
    # a comment naming y
    pl.store(pl.mul(t, 2.0), [r0, 0], y)
    return y


def after():
    return 0
'''


class _FakeProgram:
    """What _Program offers, over a namespace written here instead of torch_codegen's."""

    def __init__(self, namespace, kernels, entry, source):
        self.namespace, self.kernels, self.entry, self.groups = namespace, kernels, entry, {}
        self.source = source
        self.block_indexed = set()  # kernels reading their SPMD block index

    def param_names(self, kernel):
        return ["x", "y", "r0"]

    def param_kinds(self, kernel):
        return ["tensor", "tensor", "scalar"]

    def named(self, kernel, values):
        names = self.param_names(kernel)
        return {names[int(i)]: v for i, v in values.items()}

    def location(self, kernel, param_index=None):
        where = {"file": self.source, "line": 4}
        if param_index is not None:
            where["param"] = self.param_names(kernel)[param_index]
            where["line"] = loc._store_line(self.source, 4, where["param"]) or 4
        return where


def _kernels(wrong_rows=()):
    """torch_codegen-like functions: scale_k doubles a 4-row block of x into y."""

    def scale_k(x, y, r0):
        y[r0:r0 + 4] = x[r0:r0 + 4] * 2.0
        for row in wrong_rows:
            if r0 <= row < r0 + 4:
                y[row] = -1.0
        return y

    namespace = {"scale_k": scale_k}

    def entry(x, y):  # looks its kernels up in the namespace, as torch_codegen's script does
        for rb in range(2):
            y = namespace["scale_k"](x, y, rb * 4)
        return y

    namespace["entry"] = entry
    return namespace


@unittest.skipUnless(HAVE_TORCH, "SKIP: torch is not importable by this Python; the localiser's tests need it")
class LocaliseTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.source = os.path.join(self.root, "incore.py")
        with open(self.source, "w") as f:
            f.write(textwrap.dedent(KERNELS))

    def tearDown(self):
        self.tmp.cleanup()

    def program(self, wrong_rows=()):
        return _FakeProgram(_kernels(wrong_rows), ["scale_k"], "entry", self.source)

    def inputs(self):
        x = torch.arange(1, 33, dtype=torch.float32).reshape(8, 4)  # no zero: every store changes y
        return [("x", x), ("y", torch.zeros(8, 4))]

    # ---- the IR run

    def test_the_ir_run_records_each_call_and_the_last_writer_of_each_element(self):
        got, recorder = loc._run_ir(self.program(), self.inputs(), ["y"], torch)
        self.assertEqual([c["kernel"] for c in recorder.calls], ["scale_k", "scale_k"])
        self.assertEqual([c["scalars"] for c in recorder.calls], [{"2": 0}, {"2": 4}])
        self.assertEqual(recorder.calls[0]["slots"], {"y": 1})
        self.assertEqual(recorder.writers["y"][:4].unique().tolist(), [0])
        self.assertEqual(recorder.writers["y"][4:].unique().tolist(), [1])
        self.assertTrue(torch.equal(got["y"], self.inputs()[0][1] * 2.0))

    def test_the_first_writer_of_a_wrong_element_is_the_earliest_call_that_stored_one(self):
        program = self.program(wrong_rows=(6,))
        got, recorder = loc._run_ir(program, self.inputs(), ["y"], torch)
        expected = {"y": self.inputs()[0][1] * 2.0}
        first = loc._first_writer(recorder, got, expected, {"y": {"rtol": 1e-5, "atol": 1e-6}}, torch)
        self.assertEqual(first["call"], 1)
        self.assertEqual(first["first_index"], [6, 0])
        self.assertEqual(first["mismatches"], 4)
        self.assertEqual(first["never_written"], 0)

    def test_elements_no_call_writes_have_no_writer(self):
        program = self.program()
        program.namespace["entry"] = lambda x, y: program.namespace["scale_k"](x, y, 0)  # rows 4-7 never stored
        got, recorder = loc._run_ir(program, self.inputs(), ["y"], torch)
        first = loc._first_writer(recorder, got, {"y": self.inputs()[0][1] * 2.0}, {"y": {"rtol": 0, "atol": 0}}, torch)
        self.assertIsNone(first["call"])
        self.assertEqual(first["never_written"], 16)

    # ---- the dump and the replay

    def dump(self, simulated_wrong=False):
        """An args_dump folder as simpler's level-2 dump writes it: two scale_k tasks."""
        folder = os.path.join(self.root, "args_dump")
        os.makedirs(folder, exist_ok=True)
        x = torch.arange(32, dtype=torch.float32).reshape(8, 4)
        payload, records = bytearray(), []

        def tensor(task, index, role, stage, value):
            data = value.contiguous().numpy().tobytes()
            records.append({"task_id": f"0x00000002{task:08x}", "func_id": [0], "arg_index": index, "role": role,
                            "stage": stage, "kind": "tensor", "dtype": "FLOAT32", "shape": list(value.shape),
                            "bin_offset": len(payload), "bin_size": len(data), "truncated": False, "overwritten": False})
            payload.extend(data)

        y = torch.zeros(8, 4)
        for task, r0 in enumerate((0, 4)):
            tensor(task, 0, "input", "before_dispatch", x)
            tensor(task, 1, "inout", "before_dispatch", y)
            records.append({"task_id": f"0x00000002{task:08x}", "func_id": [0], "arg_index": 2, "role": "input",
                            "stage": "before_dispatch", "kind": "scalar", "dtype": "INT64", "value": r0,
                            "shape": [], "bin_offset": 0, "bin_size": 0})
            y = y.clone()
            y[r0:r0 + 4] = x[r0:r0 + 4] * 2.0
            if simulated_wrong and task == 1:
                y[5, 2] = 1234.0
            tensor(task, 1, "inout", "after_completion", y)
        with open(os.path.join(folder, "args.bin"), "wb") as f:
            f.write(payload)
        with open(os.path.join(folder, "args_dump.json"), "w") as f:
            json.dump({"dump_args_level": 2, "bin_file": "args.bin", "args": records}, f)
        return loc._Dump(folder, torch)

    def test_every_task_agreeing_with_its_replay_finds_nothing(self):
        dump = self.dump()
        try:
            self.assertEqual(len(dump.tasks), 2)
            first, compared, skipped = loc._replay(self.program(), dump, {0: "scale_k"}, {"scale_k": "aiv"}, {}, torch)
        finally:
            dump.close()
        self.assertIsNone(first)
        self.assertEqual((compared, skipped), (2, 0))

    def test_a_task_with_arguments_the_kernel_lacks_is_not_replayed(self):
        dump = self.dump(simulated_wrong=True)
        try:  # the runtime's GM pipe buffer of a mixed kernel: one argument more than the IR kernel has
            dump.tasks[1]["before"][3] = dict(dump.tasks[1]["before"][1], arg_index=3, role="output")
            first, compared, skipped = loc._replay(self.program(), dump, {0: "scale_k"}, {"scale_k": "aiv"}, {}, torch)
        finally:
            dump.close()
        self.assertIsNone(first)
        self.assertEqual((compared, skipped), (1, 1))

    def test_a_task_of_a_kernel_reading_its_block_index_is_not_replayed(self):
        # One block of an SPMD dispatch: which block is not in the dump, so the replay cannot run it
        # as that block (it ran block 0 and compared every block's rows: a false toolchain verdict).
        dump = self.dump(simulated_wrong=True)
        program = self.program()
        program.block_indexed = {"scale_k"}
        try:
            first, compared, skipped = loc._replay(program, dump, {0: "scale_k"}, {"scale_k": "aiv"}, {}, torch)
        finally:
            dump.close()
        self.assertIsNone(first)
        self.assertEqual((compared, skipped), (0, 2))

    def test_an_spmd_function_runs_its_kernel_once_per_block(self):
        import types

        import port_check_torch_ops as ops

        codegen = types.SimpleNamespace(_OP_MAP={"tile.get_block_idx": lambda _a, _kw: "0"})
        ops.register(codegen)
        self.assertEqual(codegen._OP_MAP["tile.get_block_idx"]([], {}), "_port_check_block_idx()",
                         "torch_codegen's 0 replaced: every block would compute block 0's rows")
        printed = ('            out__ssa_v1: pl.Tensor[[256, 128], pl.FP32] = self.entry_spmd_0(x__ssa_v0, out__ssa_v0, '
                   'attrs={"arg_directions": [pl.adir.input, pl.adir.output_existing], "core_num": 4})\n'
                   '            y = self.grid(a, attrs={"core_num": n__ssa_v0})\n'
                   '            z = self.twice(a, attrs={"core_num": 2})\n'
                   '            z = self.twice(a, attrs={"core_num": 3})\n')
        self.assertEqual(ops.spmd_blocks(printed), {"entry_spmd_0": 4},
                         "a run-time count and two different counts are left out")
        helpers = ops.helpers(torch)
        seen = []
        run = helpers["_port_check_for_each_block"](lambda y: seen.append(helpers["_port_check_block_idx"]()) or y, 4)
        run(torch.zeros(1))
        self.assertEqual(seen, [0, 1, 2, 3])
        self.assertEqual(helpers["_port_check_block_idx"](), 0, "back to block 0 after the dispatch")

    def test_a_simulated_task_that_differs_from_its_replay_is_named_with_its_store(self):
        dump = self.dump(simulated_wrong=True)
        try:
            first, compared, skipped = loc._replay(self.program(), dump, {0: "scale_k"}, {"scale_k": "aiv"}, {}, torch)
        finally:
            dump.close()
        self.assertEqual((compared, skipped), (2, 0))
        self.assertEqual(first["task_id"], "0x0000000200000001")
        self.assertEqual(first["index"], 1)
        self.assertEqual(first["kernel"], "scale_k")
        self.assertEqual(first["param"], "y")
        self.assertEqual(first["line"], 8, "the pl.store into y, not the comment naming it")
        self.assertEqual(first["first_index"], [5, 2])
        self.assertEqual(first["mismatches"], 1)
        self.assertEqual(first["scalars"], {"r0": 4})
        self.assertEqual(first["self_test"], "vector_fp32")
        self.assertEqual(first["sim"], 1234.0)

    def test_a_dump_with_an_unknown_dtype_says_so(self):
        dump = self.dump()
        try:
            record = dict(dump.tasks[0]["before"][0], dtype="FLOAT8_E4M3")
            with self.assertRaisesRegex(RuntimeError, "FLOAT8_E4M3"):
                dump.value(record)
        finally:
            dump.close()

    def test_tensors_and_scalars_go_to_the_kernels_parameters_of_their_kind(self):
        # The runtime passes tensors first (q, k, out, the GM pipe buffer), then scalars (row0, qb); the IR
        # group interleaves them: (q, row0, qb, k, out, pipe).
        task = {"before": {i: {"kind": "tensor"} for i in range(4)}, "after": {}}
        task["before"].update({4: {"kind": "scalar"}, 5: {"kind": "scalar"}})
        kinds = ["tensor", "scalar", "scalar", "tensor", "tensor", "tensor"]
        self.assertEqual(loc._argument_order(task, list(range(6)), kinds, 6), [0, 4, 5, 1, 2, 3])
        self.assertIsNone(loc._argument_order(task, list(range(6)), kinds[:-1], 5), "one tensor too many")
        self.assertEqual(loc._argument_order(task, list(range(6)), None, 6), list(range(6)))
        self.assertIsNone(loc._argument_order(task, list(range(6)), None, 7))

    def test_a_simulated_output_far_from_the_irs_is_apart_and_a_few_rounding_misses_are_not(self):
        ir = {"y": torch.ones(100)}
        near = ir["y"].clone()
        near[0] = 1.5  # 1% of the elements: within the share torch's own rounding may cost
        far = ir["y"] * 3.0
        comparators = {"y": {"rtol": 1e-3, "atol": 1e-3}}
        self.assertEqual(loc._apart({"y": near}, ir, comparators, torch), [])
        self.assertEqual(loc._apart({"y": far}, ir, comparators, torch), [{"name": "y", "share": 1.0}])

    def test_the_handlers_port_check_adds_to_torch_codegen(self):
        import types

        import port_check_torch_ops as ops

        codegen = types.SimpleNamespace(_OP_MAP={"tile.maximum": "theirs", "tile.exp": "theirs"},
                                        _kw_dtype=lambda kw: "torch.float32")
        changed = ops.register(codegen)
        self.assertIn("tile.tri", changed)
        self.assertIn("tile.maximum", changed, "replaced: torch.maximum rejects a Python number")
        self.assertEqual(codegen._OP_MAP["tile.exp"], "theirs", "a handler it does not replace is kept")
        self.assertEqual(codegen._OP_MAP["tile.tri"](["0", "(4, 4)"], {}),
                         "_port_check_tri(0, (4, 4), dtype=torch.float32, upper=False)")
        helpers = ops.helpers(torch)
        self.assertTrue(torch.equal(helpers["_port_check_tri"](0, (3, 3), torch.float32), torch.ones(3, 3).tril()))
        self.assertTrue(torch.equal(helpers["_port_check_tri"](1, (2, 3), torch.int32, upper=True),
                                    torch.tensor([[0, 1, 1], [0, 0, 1]], dtype=torch.int32)))
        t = helpers["_port_check_set_validshape"](torch.zeros(4, 8), 4, 5)
        self.assertEqual((t._pypto_valid_shape, t._pypto_full_shape), ((4, 5), (4, 8)))
        self.assertTrue(torch.equal(helpers["_port_check_maximum"](torch.tensor([-1.0, 2.0]), 0.5),
                                    torch.tensor([0.5, 2.0])))
        self.assertTrue(torch.equal(helpers["_port_check_minimum"](0.5, torch.tensor([-1.0, 2.0])),
                                    torch.tensor([-1.0, 0.5])))

    def test_a_store_reaching_past_its_tensor_is_recorded_and_clipped(self):
        program = self.program()
        namespace = program.namespace

        def tile_store(tile, offsets, output_tensor, atomic=0):  # torch_codegen's, without bounds
            rows, cols = getattr(tile, "_pypto_valid_shape", tuple(tile.shape))
            output_tensor[offsets[0]:offsets[0] + rows, offsets[1]:offsets[1] + cols] = tile[:rows, :cols]
            return output_tensor

        def scale_k(x, y, r0):  # 4-row tiles into a 6-row y: the second store runs 2 rows past its end
            return namespace["_tile_store"](x[r0:r0 + 4] * 2.0, (r0, 0), y)

        namespace.update(_tile_store=tile_store, scale_k=scale_k)
        x = torch.arange(1, 33, dtype=torch.float32).reshape(8, 4)
        recorder = loc._Recorder(program, {"y": torch.zeros(6, 4)}, torch)
        found = loc._guard_stores(program, recorder, torch)
        namespace["entry"](x, recorder.watched["y"])
        self.assertEqual(len(found), 1)
        self.assertEqual((found[0]["kernel"], found[0]["output"], found[0]["slot"]), ("scale_k", "y", 1))
        self.assertEqual((found[0]["elements_past"], found[0]["bytes_past"], found[0]["side"]), (8, 32, "after"))
        self.assertTrue(torch.equal(recorder.watched["y"], x[:6] * 2.0), "the rows inside are stored")

    # ---- small pieces

    def test_differences_within_rounding_are_agreement(self):
        a = torch.tensor([1.0, 2.0, 3.0])
        self.assertIsNone(loc._differs(a * (1 + 1e-6), a, 1e-3, 1e-5, torch))
        found = loc._differs(a + torch.tensor([0.0, 0.5, 0.0]), a, 1e-3, 1e-5, torch)
        self.assertEqual(found["mismatches"], 1)
        self.assertEqual(found["first_index"], [1])
        self.assertIn("shape", loc._differs(a, a.reshape(3, 1), 0, 0, torch)["detail"])
        ints = torch.tensor([1, 2, 3], dtype=torch.int8)
        self.assertIsNotNone(loc._differs(ints + 1, ints, 0, 0, torch))

    def test_the_self_test_follows_the_kind_of_kernel(self):
        self.assertEqual(loc.self_test_for(["aiv"], "bfloat16"), "vector_bf16")
        self.assertEqual(loc.self_test_for(["aiv"], "int8"), "vector_int8")
        self.assertEqual(loc.self_test_for(["aic"], "float32"), "cube_fp32")
        self.assertEqual(loc.self_test_for(["aic", "aiv"], "bfloat16"), "mixed_bf16")

    def test_a_program_that_cannot_be_lowered_is_undetermined_with_the_reason(self):
        class NotCompiled:
            program = None

        result = loc.localise(NotCompiled(), self.inputs(), {}, ["y"], {}, "a2a3sim", self.root, "base/7", torch)
        self.assertEqual(result["verdict"], "undetermined")
        self.assertEqual(result["case"], "base/7")
        self.assertTrue(any("torch" in n for n in result["notes"]), result["notes"])


if __name__ == "__main__":
    unittest.main()
