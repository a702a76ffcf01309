#pragma once
// TOOL006 for a run: its caller cancelled it (an MCP client), and its process group was killed.
#include "golden/run_check.h"

namespace portcheck {

class RunCancelledCheck : public RunFailureCheck {
 public:
  std::string_view ruleId() const override { return "TOOL006"; }
  std::string_view failureClass() const override { return "cancelled"; }
  bool matches(const RunRecord& run) const override { return run.cancelled; }
  Diagnostic report(const RunRecord& run) const override;
};

}  // namespace portcheck
