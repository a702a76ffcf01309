// The PROJ module: registers every project-layout check.
#include "lint/proj/missing_golden_check.h"
#include "lint/proj/project_check.h"

namespace portcheck {

const std::vector<std::unique_ptr<ProjectCheck>>& projectChecks() {
  static const auto kChecks = [] {
    std::vector<std::unique_ptr<ProjectCheck>> v;
    v.push_back(std::make_unique<MissingGoldenCheck>());
    return v;
  }();
  return kChecks;
}

}  // namespace portcheck
