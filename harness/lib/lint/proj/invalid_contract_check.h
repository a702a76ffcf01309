#pragma once
// PROJ003: golden.py's CONTRACT breaks the format of docs/contract.md (one finding per problem).
#include "lint/proj/project_check.h"

namespace portcheck {

class InvalidContractCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ003"; }
  void checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
