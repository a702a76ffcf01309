#pragma once
// GOLD005: golden.py lacks what a run needs: inputs, a golden function, or outputs that exist.
#include "golden/run_check.h"

namespace portcheck {

class GoldenContractCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD005"; }
  std::string_view failureClass() const override { return "golden-contract"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
