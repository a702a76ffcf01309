#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO017: a runtime `if` around PTO work inside a loop whose condition does not change in the loop, or that joins terms with && / || (AUTO-R09).
class LoopInvariantBranchCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO017"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
