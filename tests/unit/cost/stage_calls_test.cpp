// An inline stage called twice by the orchestration is two dispatch sites, in call order: the second
// call's tasks wait for the first's (it reads what the first wrote), each site under the name the
// compiler gives its splice (<caller>_incore_<k>). One site holding both calls' tasks ran them side by
// side from t = 0 and hid the second call's time.
#include <gtest/gtest.h>

#include <string>

#include "cost/cost_test_support.h"
#include "perf/device_schedule.h"
#include "perf/device_spec.h"

namespace portcheck {
namespace {

struct StageRun {
  cost::ScheduleCost cost;
  perf::DeviceTime time;
};

StageRun stageRun(const std::string& text) {
  StageRun r;
  r.cost = test::scheduleOfText(text);
  r.time = perf::deviceTime(r.cost, perf::deviceSpec(Platform::A2A3));
  return r;
}

const char* kStageTwice = R"(import pypto.language as pl


@pl.jit.inline
def scale_stage(x: pl.Tensor[[1024, 256], pl.FP32], y: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    for b in pl.spmd(16):
        r0 = b * 64
        t = pl.load(x, [r0, 0], [64, 256])
        pl.store(pl.mul(t, 2.0), [r0, 0], y)
    return y


@pl.jit
def entry(x: pl.Tensor[[1024, 256], pl.FP32], out: pl.Out[pl.Tensor[[1024, 256], pl.FP32]]):
    mid = pl.create_tensor([1024, 256], dtype=pl.FP32)
    mid = scale_stage(x, mid)
    out = scale_stage(mid, out)
    return out
)";

TEST(StageCalls, AStageCalledTwiceIsTwoSitesTheSecondAfterTheFirst) {
  StageRun r = stageRun(kStageTwice);
  ASSERT_TRUE(r.cost.tasks) << (r.cost.unknown.empty() ? "" : r.cost.unknown[0]);
  EXPECT_EQ(*r.cost.tasks, 32);
  ASSERT_EQ(r.cost.kernels.size(), 2u);
  EXPECT_EQ(r.cost.kernels[0].kernel, "entry_incore_0");
  EXPECT_EQ(r.cost.kernels[1].kernel, "entry_incore_1");
  EXPECT_EQ(r.cost.kernels[0].dispatches, 16);
  EXPECT_EQ(r.cost.kernels[1].dispatches, 16);
  ASSERT_EQ(r.cost.kernels[1].after.size(), 1u);
  EXPECT_EQ(r.cost.kernels[1].after[0].site, 0);
  EXPECT_EQ(*r.cost.gm_bytes, 2 * 16 * 2 * 64 * 256 * 4);
  // On the timeline the second call starts when the first has ended: the run is at least both calls'
  // task times end to end.
  ASSERT_TRUE(r.time.total_us);
  ASSERT_EQ(r.time.sites.size(), 2u);
  EXPECT_GE(r.time.sites[1].first_start_us, r.time.sites[0].last_end_us);
  const double one_task = r.time.sites[0].busy_us / 16.0;
  EXPECT_GE(*r.time.total_us + 1e-9, 2 * one_task);
}

TEST(StageCalls, AStageCalledOnceStaysOneSite) {
  std::string text = kStageTwice;
  text.replace(text.find("    out = scale_stage(mid, out)\n"), std::string("    out = scale_stage(mid, out)\n").size(), "");
  text.replace(text.find("mid = scale_stage(x, mid)"), std::string("mid = scale_stage(x, mid)").size(), "out = scale_stage(x, out)");
  StageRun r = stageRun(text);
  ASSERT_TRUE(r.cost.tasks) << text;
  EXPECT_EQ(*r.cost.tasks, 16);
  ASSERT_EQ(r.cost.kernels.size(), 1u);
}

}  // namespace
}  // namespace portcheck
