#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO013: TROWEXPANDMUL/DIV/SUB full-size source of another type than dst.
class RowExpandSourceTypeCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO013"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
