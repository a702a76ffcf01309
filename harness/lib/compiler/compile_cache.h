#pragma once
// The compile cache: same sources, configuration, platform, adapter and toolchain -> the last
// compile's analysis, replayed without running the compiler. Entries live in
// <cache_root>/results/<key>.json, written through a temporary file and a rename; an entry that
// cannot be read is treated as a miss and rewritten.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile_driver.h"
#include "compiler/compile_record.h"
#include "core/diagnostic.h"
#include "core/report.h"

namespace portcheck {

// What a compile contributes to a report, in the form the cache stores and replays.
struct CompileOutcome {
  std::vector<Diagnostic> diagnostics;  // driver (COMP9xx) and analysis diagnostics
  std::vector<SramRow> sram;
  bool succeeded = false;
  std::string status;        // adapter status ("ok", "compile_error", ...), or "" when it wrote none
  std::string program;       // program or entry compiled
  std::string ptoas;         // "ran", "skipped" or "" (unknown)
  std::string out_dir;       // display path of the output folder
  double compile_seconds = 0;
  // Workspace files outside the source root the program imported (pypto-lib blocks), relative to the
  // tree root, with their content hash when compiled: a replay is valid only while they are unchanged.
  std::vector<std::pair<std::string, std::string>> dependencies;
  // The run the compile process chained (DriverSettings::chained_run); never cached.
  std::optional<ChainedRunProcess> chained_run;
};

// Hashes the imported files the adapter listed (one workspace-relative path per line).
std::vector<std::pair<std::string, std::string>> hashDependencies(const std::string& listed,
                                                                  const std::filesystem::path& tree_root);
// True while every dependency still has the hash it had when the outcome was compiled.
bool dependenciesUnchanged(const CompileOutcome& outcome, const std::filesystem::path& tree_root);

// Everything a compile's result depends on, hashed: every file of pypto_src (or the program
// file), the target's paths (workspace-relative where under the workspace root), platform, analysis
// options, adapter content, toolchain revision, extension and ptoas, and the environment variables
// PyPTO reads (their workspace paths relative too).
std::string compileCacheKey(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                            const CompileAnalysisOptions& analysis_options);

// Creates the cache root with a `.gitignore` of `*` in it, so a cache inside a work tree never shows
// up as untracked files. Returns false (with `error`) when it cannot.
bool prepareCacheRoot(const std::filesystem::path& cache_root, std::string& error);

// The entry for `key`; nullopt when absent, unreadable or from another schema. Paths the entry holds
// under a workspace root (the writer's) come back under `workspace_root`.
std::optional<CompileOutcome> loadCachedCompile(const std::filesystem::path& cache_root,
                                                const std::filesystem::path& workspace_root, const std::string& key);

// Stores atomically, `workspace_root` tokenised; returns false (with `error`) when it could not be written.
bool storeCachedCompile(const std::filesystem::path& cache_root, const std::filesystem::path& workspace_root,
                        const std::string& key, const CompileOutcome& outcome, std::string& error);

}  // namespace portcheck
