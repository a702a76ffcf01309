#pragma once
// Turns one run (process + adapter result) into GOLD diagnostics and the report's GoldenRun entry.
// Tested on recorded adapter results (tests/fixtures/run/).
#include <vector>

#include "core/diagnostic.h"
#include "core/report.h"
#include "golden/run_result.h"

namespace portcheck {

struct RunAnalysis {
  std::vector<Diagnostic> diagnostics;
  GoldenRun run;
};

RunAnalysis analyzeRun(const RunRecord& record);

}  // namespace portcheck
