#pragma once
// How the compile, run and lint caches read and write an entry through both tiers: the local file
// first; on a miss the shared tier (shared_tier.h), whose entry is checked by its envelope and then
// by the cache's own schema and key (core/cache_json.h) before it is stored locally and used.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/cache_json.h"
#include "store/workspace_paths.h"

namespace portcheck::store {

// `local` is the entry's file under `cache_root`; `kind` names the cache in the remote layout. Both
// tiers hold entries with the workspace root tokenised (workspace_paths.h); `paths` turns it back.
std::optional<CacheEntry> readTieredEntry(const std::filesystem::path& cache_root, const std::filesystem::path& local,
                                          std::string_view kind, int schema, const std::string& key,
                                          const WorkspacePaths& paths);

// Writes the local file atomically, then queues the same bytes for the remote store; `bytes` are
// stored with `paths`' root replaced by its token.
bool writeTieredEntry(const std::filesystem::path& cache_root, const std::filesystem::path& local,
                      std::string_view kind, const std::string& key, const std::string& bytes,
                      const WorkspacePaths& paths, std::string& error);

}  // namespace portcheck::store
