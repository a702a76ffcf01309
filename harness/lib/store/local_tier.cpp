#include "store/local_tier.h"

#include <algorithm>
#include <vector>

#include "store/shared_tier.h"

namespace portcheck::store {

namespace fs = std::filesystem;

void touchLocalEntry(const fs::path& entry) {
  if (sharedCacheSettings().max_local_bytes == 0) return;
  std::error_code ec;
  fs::last_write_time(entry, fs::file_time_type::clock::now(), ec);
}

Eviction evictLocalTier(const fs::path& cache_root, std::uint64_t max_bytes) {
  struct LocalEntry {
    fs::file_time_type used;
    std::uint64_t bytes;
    fs::path path;
  };
  std::vector<LocalEntry> entries;
  std::uint64_t total = 0;
  for (const char* dir : {"results", "runs", "lint"}) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(cache_root / dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file(ec) || it->path().extension() != ".json") continue;
      LocalEntry e{it->last_write_time(ec), static_cast<std::uint64_t>(it->file_size(ec)), it->path()};
      if (ec) continue;
      total += e.bytes;
      entries.push_back(std::move(e));
    }
  }
  Eviction ev;
  if (total <= max_bytes) return ev;
  std::sort(entries.begin(), entries.end(), [](const LocalEntry& a, const LocalEntry& b) { return a.used < b.used; });
  for (const LocalEntry& e : entries) {
    if (total <= max_bytes) break;
    std::error_code ec;
    if (!fs::remove(e.path, ec)) continue;
    total -= e.bytes;
    ++ev.entries;
    ev.bytes += e.bytes;
  }
  return ev;
}

}  // namespace portcheck::store
