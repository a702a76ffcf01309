#include "lint/proj/missing_golden_check.h"

#include <filesystem>

#include "rules/catalogue.h"

namespace portcheck {

void MissingGoldenCheck::check(const Workspace& ws, const Project& project, std::vector<Diagnostic>& out) const {
  std::error_code ec;
  if (!std::filesystem::is_directory(project.pypto_src, ec)) {
    out.push_back(makeDiagnostic(id(), ws.relative(project.dir), 0, 0,
                                 "project '" + project.name + "' has no pypto_src/ folder, so no golden.py"));
    return;
  }
  if (std::filesystem::is_regular_file(project.pypto_src / "golden.py", ec)) return;
  out.push_back(makeDiagnostic(id(), ws.relative(project.pypto_src), 0, 0,
                               "project '" + project.name + "' has no pypto_src/golden.py"));
}

}  // namespace portcheck
