#pragma once
// PROJ005: a contract declares seeds but generate_inputs() never reads params["seed"]: every seed
// draws the same inputs.
#include "lint/proj/project_check.h"

namespace portcheck {

class ContractSeedUnusedCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ005"; }
  void checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
