#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO015: an Acc to Vec move on a2a3.
class AccToVecMoveCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO015"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
