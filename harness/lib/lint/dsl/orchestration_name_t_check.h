#pragma once
// DSL127: orchestration code binds a variable named `t` and also nests a call in a call: PyPTO's
// orchestration codegen declares the nested call's temporary as `t` in the generated C++, which hides
// the variable (every later use reads the temporary).
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class OrchestrationNameTCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL127"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
