#include "lint/sram_lint.h"

#include <algorithm>
#include <filesystem>

#include "advice/advice_check.h"
#include "dsl/dsl_model.h"
#include "lint/mem/mem_check.h"
#include "sram/sram_estimator.h"

namespace portcheck {

std::string sramProjectName(const PythonUnit& unit) {
  if (!unit.project.empty()) return unit.project;
  if (unit.files.size() == 1) return std::filesystem::path(unit.files[0].path).stem().string();
  return "";
}

std::vector<Diagnostic> estimatePythonUnit(const PythonUnit& unit, const LintSettings& settings,
                                           std::vector<SramRow>& sram) {
  dsl::ProgramModel model = dsl::buildProgramModel(unit.files);
  return estimatePythonModel(unit, model, settings, sram);
}

std::vector<Diagnostic> estimatePythonModel(const PythonUnit& unit, const dsl::ProgramModel& model,
                                            const LintSettings& settings, std::vector<SramRow>& sram) {
  std::vector<Diagnostic> out;
  std::vector<sram::KernelEstimate> kernels = sram::estimateProgram(model, settings.platform);
  SramCheckContext ctx{model, kernels, settings, unit.project};
  for (const auto& check : memChecks()) check->check(ctx, out);
  for (const auto& check : adviceChecks()) check->check(ctx, out);
  out.erase(std::remove_if(out.begin(), out.end(), [&](const Diagnostic& d) { return importedLibraryFile(unit, d.file); }),
            out.end());
  std::vector<SramRow> rows = sram::toSramRows(kernels, sramProjectName(unit));
  sram.insert(sram.end(), rows.begin(), rows.end());
  return out;
}

}  // namespace portcheck
