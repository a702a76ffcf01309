#include "ledger/checks/tangled_change_check.h"

#include <algorithm>

#include "rules/catalogue.h"

namespace portcheck::ledger {

void TangledChangeCheck::check(const LoopContext& ctx, std::vector<Diagnostic>& out) const {
  const Attempt& a = ctx.current;
  if (!a.changes || a.changes->empty()) return;
  // Filling in the skeleton `port-check new` wrote is the change the workflow asks for first.
  if (!ctx.earlier.empty() && ctx.earlier.back().scaffold) return;
  std::vector<std::string> kernels;
  int places = 0;
  for (const FileChange& c : *a.changes) {
    for (const std::string& k : c.kernels)
      if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
    // An added, removed or unknown-lines file is one place; a modified one, each of its hunks.
    places += c.status == "modified" && c.lines_known ? static_cast<int>(c.hunks.size()) : 1;
  }
  std::string message;
  if (kernels.size() > 1) {
    message = "attempt " + std::to_string(a.number) + " changed " + std::to_string(kernels.size()) +
              " incore kernels at once (";
    for (std::size_t i = 0; i < kernels.size(); ++i) message += (i ? ", " : "") + kernels[i];
    message += ")";
  } else if (places > ctx.settings.max_hunks) {
    message = "attempt " + std::to_string(a.number) + " changed " + std::to_string(places) + " separate places in " +
              std::to_string(a.changes->size()) + (a.changes->size() == 1 ? " file" : " files") +
              " (more than " + std::to_string(ctx.settings.max_hunks) + ")";
  } else {
    return;
  }
  message += ": " + describeChange(a);
  const FileChange& first = a.changes->front();
  int line = first.status == "modified" && !first.hunks.empty() ? std::max(first.hunks.front().new_start, 1) : 0;
  std::string file = first.status == "removed" ? projectAnchor(a) : first.file;
  if (first.status == "removed") line = 0;
  out.push_back(makeDiagnostic(id(), file, line, 0, std::move(message)));
}

}  // namespace portcheck::ledger
