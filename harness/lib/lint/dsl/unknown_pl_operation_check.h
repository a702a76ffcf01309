#pragma once
// DSL114: a call to a pl.* operation pypto.language does not have.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class UnknownPlOperationCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL114"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
