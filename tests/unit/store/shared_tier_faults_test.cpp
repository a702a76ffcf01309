// The shared cache tier against real stores started on loopback (loopback_servers.h): Redis
// (redis-server) and plain HTTP GET/PUT (nginx with the WebDAV module). Each fault a team's store
// can have: down at start, lost mid-run, slow, a corrupt or foreign entry; and entries shared
// between two cache roots as between two machines.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <chrono>

#include "compiler/compile_cache.h"
#include "lint/lint_cache.h"
#include "loopback_servers.h"
#include "rules/catalogue.h"
#include "store/cache_stats.h"
#include "store/envelope.h"
#include "store/shared_tier.h"
#include "store/store_backend.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string kKeyA = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
const std::string kKeyB = "b1b2c3d4e5f60718293a4b5c6d7e8f90";

LintCacheEntry sampleLintEntry(const std::string& message) {
  return {{makeDiagnostic("TOOL002", "projects/demo/pypto_src/kernel.py", 3, 1, message)}, {}};
}

std::size_t countContaining(const std::vector<std::string>& notes, const std::string& part) {
  std::size_t n = 0;
  for (const std::string& s : notes) n += s.find(part) != std::string::npos;
  return n;
}

class SharedTierFaults : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string skip;
    std::optional<std::string> url = GetParam() == "redis" ? test::startRedis(server_, tmp_ / "server", skip)
                                                           : test::startNginxDav(server_, tmp_ / "server", skip);
    if (!url) GTEST_SKIP() << skip;
    url_ = *url;
  }
  void TearDown() override {
    store::configureSharedCache({});
    store::finishSharedCache();
  }

  // Uses the store at `url` (default: the test's server) with `timeout_ms` for every call.
  void use(int timeout_ms = 2000, std::optional<std::string> url = std::nullopt) {
    std::string error;
    store::SharedCacheSettings s;
    s.remote = store::parseRemoteUrl(url.value_or(url_), error);
    ASSERT_TRUE(s.remote) << error;
    s.timeout = std::chrono::milliseconds(timeout_ms);
    store::configureSharedCache(s);
  }
  // A cache root as a machine of the team has it (prepared as port-check prepares it).
  fs::path root(const std::string& name) {
    fs::path r = tmp_ / name;
    std::string error;
    EXPECT_TRUE(prepareCacheRoot(r, error)) << error;
    return r;
  }
  store::CacheStats stats(const fs::path& r) {
    std::string problem;
    store::CacheStats s = store::readCacheStats(r, problem);
    EXPECT_EQ(problem, "");
    return s;
  }
  // Writes `bytes` as they are (no envelope) where the tier keeps (kind, key).
  void putRaw(const std::string& kind, const std::string& key, const std::string& bytes) {
    std::string error;
    auto url = store::parseRemoteUrl(url_, error);
    ASSERT_TRUE(url) << error;
    auto backend = store::makeRemoteStore(*url, std::chrono::milliseconds(2000));
    ASSERT_TRUE(backend->put(kind, key, bytes, error)) << error;
  }

  test::TempDir tmp_;
  test::LoopbackServer server_;
  std::string url_;
};

TEST_P(SharedTierFaults, AnEntryStoredOnOneRootIsReadThroughOnAnother) {
  use();
  fs::path a = root("machine-a"), b = root("machine-b");
  ASSERT_TRUE(storeLintCache(a / "lint", "slot-a", kKeyA, sampleLintEntry("found on machine a")));
  EXPECT_TRUE(store::finishSharedCache().empty());  // the write-behind queue is flushed
  EXPECT_EQ(stats(a).remote.writes, 1u);
  EXPECT_GT(stats(a).remote.bytes_written, 0u);

  std::optional<LintCacheEntry> got = loadLintCache(b / "lint", "slot-b", kKeyA);
  ASSERT_TRUE(got);
  ASSERT_EQ(got->diagnostics.size(), 1u);
  EXPECT_EQ(got->diagnostics[0].message, "found on machine a");
  EXPECT_TRUE(fs::is_regular_file(b / "lint" / "slot-b.json"));  // stored locally
  ASSERT_TRUE(loadLintCache(b / "lint", "slot-b", kKeyA));         // now a local hit
  EXPECT_TRUE(store::finishSharedCache().empty());
  store::CacheStats sb = stats(b);
  EXPECT_EQ(sb.remote.hits, 1u);
  EXPECT_EQ(sb.local.misses, 1u);
  EXPECT_EQ(sb.local.hits, 1u);
  EXPECT_EQ(sb.remote.rejected, 0u);
}

