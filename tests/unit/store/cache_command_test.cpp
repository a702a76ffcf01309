// port-check cache stats | clear (docs/cli.md): the persisted counters in text and JSON, clear, and
// what a broken configuration or counter file gives.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "store/cache_stats.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

TEST(CacheCommand, StatsPrintsTheCountersOfBothTiersAndClearRemovesTheEntries) {
  test::TempDir ws;
  ws.write("port-check.json", "{}\n");
  store::CacheStats s;
  s.local.hits = 3;
  s.local.misses = 1;
  s.remote.hits = 1;
  s.remote.rejected = 2;
  s.notes = {"shared cache: lint entry abc rejected: content hash mismatch (corrupt entry); treated as a miss"};
  std::string error;
  ASSERT_TRUE(store::addCacheStats(ws / ".port-check-cache", s, error)) << error;
  ws.write(".port-check-cache/results/ab/abcd.json", "{}");
  ws.write(".port-check-cache/lint/slot.json", "{}");

  CacheCommandOptions stats{"stats", std::nullopt};
  auto text = test::runInProcess([&](const Io& io) { return runCache(test::optionsIn(ws.path()), stats, io); });
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("local           3        1     75.0%"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("content hash mismatch"), std::string::npos);
  auto j = test::runInProcess(
      [&](const Io& io) { return runCache(test::optionsIn(ws.path(), Format::Json), stats, io); },
      {{"PORTCHECK_CACHE_REMOTE", "redis://127.0.0.1:6379"}});
  nlohmann::json parsed = nlohmann::json::parse(j.out);
  EXPECT_EQ(parsed["remote"], "redis://127.0.0.1:6379");
  EXPECT_EQ(parsed["stats"]["remote"]["rejected"], 2);

  CacheCommandOptions clear{"clear", std::nullopt};
  auto c = test::runInProcess([&](const Io& io) { return runCache(test::optionsIn(ws.path()), clear, io); });
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_FALSE(fs::exists(ws / ".port-check-cache/results"));
  EXPECT_FALSE(fs::exists(ws / ".port-check-cache/lint"));
  EXPECT_FALSE(fs::exists(ws / ".port-check-cache/stats.json"));
  text = test::runInProcess([&](const Io& io) { return runCache(test::optionsIn(ws.path()), stats, io); });
  EXPECT_NE(text.out.find("local           0        0         -"), std::string::npos) << text.out;
}

TEST(CacheCommand, ABadConfigurationOrCounterFileIsSaid) {
  test::TempDir ws;
  ws.write("port-check.json", R"({"cache": {"timeout_ms": -5}})");
  CacheCommandOptions stats{"stats", std::nullopt};
  auto r = test::runInProcess([&](const Io& io) { return runCache(test::optionsIn(ws.path()), stats, io); });
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cache.timeout_ms"), std::string::npos) << r.err;
  ws.write("port-check.json", "{}");
  ws.write(".port-check-cache/stats.json", "not json");
  r = test::runInProcess([&](const Io& io) { return runCache(test::optionsIn(ws.path()), stats, io); });
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.err.find("is not a stats file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace portcheck
