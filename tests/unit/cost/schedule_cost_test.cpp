// The schedule's cost from source: tasks dispatched (orchestration loop trips) and GM bytes moved
// (loads and stores times the loops around them in the kernel, times the dispatches).
#include <gtest/gtest.h>

#include "cost/schedule_cost.h"
#include "dsl/dsl_model.h"
#include "sram/sram_estimator.h"

namespace portcheck {
namespace {

cost::ScheduleCost costOf(std::vector<std::pair<std::string, std::string>> sources,
                          const std::vector<std::string>& entry_files = {}) {
  std::vector<SourceFile> files;
  for (auto& [path, text] : sources) {
    SourceFile f;
    f.path = path;
    f.text = text;
    files.push_back(std::move(f));
  }
  dsl::ProgramModel model = dsl::buildProgramModel(files);
  return cost::scheduleCost(model, sram::estimateProgram(model, Platform::A2A3), Platform::A2A3, entry_files);
}

// 4 tasks; each walks 8 row blocks of [32, 256] FP32: loads 32 KiB and stores it as BF16 (16 KiB).
const char* kBlocks = R"(import pypto.language as pl

@pl.jit.incore
def rows(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.BF16]], base: pl.Scalar[pl.INDEX]):
    for i in pl.range(8):
        t = pl.load(x, [base + i * 32, 0], [32, 256])
        e = pl.exp(t)
        pl.store(e, [base + i * 32, 0], out)
    return out


@pl.jit
def entry(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.BF16]]):
    for b in pl.range(4):
        out = rows(x, out, b * 256)
    return out
)";

TEST(ScheduleCost, CountsDispatchesAndTheBytesOfEveryTripInTheGmTensorsTypes) {
  cost::ScheduleCost c = costOf({{"p.py", kBlocks}});
  ASSERT_TRUE(c.tasks) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.tasks, 4);
  ASSERT_TRUE(c.gm_bytes);
  EXPECT_EQ(*c.gm_bytes, 4 * 8 * (32 * 256 * 4 + 32 * 256 * 2));
  ASSERT_EQ(c.kernels.size(), 1u);
  EXPECT_EQ(c.kernels[0].kernel, "rows");
  EXPECT_EQ(*c.kernels[0].dispatches, 4);
}

TEST(ScheduleCost, ALoopWithoutAStaticTripCountMakesTheFigureUnknownAndSaysWhere) {
  std::string text = kBlocks;
  text.replace(text.find("for b in pl.range(4):"), 21, "for b in pl.range(n):");
  text.replace(text.find("def entry(x"), 11, "def entry(n: pl.Scalar[pl.INDEX], x");
  cost::ScheduleCost c = costOf({{"p.py", text}});
  EXPECT_FALSE(c.tasks);
  EXPECT_FALSE(c.gm_bytes);
  ASSERT_FALSE(c.unknown.empty());
  EXPECT_NE(c.unknown[0].find("trip count of the loop at p.py:"), std::string::npos) << c.unknown[0];
}

TEST(ScheduleCost, ImplicitLoadsOfTensorLevelComputeInAScopeCount) {
  const char* text = R"(import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor[[64, 128], pl.FP32], out: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):
    for b in pl.parallel(2):
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.exp(x)
            out = pl.assemble(out, y, [0, 0])
    return out
)";
  cost::ScheduleCost c = costOf({{"p.py", text}});
  ASSERT_TRUE(c.tasks);
  EXPECT_EQ(*c.tasks, 2);
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.gm_bytes, 2 * 64 * 128 * 4);  // x loaded once per task
}

// A library block's own test entry dispatches the same kernel; only the port's run counts.
TEST(ScheduleCost, OnlyTheEntryFilesOrchestrationIsTheRun) {
  std::string lib = kBlocks;
  std::string port = R"(import pypto.language as pl
from blocks import rows

@pl.jit
def port(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.BF16]]):
    for b in pl.range(2):
        out = rows(x, out, b * 512)
    return out
)";
  cost::ScheduleCost all = costOf({{"orchestration.py", port}, {"blocks.py", lib}});
  cost::ScheduleCost run = costOf({{"orchestration.py", port}, {"blocks.py", lib}}, {"orchestration.py"});
  ASSERT_TRUE(all.tasks && run.tasks);
  EXPECT_EQ(*all.tasks, 6);
  EXPECT_EQ(*run.tasks, 2);
  EXPECT_EQ(*run.gm_bytes, 2 * 8 * (32 * 256 * 4 + 32 * 256 * 2));
}

