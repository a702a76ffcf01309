#pragma once
// DSL112: incore code reading / writing a tensor through subscript sugar instead of pl.load / pl.store.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class ImplicitTensorAccessCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL112"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
