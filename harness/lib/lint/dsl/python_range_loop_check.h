#pragma once
// DSL105: a Python range() loop in DSL code.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class PythonRangeLoopCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL105"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
