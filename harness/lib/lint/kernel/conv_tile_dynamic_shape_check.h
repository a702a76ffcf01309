#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO023: a ConvTile with a DYNAMIC ConvTileShape dimension in AUTO-mode code (AUTO-R21).
class ConvTileDynamicShapeCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO023"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
