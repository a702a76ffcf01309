#pragma once
// PROJ007: a tolerance (RTOL / ATOL, a TOLERANCES pair, a CONTRACT comparator) far looser than the
// output's dtype justifies.
#include "lint/proj/project_check.h"

namespace portcheck {

class ToleranceLooserCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ007"; }
  void checkSources(const ProjectSourceContext& ctx, std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
