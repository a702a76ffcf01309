#pragma once
// GOLD003: NaN or Inf in an output where the golden has none.
#include "golden/run_check.h"

namespace portcheck {

class OutputNotFiniteCheck : public OutputCheck {
 public:
  std::string_view ruleId() const override { return "GOLD003"; }
  bool matches(const GoldenOutput& output) const override;
  Diagnostic report(const RunRecord& run, const GoldenOutput& output) const override;
};

}  // namespace portcheck
