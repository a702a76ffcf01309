#pragma once
// A compile that failed because PyPTO's native module was built against nanobind >= 3
// (toolchain/nanobind_trap.h) looks like a parse error in the user's function. Its error diagnostics get
// the toolchain's fix as their hint and a note pointing at `port-check doctor`, so nobody edits a port that
// is not at fault.
#include <string_view>
#include <vector>

#include "core/diagnostic.h"

namespace portcheck {

// `failure_text`: the compile's log and exception text. Returns true when the trap was seen.
bool addNanobindTrapHints(std::vector<Diagnostic>& diagnostics, std::string_view failure_text);

}  // namespace portcheck
