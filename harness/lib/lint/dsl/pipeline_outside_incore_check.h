#pragma once
// DSL103: pl.pipeline outside an incore scope.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class PipelineOutsideIncoreCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL103"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
