#pragma once
// DSL128: a comparison that tests the sign of an INDEX scalar (`slot >= 0`, `slot == -1`): PyPTO's
// Simplify pass takes every INDEX as non-negative and folds the test to a constant.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class IndexSignTestCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL128"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
