#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO014: vector and cube work compiled into one core's kernel.
class MixedVectorCubeCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO014"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
