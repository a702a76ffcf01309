#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// FUSE005: an orchestration loop around a single small incore dispatch: move the loop inside the scope.
class LoopIntoScopeCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "FUSE005"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
