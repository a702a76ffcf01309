#include "golden/checks/output_not_finite_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool OutputNotFiniteCheck::matches(const GoldenOutput& o) const {
  return o.nan_actual + o.inf_actual > o.nan_expected + o.inf_expected;
}

Diagnostic OutputNotFiniteCheck::report(const RunRecord& run, const GoldenOutput& o) const {
  std::string message = outputSubject(run, o) + " holds " + std::to_string(o.nan_actual) +
                        " NaN and " + std::to_string(o.inf_actual) + " Inf on " + run.platform +
                        " where the golden has " + std::to_string(o.nan_expected) + " NaN and " +
                        std::to_string(o.inf_expected) + " Inf";
  if (!o.first_mismatch.empty() && (o.first_actual == "nan" || o.first_actual == "inf" || o.first_actual == "-inf"))
    message += "; first at " + formatIndex(o.first_mismatch);
  auto [file, line] = outputLocation(run, o.name);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
