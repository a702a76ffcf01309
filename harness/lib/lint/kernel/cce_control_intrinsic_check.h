#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO005: manual mask or cross-core (FFTS) control in AUTO-mode code.
class CceControlIntrinsicCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO005"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
