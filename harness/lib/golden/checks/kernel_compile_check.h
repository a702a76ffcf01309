#pragma once
// GOLD012: The simulator's compile of a generated kernel or the orchestration failed with a compiler error.
#include "golden/run_check.h"

namespace portcheck {

class KernelCompileCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD012"; }
  std::string_view failureClass() const override { return "kernel-compile-failed"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
