// `if` branches in the schedule's counts: a branch whose condition is known under the loops' values
// (`if sb < n_blocks:` on a loop variable, `if MODE == 1:` on a constant) counts the trips it is taken;
// an if / else decided by run-time data counts its larger branch, not both; the tasks dispatched under
// such a guard and the per-task enumeration of their work agree.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cost/cost_test_support.h"
#include "cost/schedule_cost.h"
#include "dsl/dsl_model.h"
#include "perf/device_schedule.h"
#include "perf/device_spec.h"
#include "sram/sram_estimator.h"

namespace portcheck {
namespace {

cost::ScheduleCost branchCost(const std::string& text, const cost::Env& assumed = {}) {
  return test::scheduleOfText(text, assumed);
}

std::string branchWhy(const cost::ScheduleCost& c) { return c.unknown.empty() ? "" : c.unknown[0]; }

constexpr std::int64_t kTile = 32 * 256 * 4;  // one [32, 256] FP32 tile

// One task; `mode` is a scalar the task is called with, not known before the run. The then branch moves
// one tile in and out, the else branch three in and one out.
const char* kRunTimeIfElse = R"(import pypto.language as pl


@pl.jit.incore
def pick(x: pl.Tensor[[128, 256], pl.FP32], out: pl.Out[pl.Tensor[[128, 256], pl.FP32]], mode: pl.Scalar[pl.INDEX]):
    if mode > 0:
        t = pl.load(x, [0, 0], [32, 256])
        pl.store(pl.exp(t), [0, 0], out)
    else:
        a = pl.load(x, [0, 0], [32, 256])
        b = pl.load(x, [32, 0], [32, 256])
        c = pl.load(x, [64, 0], [32, 256])
        pl.store(pl.add(pl.add(a, b), c), [0, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[128, 256], pl.FP32], out: pl.Out[pl.Tensor[[128, 256], pl.FP32]], mode: pl.Scalar[pl.INDEX]):
    out = pick(x, out, mode)
    return out
)";

TEST(ExclusiveBranches, AnIfElseDecidedAtRunTimeCountsItsLargerBranchNotBoth) {
  cost::ScheduleCost c = branchCost(kRunTimeIfElse);
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c);
  EXPECT_EQ(*c.gm_bytes, (3 + 1) * kTile);  // the else branch; both would be 6 tiles
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].work_per_task);
  EXPECT_EQ(c.kernels[0].work_per_task->mte2_bytes, 3 * kTile);
  // The larger branch first: the same choice.
  std::string swapped = kRunTimeIfElse;
  swapped.replace(swapped.find("if mode > 0:"), 12, "if mode < 1:");
  const std::string then_part = swapped.substr(swapped.find("        t = pl.load"),
                                               swapped.find("    else:") - swapped.find("        t = pl.load"));
  const std::string else_part = swapped.substr(swapped.find("        a = pl.load"),
                                               swapped.find("    return out") - swapped.find("        a = pl.load"));
  swapped.replace(swapped.find(then_part), then_part.size() + std::string("    else:\n").size() + else_part.size(),
                  else_part + "    else:\n" + then_part);
  cost::ScheduleCost s = branchCost(swapped);
  ASSERT_TRUE(s.gm_bytes) << branchWhy(s) << "\n" << swapped;
  EXPECT_EQ(*s.gm_bytes, (3 + 1) * kTile) << swapped;
}

TEST(ExclusiveBranches, AnIfAloneDecidedAtRunTimeCountsAsTaken) {
  std::string text = kRunTimeIfElse;
  text.erase(text.find("    else:\n"), text.find("    return out") - text.find("    else:\n"));
  cost::ScheduleCost c = branchCost(text);
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c) << "\n" << text;
  EXPECT_EQ(*c.gm_bytes, 2 * kTile);
}

