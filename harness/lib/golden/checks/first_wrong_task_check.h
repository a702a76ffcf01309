#pragma once
// GOLD025: where a failing case first goes wrong, and whose fault it is (docs/first-wrong-task.md): the
// port's (its IR, run in torch, fails the golden too) or the toolchain's (the IR passes, a simulated task
// differs from its kernel's torch replay on the same inputs).
#include <string_view>

#include "golden/run_check.h"

namespace portcheck {

class FirstWrongTaskCheck {
 public:
  std::string_view ruleId() const { return "GOLD025"; }
  // The localisation as the report carries it: its kernel file made workspace-relative.
  RunLocalisation displayed(const RunRecord& run, const RunLocalisation& l) const;
  Diagnostic report(const RunRecord& run, const RunLocalisation& l) const;
  // One line for the notes of the failing case's output findings.
  std::string summary(const RunLocalisation& l) const;
};

}  // namespace portcheck
