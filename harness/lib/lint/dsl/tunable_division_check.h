#pragma once
// TUNE002: a tunable's candidate that does not divide an extent the code floor-divides by it.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class TunableDivisionCheck : public DslCheck {
 public:
  std::string_view id() const override { return "TUNE002"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
