#pragma once
// GOLD002: An output that is all zero where the golden is not: the kernel never stored it (missing pl.Out).
#include "golden/run_check.h"

namespace portcheck {

class OutputNeverWrittenCheck : public OutputCheck {
 public:
  std::string_view ruleId() const override { return "GOLD002"; }
  bool matches(const GoldenOutput& output) const override;
  Diagnostic report(const RunRecord& run, const GoldenOutput& output) const override;
};

}  // namespace portcheck
