#include "golden/checks/write_outside_region_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

Diagnostic WriteOutsideRegionCheck::report(const RunRecord& run, const GoldenGamingFinding& f) const {
  if (f.source == "ir") {
    // Seen in the IR run in torch: the kernel's store, located at its line when it lies in the workspace.
    std::string message = run.project + ": kernel '" + f.kernel + "' stores past the " +
                          (f.side == "before" ? std::string("start") : std::string("end")) + " of '" + f.output +
                          "': " + std::to_string(f.bytes_changed) + " byte" + (f.bytes_changed == 1 ? "" : "s") +
                          " in " + std::to_string(f.stores) + " store" + (f.stores == 1 ? "" : "s") +
                          (f.cases.empty() ? std::string() : " (" + joinCases(f.cases) + ")") +
                          ", found by running the port's IR in torch: on the device they overwrite whatever lies "
                          "beside the tensor (the simulator's runtime copies exact-size buffers and never shows it)";
    std::string file = f.file.empty() ? std::string() : workspaceRelative(run, f.file);
    if (!file.empty()) return makeDiagnostic(ruleId(), file, f.line, 0, std::move(message));
    auto [output_file, output_line] = outputLocation(run, f.output);
    return makeDiagnostic(ruleId(), output_file, output_line, 0, std::move(message));
  }
  std::string message = run.project + " wrote outside tensor '" + f.output + "' on " + run.platform + ": " +
                        std::to_string(f.bytes_changed) + " byte" + (f.bytes_changed == 1 ? "" : "s") +
                        " changed in the guard zone " + (f.side.empty() ? std::string("around") : f.side) +
                        " it, the first " + std::to_string(f.first_offset) + " byte" +
                        (f.first_offset == 1 ? "" : "s") + " from its " + (f.side == "before" ? "start" : "end") +
                        (f.cases.empty() ? std::string() : " (" + joinCases(f.cases) + ")") +
                        ": a tile stored past the tensor's valid region (a padded tile stored whole, a tail not "
                        "masked) overwrites whatever lies beside it on the device";
  auto [file, line] = outputLocation(run, f.output);
  return makeDiagnostic(ruleId(), file, line, 0, std::move(message));
}

}  // namespace portcheck
