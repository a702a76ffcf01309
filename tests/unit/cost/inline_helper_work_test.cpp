// An inline helper called from a kernel's body (a pl.spmd block, an InCore function) is spliced into
// the kernel by the compiler: its loads, stores and tile ops are the kernel's work, counted as often as
// the call runs, with the helper's loops sized by the arguments the call passes.
#include <gtest/gtest.h>

#include <string>

#include "cost/cost_test_support.h"

namespace portcheck {
namespace {

cost::ScheduleCost helperCost(const std::string& text) { return test::scheduleOfText(text); }

// 16 blocks of 64 rows; each block's work is in the helper: `chunks` loads of [32, 256] FP32, each
// scaled and stored.
const char* kSpmdCallsHelper = R"(import pypto.language as pl


@pl.jit.inline
def scale_block(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]],
                r0: pl.Scalar[pl.INDEX], chunks: pl.Scalar[pl.INDEX]):
    for c in pl.range(chunks):
        t = pl.load(x, [r0 + c * 32, 0], [32, 256])
        pl.store(pl.mul(t, 2.0), [r0 + c * 32, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    for b in pl.spmd(16):
        r0 = b * 64
        out = scale_block(x, out, r0, 2)
    return out
)";

constexpr std::int64_t kChunk = 32 * 256 * 4;

TEST(InlineHelperWork, AHelperCalledFromAnSpmdBodyIsTheKernelsWork) {
  cost::ScheduleCost c = helperCost(kSpmdCallsHelper);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 16 * 2 * 2 * kChunk);  // 16 blocks x 2 chunks x (load + store)
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task) << test::firstUnknown(c);
  const cost::KernelWork& w = *c.kernels[0].work_per_task;
  EXPECT_GT(w.vector_cycles, 0.0);
}

TEST(InlineHelperWork, TheHelpersLoopIsSizedByTheCallsArgument) {
  std::string text = kSpmdCallsHelper;
  text.replace(text.find("scale_block(x, out, r0, 2)"), std::string("scale_block(x, out, r0, 2)").size(),
               "scale_block(x, out, r0, 1)");
  cost::ScheduleCost c = helperCost(text);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c);
  EXPECT_EQ(*c.gm_bytes, 16 * 1 * 2 * kChunk);
}

TEST(InlineHelperWork, AHelperCalledTwiceCountsTwice) {
  std::string text = kSpmdCallsHelper;
  text.replace(text.find("        out = scale_block(x, out, r0, 2)\n"),
               std::string("        out = scale_block(x, out, r0, 2)\n").size(),
               "        out = scale_block(x, out, r0, 1)\n        r1 = r0 + 32\n        out = scale_block(x, out, r1, 1)\n");
  cost::ScheduleCost c = helperCost(text);
  ASSERT_TRUE(c.gm_bytes) << test::firstUnknown(c) << "\n" << text;
  EXPECT_EQ(*c.gm_bytes, 16 * 2 * 2 * kChunk);
}

}  // namespace
}  // namespace portcheck
