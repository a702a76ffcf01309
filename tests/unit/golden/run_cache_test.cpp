// The run cache (golden/run_cache.h): a passed run of an unchanged compile is replayed instead of run;
// failures always run again; the key follows the compile and the simulator. Runs use the stand-in
// interpreter tests/fixtures/run/fake-run-python.sh, which appends every run to a log we count.
#include <gtest/gtest.h>

#include <fstream>

#include "golden/run_cache.h"
#include "golden/run_driver.h"
#include "golden/run_stage.h"
#include "golden/run_workspace.h"
#include "test_support.h"

namespace portcheck::run_cache_test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The run workspace of golden/run_workspace.h, with time for a real stage and a way to count runs.
struct CacheWorkspace : test::RunWorkspace {
  CacheWorkspace() : RunWorkspace(20s) {}

  // Runs the stage once with the compile replayed from its cache (or not), as `port-check run` would.
  RunStageResult stage(const CompileTarget& t, bool compile_cached, bool use_cache = true) {
    CompileTargetSummary c;
    c.status = "ok";
    c.cached = compile_cached;
    c.cache_key = "compile-key-of-" + t.name;
    RunStageOptions options;
    options.use_cache = use_cache;
    return runGoldenStage({t}, {c}, Platform::A2A3, settings, options);
  }

  // How many times the stand-in ran in run mode (it writes a marker into each run's output folder).
  int runs(const CompileTarget& t) {
    fs::path marker = runWorkDir(settings, t, Platform::A2A3) / "out" / "marker.txt";
    bool ran = fs::exists(marker);
    std::error_code ec;
    fs::remove(marker, ec);
    return ran ? 1 : 0;
  }
};

TEST(RunCache, APassedRunOfAReplayedCompileIsReplayedNotRunAgain) {
  CacheWorkspace w;
  CompileTarget t = w.project("softmax", "pass");
  RunStageResult first = w.stage(t, /*compile_cached=*/false);
  ASSERT_EQ(first.runs.size(), 1u);
  EXPECT_EQ(first.runs[0].status, "passed");
  EXPECT_FALSE(first.runs[0].replayed);
  EXPECT_EQ(w.runs(t), 1);

  RunStageResult second = w.stage(t, /*compile_cached=*/true);
  ASSERT_EQ(second.runs.size(), 1u);
  EXPECT_EQ(second.runs[0].status, "passed");
  EXPECT_TRUE(second.runs[0].replayed);
  EXPECT_EQ(w.runs(t), 0) << "the simulator ran again";
  ASSERT_EQ(second.runs[0].outputs.size(), first.runs[0].outputs.size());
  EXPECT_EQ(second.runs[0].outputs[0].name, first.runs[0].outputs[0].name);
  EXPECT_EQ(second.runs[0].outputs[0].elements, first.runs[0].outputs[0].elements);
  EXPECT_NE(second.detail.find("1 passed run replayed from cache"), std::string::npos) << second.detail;
}

TEST(RunCache, AReplayKeepsEachOutputsOwnTolerances) {
  CacheWorkspace w;
  CompileTarget t = w.project("prolog", "real_sim_tolerances");
  RunStageResult first = w.stage(t, /*compile_cached=*/false);
  ASSERT_EQ(first.runs.size(), 1u);
  EXPECT_EQ(first.runs[0].status, "passed");
  RunStageResult second = w.stage(t, /*compile_cached=*/true);
  ASSERT_EQ(second.runs.size(), 1u);
  EXPECT_TRUE(second.runs[0].replayed);
  ASSERT_EQ(second.runs[0].outputs.size(), 4u);
  EXPECT_EQ(second.runs[0].outputs[1].tolerance_source, "TOLERANCES");
  EXPECT_DOUBLE_EQ(second.runs[0].outputs[1].rtol, 0.00390625);
}

TEST(RunCache, AFreshCompileOrNoCacheRunsAgain) {
  CacheWorkspace w;
  CompileTarget t = w.project("softmax", "pass");
  w.stage(t, false);
  EXPECT_EQ(w.runs(t), 1);
  w.stage(t, /*compile_cached=*/false);  // sources changed or the compile cache was cleared
  EXPECT_EQ(w.runs(t), 1);
  w.stage(t, true, /*use_cache=*/false);  // --no-cache
  EXPECT_EQ(w.runs(t), 1);
}

