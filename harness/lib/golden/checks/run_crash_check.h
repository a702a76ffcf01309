#pragma once
// GOLD014: A run process that died without a usable result: killed by a signal, exited early, or left an unreadable result.
#include "golden/run_check.h"

namespace portcheck {

class RunCrashCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "GOLD014"; }
  std::string_view failureClass() const override { return "run-crashed"; }
  bool matches(const RunRecord& run) const override;
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
