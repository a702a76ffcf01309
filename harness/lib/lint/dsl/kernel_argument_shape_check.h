#pragma once
// DSL120: a kernel called with a tensor of another static shape than its parameter's annotation.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class KernelArgumentShapeCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL120"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