TEST(RunCache, FailuresAreNeverStored) {
  CacheWorkspace w;
  CompileTarget t = w.project("axis", "wrong_axis");
  EXPECT_EQ(w.stage(t, false).runs[0].status, "failed");
  EXPECT_EQ(w.runs(t), 1);
  RunStageResult again = w.stage(t, true);
  EXPECT_EQ(again.runs[0].status, "failed");
  EXPECT_FALSE(again.runs[0].replayed);
  EXPECT_EQ(w.runs(t), 1);
}

TEST(RunCache, TheKeyFollowsTheCompileAndTheSimulatorsCompiler) {
  CacheWorkspace w;
  std::string base = runCacheKey("k1", Platform::A2A3, w.settings);
  EXPECT_EQ(base, runCacheKey("k1", Platform::A2A3, w.settings));
  EXPECT_NE(base, runCacheKey("k2", Platform::A2A3, w.settings));
  EXPECT_NE(base, runCacheKey("k1", Platform::A5, w.settings));
  // A g++-15 appearing on PATH (or changing) is another simulator.
  fs::path gxx = w.ws.write("bin/g++-15", "#!/bin/sh\n");
  fs::permissions(gxx, fs::perms::owner_all);
  DriverSettings with = w.settings;
  with.environment["PATH"] = (w.ws / "bin").string() + ":/usr/bin:/bin";
  std::string with_gxx = runCacheKey("k1", Platform::A2A3, with);
  EXPECT_NE(base, with_gxx);
  std::ofstream(gxx, std::ios::app) << "# rebuilt, another size\n";
  EXPECT_NE(with_gxx, runCacheKey("k1", Platform::A2A3, with));
  with.environment["SIMPLER_ROOT"] = (w.ws / "elsewhere").string();
  EXPECT_NE(with_gxx, runCacheKey("k1", Platform::A2A3, with));
}

TEST(RunCache, TheKeyHasNoPathOfTheCheckout) {
  // The same compile and simulator in checkouts at two paths: one key (the shared tier serves both).
  CacheWorkspace w;
  test::TempDir elsewhere;
  DriverSettings one = w.settings, two = w.settings;
  two.workspace_root = elsewhere.path();
  one.environment["SIMPLER_ROOT"] = (w.ws / "simpler").string();
  two.environment["SIMPLER_ROOT"] = (elsewhere / "simpler").string();
  EXPECT_EQ(runCacheKey("k1", Platform::A2A3, one), runCacheKey("k1", Platform::A2A3, two));
  two.environment["SIMPLER_ROOT"] = (elsewhere / "other-simpler").string();
  EXPECT_NE(runCacheKey("k1", Platform::A2A3, one), runCacheKey("k1", Platform::A2A3, two));
}

TEST(RunCache, ACorruptEntryIsAMissAndAFailedRunIsNotStored) {
  CacheWorkspace w;
  GoldenRun failed;
  failed.project = "p";
  failed.platform = "a2a3sim";
  failed.status = "failed";
  std::string error;
  EXPECT_TRUE(storeCachedRun(w.settings.cache_root, w.settings.workspace_root, "abcdef", failed, error));
  EXPECT_FALSE(loadCachedRun(w.settings.cache_root, w.settings.workspace_root, "abcdef").has_value());
  GoldenRun passed = failed;
  passed.status = "passed";
  ASSERT_TRUE(storeCachedRun(w.settings.cache_root, w.settings.workspace_root, "abcdef", passed, error)) << error;
  ASSERT_TRUE(loadCachedRun(w.settings.cache_root, w.settings.workspace_root, "abcdef").has_value());
  std::ofstream(w.settings.cache_root / "runs" / "ab" / "abcdef.json") << "{\"schema\": 1, \"key\": \"abc";
  EXPECT_FALSE(loadCachedRun(w.settings.cache_root, w.settings.workspace_root, "abcdef").has_value());
}

}  // namespace
}  // namespace portcheck::run_cache_test
