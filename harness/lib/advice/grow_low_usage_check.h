#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// FUSE002: a kernel using under fuse.low_usage_percent (30%) of its dominant space: grow its tiles or fuse more.
class GrowLowUsageCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "FUSE002"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
