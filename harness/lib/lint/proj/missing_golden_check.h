#pragma once
#include "lint/proj/project_check.h"

namespace portcheck {

// PROJ001: projects/<name>/pypto_src/ has no golden.py (or there is no pypto_src/).
class MissingGoldenCheck : public ProjectCheck {
 public:
  std::string_view id() const override { return "PROJ001"; }
  void check(const Workspace& ws, const Project& project, std::span<const SourceFile> sources,
             std::vector<Diagnostic>& out) const override;
};

}  // namespace portcheck
