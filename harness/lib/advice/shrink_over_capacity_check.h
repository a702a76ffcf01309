#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// FUSE003: a kernel space over capacity: which tile dimension to shrink and to what, or the pipe ring / pl.split.
class ShrinkOverCapacityCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "FUSE003"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
