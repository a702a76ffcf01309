#pragma once
// GOLD010: The PyPTO runtime (simpler) or what it needs in Python (cloudpickle, torch >= 2.3) is not there.
#include "golden/run_check.h"

namespace portcheck {

class RuntimeMissingCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD010"; }
  std::string_view failureClass() const override { return "runtime-not-installed"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
