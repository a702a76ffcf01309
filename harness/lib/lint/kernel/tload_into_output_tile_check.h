#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO008: TLOAD into a tile that is overwritten before it is read.
class TloadIntoOutputTileCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO008"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
