#pragma once
// GOLD006: golden.py itself raised: generate_inputs / build_tensor_specs while making the inputs, or the golden function.
#include "golden/run_check.h"

namespace portcheck {

class GoldenRaisedCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD006"; }
  std::string_view failureClass() const override { return "golden-raised"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
