#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA005: a tile row (ND) or column (DN) not a multiple of 32 bytes.
class TileAlignmentCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA005"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
