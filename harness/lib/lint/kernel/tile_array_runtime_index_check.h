#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO018: a tile array indexed by a runtime expression (hand-made multi-buffering, `buf[i % 2]`) (AUTO-R11).
class TileArrayRuntimeIndexCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO018"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
