#pragma once
// DSL104: pl.create_tensor inside an incore scope.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class CreateTensorInIncoreCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL104"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
