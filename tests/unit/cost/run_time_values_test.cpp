// Run-time values the schedule's counts need, bound the way the compile and the measured run bind them:
// a dynamic dimension's variable (`T_DYN = pl.dynamic("T_DYN")`) through pl.tensor.dim, a length read
// from a tensor (`pl.tensor.read(seq_lens, [b])`) from the run's inputs, and a loop whose bounds differ
// by a constant (`pl.range(k0, k0 + 64, 16)`) without knowing its start.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cost/cost_test_support.h"
#include "cost/schedule_cost.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck {
namespace {

cost::ScheduleCost runCost(const std::string& text, const cost::Env& assumed = {}) {
  return test::scheduleOfText(text, assumed);
}

// One task per 32 rows of x, whose row count is a dynamic dimension.
const char* kDynamicRows = R"(import pypto.language as pl

T_DYN = pl.dynamic("T_DYN")


@pl.jit
def entry(x: pl.Tensor[[T_DYN, 256], pl.FP32], out: pl.Out[pl.Tensor[[T_DYN, 256], pl.FP32]]):
    t = pl.tensor.dim(x, 0)
    for b in pl.parallel(t // 32):
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.exp(x[b * 32:b * 32 + 32, 0:256])
            out[b * 32:b * 32 + 32, 0:256] = y
    return out
)";

TEST(RunTimeValues, ADynamicDimensionIsItsVariablesValue) {
  cost::ScheduleCost unbound = runCost(kDynamicRows);
  EXPECT_FALSE(unbound.tasks);
  EXPECT_NE(test::firstUnknown(unbound).find("trip count of the loop at p.py:"), std::string::npos) << test::firstUnknown(unbound);
  cost::ScheduleCost c = runCost(kDynamicRows, {{"T_DYN", 128}});
  ASSERT_TRUE(c.tasks) << test::firstUnknown(c);
  EXPECT_EQ(*c.tasks, 4);
  // Another variable's value does not bind it.
  EXPECT_FALSE(runCost(kDynamicRows, {{"S_DYN", 128}}).tasks);
}

TEST(RunTimeValues, ADimensionBoundInTheBodyIsItsVariablesValue) {
  std::string text = kDynamicRows;
  const std::string typed = "x: pl.Tensor[[T_DYN, 256], pl.FP32]";
  text.replace(text.find(typed), typed.size(), "x: pl.Tensor");
  text.replace(text.find("    t = pl.tensor.dim(x, 0)"), 0, "    x.bind_dynamic(0, T_DYN)\n");
  cost::ScheduleCost c = runCost(text, {{"T_DYN", 96}});
  ASSERT_TRUE(c.tasks) << test::firstUnknown(c) << "\n" << text;
  EXPECT_EQ(*c.tasks, 3);
}

// One user's chunk of tokens, its length read from a tensor at run time.
const char* kChunks = R"(import pypto.language as pl


@pl.jit
def entry(seq_lens: pl.Tensor[[1], pl.INT32], x: pl.Tensor[[512, 128], pl.FP32],
          out: pl.Out[pl.Tensor[[512, 128], pl.FP32]]):
    n = pl.cast(pl.tensor.read(seq_lens, [0]), pl.INDEX)
    blocks = (n + 63) // 64
    for p in pl.range(blocks):
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.exp(x[p * 64:p * 64 + 64, 0:128])
            out[p * 64:p * 64 + 64, 0:128] = y
    return out
)";

TEST(RunTimeValues, ALengthReadFromATensorIsTheRunsUniformLength) {
  EXPECT_FALSE(runCost(kChunks).tasks);
  cost::ScheduleCost c = runCost(kChunks, {{"seq_lens", 200}});
  ASSERT_TRUE(c.tasks) << test::firstUnknown(c);
  EXPECT_EQ(*c.tasks, 4);  // ceil(200 / 64)
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 4 * 2 * 64 * 128 * 4);
}

TEST(RunTimeValues, ALoopSpanningAConstantCountsWithoutItsStart) {
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[64, 1024], pl.FP32], out: pl.Out[pl.Tensor[[64, 1024], pl.FP32]]):
    for q in pl.spmd(4, name_hint="cols"):
        k0 = q * 256
        for k1 in pl.range(k0, k0 + 256, 64):
            t = pl.exp(x[0:64, k1:k1 + 64])
            out[0:64, k1:k1 + 64] = t
    return out
)";
  cost::ScheduleCost c = runCost(text);
  ASSERT_TRUE(c.tasks) << test::firstUnknown(c);
  EXPECT_EQ(*c.tasks, 4);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 4 * 4 * 2 * 64 * 64 * 4);  // 4 blocks x 4 trips x (load + store) of [64, 64] FP32
}

TEST(RunTimeValues, ALoopBoundByAnEnclosingKernelLoopCountsEveryAssignment) {
  // j runs 4 + 3 + 2 + 1 times over i: 10 row blocks loaded and stored.
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[64, 256], pl.FP32], out: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for i in pl.range(4):
            for j in pl.range(i, 4):
                t = pl.exp(x[j * 16:j * 16 + 16, 0:256])
                out[j * 16:j * 16 + 16, 0:256] = t
    return out
)";
  cost::ScheduleCost c = runCost(text);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 10 * 2 * 16 * 256 * 4);
}

