#pragma once
// GOLD021: An output equal to one of the inputs (docs/contract.md §5).
#include "golden/run_check.h"

namespace portcheck {

class OutputCopiesInputCheck : public GamingCheck {
 public:
  std::string_view ruleId() const override { return "GOLD021"; }
  Diagnostic report(const RunRecord& run, const GoldenGamingFinding& finding) const override;
};

}  // namespace portcheck
