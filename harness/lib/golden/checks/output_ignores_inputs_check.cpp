#include "golden/checks/output_ignores_inputs_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

Diagnostic OutputIgnoresInputsCheck::report(const RunRecord& run, const GoldenGamingFinding& f) const {
  std::string message = "output '" + f.output + "' of " + run.project + " is the same, bit for bit, under " +
                        joinCases(f.cases) + " on " + run.platform +
                        ", although their inputs and the golden's outputs differ: the port does not compute it from "
                        "its inputs (a constant, a cached or a host-computed result)";
  auto [file, line] = outputLocation(run, f.output);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