TEST_P(SharedTierFaults, TheBazelLayoutKeepsEntriesUnderAcWith64HexDigits) {
  if (GetParam() != "http") GTEST_SKIP() << "an HTTP store's layout";
  use(2000, url_ + "|layout=bazel");
  fs::path a = root("machine-a"), b = root("machine-b");
  ASSERT_TRUE(storeLintCache(a / "lint", "slot-a", kKeyA, sampleLintEntry("through the bazel layout")));
  EXPECT_TRUE(store::finishSharedCache().empty());
  // On the server: one file under ac/, named by 64 hex digits that start with the key.
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(tmp_ / "server" / "store"))
    if (e.is_regular_file()) names.push_back(fs::relative(e.path(), tmp_ / "server" / "store").generic_string());
  ASSERT_EQ(names.size(), 1u);
  const std::size_t ac = names[0].rfind("/ac/");  // below the URL's own path
  ASSERT_NE(ac, std::string::npos) << names[0];
  const std::string name = names[0].substr(ac + 4);
  EXPECT_EQ(name.size(), 64u) << names[0];
  EXPECT_EQ(name.substr(0, kKeyA.size()), kKeyA);
  EXPECT_EQ(name.find_first_not_of("0123456789abcdef"), std::string::npos) << name;
  std::optional<LintCacheEntry> got = loadLintCache(b / "lint", "slot-b", kKeyA);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->diagnostics[0].message, "through the bazel layout");
}

TEST_P(SharedTierFaults, AStoreDownAtStartIsOneNoteAndNoFailure) {
  server_.kill();
  use(300);
  fs::path a = root("machine-a");
  auto start = Clock::now();
  EXPECT_FALSE(loadLintCache(a / "lint", "slot", kKeyA));
  EXPECT_FALSE(loadLintCache(a / "lint", "slot", kKeyB));                              // not tried again
  EXPECT_TRUE(storeLintCache(a / "lint", "slot", kKeyA, sampleLintEntry("local only")));  // the local tier works
  EXPECT_TRUE(loadLintCache(a / "lint", "slot", kKeyA));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(3));
  std::vector<std::string> notes = store::finishSharedCache();
  EXPECT_EQ(countContaining(notes, "is off for the rest of this run"), 1u);
  EXPECT_EQ(stats(a).remote.errors, 1u);
  EXPECT_EQ(stats(a).remote.writes, 0u);
}

TEST_P(SharedTierFaults, AStoreLostMidRunTurnsTheRemoteTierOff) {
  use(300);
  fs::path a = root("machine-a"), b = root("machine-b");
  ASSERT_TRUE(storeLintCache(a / "lint", "slot", kKeyA, sampleLintEntry("before the loss")));
  EXPECT_TRUE(store::finishSharedCache().empty());
  ASSERT_TRUE(loadLintCache(b / "lint", "slot", kKeyA));  // served while it is up
  server_.kill();
  EXPECT_FALSE(loadLintCache(b / "lint", "other", kKeyB));
  EXPECT_TRUE(storeLintCache(b / "lint", "other", kKeyB, sampleLintEntry("after the loss")));
  EXPECT_FALSE(loadLintCache(root("machine-c") / "lint", "slot", kKeyA));  // off: the store is not asked
  std::vector<std::string> notes = store::finishSharedCache();
  EXPECT_EQ(countContaining(notes, "is off for the rest of this run"), 1u);
  EXPECT_EQ(stats(b).remote.hits, 1u);
  EXPECT_EQ(stats(b).remote.errors, 1u);
  EXPECT_EQ(stats(b).remote.writes, 0u);
  EXPECT_TRUE(loadLintCache(b / "lint", "other", kKeyB));  // what was written locally stays
}

