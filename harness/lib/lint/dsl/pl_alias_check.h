#pragma once
// DSL110: pypto.language imported under an alias other than pl.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class PlAliasCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL110"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
