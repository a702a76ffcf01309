#include "golden/checks/output_never_written_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool OutputNeverWrittenCheck::matches(const GoldenOutput& o) const { return !o.passed && o.never_written; }

Diagnostic OutputNeverWrittenCheck::report(const RunRecord& run, const GoldenOutput& o) const {
  std::string message = outputSubject(run, o) + " was never written on " + run.platform +
                        ": all " + std::to_string(o.elements) + " elements are zero where the golden is not (" +
                        std::to_string(o.mismatches) + " out of tolerance)";
  auto [file, line] = outputLocation(run, o.name);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
