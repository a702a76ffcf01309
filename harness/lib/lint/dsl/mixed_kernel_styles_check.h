#pragma once
// DSL113: @pl.program and @pl.jit styles mixed in one file.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class MixedKernelStylesCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL113"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
