#include "golden/checks/golden_contract_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

bool GoldenContractCheck::matches(const RunRecord& run) const {
  return run.result.present && run.result.status == "contract_error";
}

Diagnostic GoldenContractCheck::report(const RunRecord& run) const {
  return makeDiagnostic(ruleId(), run.display_file, 0, 0,
                        run.project + ": golden.py cannot drive a run: " + exceptionText(run, true));
}

}  // namespace portcheck
