#pragma once
// DSL121: an orchestration-level call of an InCore kernel passes an arithmetic expression (`i * 64`)
// as an argument: PyPTO's orchestration codegen takes only variables and constant literals there.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class KernelArgumentExpressionCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL121"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
