#pragma once
// DSL117: a tile load / store whose innermost run is under the L2 line (mirrors PH001).
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class SmallInnermostLoadCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL117"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
