#pragma once
// DSL122: a pl.Out tensor parameter that nothing in the function (nor the kernels it passes it to)
// writes.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class UnwrittenOutputParamCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL122"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
