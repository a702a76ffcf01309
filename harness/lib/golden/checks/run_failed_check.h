#pragma once
// GOLD015: Any other failure of a run that produced no comparison (the runtime raised, the compile for the run failed).
#include "golden/run_check.h"

namespace portcheck {

class RunFailedCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD015"; }
  std::string_view failureClass() const override { return "run-failed"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
