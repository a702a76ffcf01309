#pragma once
// The shared cache tier (docs/shared-cache.md): a remote store behind the local caches of compile,
// run and lint results. Read-through: a local miss asks the store, and an entry that arrives intact
// (envelope.h) is stored locally and used. Write-behind: after the local store, the entry is queued
// for the store and written by a background thread, off the critical path; finishSharedCache() waits
// for the queue within a bound and abandons the rest with a note. A store that is down, slow or lost
// fails one call within cache.timeout_ms; the remote tier is then off for the rest of the run, with
// one note. The counters of both tiers go to <cache_root>/stats.json (cache_stats.h).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/remote_url.h"

namespace portcheck::store {

struct SharedCacheSettings {
  std::optional<RemoteUrl> remote;               // none: local caches only, as before
  std::chrono::milliseconds timeout{2000};       // every remote call, and the exit flush (twice this)
  std::uint64_t max_local_bytes = 0;             // 0: the local tier is unbounded
};

// Sets the process's tier (openSession calls it); flushes what an earlier configuration queued.
void configureSharedCache(const SharedCacheSettings& settings);
const SharedCacheSettings& sharedCacheSettings();

// Counts a local lookup of `cache_root`'s caches (hit with the bytes read, or miss).
void countLocalLookup(const std::filesystem::path& cache_root, bool hit, std::uint64_t bytes);
void countLocalWrite(const std::filesystem::path& cache_root, std::uint64_t bytes);
// A note for the run (printed when it finishes and kept in the stats).
void noteSharedCache(const std::filesystem::path& cache_root, const std::string& note);
// Counts an entry read from the store but not used (another schema) as a rejected miss, with a note.
void rejectRemoteEntry(const std::filesystem::path& cache_root, std::string_view kind, const std::string& key,
                       const std::string& why);

// Read-through: the verified payload of (kind, key) from the remote store; nullopt when none is
// configured, it is off, the entry is absent, or it was rejected (corrupt, foreign: noted).
std::optional<std::string> remoteGet(const std::filesystem::path& cache_root, std::string_view kind,
                                     const std::string& key);
// Write-behind: queues the payload for the store (nothing when no remote is configured or it is off).
void remotePut(const std::filesystem::path& cache_root, std::string_view kind, const std::string& key,
               std::string payload);

// Ends the run's use of the caches: waits for queued remote writes up to twice the timeout (the rest
// is abandoned with a note), evicts the local tier past max_local_bytes, and adds the counters to each
// cache root's stats. Returns the run's notes. Safe to call more than once.
std::vector<std::string> finishSharedCache();

}  // namespace portcheck::store
