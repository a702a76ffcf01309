#pragma once
// PROJ002: golden.py declares no CONTRACT (docs/contract.md): the port is checked on one seed and one case.
#include "lint/proj/project_check.h"

namespace portcheck {

class NoContractCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ002"; }
  void checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
