// The run's device time: tasks in dispatch order on the cores of their kind, after their producers and
// the orchestrator's submit; the critical path and the utilisation.
#include <gtest/gtest.h>

#include "perf/device_schedule.h"

namespace portcheck {
namespace {

const perf::DeviceSpec& runSpec() { return perf::deviceSpec(Platform::A2A3); }

// A vector-streaming task of about `us` microseconds on one core alone (its MTE2 at one core's rate).
cost::KernelWork streaming(double us) {
  cost::KernelWork w;
  w.mte2_bytes = static_cast<std::int64_t>(us * runSpec().gm_to_ub_bytes_per_s / 1e6);
  w.iterations = 1;
  return w;
}

cost::KernelCost site(const std::string& kernel, const std::string& core, std::int64_t tasks, cost::KernelWork w,
                      int graph = 0, int loop = -1) {
  cost::KernelCost k;
  k.kernel = kernel;
  k.core = core;
  k.dispatches = tasks;
  k.cores = core == "AIV" ? 48 : 24;
  k.work_per_task = w;
  k.graph = graph;
  k.enclosing_loop = loop;
  return k;
}

cost::ScheduleCost costOf(std::vector<cost::KernelCost> sites) {
  cost::ScheduleCost c;
  c.kernels = std::move(sites);
  return c;
}

TEST(DeviceSchedule, TasksUpToTheCoreCountRunSideBySide) {
  const double one = perf::deviceTime(costOf({site("k", "AIV", 1, streaming(100))}), runSpec()).total_us.value();
  const double full = perf::deviceTime(costOf({site("k", "AIV", 48, streaming(100))}), runSpec()).total_us.value();
  const double two_waves = perf::deviceTime(costOf({site("k", "AIV", 96, streaming(100))}), runSpec()).total_us.value();
  // 48 tasks each streaming at 1/48 of the HBM take longer than one alone, but far less than 48 in a row.
  EXPECT_GT(full, one);
  EXPECT_LT(full, 48 * one / 4);
  EXPECT_NEAR(two_waves, 2 * full, full * 0.15);
}

TEST(DeviceSchedule, SplittingOneLongTaskOverTheCoresIsFaster) {
  const perf::DeviceTime serial = perf::deviceTime(costOf({site("rows", "AIV", 1, streaming(1600))}), runSpec());
  const perf::DeviceTime split = perf::deviceTime(costOf({site("rows", "AIV", 16, streaming(100))}), runSpec());
  ASSERT_TRUE(serial.total_us && split.total_us);
  EXPECT_LT(*split.total_us * 5, *serial.total_us);
  EXPECT_NEAR(serial.aiv_utilisation, 1.0 / 48, 1e-3);
  EXPECT_GT(split.aiv_utilisation, serial.aiv_utilisation * 5);
}

TEST(DeviceSchedule, AConsumerWaitsForItsProducerAndTheCriticalPathSaysSo) {
  cost::KernelCost a = site("produce", "AIV", 4, streaming(50));
  cost::KernelCost b = site("consume", "AIV", 4, streaming(50));
  b.after.push_back({0, false});
  const perf::DeviceTime t = perf::deviceTime(costOf({a, b}), runSpec());
  ASSERT_TRUE(t.total_us);
  ASSERT_EQ(t.sites.size(), 2u);
  EXPECT_GE(t.sites[1].first_start_us, t.sites[0].last_end_us);
  ASSERT_EQ(t.critical.size(), 2u);
  EXPECT_EQ(t.critical[0].kernel, "produce");
  EXPECT_EQ(t.critical[1].kernel, "consume");
  EXPECT_EQ(t.critical[1].waits, "produce");
}

TEST(DeviceSchedule, SitesDispatchedAlikeInOneLoopPipelineTripByTrip) {
  // Trip i's consumer waits for trip i's producer only: later producers overlap earlier consumers.
  cost::KernelWork slow = streaming(100);
  cost::KernelCost a = site("produce", "AIV", 96, slow, 0, 7);
  cost::KernelCost b = site("consume", "AIV", 96, slow, 0, 7);
  cost::KernelCost barrier_b = b;
  b.after.push_back({0, true});
  barrier_b.after.push_back({0, false});
  const double pairwise = perf::deviceTime(costOf({a, b}), runSpec()).total_us.value();
  const double barrier = perf::deviceTime(costOf({a, barrier_b}), runSpec()).total_us.value();
  EXPECT_LE(pairwise, barrier);
}

TEST(DeviceSchedule, AMixedTaskTakesAWholeCluster) {
  const perf::DeviceTime t = perf::deviceTime(costOf({site("mix", "MIX", 24, streaming(100)),
                                                      site("vec", "AIV", 48, streaming(100), 1)}), runSpec());
  ASSERT_TRUE(t.total_us);
  // The 24 mixed tasks hold every AIV pair, so the vector tasks wait for them.
  EXPECT_GE(t.sites[1].first_start_us, t.sites[0].first_start_us + 90);
  EXPECT_EQ(t.bars.front().lane.rfind("cluster", 0), 0u);
}

TEST(DeviceSchedule, ManySmallTasksAreBoundByTheOrchestratorsSubmit) {
  cost::KernelWork tiny;
  tiny.vector_cycles = 1;
  const perf::DeviceTime t = perf::deviceTime(costOf({site("tiny", "AIV", 10'000, tiny)}), runSpec());
  ASSERT_TRUE(t.total_us);
  EXPECT_NEAR(*t.total_us, 10'000 * runSpec().submit_us, 10'000 * runSpec().submit_us * 0.01);
  EXPECT_EQ(t.critical.back().waits, "submit");
}

TEST(DeviceSchedule, TheBlocksOfOneSpmdLaunchShareOneSubmit) {
  cost::KernelWork tiny;
  tiny.vector_cycles = 1;
  cost::KernelCost dispatched = site("tiny", "AIV", 48, tiny);
  cost::KernelCost spmd = dispatched;
  spmd.blocks = 48;
  const perf::DeviceTime a = perf::deviceTime(costOf({dispatched}), runSpec());
  const perf::DeviceTime b = perf::deviceTime(costOf({spmd}), runSpec());
  ASSERT_TRUE(a.total_us && b.total_us);
  EXPECT_NEAR(a.submit_us, 48 * runSpec().submit_us, 1e-9);
  EXPECT_NEAR(b.submit_us, runSpec().submit_us, 1e-9);
  EXPECT_LT(*b.total_us * 10, *a.total_us);
}

TEST(DeviceSchedule, UnknownWorkMakesTheTimeUnknownAndSaysWhich) {
  cost::KernelCost k = site("k", "AIV", 4, streaming(10));
  k.work_per_task.reset();
  const perf::DeviceTime t = perf::deviceTime(costOf({k}), runSpec());
  EXPECT_FALSE(t.total_us);
  ASSERT_FALSE(t.unknown.empty());
  EXPECT_NE(t.unknown[0].find("k"), std::string::npos);
}

TEST(DeviceSchedule, TheTimelineKeepsEveryCriticalTaskWhenItSamples) {
  const perf::DeviceTime t = perf::deviceTime(costOf({site("k", "AIV", 20'000, streaming(5))}), runSpec());
  ASSERT_TRUE(t.total_us);
  EXPECT_LE(t.bars.size(), perf::kTimelineBars + t.critical.front().tasks + 1);
  std::size_t critical = 0;
  for (const perf::TaskBar& b : t.bars) critical += b.critical ? 1 : 0;
  EXPECT_EQ(static_cast<std::int64_t>(critical), t.critical.front().tasks);
}

// Two sites that wait for nothing run side by side and share the HBM: a few tasks each, bound by their
// cores' own rate, run about as fast as one site alone; many, bound by the HBM, take about as long as
// one site of both sites' tasks (the bytes are the same), well over one site alone.
TEST(DeviceSchedule, SitesSideBySideShareTheHbm) {
  auto time = [](std::vector<cost::KernelCost> sites) { return perf::deviceTime(costOf(std::move(sites)), runSpec()).total_us.value(); };
  cost::KernelCost after_a = site("b", "AIV", 4, streaming(100));
  after_a.after.push_back({0, false});
  const double few_alone = time({site("a", "AIV", 4, streaming(100))});
  const double few_both = time({site("a", "AIV", 4, streaming(100)), site("b", "AIV", 4, streaming(100))});
  const double few_chained = time({site("a", "AIV", 4, streaming(100)), after_a});
  EXPECT_LT(few_both, few_alone * 1.1);  // the later submits only
  EXPECT_LT(few_both, few_chained * 0.6);
  const double many_alone = time({site("a", "AIV", 24, streaming(100))});
  const double many_both = time({site("a", "AIV", 24, streaming(100)), site("b", "AIV", 24, streaming(100))});
  const double many_merged = time({site("ab", "AIV", 48, streaming(100))});
  EXPECT_GT(many_both, many_alone * 1.5);
  // Not longer than one site of both's tasks, which takes its 48 tasks' share from the start (the later
  // site's tasks start after the earlier ones', so the first of them stream with fewer beside them).
  EXPECT_LE(many_both, many_merged);
  EXPECT_GT(many_both, many_merged * 0.75);
}

TEST(DeviceSchedule, TheLastWaveOfASiteStreamsBesideFewerTasks) {
  // 48 + 8 streaming tasks on 48 AIV cores: the 8 of the second wave share the HBM among themselves
  // only, so they end sooner than the first wave's tasks took, and the site is not two full waves.
  const perf::DeviceTime full = perf::deviceTime(costOf({site("k", "AIV", 48, streaming(100))}), runSpec());
  const perf::DeviceTime tail = perf::deviceTime(costOf({site("k", "AIV", 56, streaming(100))}), runSpec());
  const perf::DeviceTime eight = perf::deviceTime(costOf({site("k", "AIV", 8, streaming(100))}), runSpec());
  ASSERT_TRUE(full.total_us && tail.total_us && eight.total_us);
  EXPECT_LT(*tail.total_us, 2 * *full.total_us * 0.8);
  // The second wave starts as the first wave's cores free up, at most eight alone after the first wave.
  EXPECT_GT(*tail.total_us, *full.total_us);
  EXPECT_LT(*tail.total_us, *full.total_us + *eight.total_us * 1.05);
  // The task the site reports is one of its fullest wave.
  ASSERT_EQ(tail.sites.size(), 1u);
  EXPECT_NEAR(tail.sites[0].largest.task, full.sites[0].largest.task, full.sites[0].largest.task * 1e-9);
}

}  // namespace
}  // namespace portcheck
