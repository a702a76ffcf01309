#pragma once
// LOOP003: one attempt changed several unrelated things: more than one incore kernel, or more
// separate places than loop.max_hunks.
#include "ledger/loop_check.h"

namespace portcheck::ledger {

class TangledChangeCheck : public LoopCheck {
 public:
  std::string_view id() const override { return "LOOP003"; }
  void check(const LoopContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck::ledger