TEST(ExclusiveBranches, AnElifChainCountsItsLargestBranch) {
  std::string text = kRunTimeIfElse;
  text.replace(text.find("    else:\n"), 10,
               "    elif mode > 1:\n"
               "        for i in pl.range(4):\n"
               "            u = pl.load(x, [i * 32, 0], [32, 256])\n"
               "            pl.store(u, [i * 32, 0], out)\n"
               "    else:\n");
  cost::ScheduleCost c = branchCost(text);
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c) << "\n" << text;
  EXPECT_EQ(*c.gm_bytes, (4 + 4) * kTile);  // the elif: 4 tiles in and out, more than the else's 3 + 1
}

TEST(ExclusiveBranches, AConditionOnAConstantTakesItsBranchOnly) {
  std::string text = kRunTimeIfElse;
  text.replace(text.find("    if mode > 0:"), 16, "    if MODE == 1:");
  text.replace(text.find("\n\n@pl.jit.incore"), 0, "\nMODE = 1\n");
  cost::ScheduleCost c = branchCost(text);
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c) << "\n" << text;
  EXPECT_EQ(*c.gm_bytes, 2 * kTile);  // MODE == 1: the then branch, though the else is larger
}

// A guard on a loop variable inside a kernel: rows past the valid count are skipped.
TEST(ExclusiveBranches, AGuardOnAKernelLoopVariableCountsItsTrueTrips) {
  const char* text = R"(import pypto.language as pl


@pl.jit.incore
def rows(x: pl.Tensor[[256, 256], pl.FP32], out: pl.Out[pl.Tensor[[256, 256], pl.FP32]], valid: pl.Scalar[pl.INDEX]):
    for i in pl.range(8):
        if i * 32 < valid and i < 7:
            t = pl.load(x, [i * 32, 0], [32, 256])
            pl.store(pl.exp(t), [i * 32, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[256, 256], pl.FP32], out: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    for b in pl.range(2):
        out = rows(x, out, 96 + b * 64)
    return out
)";
  cost::ScheduleCost c = branchCost(text);
  ASSERT_TRUE(c.tasks) << branchWhy(c);
  EXPECT_EQ(*c.tasks, 2);
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c);
  // valid 96: rows 0-2 (3 trips); valid 160: rows 0-4 (5 trips); each trip a tile in and out.
  EXPECT_EQ(*c.gm_bytes, (3 + 5) * 2 * kTile);
}

// The shape of pypto-lib's prefill attention phases: an inline stage walks the context's blocks in
// batches of 64 (`for si in pl.range(64)`), guarded by `if sb < n_blocks:`, and dispatches a
// 4-block spmd kernel per block; each block of it is one task.
const char* kGuardedPhases = R"(import pypto.language as pl

SB_BATCH = 64


@pl.jit.inline
def phases(x: pl.Tensor[[4096, 256], pl.FP32], y: pl.Tensor[[4096, 256], pl.FP32], ctx: pl.Scalar[pl.INDEX]):
    if ctx > 0:
        n_blocks = (ctx + 127) // 128
        for sb_chunk in pl.range(0, n_blocks, SB_BATCH):
            for si in pl.range(SB_BATCH):
                sb = sb_chunk + si
                if sb < n_blocks:
                    for core in pl.spmd(4, name_hint="phase"):
                        r0 = sb * 128 + core * 32
                        t = pl.load(x, [r0, 0], [32, 256])
                        pl.store(pl.exp(t), [r0, 0], y)
    return y


@pl.jit
def entry(x: pl.Tensor[[4096, 256], pl.FP32], y: pl.Out[pl.Tensor[[4096, 256], pl.FP32]]):
    for p in pl.range(2):
        y = phases(x, y, 128 + p * 256)
    return y
)";

TEST(ExclusiveBranches, AGuardOnAStageLoopVariableDispatchesItsTrueTripsOnly) {
  cost::ScheduleCost c = branchCost(kGuardedPhases);
  ASSERT_TRUE(c.tasks) << branchWhy(c);
  // ctx 128: 1 block; ctx 384: 3 blocks; 4 spmd blocks each (64 trips of si would give 512).
  EXPECT_EQ(*c.tasks, (1 + 3) * 4);
  // The per-task enumeration agrees with the dispatch count: the bytes are known, one tile in and out
  // per task.
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c);
  EXPECT_EQ(*c.gm_bytes, (1 + 3) * 4 * 2 * kTile);
}

