#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO011: a struct member with a default initializer.
class MemberDefaultInitCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO011"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
