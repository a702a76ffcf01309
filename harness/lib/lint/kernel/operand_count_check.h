#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA003: an instruction called with the wrong number of operands.
class OperandCountCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA003"; }
  KernelScope scope() const override { return KernelScope::PtoIsaKernels; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
