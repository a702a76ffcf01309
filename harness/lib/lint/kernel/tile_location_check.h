#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA002: an instruction on a tile location it does not accept.
class TileLocationCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA002"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
