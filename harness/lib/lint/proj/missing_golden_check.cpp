#include "lint/proj/missing_golden_check.h"

#include <filesystem>

#include "rules/catalogue.h"

namespace portcheck {

void MissingGoldenCheck::check(const Workspace& ws, const Project& project, std::span<const SourceFile>,
                               std::vector<Diagnostic>& out) const {
  if (!project.hasSourceDir()) {
    out.push_back(makeDiagnostic(id(), ws.relative(project.dir), 0, 0,
                                 "project '" + project.name + "' has no pypto_src/ folder, so no golden.py"));
    return;
  }
  if (project.hasFile("golden.py")) return;
  out.push_back(makeDiagnostic(id(), ws.relative(project.pypto_src), 0, 0,
                               "project '" + project.name + "' has no pypto_src/golden.py"));
}

}  // namespace portcheck
