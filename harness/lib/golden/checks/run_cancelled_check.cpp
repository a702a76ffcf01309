#include "golden/checks/run_cancelled_check.h"

#include "rules/catalogue.h"

namespace portcheck {

Diagnostic RunCancelledCheck::report(const RunRecord& run) const {
  return makeDiagnostic(ruleId(), run.display_file, 0, 0,
                        run.project + ": the run on " + run.platform +
                            " was cancelled; its process group was killed and nothing was cached",
                        "call it again when the result is wanted");
}

}  // namespace portcheck
