#pragma once
// The local disk tier: the caches' own entries under the cache root (results/ of the compile cache,
// runs/ of the run cache, lint/ of the lint cache). Bounded by cache.max_local_bytes: a hit refreshes
// its entry's modification time, and eviction removes the least recently used entries first.
#include <cstdint>
#include <filesystem>

namespace portcheck::store {

// Marks an entry as just used (only when the local tier is bounded: unbounded, nothing changes).
void touchLocalEntry(const std::filesystem::path& entry);

struct Eviction {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};
// Removes the oldest entries of the three caches until they hold at most `max_bytes` together.
Eviction evictLocalTier(const std::filesystem::path& cache_root, std::uint64_t max_bytes);

}  // namespace portcheck::store
