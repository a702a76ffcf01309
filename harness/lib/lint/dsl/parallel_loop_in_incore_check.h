#pragma once
// DSL102: pl.parallel / pl.spmd inside an incore scope.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class ParallelLoopInIncoreCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL102"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
