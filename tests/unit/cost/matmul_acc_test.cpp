// `pl.matmul_acc(acc, lhs, rhs)` multiplies lhs by rhs into the accumulator: its MACs are priced at
// lhs's precision (BF16 here, not the FP32 accumulator's 4x slower rate), lhs and rhs go L1 -> L0 on
// MTE1, and the accumulated result stays in L0C: it leaves through the fix-pipe once per chain. A
// prefill projection of pypto-lib priced on the accumulator took 3.85x its cube time.
#include <gtest/gtest.h>

#include "cost/cost_test_support.h"

namespace portcheck {
namespace {

const char* kChain = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[64, 1024], pl.BF16], w: pl.Tensor[[1024, 256], pl.BF16],
          out: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="chain"):
        a = pl.slice(x, [64, 256], [0, 0])
        b = pl.slice(w, [256, 256], [0, 0])
        acc = pl.matmul(a, b, out_dtype=pl.FP32)
        for kb in pl.range(1, 4):
            ai = pl.slice(x, [64, 256], [0, kb * 256])
            bi = pl.slice(w, [256, 256], [kb * 256, 0])
            acc = pl.matmul_acc(acc, ai, bi)
        out = pl.assemble(out, acc, [0, 0])
    return out
)";

TEST(MatmulAcc, TheAccumulatingMatmulIsPricedOnItsOperandsAndLeavesL0cOnce) {
  const cost::ScheduleCost c = test::scheduleOfText(kChain);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task) << test::firstUnknown(c);
  const cost::KernelWork& w = *c.kernels[0].work_per_task;
  EXPECT_EQ(w.cube_macs_b16, 4 * 64 * 256 * 256);
  EXPECT_EQ(w.cube_macs_b32, 0);
  EXPECT_EQ(w.mte1_bytes, 4 * (64 * 256 * 2 + 256 * 256 * 2));
  EXPECT_EQ(w.fixp_bytes, 64 * 256 * 4);
}

}  // namespace
}  // namespace portcheck
