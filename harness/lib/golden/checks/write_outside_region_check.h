#pragma once
// GOLD023: A write outside an output or scratch tensor (docs/contract.md §5).
#include "golden/run_check.h"

namespace portcheck {

class WriteOutsideRegionCheck : public GamingCheck {
 public:
  std::string_view ruleId() const override { return "GOLD023"; }
  Diagnostic report(const RunRecord& run, const GoldenGamingFinding& finding) const override;
};

}  // namespace portcheck
