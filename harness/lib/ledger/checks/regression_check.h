#pragma once
// LOOP004: something that passed before fails now (the golden, or an error at code that was clean),
// naming the attempt that broke it.
#include "ledger/loop_check.h"

namespace portcheck::ledger {

class RegressionCheck : public LoopCheck {
 public:
  std::string_view id() const override { return "LOOP004"; }
  void check(const LoopContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck::ledger
