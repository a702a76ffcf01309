#include "golden/checks/output_copies_input_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

Diagnostic OutputCopiesInputCheck::report(const RunRecord& run, const GoldenGamingFinding& f) const {
  std::string message = "output '" + f.output + "' of " + run.project + " equals input '" +
                        (f.input.empty() ? std::string("?") : f.input) + "' bit for bit in " + joinCases(f.cases) +
                        " on " + run.platform + ", where the golden's output does not: the kernel copies its input";
  auto [file, line] = outputLocation(run, f.output);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
