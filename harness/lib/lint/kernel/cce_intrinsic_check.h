#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO004: a CCE data or compute intrinsic instead of a PTO instruction.
class CceIntrinsicCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO004"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
