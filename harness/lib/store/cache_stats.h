#pragma once
// The caches' counters per tier (local disk, remote store), kept across runs in
// <cache_root>/stats.json: each process adds what it counted when it finishes, under a file lock
// (core/file_lock.h), so concurrent port-checks sharing a cache root never lose each other's counts.
// `port-check cache stats` prints them (docs/cli.md).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace portcheck::store {

struct TierCounters {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t writes = 0;
  std::uint64_t errors = 0;    // remote: failed gets and puts (timeouts, refused, HTTP errors)
  std::uint64_t rejected = 0;  // entries read but not used: corrupt, foreign, another schema (a miss too)
};

struct CacheStats {
  TierCounters local, remote;
  std::uint64_t evicted_entries = 0;   // local entries removed past cache.max_local_bytes
  std::uint64_t evicted_bytes = 0;
  std::uint64_t abandoned_writes = 0;  // remote writes still queued when the process had to exit
  std::vector<std::string> notes;      // the newest notes (disabled store, rejected entries), oldest first

  bool empty() const;
  void add(const CacheStats& other);
};

nlohmann::json statsToJson(const CacheStats& s);
CacheStats statsFromJson(const nlohmann::json& j);  // missing fields are zero; throws on a non-object

std::filesystem::path statsPath(const std::filesystem::path& cache_root);
// The persisted counters; zero when there is no file, with `problem` set when it is unreadable.
CacheStats readCacheStats(const std::filesystem::path& cache_root, std::string& problem);
// Adds `delta` to the persisted counters under the stats lock; false with `error` when it cannot.
bool addCacheStats(const std::filesystem::path& cache_root, const CacheStats& delta, std::string& error);

}  // namespace portcheck::store
