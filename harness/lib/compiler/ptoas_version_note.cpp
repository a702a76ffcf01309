#include "compiler/ptoas_version_note.h"

#include <algorithm>

#include "toolchain/ptoas_version.h"

namespace portcheck {

bool isPtoasRejection(const Diagnostic& d) {
  return d.rule == "COMP007" || (d.rule == "GOLD015" && d.message.find("ptoas") != std::string::npos);
}

void addPtoasVersionNotes(std::vector<Diagnostic>& diagnostics, const Toolchain& toolchain,
                          const std::map<std::string, std::string>& env) {
  if (!toolchain.found || std::none_of(diagnostics.begin(), diagnostics.end(), isPtoasRejection)) return;
  std::string note =
      ptoasMismatchNote(installedPtoasVersion(toolchain, env), pinnedPtoasVersion(toolchain.pypto_root));
  if (note.empty()) return;
  for (Diagnostic& d : diagnostics)
    if (isPtoasRejection(d)) d.notes.push_back({"", 0, 0, note});
}

}  // namespace portcheck
