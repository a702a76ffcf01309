#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO001: TASSIGN binds a tile to a fixed address in AUTO-mode code.
class TassignOnTileCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO001"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