TEST(ExclusiveBranches, AStageCalledInOneBranchOfAKnownIfElseIsDispatchedThereOnly) {
  const char* text = R"(import pypto.language as pl


@pl.jit.inline
def single(x: pl.Tensor[[256, 256], pl.FP32], y: pl.Tensor[[256, 256], pl.FP32], n: pl.Scalar[pl.INDEX]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="single"):
        for r in pl.range(n):
            t = pl.load(x, [r * 32, 0], [32, 256])
            pl.store(t, [r * 32, 0], y)
    return y


@pl.jit.inline
def many(x: pl.Tensor[[256, 256], pl.FP32], y: pl.Tensor[[256, 256], pl.FP32], n: pl.Scalar[pl.INDEX]):
    for b in pl.range(n):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="many"):
            t = pl.load(x, [b * 32, 0], [32, 256])
            pl.store(t, [b * 32, 0], y)
    return y


@pl.jit
def entry(x: pl.Tensor[[256, 256], pl.FP32], y: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
    for p in pl.range(3):
        n = p + 1
        if n == 1:
            y = single(x, y, n)
        else:
            y = many(x, y, n)
    return y
)";
  cost::ScheduleCost c = branchCost(text);
  ASSERT_TRUE(c.tasks) << branchWhy(c);
  EXPECT_EQ(*c.tasks, 1 + (2 + 3));  // p = 0: single; p = 1, 2: many with 2 and 3 tasks
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c);
  EXPECT_EQ(*c.gm_bytes, 6 * 2 * kTile);
  // A stage the run never reaches through its branches (n is never 0), its work depending on what it
  // would be called with: no tasks, and still a device time.
  std::string never = text;
  never.replace(never.find("if n == 1:"), 10, "if n == 0:");
  cost::ScheduleCost n = branchCost(never);
  ASSERT_TRUE(n.tasks) << branchWhy(n);
  EXPECT_EQ(*n.tasks, 1 + 2 + 3);  // many with 1, 2 and 3 tasks
  const perf::DeviceTime t = perf::deviceTime(n, perf::deviceSpec(Platform::A2A3));
  EXPECT_TRUE(t.total_us) << (t.unknown.empty() ? "" : t.unknown[0]);
}

TEST(ExclusiveBranches, DispatchesUnderAnIfElseDecidedAtRunTimeCountTheLargerBranch) {
  const char* text = R"(import pypto.language as pl


@pl.jit
def entry(x: pl.Tensor[[256, 256], pl.FP32], y: pl.Out[pl.Tensor[[256, 256], pl.FP32]], flag: pl.Scalar[pl.INDEX]):
    if flag > 0:
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="one"):
            t = pl.load(x, [0, 0], [32, 256])
            pl.store(t, [0, 0], y)
    else:
        for b in pl.parallel(4):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="four"):
                u = pl.load(x, [b * 32, 0], [32, 256])
                pl.store(pl.exp(u), [b * 32, 0], y)
    return y
)";
  cost::ScheduleCost c = branchCost(text);
  ASSERT_TRUE(c.tasks) << branchWhy(c);
  EXPECT_EQ(*c.tasks, 4);  // the else branch's 4 tasks; both branches would be 5
  ASSERT_TRUE(c.gm_bytes) << branchWhy(c);
  EXPECT_EQ(*c.gm_bytes, 4 * 2 * kTile);
  ASSERT_EQ(c.kernels.size(), 2u);
  EXPECT_EQ(c.kernels[0].dispatches, 0);  // "one": the branch not counted
  EXPECT_EQ(c.kernels[1].dispatches, 4);
}

}  // namespace
}  // namespace portcheck
