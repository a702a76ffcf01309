#include "core/report.h"

#include <algorithm>
#include <tuple>

namespace portcheck {

void Report::append(std::vector<Diagnostic> ds) {
  for (Diagnostic& d : ds) diagnostics.push_back(std::move(d));
}

void Report::finalize() {
  std::stable_sort(diagnostics.begin(), diagnostics.end(), diagnosticLess);
  auto same = [](const Diagnostic& a, const Diagnostic& b) {
    return a.file == b.file && a.line == b.line && a.column == b.column && a.rule == b.rule &&
           a.message == b.message;
  };
  diagnostics.erase(std::unique(diagnostics.begin(), diagnostics.end(), same), diagnostics.end());
  std::sort(run.files.begin(), run.files.end());
  run.files.erase(std::unique(run.files.begin(), run.files.end()), run.files.end());
  std::stable_sort(sram.begin(), sram.end(), [](const SramRow& a, const SramRow& b) {
    return std::tie(a.project, a.function, a.space) < std::tie(b.project, b.function, b.space);
  });
}

int Report::count(Severity s) const {
  return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                        [s](const Diagnostic& d) { return d.severity == s; }));
}

std::string_view toString(StageState s) {
  switch (s) {
    case StageState::Ran: return "ran";
    case StageState::Skipped: return "skipped";
    case StageState::Failed: return "failed";
  }
  return "failed";
}

}  // namespace portcheck
