#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO006: tile.data() used in kernel code.
class TileDataPointerCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO006"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
