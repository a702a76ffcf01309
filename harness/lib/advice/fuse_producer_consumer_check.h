#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// FUSE001: two kernels in producer -> consumer order whose fused footprint fits: fuse them.
class FuseProducerConsumerCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "FUSE001"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
