#pragma once
// DSL116: pl.matmul_acc with no pl.matmul to start the accumulation.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class MatmulAccWithoutMatmulCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL116"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
