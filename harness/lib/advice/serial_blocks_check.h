#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// PERF002: a kernel walks independent blocks one after another in fewer tasks than there are cores
// of its kind: most cores idle while one works. Reports the device-time model's estimate of splitting
// the blocks over the idle cores.
class SerialBlocksCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "PERF002"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
