#pragma once
// GOLD004: An output whose shape differs from the golden's, so no element can be compared.
#include "golden/run_check.h"

namespace portcheck {

class OutputShapeCheck : public OutputCheck {
 public:
  std::string_view ruleId() const override { return "GOLD004"; }
  bool matches(const GoldenOutput& output) const override;
  Diagnostic report(const RunRecord& run, const GoldenOutput& output) const override;
};

}  // namespace portcheck
