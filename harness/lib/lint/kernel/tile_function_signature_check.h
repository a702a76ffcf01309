#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO012: a __tf__ tile function with a non-void return or pointer/reference parameters.
class TileFunctionSignatureCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO012"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
