#pragma once
// The run cache: a port that passed its golden is not run on the simulator again while nothing the run
// depends on changed: the compiled program (the compile cache key, replayed with its imported pypto-lib
// blocks unchanged), the seed, and the simulator (kernel compiler, runtime and pto-isa checkouts, the
// variables they read). Only passes are stored: a failure is always run again. Entries live in
// <cache_root>/runs/<key>.json, written atomically; an unreadable entry is a miss.
#include <filesystem>
#include <optional>
#include <string>

#include "compiler/compile_driver.h"
#include "core/platform.h"
#include "core/report.h"

namespace portcheck {

// `compile_key` is the compile stage's key of the same target and platform.
std::string runCacheKey(const std::string& compile_key, Platform platform, const DriverSettings& settings);

// The stored passed run for `key`, marked replayed; nullopt when absent, unreadable or not a pass.
// Workspace paths in it come back under `workspace_root` (store/workspace_paths.h).
std::optional<GoldenRun> loadCachedRun(const std::filesystem::path& cache_root,
                                       const std::filesystem::path& workspace_root, const std::string& key);

// Stores a passed run (anything else is ignored and returns true); false with `error` when it cannot.
bool storeCachedRun(const std::filesystem::path& cache_root, const std::filesystem::path& workspace_root,
                    const std::string& key, const GoldenRun& run, std::string& error);

}  // namespace portcheck
