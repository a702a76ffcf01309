#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO002: raw set_flag/wait_flag/pipe_barrier in AUTO-mode code.
class ManualPipeFlagCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO002"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
