#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO019: library code copies a tile's data() handle into a local (`auto p = x.data();`) (AUTO-R16).
class TileDataCopyCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO019"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
