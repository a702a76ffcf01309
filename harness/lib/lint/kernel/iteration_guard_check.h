#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO016: a first/last-iteration guard around PTO work that compares the loop counter with a runtime value (AUTO-R08).
class IterationGuardCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO016"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
