#pragma once
// GOLD001: An output out of tolerance: counts, error figures and the first mismatch.
#include "golden/run_check.h"

namespace portcheck {

class OutputMismatchCheck : public OutputCheck {
 public:
  std::string_view ruleId() const override { return "GOLD001"; }
  bool matches(const GoldenOutput& output) const override;
  Diagnostic report(const RunRecord& run, const GoldenOutput& output) const override;
};

}  // namespace portcheck
