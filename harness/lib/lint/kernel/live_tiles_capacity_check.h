#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// ISA007: the tiles of one function exceed their buffer together.
class LiveTilesCapacityCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "ISA007"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
