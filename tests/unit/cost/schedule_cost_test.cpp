// The schedule's cost from source: tasks dispatched (orchestration loop trips) and GM bytes moved
// (loads and stores times the loops around them in the kernel, times the dispatches).
#include <gtest/gtest.h>

#include "core/source_file.h"
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
  EXPECT_EQ(*c.gm_bytes, 2 * (64 * 128 * 4 + 64 * 128 * 4));  // per task: x loaded, the result assembled into out
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

// pl.assemble into a GM tensor from a kernel is the store of the assembled tile at its offset (the
// way a mixed scope writes its result); an assemble into an on-chip tensor moves nothing.
TEST(ScheduleCost, AnAssembleIntoAGmTensorIsAStore) {
  const char* text = R"(import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Out[pl.Tensor[[64, 256], pl.BF16]]):
    for b in pl.parallel(4):
        c0 = b * 64
        with pl.at(level=pl.Level.CORE_GROUP):
            acc = pl.create_tensor([64, 128], dtype=pl.FP32)
            acc = pl.assemble(acc, pl.exp(x[0:64, c0 : c0 + 64]), [0, 0])
            y = pl.assemble(y, pl.cast(pl.exp(x[0:64, c0 : c0 + 64]), target_type=pl.BF16), [0, c0])
    return y
)";
  cost::ScheduleCost c = costOf({{"p.py", text}});
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  // Per task: two [64, 64] FP32 reads, one [64, 64] BF16 store by the assemble into y.
  EXPECT_EQ(*c.gm_bytes, 4 * (2 * 64 * 64 * 4 + 64 * 64 * 2));
}

// `a, b = kernel(x, a, b)`: each element is the tensor passed for the kernel's Out parameter in that
// place, so a later load of `a` has a known size (projects/lightning_indexer_prolog's q_dense).
TEST(ScheduleCost, TheElementsOfAKernelsTupleResultAreItsOutTensors) {
  const char* text = R"(import pypto.language as pl

@pl.jit.incore
def split(x: pl.Tensor[[64, 128], pl.FP32], a: pl.Out[pl.Tensor[[64, 128], pl.INT8]], b: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [64, 128])
    pl.store(pl.cast(t, target_type=pl.INT8), [0, 0], a)
    return a, b

@pl.jit
def entry(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.INT8]]):
    a = pl.create_tensor([64, 128], dtype=pl.INT8)
    b = pl.create_tensor([1, 64], dtype=pl.FP32)
    a, b = split(x, a, b)
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="place"):
        t = pl.load(a, [0, 0], [64, 128])
        pl.store(t, [0, 0], y)
    return y
)";
  cost::ScheduleCost c = costOf({{"p.py", text}});
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  // split: x FP32 in, a INT8 out; place: a INT8 in, y INT8 out.
  EXPECT_EQ(*c.gm_bytes, 64 * 128 * 4 + 64 * 128 + 2 * 64 * 128);
}

// A loop in the kernel whose trip count is a loop variable of the run (causal attention's key loop,
// `for kb in pl.range(qb + 1)`): each task is counted under its own values, in a scope of the entry
// and in an inline stage called with the variable as a scalar.
TEST(ScheduleCost, BytesThatDependOnTheTaskAreSummedOverTheTasks) {
  const char* inline_scope = R"(import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor[[256, 64], pl.FP32], y: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
    for qb in pl.parallel(4):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="tri"):
            acc = pl.full([64, 64], dtype=pl.FP32, value=0.0)
            for kb in pl.range(qb + 1):
                acc = pl.add(acc, x[kb * 64 : kb * 64 + 64, 0:64])
            y = pl.assemble(y, acc, [qb * 64, 0])
    return y
)";
  const char* stage = R"(import pypto.language as pl

@pl.jit.inline
def tri(x: pl.Tensor[[256, 64], pl.FP32], y: pl.Tensor[[256, 64], pl.FP32], qb: pl.Scalar[pl.INDEX]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="tri"):
        acc = pl.full([64, 64], dtype=pl.FP32, value=0.0)
        for kb in pl.range(qb + 1):
            acc = pl.add(acc, x[kb * 64 : kb * 64 + 64, 0:64])
        y = pl.assemble(y, acc, [qb * 64, 0])
    return y

@pl.jit
def entry(x: pl.Tensor[[256, 64], pl.FP32], y: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
    for qb in pl.parallel(4):
        y = tri(x, y, qb)
    return y
)";
  // The same reads from the other end: task qb reads blocks qb .. 3 (4 - qb of them), its tile in
  // the row block the outer loop's bounds start at.
  const char* from_qb = R"(import pypto.language as pl

