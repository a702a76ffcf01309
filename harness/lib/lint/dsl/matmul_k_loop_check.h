#pragma once
// DSL115: a matmul K-loop that is not pl.pipeline.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class MatmulKLoopCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL115"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
