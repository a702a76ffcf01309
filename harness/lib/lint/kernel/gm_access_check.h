#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA008: a tensor touched other than through TLOAD/TSTORE.
class GmAccessCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA008"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