@pl.jit
def entry(x: pl.Tensor[[256, 64], pl.FP32], y: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
    for half in pl.range(2):
        for qb in pl.parallel(half * 2, half * 2 + 2):
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="tri"):
                acc = pl.full([64, 64], dtype=pl.FP32, value=0.0)
                for kb in pl.range(qb, 4):
                    acc = pl.add(acc, x[kb * 64 : kb * 64 + 64, 0:64])
                y = pl.assemble(y, acc, [qb * 64, 0])
    return y
)";
  const std::int64_t block = 64 * 64 * 4;
  for (const char* text : {inline_scope, stage, from_qb}) {
    cost::ScheduleCost c = costOf({{"p.py", text}});
    ASSERT_TRUE(c.tasks) << text;
    EXPECT_EQ(*c.tasks, 4);
    ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
    // Task qb reads qb + 1 blocks and writes one: 1 + 2 + 3 + 4 blocks read, 4 written.
    EXPECT_EQ(*c.gm_bytes, (10 + 4) * block);
    // 4 tasks on 48 AIVs: one wave, the largest task's bytes (4 blocks in, 1 out).
    ASSERT_TRUE(c.critical_gm_bytes);
    EXPECT_EQ(*c.critical_gm_bytes, 5 * block);
  }
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

// An spmd launch written inside an inline stage is one launch of n blocks, as in the entry: the blocks
// share one submit (an eval agent's top-k router had its 4 blocks charged as 4 submits).
TEST(ScheduleCost, AnSpmdLaunchInsideAnInlineStageIsOneSubmitOfItsBlocks) {
  const char* src = R"(import pypto.language as pl

@pl.jit.inline
def stage(x: pl.Tensor[[256, 64], pl.FP32], y: pl.Tensor[[256, 64], pl.FP32]):
    for b in pl.spmd(32, name_hint="rows"):
        t = pl.load(x, [b * 8, 0], [8, 64])
        y = pl.store(pl.exp(t), [b * 8, 0], y)
    return y


@pl.jit
def port(x: pl.Tensor[[256, 64], pl.FP32], y: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
    y = stage(x, y)
    return y
)";
  cost::ScheduleCost c = costOf({{"orchestration.py", src}}, {"orchestration.py"});
  ASSERT_EQ(c.kernels.size(), 1u);
  ASSERT_TRUE(c.kernels[0].dispatches);
  EXPECT_EQ(*c.kernels[0].dispatches, 32);
  EXPECT_EQ(c.kernels[0].blocks, 32);
}

TEST(ScheduleCost, AStageCalledThroughAnotherInlineStageIsDispatchedAsOftenAsTheRunReachesIt) {
  // port -> attention (inline, twice per layer) -> stage (inline, its scope 4 tasks per call).
  const char* lib = R"(import pypto.language as pl

@pl.jit.inline
def stage(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32]):
    for b in pl.parallel(4):
        c0 = b * 64
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage"):
            t = pl.load(x, [0, c0], [64, 64])
            pl.store(pl.exp(t), [0, c0], y)
    return y


@pl.jit.inline
def attention(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32]):
    for half in pl.range(2):
        y = stage(x, y)
    return y
)";
  const char* port = R"(import pypto.language as pl
from blocks import attention

@pl.jit
def port(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    for layer in pl.range(3):
        y = attention(x, y)
    return y
)";
  cost::ScheduleCost c = costOf({{"orchestration.py", port}, {"blocks.py", lib}}, {"orchestration.py"});
  ASSERT_TRUE(c.tasks) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.tasks, 3 * 2 * 4);
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.gm_bytes, 3 * 2 * 4 * 2 * 64 * 64 * 4);
  // An inline stage nothing of the run calls is not reached through it.
  std::string unused = port;
  unused.replace(unused.find("        y = attention(x, y)"), 27, "        y = x");
  cost::ScheduleCost none = costOf({{"orchestration.py", unused}, {"blocks.py", lib}}, {"orchestration.py"});
  ASSERT_TRUE(none.tasks) << (none.unknown.empty() ? "" : none.unknown[0]);
  EXPECT_EQ(*none.tasks, 0);
}

TEST(ScheduleCost, AStagesLoopsBoundByItsParametersAreCountedCallByCall) {
  // The stage dispatches n tasks per call; the run calls it with n = 2 and n = 3.
  const char* text = R"(import pypto.language as pl

@pl.jit.inline
def stage(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32], n: pl.Scalar[pl.INDEX]):
    for b in pl.range(n):
        c0 = b * 64
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="stage"):
            t = pl.load(x, [0, c0], [64, 64])
            pl.store(pl.exp(t), [0, c0], y)
    return y


@pl.jit.inline
def unused(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Tensor[[64, 256], pl.FP32]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="unused"):
        t = pl.load(x, [0, 0], [64, 64])
        pl.store(t, [0, 0], y)
    return y


@pl.jit
def port(x: pl.Tensor[[64, 256], pl.FP32], y: pl.Out[pl.Tensor[[64, 256], pl.FP32]]):
    for r in pl.range(2):
        y = stage(x, y, r + 2)
    return y
)";
  cost::ScheduleCost c = costOf({{"p.py", text}});
  ASSERT_TRUE(c.tasks) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.tasks, 2 + 3);
  ASSERT_TRUE(c.gm_bytes) << (c.unknown.empty() ? "" : c.unknown[0]);
  EXPECT_EQ(*c.gm_bytes, 5 * 2 * 64 * 64 * 4);
  // A stage of the file nothing of the run calls is not part of the run, nor a reason for `?`.
  for (const std::string& why : c.unknown) EXPECT_EQ(why.find("unused"), std::string::npos) << why;
}

}  // namespace
}  // namespace portcheck
