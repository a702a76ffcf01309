#pragma once
#include "lint/kernel/kernel_check.h"

namespace portcheck {

// AUTO009: a tile is copied: by-value parameter or return, copy, assignment, lambda copy capture.
class TileCopyCheck : public KernelCheck {
 public:
  std::string_view id() const override { return "AUTO009"; }
  void check(const KernelContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
