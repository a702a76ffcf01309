#pragma once
// DSL111: a Vec tile whose innermost row is not a multiple of 32 bytes.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class TileRowAlignmentCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL111"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
