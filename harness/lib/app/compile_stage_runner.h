#pragma once
// The compile stage as the commands use it (port-check compile and check).
#include <optional>
#include <string>

#include "app/commands.h"
#include "compiler/compile_driver.h"
#include "compiler/compile_stage.h"

namespace portcheck {

// Compiles the targets' projects and program files into `report`: compiler findings, SRAM rows and a
// "compile" stage entry. Without a toolchain: COMP909 (an error) when `required`, else TOOL003.
void compileInto(Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
                 const Targets& targets, const Io& io, bool required);

// The same for targets already resolved (e.g. staged copies of projects, git/staged_tree.h). Returns
// each target's outcome (empty without a toolchain); `settings_out`, when given, receives the driver
// settings used (the run stage runs with the same ones). With `chained_run_timeout`, each port that
// compiles is also run on the simulator in the compile's process, within that extra time (ChainedRun).
std::vector<CompileTargetSummary> compileTargetsInto(
    Report& report, const Session& session, const CommonOptions& options, const CompileOptions& compile,
    const std::vector<CompileTarget>& list, const Io& io, bool required, DriverSettings* settings_out = nullptr,
    std::optional<std::chrono::milliseconds> chained_run_timeout = std::nullopt);

// What port-check compile and run do: resolve PATH... into targets, run `stage` (compileInto or
// runInto) on them, emit the report and return the exit code.
using StageRunner = void (*)(Report&, const Session&, const CommonOptions&, const CompileOptions&, const Targets&,
                             const Io&, bool required);
int runToolchainCommand(const std::string& command, StageRunner stage, const CommonOptions& options,
                        const CompileOptions& compile, const std::vector<std::string>& paths, const Io& io);

// The cache root: `cache_dir` (--cache-dir) relative to the working folder, else
// <workspace>/.port-check-cache (absolute).
std::filesystem::path cacheRoot(const Session& session, const CommonOptions& options,
                                const std::optional<std::string>& cache_dir);
// Where compile results are cached: cacheRoot of --cache-dir.
std::filesystem::path compileCacheRoot(const Session& session, const CommonOptions& options,
                                       const CompileOptions& compile);

// The driver settings every compile of this session uses and its cache key depends on: toolchain,
// workspace, cache root (compileCacheRoot) and environment; the time limit is left to the caller.
DriverSettings compileDriverSettings(const Session& session, const CommonOptions& options,
                                     const CompileOptions& compile);

// A stage's time limit in seconds: `given` (--timeout), else the port-check.json option `key`
// ("compile.timeout", "run.timeout"; a value outside 1..86400 is TOOL004), else `fallback`.
int timeoutSeconds(Report& report, const Session& session, std::optional<int> given, const std::string& key,
                   int fallback);

}  // namespace portcheck
