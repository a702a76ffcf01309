#pragma once
// DSL118: a @pl.function parameter without a type annotation.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class MissingAnnotationCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL118"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
