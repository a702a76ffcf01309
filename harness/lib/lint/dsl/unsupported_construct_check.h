#pragma once
// DSL106: a Python expression or statement the PyPTO parser rejects.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class UnsupportedConstructCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL106"; }
  void checkFile(const DslCheckContext& ctx, const dsl::FileModel& file, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
