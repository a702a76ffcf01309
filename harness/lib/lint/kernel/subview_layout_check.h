#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO022: TSUBVIEW between tiles of different BLayout, or a source whose valid region is smaller than the view (AUTO-R20).
class SubviewLayoutCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO022"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
