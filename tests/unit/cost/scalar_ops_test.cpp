// Ops of the scalar unit are not vector passes: pl.read / pl.write of one element and casts or
// arithmetic of scalars cost an instruction each, not a vector op's 25-cycle bias. DeepSeek-V4's SWA
// attention builds its top-k list element by element (`pl.write(sparse_topk, [t, k], pl.cast(...))`,
// 82k writes): priced as vector ops that one scope took 2,621 us of a 3,815 us estimate against the
// device's 1,246 us for the whole operator.
#include <gtest/gtest.h>

#include <string>

#include "cost/cost_test_support.h"

namespace portcheck {
namespace {

const char* kElementFill = R"(import pypto.language as pl


@pl.jit
def entry(pos: pl.Tensor[[128], pl.INT32], out: pl.Out[pl.Tensor[[128, 64], pl.INT32]]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fill"):
        for t in pl.range(128):
            p = pl.read(pos, [t])
            for k in pl.range(64):
                v = (p + k) % 64
                pl.write(out, [t, k], pl.cast(v, pl.INT32))
    return out
)";

TEST(ScalarOps, ElementReadsWritesAndScalarCastsAreScalarInstructions) {
  const cost::ScheduleCost c = test::scheduleOfText(kElementFill);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task) << test::firstUnknown(c);
  const cost::KernelWork& w = *c.kernels[0].work_per_task;
  EXPECT_EQ(w.vector_cycles, 0.0);
  // 128 reads, then 128 x 64 casts and writes.
  EXPECT_EQ(w.instructions, 128 + 2 * 128 * 64);
}

TEST(ScalarOps, ATileOpBesideThemStillPassesOverItsTile) {
  std::string text = kElementFill;
  const std::string write = "                pl.write(out, [t, k], pl.cast(v, pl.INT32))\n";
  text.replace(text.find(write), write.size(),
               write + "            row = pl.load(out, [t, 0], [1, 64])\n            row2 = pl.add(row, row)\n"
                       "            pl.store(row2, [t, 0], out)\n");
  const cost::ScheduleCost c = test::scheduleOfText(text);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task) << test::firstUnknown(c);
  EXPECT_GT(c.kernels[0].work_per_task->vector_cycles, 128 * 25.0);  // one add per row, each at least its bias
}

}  // namespace
}  // namespace portcheck
