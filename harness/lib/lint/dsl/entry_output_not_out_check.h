#pragma once
// DSL109: an entry tensor the program writes that is not pl.Out / pl.InOut.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class EntryOutputNotOutCheck : public DslCheck {
 public:
  std::string_view id() const override { return "DSL109"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
