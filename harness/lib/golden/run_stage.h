#pragma once
// The run stage: every compiled target run on the simulator and compared with its golden, in
// parallel workers (--jobs), each in its own process group and output folder.
#include <string>
#include <vector>

#include "compiler/compile_driver.h"
#include "compiler/compile_stage.h"
#include "core/report.h"

namespace portcheck {

struct RunStageOptions {
  int jobs = 1;  // parallel runs; the simulator is itself multi-threaded, so 1 unless --jobs says more
  bool use_cache = true;  // replay a passed run of an unchanged, cache-replayed compile (golden/run_cache.h)
};

struct RunStageResult {
  std::vector<Diagnostic> diagnostics;
  std::vector<GoldenRun> runs;  // in target order, one per target (skipped ones included)
  std::string detail;           // one line for the report's stage list
};

// `compiled[i]` is the compile stage's summary of `targets[i]`; a target whose compile did not
// succeed (status other than "ok") is skipped. `settings.adapter_script` is installed when empty.
RunStageResult runGoldenStage(const std::vector<CompileTarget>& targets,
                              const std::vector<CompileTargetSummary>& compiled, Platform platform,
                              DriverSettings settings, const RunStageOptions& options);

}  // namespace portcheck
