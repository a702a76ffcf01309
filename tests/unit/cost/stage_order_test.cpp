// The inline stages a run calls are dispatched in call order, each waiting only for the earlier calls
// whose tensors it touches (orderStageSites): two projections reading one normalised input run side by
// side; a stage reading a view (pl.reshape) of an earlier stage's output waits for it; a call whose
// result is not kept is taken to write every tensor it is passed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cost/cost_test_support.h"
#include "perf/device_schedule.h"
#include "perf/device_spec.h"

namespace portcheck {
namespace {

const char* kProjections = R"(import pypto.language as pl


@pl.jit.inline
def norm_stage(x: pl.Tensor[[128, 8192], pl.FP32], y: pl.Out[pl.Tensor[[128, 8192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for r in pl.range(64):
            t = pl.load(x, [r * 2, 0], [2, 8192])
            pl.store(pl.mul(t, 2.0), [r * 2, 0], y)
    return y


@pl.jit.inline
def proj_stage(x: pl.Tensor[[128, 8192], pl.FP32], y: pl.Out[pl.Tensor[[128, 8192], pl.FP32]]):
    for b in pl.spmd(8):
        c0 = b * 1024
        for r in pl.range(8):
            t = pl.load(x, [r * 16, c0], [16, 1024])
            pl.store(pl.add(t, 1.0), [r * 16, c0], y)
    return y


@pl.jit.inline
def add_stage(a: pl.Tensor[[128, 8192], pl.FP32], b: pl.Tensor[[128, 8192], pl.FP32],
              y: pl.Out[pl.Tensor[[128, 8192], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        for r in pl.range(128):
            ta = pl.load(a, [r, 0], [1, 8192])
            tb = pl.load(b, [r, 0], [1, 8192])
            pl.store(pl.add(ta, tb), [r, 0], y)
    return y


@pl.jit
def entry(x: pl.Tensor[[128, 8192], pl.FP32], out: pl.Out[pl.Tensor[[128, 8192], pl.FP32]]):
    xn = pl.create_tensor([128, 8192], dtype=pl.FP32)
    xn = norm_stage(x, xn)
    q = pl.create_tensor([128, 8192], dtype=pl.FP32)
    k = pl.create_tensor([128, 8192], dtype=pl.FP32)
    q = proj_stage(xn, q)
    k = proj_stage(xn, k)
    q_view = pl.reshape(q, [128, 8192])
    out = add_stage(q_view, k, out)
    return out
)";

bool waitsFor(const cost::KernelCost& k, int site) {
  return std::any_of(k.after.begin(), k.after.end(), [&](const cost::SiteDependency& d) { return d.site == site; });
}

TEST(StageOrder, ProjectionsOfOneInputRunSideBySideAndTheirConsumerWaitsForBoth) {
  const cost::ScheduleCost c = test::scheduleOfText(kProjections);
  ASSERT_TRUE(c.tasks) << test::firstUnknown(c);
  ASSERT_EQ(c.kernels.size(), 4u);
  // Call order: norm, q projection, k projection, add.
  EXPECT_EQ(c.kernels[0].dispatches, 1);
  EXPECT_EQ(c.kernels[1].dispatches, 8);
  EXPECT_EQ(c.kernels[2].dispatches, 8);
  EXPECT_EQ(c.kernels[3].dispatches, 1);
  EXPECT_TRUE(waitsFor(c.kernels[1], 0));   // reads xn
  EXPECT_TRUE(waitsFor(c.kernels[2], 0));
  EXPECT_FALSE(waitsFor(c.kernels[2], 1));  // q and k: one input read, different outputs
  EXPECT_TRUE(waitsFor(c.kernels[3], 1));   // reads q through its view
  EXPECT_TRUE(waitsFor(c.kernels[3], 2));
  const perf::DeviceTime t = perf::deviceTime(c, perf::deviceSpec(Platform::A2A3));
  ASSERT_TRUE(t.total_us);
  ASSERT_EQ(t.sites.size(), 4u);
  EXPECT_LT(t.sites[2].first_start_us, t.sites[1].last_end_us);  // side by side
  EXPECT_GE(t.sites[3].first_start_us + 1e-9, std::max(t.sites[1].last_end_us, t.sites[2].last_end_us));
}

TEST(StageOrder, ACallWhoseResultIsNotKeptWaitsForEverythingItIsPassed) {
  std::string text = kProjections;
  const std::string kept = "    k = proj_stage(xn, k)\n";
  text.replace(text.find(kept), kept.size(), "    proj_stage(xn, k)\n");
  // proj_stage's y is pl.Out: the model still knows the call writes k, so it runs beside q's.
  cost::ScheduleCost c = test::scheduleOfText(text);
  ASSERT_EQ(c.kernels.size(), 4u);
  EXPECT_FALSE(waitsFor(c.kernels[2], 1));
  // A stage whose parameters are not marked and that writes none the model sees: assumed to write them all,
  // so a later reader of any of them waits.
  std::string untyped = text;
  const std::string sig = "def proj_stage(x: pl.Tensor[[128, 8192], pl.FP32], y: pl.Out[pl.Tensor[[128, 8192], pl.FP32]]):";
  untyped.replace(untyped.find(sig), sig.size(), "def proj_stage(x: pl.Tensor[[128, 8192], pl.FP32], y: pl.Tensor[[128, 8192], pl.FP32]):");
  const std::string store = "            pl.store(pl.add(t, 1.0), [r * 16, c0], y)\n";
  untyped.replace(untyped.find(store), store.size(), "            u = pl.add(t, 1.0)\n");
  c = test::scheduleOfText(untyped);
  ASSERT_EQ(c.kernels.size(), 4u);
  EXPECT_TRUE(waitsFor(c.kernels[3], 2));
}

TEST(StageOrder, AStageCalledBeforeAnotherDefinedEarlierIsPlacedInCallOrder) {
  std::string text = kProjections;
  // add_stage is defined last but now called first (on x and x): it is the first site.
  const std::string norm = "    xn = norm_stage(x, xn)\n";
  text.replace(text.find(norm), norm.size(), "    xn = add_stage(x, x, xn)\n    xn = norm_stage(xn, xn)\n");
  const cost::ScheduleCost c = test::scheduleOfText(text);
  ASSERT_EQ(c.kernels.size(), 5u);
  EXPECT_TRUE(c.kernels[0].after.empty());
  EXPECT_TRUE(waitsFor(c.kernels[1], 0));  // norm reads xn, which the first add wrote
}

}  // namespace
}  // namespace portcheck
