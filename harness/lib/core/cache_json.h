#pragma once
// The JSON entries of the caches (compile cache, lint cache): the schema and key an entry was stored
// under, its findings and SRAM rows with every field (so a replay is the finding as first reported),
// and whatever fields the cache adds.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/diagnostic.h"
#include "core/report.h"

namespace portcheck {

struct CacheEntry {
  nlohmann::json json;  // the whole entry, for the fields the cache adds
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;
};

// {"schema", "key", "diagnostics", "sram"}; the cache adds its own fields before writing it.
nlohmann::json cacheEntryJson(int schema, const std::string& key, const std::vector<Diagnostic>& diagnostics,
                              const std::vector<SramRow>& sram);

// The entry at `path` when it parses and was stored under `schema` and `key`; nullopt otherwise
// (absent, corrupt, truncated, another schema or key): a miss, rewritten by the caller.
std::optional<CacheEntry> readCacheEntry(const std::filesystem::path& path, int schema, const std::string& key);
// The same for an entry's text (the shared cache tier verifies what a remote store returned with it).
std::optional<CacheEntry> parseCacheEntry(std::string_view text, int schema, const std::string& key);

}  // namespace portcheck
