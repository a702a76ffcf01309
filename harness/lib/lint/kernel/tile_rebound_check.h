#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO007: a tile is the destination of more than one TRESHAPE/TSUBVIEW.
class TileReboundCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO007"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
