#pragma once
// The lint cache: what linting one unit (a project's files, or one loose file) reported, replayed
// while nothing it depends on changed, the way ruff skips unchanged files. The key covers the unit's
// files (paths and bytes, the pypto-lib blocks it imports included), the configuration text, the
// platform and the port-check binary itself (size and modification time), so a rebuilt tool never
// replays an older tool's findings. One slot per unit and platform (<dir>/<slot>.json, replaced when
// the key changes), so the cache holds one entry per unit ever linted. Entries are written atomically;
// one that cannot be read is a miss. The project layout checks (PROJ, ProjectCheck::check) read the file
// system and are never cached; the PROJ checks of a project's sources (ProjectCheck::checkSources: golden.py,
// its contract and tolerances) depend on the sources alone and are cached with the DSL rules.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/report.h"
#include "core/source_file.h"
#include "lint/linters.h"

namespace portcheck {

struct LintCacheEntry {
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;
};

// 128-bit xxHash of everything the unit's findings depend on, as 32 hex digits.
std::string lintCacheKey(const std::string& project, const std::vector<SourceFile>& sources,
                         const LintSettings& settings);
// Which slot the unit uses: its project (or its first file) and the platform.
std::string lintCacheSlot(const std::string& project, const std::vector<SourceFile>& sources,
                          const LintSettings& settings);

// The entry in `slot` when it was stored under `key`; nullopt when absent, stale or unreadable.
std::optional<LintCacheEntry> loadLintCache(const std::filesystem::path& dir, const std::string& slot,
                                            const std::string& key);
// Stores atomically; a cache that cannot be written only costs the next run its speed (false).
bool storeLintCache(const std::filesystem::path& dir, const std::string& slot, const std::string& key,
                    const LintCacheEntry& entry);

}  // namespace portcheck
