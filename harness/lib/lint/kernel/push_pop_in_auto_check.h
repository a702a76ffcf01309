#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO010: TPUSH/TPOP/TALLOC/TFREE in AUTO-mode code.
class PushPopInAutoCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO010"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