TEST_P(SharedTierFaults, ASlowStoreTimesOutInsteadOfHanging) {
  std::optional<test::SilentServer> silent;
  std::thread sleeper;
  if (GetParam() == "redis") {
    // DEBUG SLEEP blocks the whole server for 3 s, as a store under load or swapping does.
    sleeper = std::thread([port = server_.port()] {
      redisContext* c = redisConnect("127.0.0.1", port);
      if (c && !c->err)
        if (auto* r = static_cast<redisReply*>(redisCommand(c, "DEBUG SLEEP 3"))) freeReplyObject(r);
      if (c) redisFree(c);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    use(300);
  } else {
    silent.emplace();  // accepts the connection, never answers
    use(300, "http://127.0.0.1:" + std::to_string(silent->port()) + "/cache/");
  }
  fs::path a = root("machine-a");
  auto start = Clock::now();
  EXPECT_FALSE(loadLintCache(a / "lint", "slot", kKeyA));
  EXPECT_FALSE(loadLintCache(a / "lint", "slot", kKeyB));
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(2000));  // the server would have taken 3 s or forever
  std::vector<std::string> notes = store::finishSharedCache();
  EXPECT_EQ(countContaining(notes, "is off for the rest of this run"), 1u);
  EXPECT_EQ(stats(a).remote.errors, 1u);
  if (sleeper.joinable()) sleeper.join();
}

TEST_P(SharedTierFaults, CorruptAndForeignEntriesAreMissesWithANote) {
  use();
  fs::path a = root("machine-a"), b = root("machine-b");
  putRaw("lint", kKeyA, "garbage that is no envelope");
  // A well-formed envelope for another key, stored under this one (a collision or a misconfigured writer).
  putRaw("lint", kKeyB, store::wrapEnvelope("lint", kKeyA, "{}"));
  EXPECT_FALSE(loadLintCache(a / "lint", "s1", kKeyA));
  EXPECT_FALSE(loadLintCache(a / "lint", "s2", kKeyB));
  // An intact envelope around a payload of another schema: rejected by the cache's own check.
  const std::string kKeyC = "c1b2c3d4e5f60718293a4b5c6d7e8f90";
  putRaw("lint", kKeyC, store::wrapEnvelope("lint", kKeyC, R"({"schema": 99, "key": ")" + kKeyC + R"("})"));
  EXPECT_FALSE(loadLintCache(a / "lint", "s3", kKeyC));
  // The store itself is fine: an intact entry is still used in the same run.
  ASSERT_TRUE(storeLintCache(b / "lint", "s", "d1b2c3d4e5f60718293a4b5c6d7e8f90", sampleLintEntry("intact")));
  EXPECT_EQ(store::finishSharedCache().size(), 3u);
  EXPECT_TRUE(loadLintCache(a / "lint", "s4", "d1b2c3d4e5f60718293a4b5c6d7e8f90"));
  std::vector<std::string> notes = store::finishSharedCache();
  EXPECT_TRUE(notes.empty());
  store::CacheStats sa = stats(a);
  EXPECT_EQ(sa.remote.rejected, 3u);
  EXPECT_EQ(sa.remote.hits, 1u);
  EXPECT_EQ(sa.remote.misses, 3u);
  EXPECT_EQ(countContaining(sa.notes, "not a port-check cache entry"), 1u);
  EXPECT_EQ(countContaining(sa.notes, "a foreign entry"), 1u);
  EXPECT_EQ(countContaining(sa.notes, "not a schema 1 entry"), 1u);
  EXPECT_FALSE(fs::exists(a / "lint" / "s1.json"));  // nothing rejected reaches the local tier
}

INSTANTIATE_TEST_SUITE_P(Stores, SharedTierFaults, ::testing::Values("redis", "http"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace portcheck
