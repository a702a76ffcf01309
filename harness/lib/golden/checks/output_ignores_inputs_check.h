#pragma once
// GOLD020: An output that stays the same when the inputs change (docs/contract.md §5).
#include "golden/run_check.h"

namespace portcheck {

class OutputIgnoresInputsCheck : public GamingCheck {
 public:
  std::string_view ruleId() const override { return "GOLD020"; }
  Diagnostic report(const RunRecord& run, const GoldenGamingFinding& finding) const override;
};

}  // namespace portcheck
