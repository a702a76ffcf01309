#pragma once
// TUNE001: a TUNABLES entry that names no integer constant of the port, or has no integer candidates.
#include "lint/dsl/dsl_check.h"

namespace portcheck {

class UnknownTunableCheck : public DslCheck {
 public:
  std::string_view id() const override { return "TUNE001"; }
  void check(const DslCheckContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
