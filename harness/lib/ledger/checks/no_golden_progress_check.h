#pragma once
// LOOP002: attempts that ran the golden without it passing or its largest error going down.
#include "ledger/loop_check.h"

namespace portcheck::ledger {

class NoGoldenProgressCheck : public LoopCheck {
 public:
  std::string_view id() const override { return "LOOP002"; }
  void check(const LoopContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck::ledger
