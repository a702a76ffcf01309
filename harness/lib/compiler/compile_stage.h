#pragma once
// The compile stage: every target compiled (or replayed from the cache) on one platform, in
// parallel workers, each in its own process and output folder; driver and analysis findings and
// SRAM rows gathered in target order.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compile_cache.h"
#include "compiler/compile_driver.h"
#include "core/report.h"
#include "workspace/workspace.h"

namespace portcheck {

struct CompileStageOptions {
  int jobs = 0;               // parallel compiles; 0 = hardware threads
  bool use_cache = true;      // --no-cache turns replay off (results are still stored)
  CompileAnalysisOptions analysis;
};

struct CompileTargetSummary {
  std::string name;
  bool cached = false;
  std::string cache_key;      // the compile cache key (the run cache builds on it)
  std::string status;         // adapter status, "" when none
  std::string ptoas;          // "ran" / "skipped" / ""
  double seconds = 0;         // wall time of this target (replay or compile)
  // The compiler's output folder (ir.compile's, compiled_meta.json in it) when the compile succeeded
  // with kernels generated (ptoas ran): the run stage executes it instead of compiling again.
  std::filesystem::path out_dir;
  // The simulator run the compile's process chained to it (DriverSettings::chained_run), when it did.
  std::optional<ChainedRunProcess> chained_run;
};

struct CompileStageResult {
  std::vector<Diagnostic> diagnostics;
  std::vector<SramRow> sram;
  std::vector<CompileTargetSummary> targets;
  std::string detail;         // one line for the report's stage list
};

// The source text defines a @pl.jit entry or a @pl.program class: a loose file that is a program.
bool definesProgram(std::string_view text);

// Projects -> their pypto_src; loose .py files that define a @pl.jit entry or a @pl.program class
// -> single program files. Other files (helpers, kernels) are not compile targets.
std::vector<CompileTarget> compileTargets(const Workspace& ws, const Targets& targets);

// `settings.adapter_script` is filled by this function (installAdapter) when empty.
CompileStageResult runCompileStage(const std::vector<CompileTarget>& targets, Platform platform,
                                   DriverSettings settings, const CompileStageOptions& options);

// The cached outcome the compile stage would replay for `target` under `key` (compileCacheKey of the
// same target, platform, settings and analysis options): present, readable and with every imported
// workspace file unchanged; nullopt otherwise.
std::optional<CompileOutcome> loadReplayableCompile(const CompileTarget& target, const DriverSettings& settings,
                                                    const std::string& key);

// One compile without the cache: process, then analysis (used by runCompileStage and bench/tests).
CompileOutcome compileOnce(const CompileTarget& target, Platform platform, const DriverSettings& settings,
                           const CompileAnalysisOptions& analysis, bool& cacheable);

}  // namespace portcheck
