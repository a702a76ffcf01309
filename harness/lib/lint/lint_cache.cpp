#include "lint/lint_cache.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/atomic_file.h"
#include "core/cache_json.h"
#include "core/file_stamp.h"
#include "kernel/build_evidence.h"
#include "rules/catalogue.h"
#include "store/tiered_entry.h"

namespace portcheck {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kLintCacheSchema = 1;

// Length-prefixed fields into one 128-bit xxHash (XXH3): no choice of values makes two inputs collide
// by concatenation.
class Hasher {
 public:
  Hasher() { XXH3_128bits_reset(&state_); }
  Hasher& add(std::string_view field) {
    std::uint64_t n = field.size();
    XXH3_128bits_update(&state_, &n, sizeof n);
    XXH3_128bits_update(&state_, field.data(), field.size());
    return *this;
  }
  std::string hex() {
    XXH128_hash_t h = XXH3_128bits_digest(&state_);
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return buf;
  }

 private:
  XXH3_state_t state_{};
};

// The running port-check binary: a rebuild changes its size or modification time.
const std::string& binaryStamp() {
  static const std::string stamp = fileStamp("/proc/self/exe").value_or("unknown");
  return stamp;
}

fs::path slotPath(const fs::path& dir, const std::string& slot) { return dir / (slot + ".json"); }

}  // namespace

std::string lintCacheKey(const std::string& project, const std::vector<SourceFile>& sources,
                         const LintSettings& settings) {
  Hasher h;
  h.add(std::to_string(kLintCacheSchema)).add(PORTCHECK_VERSION).add(binaryStamp());
  h.add(Catalogue::builtin().version());
  h.add(toString(settings.platform));
  h.add(settings.config ? settings.config->text : std::string());
  h.add(project);
  h.add(std::to_string(sources.size()));
  for (const SourceFile& f : sources) h.add(f.path).add(f.text);
  // A kernel's class follows its build too (kernel/build_evidence.h): the evidence is part of the key.
  if (settings.kernel_build)
    for (const SourceFile& f : sources)
      if (!f.path.ends_with(".py")) h.add(settings.kernel_build->fingerprint(f.path));
  return h.hex();
}

std::string lintCacheSlot(const std::string& project, const std::vector<SourceFile>& sources,
                          const LintSettings& settings) {
  Hasher h;
  h.add(project).add(sources.empty() ? std::string() : sources.front().path).add(toString(settings.platform));
  return h.hex();
}

std::optional<LintCacheEntry> loadLintCache(const fs::path& dir, const std::string& slot, const std::string& key) {
  // Corrupt, truncated or another schema: a miss, rewritten after linting.
  std::optional<CacheEntry> e = store::readTieredEntry(dir.parent_path(), slotPath(dir, slot), "lint", kLintCacheSchema, key,
                                                          store::WorkspacePaths({}));
  if (!e) return std::nullopt;
  return LintCacheEntry{std::move(e->diagnostics), std::move(e->sram)};
}

bool storeLintCache(const fs::path& dir, const std::string& slot, const std::string& key,
                    const LintCacheEntry& entry) {
  json j = cacheEntryJson(kLintCacheSchema, key, entry.diagnostics, entry.sram);
  std::string error;
  return store::writeTieredEntry(dir.parent_path(), slotPath(dir, slot), "lint", key, j.dump() + "\n",
                                 store::WorkspacePaths({}), error);
}

}  // namespace portcheck
