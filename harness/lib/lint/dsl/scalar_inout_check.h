#pragma once
// DSL108: a pl.Scalar parameter declared pl.InOut / pl.Out.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class ScalarInOutCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL108"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
