#include "store/tiered_entry.h"

#include <fstream>
#include <iterator>

#include "core/atomic_file.h"
#include "store/local_tier.h"
#include "store/shared_tier.h"

namespace portcheck::store {

namespace fs = std::filesystem;

std::optional<CacheEntry> readTieredEntry(const fs::path& cache_root, const fs::path& local, std::string_view kind,
                                          int schema, const std::string& key, const WorkspacePaths& paths) {
  std::optional<std::string> text;
  if (std::ifstream in{local, std::ios::binary})
    text = std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (text) {
    // Corrupt, truncated, another schema or (the lint cache's slots) another key: a miss.
    if (std::optional<CacheEntry> e = parseCacheEntry(paths.toLocal(*text), schema, key)) {
      countLocalLookup(cache_root, true, text->size());
      touchLocalEntry(local);
      return e;
    }
  }
  countLocalLookup(cache_root, false, text ? text->size() : 0);
  std::optional<std::string> payload = remoteGet(cache_root, kind, key);
  if (!payload) return std::nullopt;
  std::optional<CacheEntry> e = parseCacheEntry(paths.toLocal(*payload), schema, key);
  if (!e) {
    rejectRemoteEntry(cache_root, kind, key, "its payload is not a schema " + std::to_string(schema) +
                                                 " entry for this key (another port-check version?)");
    return std::nullopt;
  }
  std::string error;
  if (writeFileAtomically(local, *payload, error, /*create_parents=*/true)) countLocalWrite(cache_root, payload->size());
  return e;
}

bool writeTieredEntry(const fs::path& cache_root, const fs::path& local, std::string_view kind, const std::string& key,
                      const std::string& bytes, const WorkspacePaths& paths, std::string& error) {
  const std::string portable = paths.toPortable(bytes);
  if (!writeFileAtomically(local, portable, error, /*create_parents=*/true)) return false;
  countLocalWrite(cache_root, portable.size());
  remotePut(cache_root, kind, key, portable);
  return true;
}

}  // namespace portcheck::store
