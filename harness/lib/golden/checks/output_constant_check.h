#pragma once
// GOLD022: An output whose elements are all one value (docs/contract.md §5).
#include "golden/run_check.h"

namespace portcheck {

class OutputConstantCheck : public GamingCheck {
 public:
  std::string_view ruleId() const override { return "GOLD022"; }
  Diagnostic report(const RunRecord& run, const GoldenGamingFinding& finding) const override;
};

}  // namespace portcheck
