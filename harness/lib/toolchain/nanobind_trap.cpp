#include "toolchain/nanobind_trap.h"

namespace portcheck {

bool isNanobindTileViewError(std::string_view text) {
  // nanobind: "TypeError: __init__(): incompatible function arguments. The following argument types are
  // supported: ... TileView ..."; the parser wraps it as "Failed to parse function '<f>': ...".
  if (text.find("__init__(): incompatible function arguments") == std::string_view::npos) return false;
  return text.find("TileView") != std::string_view::npos ||
         text.find("Failed to parse function") != std::string_view::npos;
}

std::string nanobindTrapFix(const std::string& python) {
  return "PyPTO's native module was built against nanobind >= 3, which rejects the `ir.TileView()` pypto's "
         "parser makes: rebuild it against nanobind 2 (`" + python + " -m pip install 'nanobind>=2,<3'`, then "
         "rebuild and reinstall the PyPTO checkout with `--no-build-isolation` so the build uses that "
         "nanobind)";
}

}  // namespace portcheck
