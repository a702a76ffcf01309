#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO020: a runtime `if` in *_IMPL code that decides which tile-function calls run (AUTO-R17).
class ImplRuntimeBranchCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO020"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
