#include "golden/checks/output_shape_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool OutputShapeCheck::matches(const GoldenOutput& o) const {
  return o.verdict == "shape_mismatch" || o.verdict == "not_a_tensor";
}

Diagnostic OutputShapeCheck::report(const RunRecord& run, const GoldenOutput& o) const {
  std::string message =
      o.verdict == "not_a_tensor"
          ? outputSubject(run, o) + " is not a tensor after the run (" + o.dtype +
                "), so it cannot be compared with the golden"
          : outputSubject(run, o) + " has shape " + formatIndex(o.shape) +
                " but the golden's is " + formatIndex(o.expected_shape) + ", so no element can be compared";
  auto [file, line] = outputLocation(run, o.name);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
