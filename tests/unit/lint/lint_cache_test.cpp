// The lint cache (lint/lint_cache.h): an unchanged unit is replayed, any change to what its findings
// depend on is a miss, a bad entry is a miss that gets rewritten, --no-cache neither reads nor writes,
// a cache that cannot be written only costs speed, and the project layout checks are never replayed.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// An orchestration function that loads a tile outside any incore scope: one DSL101 per load/store.
const char* kProgram =
    "import pypto.language as pl\n"
    "\n"
    "\n"
    "@pl.jit\n"
    "def scale(x: pl.Tensor[[64, 128], pl.FP32], y: pl.Out[pl.Tensor[[64, 128], pl.FP32]]):\n"
    "    t = pl.load(x, [0, 0], [64, 128])\n"
    "    pl.store(t, [0, 0], y)\n"
    "    return y\n";

class LintCache : public ::testing::Test {
 protected:
  void SetUp() override {
    ws.write(".git/HEAD", "ref: refs/heads/main\n");  // marks the workspace root
    ws.write("projects/p/pypto_src/golden.py", "RTOL = 1e-5\n");
    ws.write("projects/p/pypto_src/orchestration.py", kProgram);
  }
  test::CommandResult lint(const CacheOptions& cache = {}) {
    auto o = test::optionsIn(ws.path(), Format::Text);
    return test::runInProcess([&](const Io& io) { return runLint(o, {"projects/p"}, io, cache); });
  }
  fs::path lintDir() const { return ws.path() / ".port-check-cache" / "lint"; }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(lintDir(), ec)) out.push_back(e.path());
    return out;
  }
  // Rewrites the one cache entry's first finding message, so a replay is visible in the output.
  void markEntry(const std::string& message) {
    ASSERT_EQ(entries().size(), 1u);
    json j = json::parse(test::readFile(entries()[0]));
    ASSERT_FALSE(j["diagnostics"].empty());
    j["diagnostics"][0]["message"] = message;
    std::ofstream(entries()[0]) << j.dump();
  }
  test::TempDir ws;
};

TEST_F(LintCache, AnUnchangedUnitIsReplayedWithTheSameReport) {
  auto first = lint();
  EXPECT_EQ(first.exit_code, kExitFindings) << first.out;
  EXPECT_NE(first.out.find("[DSL101]"), std::string::npos) << first.out;
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_TRUE(fs::exists(ws.path() / ".port-check-cache" / ".gitignore"));
  auto second = lint();
  EXPECT_EQ(second.out, first.out);
  EXPECT_EQ(second.exit_code, first.exit_code);
  markEntry("replayed from the cache");
  EXPECT_NE(lint().out.find("replayed from the cache"), std::string::npos);
}

TEST_F(LintCache, ChangingAFileOrTheConfigurationIsAMiss) {
  lint();
  markEntry("replayed from the cache");
  // One more statement: the same findings, but the bytes changed.
  ws.write("projects/p/pypto_src/orchestration.py", std::string(kProgram) + "\nX = 1\n");
  auto edited = lint();
  EXPECT_EQ(edited.out.find("replayed from the cache"), std::string::npos) << edited.out;
  EXPECT_NE(edited.out.find("[DSL101]"), std::string::npos);

  markEntry("replayed from the cache");
  ws.write("port-check.json", "{\"options\": {\"fuse.low_usage_percent\": 20}}\n");
  auto configured = lint();
  EXPECT_EQ(configured.out.find("replayed from the cache"), std::string::npos) << configured.out;

  // A fixed file: the findings go away (no stale replay).
  ws.write("projects/p/pypto_src/orchestration.py", "import pypto.language as pl\n");
  auto fixed = lint();
  EXPECT_EQ(fixed.out.find("[DSL101]"), std::string::npos) << fixed.out;
  EXPECT_EQ(entries().size(), 1u) << "one slot per unit: replaced, not added";
}

TEST_F(LintCache, ACorruptEntryIsAMissAndIsRewritten) {
  auto first = lint();
  ASSERT_EQ(entries().size(), 1u);
  for (const std::string junk : {std::string("{\"schema\": 1, \"key\""), std::string(), std::string("\x00\xff", 2),
                                 std::string("{\"schema\": 1, \"key\": 7, \"diagnostics\": []}")}) {
    std::ofstream(entries()[0], std::ios::binary) << junk;
    auto r = lint();
    EXPECT_EQ(r.out, first.out);
    EXPECT_EQ(r.exit_code, first.exit_code);
    EXPECT_TRUE(json::accept(test::readFile(entries()[0]))) << "the entry was not rewritten";
  }
}

TEST_F(LintCache, NoCacheNeitherReadsNorWrites) {
  auto plain = lint(CacheOptions{std::nullopt, /*no_cache=*/true});
  EXPECT_FALSE(fs::exists(lintDir()));
  lint();
  markEntry("replayed from the cache");
  auto fresh = lint(CacheOptions{std::nullopt, /*no_cache=*/true});
  EXPECT_EQ(fresh.out, plain.out);
  EXPECT_EQ(fresh.out.find("replayed from the cache"), std::string::npos);
}

TEST_F(LintCache, ACacheDirOptionMovesItAndAnUnwritableCacheOnlyCostsSpeed) {
  auto moved = lint(CacheOptions{(ws.path() / "elsewhere").string(), false});
  EXPECT_TRUE(fs::exists(ws.path() / "elsewhere" / "lint"));
  EXPECT_FALSE(fs::exists(lintDir()));
  // The cache root is a file: nothing can be created under it; lint reports the same findings.
  ws.write("blocked", "a file, not a folder\n");
  auto blocked = lint(CacheOptions{(ws.path() / "blocked").string(), false});
  EXPECT_EQ(blocked.out, moved.out);
  EXPECT_EQ(blocked.exit_code, moved.exit_code);
}

TEST_F(LintCache, ProjectLayoutChecksAreNeverReplayed) {
  lint();
  fs::remove(ws.path() / "projects/p/pypto_src/golden.py");
  auto r = lint();
  EXPECT_NE(r.out.find("[PROJ001]"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace portcheck
