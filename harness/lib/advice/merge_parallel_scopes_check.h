#pragma once
#include "advice/advice_check.h"

namespace portcheck {

// FUSE004: several incore scopes in one pl.parallel body (over the same index): merge them.
class MergeParallelScopesCheck : public AdviceCheck {
 public:
  std::string_view id() const override { return "FUSE004"; }
  void check(const SramCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
