#include "golden/checks/write_outside_region_check.h"

#include "golden/run_text.h"
#include "rules/catalogue.h"

namespace portcheck {

Diagnostic WriteOutsideRegionCheck::report(const RunRecord& run, const GoldenGamingFinding& f) const {
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
