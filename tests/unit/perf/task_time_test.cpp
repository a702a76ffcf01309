// One task's time: each pipe from its work and the platform's figures, overlapped across loop
// iterations (busiest pipe + the others' share of one iteration), the scalar issue as a floor.
#include <gtest/gtest.h>

#include "perf/task_time.h"
#include "perf/vector_cycles.h"

namespace portcheck {
namespace {

const perf::DeviceSpec& taskSpec() { return perf::deviceSpec(Platform::A2A3); }

// Bytes one AIV core moves GM -> UB in `us` microseconds, alone.
std::int64_t aivBytes(double us) { return static_cast<std::int64_t>(taskSpec().gm_to_ub_bytes_per_s * us / 1e6); }

TEST(TaskTime, EachPipeIsItsWorkOverItsRate) {
  cost::KernelWork w;
  w.mte2_bytes = aivBytes(1000);
  w.cube_macs_b16 = 4096LL * 900'000;  // 0.5 ms of the cube at 4096 FP16 MACs per cycle, 1.8 GHz
  w.vector_cycles = 180'000;           // 0.1 ms
  const perf::PipeTimes t = perf::taskTime(w, taskSpec(), "AIV", 1);
  EXPECT_NEAR(t.mte2, 1000.0, 0.01);
  EXPECT_NEAR(t.cube, 500.0, 1e-6);
  EXPECT_NEAR(t.vector, 100.0, 1e-6);
  EXPECT_EQ(t.bound, "MTE2");
  // An AIC loads into L1, faster than an AIV into UB (pto-isa's table: 135.0 vs 100.9 GiB/s).
  EXPECT_NEAR(perf::taskTime(w, taskSpec(), "AIC", 1).mte2, 1000.0 * 100.9 / 135.0, 0.01);
}

TEST(TaskTime, IterationsOverlapThePipesAndOneIterationDoesNot) {
  cost::KernelWork w;
  w.mte2_bytes = aivBytes(1000);
  w.vector_cycles = 900'000;  // 500 us
  w.mte3_bytes = static_cast<std::int64_t>(taskSpec().ub_to_gm_bytes_per_s * 500 / 1e6);
  w.iterations = 1;
  const double serial = perf::taskTime(w, taskSpec(), "AIV", 1).task - taskSpec().task_start_us;
  EXPECT_NEAR(serial, 2000.0, 0.05);  // load, then compute, then store
  w.iterations = 10;
  const double piped = perf::taskTime(w, taskSpec(), "AIV", 1).task - taskSpec().task_start_us;
  EXPECT_NEAR(piped, 1000.0 + 1000.0 / 10, 0.05);  // the loads bound it; one iteration's rest fills and drains
}

TEST(TaskTime, ManyCoresStreamingAtOnceShareTheHbm) {
  cost::KernelWork w;
  w.mte2_bytes = 1'000'000;
  const double alone = perf::taskTime(w, taskSpec(), "AIV", 1).mte2;
  const double shared = perf::taskTime(w, taskSpec(), "AIV", 48).mte2;
  EXPECT_NEAR(alone, 1e6 / (taskSpec().gm_to_ub_bytes_per_s / 1e6), 1e-6);
  EXPECT_NEAR(shared, 1e6 / (taskSpec().hbm_bytes_per_s / 48 / 1e6), 1e-6);
  EXPECT_GT(shared, alone * 3);
}

TEST(TaskTime, ManySmallInstructionsAreBoundByTheirFixedCost) {
  cost::KernelWork w;
  w.vector_cycles = 100;
  w.instructions = 10'000;
  w.iterations = 100;
  const perf::PipeTimes t = perf::taskTime(w, taskSpec(), "AIV", 1);
  EXPECT_EQ(t.bound, "SCALAR");
  EXPECT_NEAR(t.task - taskSpec().task_start_us, 10'000 * taskSpec().issue_cycles / 1800.0, 1e-6);
}

TEST(TaskTime, TheCubeRunsInt8TwiceAndFp32AQuarterAsFastAsFp16) {
  cost::KernelWork b16, b8, b32;
  b16.cube_macs_b16 = b8.cube_macs_b8 = b32.cube_macs_b32 = 4096LL * 1800;
  const double t16 = perf::taskTime(b16, taskSpec(), "AIC", 1).cube;
  EXPECT_NEAR(t16, 1.0, 1e-9);
  EXPECT_NEAR(perf::taskTime(b8, taskSpec(), "AIC", 1).cube, t16 / 2, 1e-9);
  EXPECT_NEAR(perf::taskTime(b32, taskSpec(), "AIC", 1).cube, t16 * 4, 1e-9);
}

TEST(VectorCycles, FollowPtoIsasFittedFormulas) {
  // [64, 128] FP32: 8192 elements, 32 KiB; one pass = 128 cycles.
  // Each: the slope's part, then the formula's bias.
  EXPECT_NEAR(perf::vectorCycles("adds", 64, 512, 1), 128.0 + 25, 1e-9);    // TADDS 0.0156 / element
  EXPECT_NEAR(perf::vectorCycles("mul", 64, 512, 2), 256.0 + 25, 1e-9);     // TMUL 0.031
  EXPECT_NEAR(perf::vectorCycles("exp", 64, 512, 1), 256.0 + 30, 1e-9);     // TEXP 0.0314
  EXPECT_NEAR(perf::vectorCycles("div", 64, 512, 1), 640.0 + 45, 1e-9);     // TDIVS 0.078
  EXPECT_NEAR(perf::vectorCycles("div", 64, 512, 2), 128 * 4.03 + 31, 1e-9);  // TDIV on 910B3: 4.03 / repeat
  EXPECT_NEAR(perf::vectorCycles("rsqrt", 64, 512, 1), 128 * 1.07 + 24, 1e-9);  // TRSQRT on 910B3: 1.07
  EXPECT_NEAR(perf::vectorCycles("row_sum", 64, 512, 2), 64 * 10.0 + 50, 1e-9);  // ~8-10 per row at 128 columns
  EXPECT_GT(perf::vectorCycles("row_expand_sub", 64, 512, 2), perf::vectorCycles("sub", 64, 512, 2));
  // Four [16, 128] tiles cost more than one [64, 128]: each instruction pays its fixed cost.
  EXPECT_GT(4 * perf::vectorCycles("mul", 16, 512, 2), perf::vectorCycles("mul", 64, 512, 2) + 70);
}

}  // namespace
}  // namespace portcheck
