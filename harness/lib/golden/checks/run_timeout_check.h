#pragma once
// GOLD013: A run that did not finish: the time limit expired, or the runtime itself reported a timeout or deadlock.
#include "golden/run_check.h"

namespace portcheck {

class RunTimeoutCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD013"; }
  std::string_view failureClass() const override { return "run-timeout"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
