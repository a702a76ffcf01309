#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA006: one tile larger than its on-chip buffer.
class TileCapacityCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA006"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
