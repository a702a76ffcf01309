// pl.move in the device-time model's work: a copy between on-chip buffers runs on MTE1 (L1 into L0A /
// L0B) or the fix-pipe (out of the accumulator), never on the vector unit, and an operand a move put
// in L0 is not moved again by the matmul that reads it.
#include <gtest/gtest.h>

#include <string>

#include "cost/cost_test_support.h"

namespace portcheck {
namespace {

cost::ScheduleCost moveCost(const std::string& text) { return test::scheduleOfText(text); }

// a [64, 128] BF16 and b [128, 128] BF16 loaded into L1, moved into L0A / L0B, multiplied; the
// accumulator stored straight to GM.
const char* kExplicitMoves = R"(import pypto.language as pl


@pl.jit.incore
def mm(a: pl.Tensor[[64, 128], pl.BF16], b: pl.Tensor[[128, 128], pl.BF16], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    a_mat = pl.load(a, [0, 0], [64, 128], target_memory=pl.MemorySpace.Mat)
    b_mat = pl.load(b, [0, 0], [128, 128], target_memory=pl.MemorySpace.Mat)
    a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
    b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)
    acc = pl.matmul(a_left, b_right)
    pl.store(acc, [0, 0], c)
    return c


@pl.jit
def entry(a: pl.Tensor[[64, 128], pl.BF16], b: pl.Tensor[[128, 128], pl.BF16], c: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    c = mm(a, b, c)
    return c
)";

constexpr std::int64_t kABytes = 64 * 128 * 2, kBBytes = 128 * 128 * 2, kCBytes = 64 * 128 * 4;

TEST(TileMove, AMoveIntoL0IsMte1WorkNotVectorWork) {
  cost::ScheduleCost c = moveCost(kExplicitMoves);
  ASSERT_EQ(c.kernels.size(), 1u) << (c.unknown.empty() ? "" : c.unknown[0]);
  ASSERT_TRUE(c.kernels[0].work_per_task) << (c.unknown.empty() ? "" : c.unknown[0]);
  const cost::KernelWork& w = *c.kernels[0].work_per_task;
  EXPECT_EQ(w.vector_cycles, 0.0);
  EXPECT_EQ(w.mte1_bytes, kABytes + kBBytes);  // once, at the moves: not again at the matmul
  EXPECT_EQ(w.mte2_bytes, kABytes + kBBytes);
  EXPECT_EQ(w.fixp_bytes, kCBytes);
  EXPECT_GT(w.cube_macs_b16, 0);
}

TEST(TileMove, AMatmulOnL1OperandsStillMovesThemIntoL0) {
  std::string text = kExplicitMoves;
  text.replace(text.find("    a_left = pl.move"), std::string("    a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)\n").size(), "");
  text.replace(text.find("    b_right = pl.move"), std::string("    b_right = pl.move(b_mat, target_memory=pl.MemorySpace.Right)\n").size(), "");
  text.replace(text.find("pl.matmul(a_left, b_right)"), std::string("pl.matmul(a_left, b_right)").size(), "pl.matmul(a_mat, b_mat)");
  cost::ScheduleCost c = moveCost(text);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task) << text;
  EXPECT_EQ(c.kernels[0].work_per_task->mte1_bytes, kABytes + kBBytes);
  EXPECT_EQ(c.kernels[0].work_per_task->vector_cycles, 0.0);
}

TEST(TileMove, AMoveOutOfTheAccumulatorRunsOnTheFixPipe) {
  std::string text = kExplicitMoves;
  text.replace(text.find("    pl.store(acc, [0, 0], c)"), std::string("    pl.store(acc, [0, 0], c)").size(),
               "    res = pl.move(acc, target_memory=pl.MemorySpace.Vec)\n    pl.store(res, [0, 0], c)");
  cost::ScheduleCost c = moveCost(text);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task) << text;
  const cost::KernelWork& w = *c.kernels[0].work_per_task;
  EXPECT_EQ(w.fixp_bytes, 2 * kCBytes);  // the matmul's result out of L0C, then the move
  EXPECT_EQ(w.mte1_bytes, kABytes + kBBytes);
  EXPECT_EQ(w.vector_cycles, 0.0);
}

}  // namespace
}  // namespace portcheck
