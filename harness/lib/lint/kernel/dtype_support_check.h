#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA004: an instruction on an element type the platform does not support.
class DtypeSupportCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA004"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