TEST(RunTimeValues, EachBlockOfAnSpmdKernelIsATaskWithItsOwnIndex) {
  // Block q walks rows q, q + 4: two [8, 128] FP32 tiles each, 4 blocks.
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    for q in pl.spmd(4, name_hint="rows"):
        for r in pl.range(q, 8, 4):
            t = pl.exp(x[r * 8:r * 8 + 8, 0:128])
            out[r * 8:r * 8 + 8, 0:128] = t
    return out
)";
  cost::ScheduleCost c = runCost(text);
  ASSERT_TRUE(c.tasks) << test::firstUnknown(c);
  EXPECT_EQ(*c.tasks, 4);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 4 * 2 * 2 * 8 * 128 * 4);
}

TEST(RunTimeValues, ARegionSizedByARunTimeValueIsItsBoundsUnderIt) {
  // x[0:n, :] with n read at run time: the region is n rows once n is given.
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(lens: pl.Tensor[[1], pl.INT32], x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    n = pl.tensor.read(lens, [0])
    with pl.at(level=pl.Level.CORE_GROUP):
        t = pl.exp(x[0:n, 0:128])
        out[0:n, 0:128] = t
    return out
)";
  EXPECT_FALSE(runCost(text).gm_bytes);
  cost::ScheduleCost c = runCost(text, {{"lens", 24}});
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 2 * 24 * 128 * 4);
}

TEST(RunTimeValues, AGatheredRowIsALoadOfTheShapeItNames) {
  // 8 rows gathered one by one ([1, 256] BF16 each) into an L1 buffer, then stored whole.
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(idx: pl.Tensor[[8], pl.INT32], kv: pl.Tensor[[1024, 256], pl.BF16], out: pl.Out[pl.Tensor[[8, 256], pl.BF16]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        buf = pl.create_l1([8, 256], pl.BF16)
        for r in pl.range(8):
            row = pl.read(idx, [r])
            buf = pl.gather_row(buf, kv, [r, 0], [row, 0], [1, 256])
        out[0:8, 0:256] = buf
    return out
)";
  cost::ScheduleCost c = runCost(text);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 8 * 256 * 2 + 8 * 256 * 2);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task);
  EXPECT_EQ(c.kernels[0].work_per_task->mte2_bytes, 8 * 256 * 2);  // a DMA per row, on MTE2
}

TEST(RunTimeValues, TheBlockIndexOfAWithSpmdKernelIsTheBusiestBlocks) {
  // 10 items round-robin over 4 blocks: block 0 takes 3 ((10 - 0 + 3) // 4), the most.
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[160, 128], pl.FP32], out: pl.Out[pl.Tensor[[160, 128], pl.FP32]]):
    with pl.spmd(4, name_hint="items") as tid:
        c = pl.tile.get_block_idx()
        n = (10 - c + 3) // 4
        for it in pl.range(n):
            i = c + it * 4
            t = pl.exp(x[i * 16:i * 16 + 16, 0:128])
            out[i * 16:i * 16 + 16, 0:128] = t
    return out
)";
  cost::ScheduleCost c = runCost(text);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].gm_bytes_per_task);
  EXPECT_EQ(*c.kernels[0].gm_bytes_per_task, 3 * 2 * 16 * 128 * 4);
  // Each of the 4 blocks is a task on a core of its own, with its own block index: 3, 3, 2 and 2
  // items, 10 in all (the scope was one task of the busiest block's 3 items before).
  EXPECT_EQ(c.kernels[0].dispatches, 4);
  EXPECT_EQ(c.kernels[0].blocks, 4);
  EXPECT_EQ(*c.gm_bytes, 10 * 2 * 16 * 128 * 4);
  ASSERT_EQ(c.kernels[0].task_work.size(), 4u);
  EXPECT_EQ(c.kernels[0].task_work[0].gmBytes(), 3 * 2 * 16 * 128 * 4);
  EXPECT_EQ(c.kernels[0].task_work[3].gmBytes(), 2 * 2 * 16 * 128 * 4);
}

// A bare `pl.Tensor` parameter nothing types (no __main__ call, no fixture of its name): the figure it
// sizes is unknown, and the reason names the parameter rather than only the line.
TEST(RunTimeValues, ABareParameterWithoutADtypeIsNamedInTheReason) {
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor, out: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y = pl.exp(x[0:64, 0:256])
        out[0:64, 0:256] = y
    return out
)";
  cost::ScheduleCost c = runCost(text);
  EXPECT_FALSE(c.gm_bytes);
  EXPECT_NE(test::firstUnknown(c).find("dtype of the bare pl.Tensor parameter x of entry (p.py:"), std::string::npos)
      << test::firstUnknown(c);
}

}  // namespace
}  // namespace portcheck
