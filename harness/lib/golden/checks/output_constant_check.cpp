#include "golden/checks/output_constant_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

Diagnostic OutputConstantCheck::report(const RunRecord& run, const GoldenGamingFinding& f) const {
  std::string message = "output '" + f.output + "' of " + run.project + " holds one value in every element in " +
                        joinCases(f.cases) + " on " + run.platform + ", where the golden's output does not" +
                        (f.detail.empty() ? std::string() : " (" + f.detail + ")");
  auto [file, line] = outputLocation(run, f.output);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
