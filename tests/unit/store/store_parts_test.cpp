// The shared cache's parts without a server: the remote URL, the envelope, the persisted counters
// and the local tier's LRU eviction.
#include <gtest/gtest.h>

#include <thread>

#include "store/cache_stats.h"
#include "store/envelope.h"
#include "store/local_tier.h"
#include "store/remote_url.h"
#include "store/shared_tier.h"
#include "store/store_backend.h"
#include "test_support.h"

namespace portcheck {
namespace {

namespace fs = std::filesystem;

TEST(RemoteUrl, ParsesRedisAndHttp) {
  std::string error;
  auto r = store::parseRemoteUrl("redis://cache.example:6379/2", error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->scheme, store::RemoteUrl::Scheme::Redis);
  EXPECT_EQ(r->host, "cache.example");
  EXPECT_EQ(r->port, 6379);
  EXPECT_EQ(r->db, 2);
  auto h = store::parseRemoteUrl("http://10.0.0.5:8080/port-check", error);
  ASSERT_TRUE(h) << error;
  EXPECT_EQ(h->scheme, store::RemoteUrl::Scheme::Http);
  EXPECT_EQ(h->base, "http://10.0.0.5:8080/port-check/");
  EXPECT_EQ(store::makeRemoteStore(*h, std::chrono::milliseconds(100))->locate("compile", "abcdef"),
            "http://10.0.0.5:8080/port-check/compile/ab/abcdef");
  EXPECT_EQ(store::makeRemoteStore(*r, std::chrono::milliseconds(100))->locate("lint", "abcdef"),
            "port-check/lint/abcdef");
}

TEST(RemoteUrl, TheBazelLayoutIsAnAttributeAsCcacheSpellsIt) {
  std::string error;
  auto h = store::parseRemoteUrl("http://10.0.0.5:8080/cache|layout=bazel", error);
  ASSERT_TRUE(h) << error;
  EXPECT_EQ(h->base, "http://10.0.0.5:8080/cache/");
  EXPECT_EQ(h->layout, store::RemoteUrl::Layout::Bazel);
  auto backend = store::makeRemoteStore(*h, std::chrono::milliseconds(100));
  const std::string compile = backend->locate("compile", "abcdef");
  EXPECT_EQ(compile.rfind("http://10.0.0.5:8080/cache/ac/abcdef", 0), 0u) << compile;
  EXPECT_EQ(compile.size(), std::string("http://10.0.0.5:8080/cache/ac/").size() + 64);
  EXPECT_NE(compile, backend->locate("run", "abcdef")) << "the kind is part of the name";
  EXPECT_EQ(compile, backend->locate("compile", "abcdef")) << "stable";
  auto subdirs = store::parseRemoteUrl("http://10.0.0.5:8080/cache|layout=subdirs", error);
  ASSERT_TRUE(subdirs) << error;
  EXPECT_EQ(subdirs->layout, store::RemoteUrl::Layout::Subdirs);
}

TEST(RemoteUrl, RejectsWhatItCannotUse) {
  for (const char* bad : {"https://h:443/", "redis://host", "redis://:6379", "redis://h:0", "redis://h:70000",
                          "redis://h:6379/x", "http://h:80/p?q=1", "http://user@h:80/", "h:6379",
                          "http://h:80/p|layout=flat", "http://h:80/p|", "redis://h:6379|layout=bazel"}) {
    std::string error;
    EXPECT_FALSE(store::parseRemoteUrl(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

TEST(Envelope, OpensWhatWasWrapped) {
  std::string why;
  std::string bytes = store::wrapEnvelope("run", "k1", "{\"schema\": 2}\n");
  EXPECT_EQ(store::openEnvelope(bytes, "run", "k1", why), "{\"schema\": 2}\n");
}

TEST(Envelope, RejectsGarbageForeignAndDamagedEntries) {
  const std::string good = store::wrapEnvelope("run", "k1", "payload bytes");
  struct Case {
    std::string bytes, kind, key, why;
  } cases[] = {
      {"no header at all", "run", "k1", "no envelope header"},
      {"port-check-cache x\n", "run", "k1", "bad envelope header"},
      {"other-tool 1 run k1 0 0\n", "run", "k1", "bad envelope header"},
      {"port-check-cache 2 run k1 0 0\n", "run", "k1", "envelope version 2"},
      {good, "compile", "k1", "a foreign entry"},
      {good, "run", "k2", "a foreign entry"},
      {good.substr(0, good.size() - 3), "run", "k1", "truncated"},
      {good.substr(0, good.size() - 1) + "X", "run", "k1", "content hash mismatch"},
  };
  for (const Case& c : cases) {
    std::string why;
    EXPECT_FALSE(store::openEnvelope(c.bytes, c.kind, c.key, why)) << c.bytes;
    EXPECT_NE(why.find(c.why), std::string::npos) << why;
  }
}

TEST(CacheStats, AddsUpAcrossRunsAndSurvivesAGarbledFile) {
  test::TempDir dir;
  store::CacheStats d;
  d.local.hits = 2;
  d.remote.misses = 1;
  d.remote.bytes_read = 10;
  d.notes = {"one"};
  std::string error, problem;
  ASSERT_TRUE(store::addCacheStats(dir.path(), d, error)) << error;
  ASSERT_TRUE(store::addCacheStats(dir.path(), d, error)) << error;
  store::CacheStats s = store::readCacheStats(dir.path(), problem);
  EXPECT_EQ(problem, "");
  EXPECT_EQ(s.local.hits, 4u);
  EXPECT_EQ(s.remote.misses, 2u);
  EXPECT_EQ(s.remote.bytes_read, 20u);
  EXPECT_EQ(s.notes.size(), 2u);
  dir.write("stats.json", "[not stats");
  s = store::readCacheStats(dir.path(), problem);
  EXPECT_NE(problem.find("not a stats file"), std::string::npos);
  EXPECT_EQ(s.local.hits, 0u);
}

TEST(LocalTier, EvictsTheLeastRecentlyUsedEntriesPastTheBound) {
  test::TempDir dir;
  const std::string kb(1000, 'x');
  auto t0 = fs::file_time_type::clock::now() - std::chrono::hours(1);
  int age = 0;
  for (const char* rel : {"results/aa/old.json", "runs/bb/middle.json", "lint/newer.json", "results/cc/newest.json"}) {
    fs::path p = dir.write(rel, kb);
    fs::last_write_time(p, t0 + std::chrono::minutes(age++));
  }
  dir.write("compile/demo/out/big.bin", std::string(5000, 'y'));  // not an entry: never evicted
  store::Eviction ev = store::evictLocalTier(dir.path(), 2500);
  EXPECT_EQ(ev.entries, 2u);
  EXPECT_EQ(ev.bytes, 2000u);
  EXPECT_FALSE(fs::exists(dir / "results/aa/old.json"));
  EXPECT_FALSE(fs::exists(dir / "runs/bb/middle.json"));
  EXPECT_TRUE(fs::exists(dir / "lint/newer.json"));
  EXPECT_TRUE(fs::exists(dir / "results/cc/newest.json"));
  EXPECT_TRUE(fs::exists(dir / "compile/demo/out/big.bin"));
  EXPECT_EQ(store::evictLocalTier(dir.path(), 2500).entries, 0u);
}

TEST(LocalTier, AHitRefreshesItsEntryOnlyWhenBounded) {
  test::TempDir dir;
  fs::path p = dir.write("results/aa/e.json", "{}");
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(2);
  fs::last_write_time(p, old);
  store::configureSharedCache({});
  store::touchLocalEntry(p);
  EXPECT_EQ(fs::last_write_time(p), old);
  store::SharedCacheSettings bounded;
  bounded.max_local_bytes = 1 << 20;
  store::configureSharedCache(bounded);
  store::touchLocalEntry(p);
  EXPECT_GT(fs::last_write_time(p), old);
  store::configureSharedCache({});
}

}  // namespace
}  // namespace portcheck
