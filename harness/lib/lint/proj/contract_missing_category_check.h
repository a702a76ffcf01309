#pragma once
// PROJ004: the contract's kind needs a category of case it has none of (docs/contract.md §3): large
// values for a reduction, neg_inf for a masked softmax, tail and prime for parametric shapes, ...
#include "lint/proj/project_check.h"

namespace portcheck {

class ContractMissingCategoryCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ004"; }
  void checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
