#pragma once
// DSL119: a column window of a GM tensor (a pl.slice narrower than its parent, more than one row) that
// a kernel writes: PyPTO gives the kernel's parameter the dense strides of the window's own shape.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class StridedViewToKernelCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL119"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