// The tasks of a dispatch site run in waves of one per core (a vector kernel: 48 AIVs on a2a3).
TEST(ScheduleCost, TheCriticalPathCountsWavesOfOneTaskPerCore) {
  const std::int64_t per_task = 8 * (32 * 256 * 4 + 32 * 256 * 2);
  cost::ScheduleCost four = costOf({{"p.py", kBlocks}});
  ASSERT_TRUE(four.critical_gm_bytes);
  EXPECT_EQ(*four.critical_gm_bytes, per_task);  // 4 tasks: one wave
  std::string text = kBlocks;
  text.replace(text.find("for b in pl.range(4):"), 21, "for b in pl.range(100):");
  cost::ScheduleCost hundred = costOf({{"p.py", text}});
  ASSERT_TRUE(hundred.critical_gm_bytes && hundred.gm_bytes);
  EXPECT_EQ(*hundred.critical_gm_bytes, 3 * per_task);  // ceil(100 / 48) waves
  EXPECT_EQ(*hundred.gm_bytes, 100 * per_task);
  ASSERT_EQ(hundred.kernels.size(), 1u);
  EXPECT_EQ(hundred.kernels[0].cores, 48);
}

// Subscript sugar on a GM tensor inside a scope is a load (read) or a store (write) of the region.
TEST(ScheduleCost, SubscriptReadsAndWritesOfAGmTensorMoveTheirRegion) {
  const char* text = R"(import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor[[64, 256], pl.BF16], y: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    for b in pl.parallel(4):
        c0 = b * 64
        with pl.at(level=pl.Level.CORE_GROUP):
            acc = pl.create_tensor([64, 64], dtype=pl.FP32)
            for kb in pl.range(2):
                k0 = kb * 32
                a = x[0:64, k0 : k0 + 32]
                acc = pl.add(acc, pl.cast(pl.mul(a, 1.0), target_type=pl.FP32))
            y[0:64, c0 : c0 + 64] = acc
    return y
)";
  cost::ScheduleCost c = costOf({{"p.py", text}});
  ASSERT_TRUE(c.tasks);
  EXPECT_EQ(*c.tasks, 4);
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  // Per task: two [64, 32] BF16 reads, one [64, 64] FP32 write.
  EXPECT_EQ(*c.gm_bytes, 4 * (2 * 64 * 32 * 2 + 64 * 64 * 4));
}

// A pypto-lib stage (@pl.jit.inline) holds the pl.at scope; the port's entry calls the stage. The
// scope is dispatched per trip of its own loop in the stage, per trip of the loops around the call.
TEST(ScheduleCost, AScopeOfAnInlineStageIsDispatchedWhereTheRunCallsTheStage) {
  const char* lib = R"(import pypto.language as pl

@pl.jit.inline
def stage(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32]):
    for b in pl.parallel(4):
        c0 = b * 64
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage"):
            t = pl.load(x, [0, c0], [64, 64])
            pl.store(pl.exp(t), [0, c0], y)
    return y


@pl.jit
def stage_block(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    y = stage(x, y)
    return y
)";
  const char* port = R"(import pypto.language as pl
from blocks import stage

@pl.jit
def port(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    for r in pl.range(3):
        y = stage(x, y)
    return y
)";
  cost::ScheduleCost c = costOf({{"orchestration.py", port}, {"blocks.py", lib}}, {"orchestration.py"});
  ASSERT_TRUE(c.tasks) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.tasks, 3 * 4);
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.gm_bytes, 3 * 4 * 2 * 64 * 64 * 4);
  // Without a caller in the run (the block on its own), the stage's scope is not the port's cost.
  cost::ScheduleCost alone = costOf({{"orchestration.py", "import pypto.language as pl\n"}, {"blocks.py", lib}},
                                    {"orchestration.py"});
  ASSERT_TRUE(alone.tasks);
  EXPECT_EQ(*alone.tasks, 0);
}

}  // namespace
}  // namespace portcheck
