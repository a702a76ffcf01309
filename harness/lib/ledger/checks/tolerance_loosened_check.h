#pragma once
// LOOP005: an output's tolerance is looser now than in the last attempt whose golden passed: the check
// was widened rather than the kernel fixed.
#include "ledger/loop_check.h"

namespace portcheck::ledger {

class ToleranceLoosenedCheck : public LoopCheck {
 public:
  std::string_view id() const override { return "LOOP005"; }
  void check(const LoopContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck::ledger
