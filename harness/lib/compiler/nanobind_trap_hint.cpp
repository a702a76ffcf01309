#include "compiler/nanobind_trap_hint.h"

#include "toolchain/nanobind_trap.h"

namespace portcheck {

bool addNanobindTrapHints(std::vector<Diagnostic>& diagnostics, std::string_view failure_text) {
  if (!isNanobindTileViewError(failure_text)) return false;
  for (Diagnostic& d : diagnostics) {
    // The parse error it surfaces as, or the exception itself when nothing else recognised it
    // (GOLD015: a run whose own compile failed.)
    if (d.severity != Severity::Error ||
        (d.rule != "COMP001" && d.rule != "COMP010" && d.rule != "COMP011" && d.rule != "GOLD015"))
      continue;
    d.hint = "not the port: " + nanobindTrapFix("python");
    d.notes.push_back({"", 0, 0,
                       "TypeError: __init__(): incompatible function arguments from ir.TileView() is the nanobind 3 "
                       "trap; `port-check doctor` checks it (passes.bindings)"});
  }
  return true;
}

}  // namespace portcheck
