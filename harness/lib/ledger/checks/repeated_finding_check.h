#pragma once
// LOOP001: a finding still reported at the same place after attempts that changed that code.
#include "ledger/loop_check.h"

namespace portcheck::ledger {

class RepeatedFindingCheck : public LoopCheck {
 public:
  std::string_view id() const override { return "LOOP001"; }
  void check(const LoopContext& ctx, std::vector<Diagnostic>& out) const override;
};

// A finding the loop rules follow: an error or warning of the port, not port-check's own problems
// nor another loop rule.
bool followedFinding(const Finding& f);

}  // namespace portcheck::ledger
