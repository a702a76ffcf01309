#include "lint/sram_lint.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "advice/advice_check.h"
#include "dsl/dsl_model.h"
#include "dsl/reached_functions.h"
#include "lint/mem/mem_check.h"
#include "sram/sram_estimator.h"

namespace portcheck {

std::string sramProjectName(const PythonUnit& unit) {
  if (!unit.project.empty()) return unit.project;
  // A loose program file (with the modules it imports as context): named after the file.
  if (unit.files.size() == unit.context.size() + 1)
    for (const SourceFile& f : unit.files)
      if (std::find(unit.context.begin(), unit.context.end(), f.path) == unit.context.end())
        return std::filesystem::path(f.path).stem().string();
  return "";
}

namespace {

// Kernels of the unit's own files and of the context functions they reach through calls: a module
// imported for one function does not bring its other kernels into the program.
std::vector<sram::KernelEstimate> reachedKernels(const PythonUnit& unit, const dsl::ProgramModel& model,
                                                 std::vector<sram::KernelEstimate> kernels) {
  if (unit.context.empty()) return kernels;
  auto isContext = [&](const std::string& path) {
    return std::find(unit.context.begin(), unit.context.end(), path) != unit.context.end();
  };
  const std::set<std::pair<int, int>> reached =
      dsl::reachedFunctions(model, [&](const dsl::FileModel& f) { return !isContext(f.path); });
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [&](const sram::KernelEstimate& k) {
                                 return !reached.count({k.file_index, k.function_index});
                               }),
                kernels.end());
  return kernels;
}

}  // namespace

std::vector<Diagnostic> estimatePythonUnit(const PythonUnit& unit, const LintSettings& settings,
                                           std::vector<SramRow>& sram) {
  dsl::ProgramModel model = dsl::buildProgramModel(unit.files);
  return estimatePythonModel(unit, model, settings, sram);
}

std::vector<Diagnostic> estimatePythonModel(const PythonUnit& unit, const dsl::ProgramModel& model,
                                            const LintSettings& settings, std::vector<SramRow>& sram) {
  std::vector<Diagnostic> out;
  std::vector<sram::KernelEstimate> all = reachedKernels(unit, model, sram::estimateProgram(model, settings.platform));
  std::vector<sram::KernelEstimate> kernels = sram::firstInstances(all);
  SramCheckContext ctx{model, kernels, settings, unit.project};
  for (const auto& check : memChecks()) check->check(ctx, out);
  for (const auto& check : adviceChecks()) check->check(ctx, out);
  out.erase(std::remove_if(out.begin(), out.end(), [&](const Diagnostic& d) { return importedLibraryFile(unit, d.file); }),
            out.end());
  std::vector<SramRow> rows = sram::toSramRows(all, sramProjectName(unit));
  sram.insert(sram.end(), rows.begin(), rows.end());
  return out;
}

}  // namespace portcheck
